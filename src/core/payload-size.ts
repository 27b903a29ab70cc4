/**
 * Excel refuses a custom function's result larger than 5 MB, and the failure
 * it shows then says nothing useful. We estimate the serialized size first and
 * refuse with advice instead. The estimate follows JSON text (the runtime sends
 * results to Excel as JSON): numbers by their digits, strings by length.
 * These are the plain cells; a formatted number travels as a data-type object
 * several times larger, which the Office edge adds before sending
 * (src/office/cells/cell-values.ts, `toExcelValuesWithinLimit`).
 */
import { type CellValue } from "./cell";
import { ResultTooLargeError } from "./errors";

export const EXCEL_RESULT_LIMIT_BYTES = 5 * 1024 * 1024;

/** A worksheet's size (Excel specifications and limits): a spilled result cannot be larger. */
export const EXCEL_MAX_ROWS = 1_048_576;
export const EXCEL_MAX_COLUMNS = 16_384;

/** Approximate serialized bytes of one cell, separator included. */
export function estimateCellBytes(cell: CellValue): number {
  switch (typeof cell) {
    case "number":
      return isShortInteger(cell) ? integerDigits(cell) + 1 : String(cell).length + 1;
    case "string":
      return cell.length + 3;
    case "boolean":
      return 6;
    default:
      return cell.message.length + cell.error.length + 24;
  }
}

function isShortInteger(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) < 1e15;
}

function integerDigits(value: number): number {
  const magnitude = Math.abs(value);
  return (magnitude < 10 ? 1 : Math.floor(Math.log10(magnitude)) + 1) + (value < 0 ? 1 : 0);
}

/** Fractional numbers measured exactly before sampling starts, then one in SAMPLE_STRIDE. */
const EXACT_FRACTIONS = 512;
const SAMPLE_STRIDE = 64;

/**
 * Approximate serialized bytes of a table. Integers (serial dates, counts) are
 * sized by their digits; fractional values print anywhere from 3 to 20
 * characters (2553.26 or 0.30000000000000004), so their length is measured,
 * on a sample once there are many: formatting every one of 250,000 numbers
 * would cost as much as building the table.
 */
export function estimatePayloadBytes(table: readonly (readonly CellValue[])[]): number {
  let bytes = 2;
  let fractions = 0;
  let sampled = 0;
  let sampledBytes = 0;
  for (const row of table) {
    bytes += 3;
    for (const cell of row) {
      if (typeof cell === "number" && !isShortInteger(cell)) {
        if (fractions < EXACT_FRACTIONS || fractions % SAMPLE_STRIDE === 0) {
          sampledBytes += String(cell).length + 1;
          sampled++;
        }
        fractions++;
      } else {
        bytes += estimateCellBytes(cell);
      }
    }
  }
  return bytes + (sampled === 0 ? 0 : Math.ceil((sampledBytes / sampled) * fractions));
}

/**
 * Refuses before a huge table is even requested or built. Three bytes a cell is
 * a floor, not an estimate: a blank costs three (`"",`) and market values far
 * more, so a table refused here could never fit.
 */
export function assertShapeFitsExcel(rows: number, columns: number, advice: string): void {
  refuseBeyondSheet(rows, columns, advice);
  assertBytesFitExcel(rows * columns * 3, rows, columns, advice);
}

export function assertFitsExcel(table: readonly (readonly CellValue[])[], advice: string): void {
  refuseBeyondSheet(table.length, table[0]?.length ?? 0, advice);
  assertBytesFitExcel(estimatePayloadBytes(table), table.length, table[0]?.length ?? 0, advice);
}

/** A spill cannot be wider or taller than a worksheet, whatever its size in bytes. */
function refuseBeyondSheet(rows: number, columns: number, advice: string): void {
  const count = (n: number) => n.toLocaleString("en-US");
  if (columns > EXCEL_MAX_COLUMNS) {
    throw new ResultTooLargeError(
      `The result would be ${count(columns)} columns wide, more than a worksheet's ${count(EXCEL_MAX_COLUMNS)}. ${advice}`,
    );
  }
  if (rows > EXCEL_MAX_ROWS) {
    throw new ResultTooLargeError(
      `The result would be ${count(rows)} rows tall, more than a worksheet's ${count(EXCEL_MAX_ROWS)}. ${advice}`,
    );
  }
}

/** Refuses a result whose size in bytes (estimated, or measured as sent) is over the limit, stating the size. */
export function assertBytesFitExcel(bytes: number, rows: number, columns: number, advice: string): void {
  if (bytes <= EXCEL_RESULT_LIMIT_BYTES) return;
  throw new ResultTooLargeError(
    `The result would be about ${megabytesText(bytes)} (${rows.toLocaleString("en-US")} rows × ${columns.toLocaleString("en-US")} columns), over Excel's 5 MB limit for one formula. ${advice}`,
  );
}

/** A size as the messages say it: "6.3 MB". */
export function megabytesText(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
