/**
 * Excel refuses a custom function's result larger than 5 MB, and the failure
 * it shows then says nothing useful. We estimate the serialized size first and
 * refuse with advice instead. The estimate follows JSON text (the runtime sends
 * results to Excel as JSON): numbers by their digits, strings by length.
 */
import { type CellValue } from "./cell";
import { ResultTooLargeError } from "./errors";

export const EXCEL_RESULT_LIMIT_BYTES = 5 * 1024 * 1024;

/** Approximate serialized bytes of one cell, separator included. */
export function estimateCellBytes(cell: CellValue): number {
  switch (typeof cell) {
    case "number":
      // Integers (serial dates, counts) print their digits; other numbers up to 17 significant digits.
      return Number.isInteger(cell) && Math.abs(cell) < 1e15 ? integerDigits(cell) + 1 : 20;
    case "string":
      return cell.length + 3;
    case "boolean":
      return 6;
    default:
      return cell.message.length + cell.error.length + 24;
  }
}

function integerDigits(value: number): number {
  const magnitude = Math.abs(value);
  return (magnitude < 10 ? 1 : Math.floor(Math.log10(magnitude)) + 1) + (value < 0 ? 1 : 0);
}

export function estimatePayloadBytes(table: readonly (readonly CellValue[])[]): number {
  let bytes = 2;
  for (const row of table) {
    bytes += 3;
    for (const cell of row) bytes += estimateCellBytes(cell);
  }
  return bytes;
}

/**
 * Refuses before a huge table is even requested or built. Three bytes a cell is
 * a floor, not an estimate: a blank costs three (`"",`) and market values far
 * more, so a table refused here could never fit.
 */
export function assertShapeFitsExcel(rows: number, columns: number, advice: string): void {
  refuseOver(rows * columns * 3, rows, columns, advice);
}

export function assertFitsExcel(table: readonly (readonly CellValue[])[], advice: string): void {
  refuseOver(estimatePayloadBytes(table), table.length, table[0]?.length ?? 0, advice);
}

function refuseOver(bytes: number, rows: number, columns: number, advice: string): void {
  if (bytes <= EXCEL_RESULT_LIMIT_BYTES) return;
  const megabytes = (bytes / (1024 * 1024)).toFixed(1);
  throw new ResultTooLargeError(
    `The result would be about ${megabytes} MB (${rows.toLocaleString("en-US")} rows × ${columns.toLocaleString("en-US")} columns), over Excel's 5 MB limit for one formula. ${advice}`,
  );
}
