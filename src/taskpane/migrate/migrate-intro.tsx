import { Caption1, Subtitle2 } from "@fluentui/react-components";
import { useMigrateStyles } from "./migrate-styles";

/** What the view does, above everything else (also outside Excel). */
export function MigrateIntro() {
  const styles = useMigrateStyles();
  return (
    <section className={styles.section} aria-labelledby="migrate-heading">
      <Subtitle2 as="h2" id="migrate-heading" className={styles.heading}>
        Switch from Artemis Sheets
      </Subtitle2>
      <Caption1 as="p" className={styles.heading}>
        Every sheet&apos;s ART, ARTRANGE and ARTINFO formulas, each beside its MD formula. Choose the ones to convert;
        Undo conversion puts the originals back, except in cells edited since.
      </Caption1>
    </section>
  );
}
