import { makeStyles, tokens } from "@fluentui/react-components";

/** The Refresh section's layout, one set for its parts. */
export const useRefreshStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  buttons: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap", alignItems: "center" },
  failures: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
});
