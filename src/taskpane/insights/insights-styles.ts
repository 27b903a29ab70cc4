import { makeStyles, tokens } from "@fluentui/react-components";

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
});
