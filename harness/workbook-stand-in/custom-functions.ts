/**
 * How Excel shows the custom functions of another Office add-in in a formula
 * (Microsoft Learn, "Custom functions naming guidelines",
 * https://learn.microsoft.com/en-us/office/dev/add-ins/excel/custom-functions-naming):
 * a function is called by its add-in's namespace and its name,
 * `=NAMESPACE.NAME(…)`.
 *
 * - Not loaded: while Excel does not know the add-in's functions (the add-in
 *   is not installed, failed to start, or is still loading) the formula reads
 *   `_xldudf_` and the function's id, the namespace's dot an underscore:
 *   "For Javascript Custom Functions, we by default save out with a different
 *   prefix `_xldudf`" (OfficeDev/Excel-Custom-Functions #108), and "the
 *   xldudf things will show in the cell before Excel parse the add-in's
 *   manifest … If the add-in launched fail … the CFs will remain as
 *   xldudf***" (office-js #3558); formulas saved that way read
 *   `=_xldudf_CX_GET(…)` for `CX.GET` (reported workbooks).
 * - Saved beside a COM add-in, the same formula may carry an external
 *   reference before it, `[2]!_xldudf_…` (office-js #2568): `linkPrefix`.
 * - Loaded: the formula reads as typed, `=NAMESPACE.NAME(…)`.
 */
import type { OtherAddIn } from "./types";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A formula as `Range.formulas` reads it, given the other add-ins the workbook's formulas call. */
export function shownWithOtherAddIns(formula: string, addIns: readonly OtherAddIn[] | undefined): string {
  let shown = formula;
  for (const addIn of addIns ?? []) {
    if (addIn.loaded) continue;
    const call = new RegExp(
      `(?<![A-Za-z0-9_.!])${escape(addIn.namespace)}\\.(${addIn.functions.map(escape).join("|")})(?=\\s*\\()`,
      "gi",
    );
    shown = shown.replace(
      call,
      (_, name: string) => `${addIn.linkPrefix ?? ""}_xldudf_${addIn.namespace.replace(/\./g, "_")}_${name}`,
    );
  }
  return shown;
}
