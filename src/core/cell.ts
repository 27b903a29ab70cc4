/**
 * What one cell of a result holds, independent of Office. The Office layer
 * turns an ErrorCell into a CustomFunctions.Error; everything else passes
 * through as is. A blank cell is the empty string: Excel shows `null` inside a
 * spilled array as 0, which would read as a value.
 */
export type ErrorCellCode = "#N/A" | "#VALUE!" | "#DIV/0!" | "#NUM!" | "#NULL!";

export interface ErrorCell {
  error: ErrorCellCode;
  /** Shown in the cell's error tooltip. Excel keeps it only for #N/A and #VALUE!. */
  message: string;
}

export type CellValue = number | string | boolean | ErrorCell;

export const BLANK = "";

export function errorCell(error: ErrorCellCode, message: string): ErrorCell {
  return { error, message };
}

/**
 * A computed number as a cell. Arithmetic on finite readings can still leave
 * the finite range (a sum past 1.8e308, a change over a start near zero):
 * Excel holds no infinity or NaN, and the runtime would send one as null,
 * which the cell shows as 0. `what` names the value for the message.
 */
export function numberCell(value: number, what: string): CellValue {
  return Number.isFinite(value) ? value : errorCell("#NUM!", `${what} is outside the range of numbers Excel holds.`);
}

/** The most characters one Excel cell holds. */
export const EXCEL_TEXT_LIMIT = 32_767;

/** Service text as a cell: cut to what a cell holds, marked with an ellipsis, rather than failing the whole result. */
export function textCell(text: string): string {
  return text.length <= EXCEL_TEXT_LIMIT ? text : `${text.slice(0, EXCEL_TEXT_LIMIT - 1)}…`;
}

export function isErrorCell(value: unknown): value is ErrorCell {
  return typeof value === "object" && value !== null && typeof (value as ErrorCell).error === "string";
}
