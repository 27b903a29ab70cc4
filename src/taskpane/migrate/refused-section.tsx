/** "Cannot convert": the Artemis formulas that stay as they are, each with the reason. */
import { Body1, Caption1, mergeClasses, Subtitle2 } from "@fluentui/react-components";
import { useMigrateStyles } from "./migrate-styles";
import type { Row } from "./use-artemis-scan";

export function RefusedSection({ refused }: { refused: readonly Row[] }) {
  const styles = useMigrateStyles();
  return (
    <section className={styles.section} aria-labelledby="migrate-refused-heading">
      <Subtitle2 as="h2" id="migrate-refused-heading" className={styles.heading}>
        Cannot convert ({refused.length})
      </Subtitle2>
      <Caption1 as="p" className={styles.heading}>
        These stay as they are.
      </Caption1>
      <ul className={styles.list} aria-label="Formulas that cannot be converted">
        {refused.map((row) => (
          <li key={row.key} className={styles.item} data-testid="migrate-refused">
            <span className={styles.address}>{row.key}</span>
            <div className={styles.formulas}>
              <p className={mergeClasses(styles.code, styles.before)}>{row.formula}</p>
              <Body1 as="p" className={mergeClasses(styles.reason, styles.heading)} data-testid="migrate-reason">
                {row.reason}
              </Body1>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
