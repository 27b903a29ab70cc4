import { makeStyles, tokens } from "@fluentui/react-components";
import { VISUALLY_HIDDEN } from "../shared/visually-hidden";

/** The Insights view's layout, one set for all its parts. */
export const useInsightsStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  heading: { margin: 0 },
  loading: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  loadingRow: {
    display: "flex",
    justifyContent: "space-between",
    alignItems: "center",
    gap: tokens.spacingHorizontalS,
  },
  filters: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  // Horizontal radio groups wrap in a narrow pane instead of running past its edge.
  radios: { flexWrap: "wrap" },
  list: {
    listStyle: "none",
    margin: 0,
    padding: 0,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
  },
  // The skip link: out of sight until it has focus (a keyboard user meets it before the cards).
  skip: {
    ...VISUALLY_HIDDEN,
    ":focus": {
      position: "static",
      width: "auto",
      height: "auto",
      overflow: "visible",
      clipPath: "none",
      alignSelf: "flex-start",
    },
  },
  end: { color: tokens.colorNeutralForeground3 },
});
