/**
 * "Insert" for every view: write into the sheet when there is one, copy
 * otherwise, and always end with a sentence the user can act on.
 */
import { formulaForLocale } from "../../core/formula-locale";
import { errorText } from "./error-text";
import type { ChartTableShape, WorkbookActions } from "../../office/workbook/pane-workbook";

export type PlaceOutcome =
  | { kind: "inserted"; address: string; message: string }
  | { kind: "copied"; message: string }
  | { kind: "failed"; message: string };

export const OUTSIDE_EXCEL_COPIED = "Open this pane in Excel to insert formulas — formula copied instead.";
export const OUTSIDE_EXCEL_NOT_COPIED =
  "Open this pane in Excel to insert formulas. Copying was blocked too: select the formula text and press Ctrl+C.";

/** What is copied: the formula in the form a paste into this Excel (or this machine's) reads. */
async function pastable(formula: string, workbook: WorkbookActions): Promise<string> {
  const separator = workbook.decimalSeparator ? await workbook.decimalSeparator().catch(() => ".") : ".";
  return formulaForLocale(formula, separator);
}

export async function placeFormula(
  formula: string,
  workbook: WorkbookActions,
  copy: (text: string) => Promise<boolean>,
  chart?: ChartTableShape,
): Promise<PlaceOutcome> {
  if (!workbook.canInsert) {
    return (await copy(await pastable(formula, workbook)))
      ? { kind: "copied", message: OUTSIDE_EXCEL_COPIED }
      : { kind: "failed", message: OUTSIDE_EXCEL_NOT_COPIED };
  }
  try {
    if (chart) {
      const { address } = await workbook.insertWithChart(formula, chart);
      return { kind: "inserted", address, message: `Inserted into ${address}, with a line chart beside the table.` };
    }
    const { address } = await workbook.insertFormula(formula);
    return { kind: "inserted", address, message: `Inserted into ${address}.` };
  } catch (error) {
    const reason = errorText(error);
    // Excel refuses writes while a cell is being edited; the copy keeps the user moving.
    return (await copy(await pastable(formula, workbook)))
      ? { kind: "copied", message: `Excel did not accept the formula (${reason}). Formula copied instead.` }
      : { kind: "failed", message: `Excel did not accept the formula (${reason}).` };
  }
}

/**
 * Copies the formula as this Excel reads a paste: with ";" between arguments
 * where "," is the decimal separator (the API writes English formulas; a paste
 * is read in the local form).
 */
export async function copyFormula(
  formula: string,
  copy: (text: string) => Promise<boolean>,
  workbook?: WorkbookActions,
): Promise<PlaceOutcome> {
  const text = workbook ? await pastable(formula, workbook) : formula;
  if (!(await copy(text)))
    return { kind: "failed", message: "Copying was blocked: select the formula text and press Ctrl+C." };
  return text === formula
    ? { kind: "copied", message: "Formula copied." }
    : { kind: "copied", message: "Formula copied, with ; between arguments as your Excel's settings expect." };
}
