import { makeStyles, tokens } from "@fluentui/react-components";

/** The Settings view's layout, one set for all its parts so a form looks the same wherever it sits. */
export const useSettingsStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXL },
  section: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  heading: { margin: 0, display: "flex", alignItems: "center", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  buttons: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap", alignItems: "center" },
  form: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
});
