/** The asset's colour from the catalog, decorative only (the title says which asset it is). */
import { makeStyles, tokens } from "@fluentui/react-components";

const HEX = /^#[0-9a-f]{6}$/i;

/** The catalog promises #RRGGBB; anything else is not passed to CSS. */
export function swatchColor(color: string | null | undefined): string | null {
  return color && HEX.test(color.trim()) ? color.trim() : null;
}

const useStyles = makeStyles({
  swatch: {
    display: "inline-block",
    flexShrink: 0,
    width: "12px",
    height: "12px",
    borderRadius: tokens.borderRadiusCircular,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground3,
  },
});

export function ColorSwatch({ color }: { color: string | null | undefined }) {
  const styles = useStyles();
  const valid = swatchColor(color);
  return (
    <span
      aria-hidden="true"
      className={styles.swatch}
      data-color={valid ?? ""}
      style={valid ? { backgroundColor: valid } : undefined}
    />
  );
}
