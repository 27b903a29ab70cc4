import { makeStyles, tokens } from "@fluentui/react-components";

/** The function preview's look, one set for its parts (the preview, its value, its table). */
export const usePreviewStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    minHeight: "64px",
  },
  scroll: { overflowX: "auto", maxWidth: "100%" },
  // Scrolling: a visible bar, a focus ring, and an inner shadow on each side that hides columns.
  scrollable: {
    scrollbarWidth: "auto",
    scrollbarColor: `${tokens.colorNeutralStroke1} transparent`,
    borderRadius: tokens.borderRadiusMedium,
    ":focus-visible": { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`, outlineOffset: "2px" },
  },
  moreRight: { boxShadow: `inset -12px 0 8px -8px ${tokens.colorNeutralShadowAmbientDarker}` },
  moreLeft: { boxShadow: `inset 12px 0 8px -8px ${tokens.colorNeutralShadowAmbientDarker}` },
  moreBoth: {
    boxShadow: `inset 12px 0 8px -8px ${tokens.colorNeutralShadowAmbientDarker}, inset -12px 0 8px -8px ${tokens.colorNeutralShadowAmbientDarker}`,
  },
  caption: { textAlign: "left", position: "sticky", left: 0 },
  scrollBar: { display: "flex", flexWrap: "wrap", alignItems: "center", gap: tokens.spacingHorizontalS },
  scrollNote: { flexBasis: "100%" },
  table: { borderCollapse: "collapse", fontSize: tokens.fontSizeBase200, fontVariantNumeric: "tabular-nums" },
  cell: {
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    textAlign: "left",
    whiteSpace: "nowrap",
  },
  number: { textAlign: "right" },
  error: { color: tokens.colorPaletteRedForeground1 },
  value: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  // The service's words can be one unbroken run of characters: they wrap anywhere rather than widen the pane.
  message: { overflowWrap: "anywhere" },
});
