import { VISUALLY_HIDDEN } from "../shared/visually-hidden";
import { makeStyles, tokens } from "@fluentui/react-components";

/** The Artemis view's layout, one set for all its parts (as Settings has). */
export const useMigrateStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalL },
  section: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  heading: { margin: 0 },
  actions: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalS },
  list: { listStyleType: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column" },
  item: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalS} 0`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  formulas: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXXS,
    paddingLeft: tokens.spacingHorizontalXXL,
    minWidth: 0,
  },
  code: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: "anywhere",
    margin: 0,
  },
  before: { color: tokens.colorNeutralForeground3 },
  note: { color: tokens.colorNeutralForeground3 },
  address: { fontWeight: tokens.fontWeightSemibold },
  reason: { color: tokens.colorPaletteRedForeground1 },
  // Read by screen readers, not shown.
  hidden: VISUALLY_HIDDEN,
});
