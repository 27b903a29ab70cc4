/**
 * What Excel can hold, and arbitrary values of the kinds Excel hands a custom
 * function: the vocabulary of the property tests.
 */
import fc from "fast-check";
import type { CellValue } from "../../src/core/cell";

const ERROR_CODES = new Set(["#N/A", "#VALUE!", "#DIV/0!", "#NUM!"]);
/** Excel's limit on the characters in one cell. */
export const EXCEL_CELL_TEXT_LIMIT = 32_767;

/** Why a cell cannot go into Excel, or null when it can: a finite number, text within the cell limit, a boolean, or the core's error cell. */
export function unholdable(cell: unknown): string | null {
  if (typeof cell === "number") return Number.isFinite(cell) ? null : `the number ${cell}`;
  if (typeof cell === "string")
    return cell.length <= EXCEL_CELL_TEXT_LIMIT
      ? null
      : `text of ${cell.length} characters (Excel holds ${EXCEL_CELL_TEXT_LIMIT})`;
  if (typeof cell === "boolean") return null;
  if (typeof cell === "object" && cell !== null) {
    const { error, message } = cell as { error?: unknown; message?: unknown };
    if (
      typeof error === "string" &&
      ERROR_CODES.has(error) &&
      typeof message === "string" &&
      Object.keys(cell).length === 2
    )
      return null;
  }
  return `the value ${String(cell)} (${typeof cell})`;
}

/** Why a result is not a table Excel can spill, or null: a non-empty array of equally long non-empty rows of holdable cells. */
export function notATable(table: unknown): string | null {
  if (!Array.isArray(table) || table.length === 0) return "not a non-empty array of rows";
  const width = Array.isArray(table[0]) ? table[0].length : -1;
  if (width < 1) return "the first row is not a non-empty array";
  for (let r = 0; r < table.length; r++) {
    const row: unknown = table[r];
    if (!Array.isArray(row) || row.length !== width) return `row ${r} is not ${width} cells wide`;
    for (let c = 0; c < width; c++) {
      const why = unholdable(row[c]);
      if (why) return `cell [${r}][${c}] is ${why}`;
    }
  }
  return null;
}

export function isCellValue(value: unknown): value is CellValue {
  return unholdable(value) === null;
}

/** Text that looks like what users type: symbols, metrics, keywords, dates, relative dates, lists, padding. */
const WORDS = [
  "eth",
  "BTC",
  "eq-aapl",
  "usdc-eth",
  "PRICE",
  "fees",
  "L30_FEES",
  "TODAY",
  "today ",
  "-30D",
  "-12w",
  "-6M",
  "-2Q",
  "-1Y",
  "-99999Y",
  "-0D",
  "+5D",
  "7D",
  "MTD",
  "LTM",
  "2024-02-29",
  "2023-02-29",
  "1900-01-01",
  "1899-12-31",
  "1900-02-29",
  "9999-12-31",
  "0000-01-01",
  "2024-13-01",
  "2024-1-1",
  "DAY",
  "q",
  "yearly",
  "SUM",
  "pct_change",
  "ALL",
  "inflow, outflow",
  "headers=false",
  "order=desc; last=3",
  "fill=na",
  "last=0",
  "last=1000001",
  "transpose=yes",
  "a=b=c",
  ",",
  ";",
  "=",
  " ",
  "",
  "\t",
  "\n",
  "__proto__",
  "constructor",
  "toString",
  "NaN",
  "1e309",
  "<script>",
  "\u202e",
  "😀",
];

export const typedText: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(",", ", ", ";", " ", "=")), { maxLength: 5 })
  .map((parts) => parts.join(""));

export const anyText: fc.Arbitrary<string> = fc.oneof(
  typedText,
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme-ascii", maxLength: 40 }),
);

/** Numbers Excel may pass: serials in and out of range, fractions, negatives, and the non-finite values a bug could leak. */
export const anyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -10, max: 3_000_000 }),
  fc.double({ min: 1, max: 2_958_466, noNaN: true }),
  fc.double(),
  fc.constantFrom(0, -0, 60, 59, 61, 2_958_465, 2_958_466, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity),
);

/** One cell as Excel passes it (an omitted argument is null). */
export const anyScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: anyText },
  { weight: 2, arbitrary: anyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
);

/** A range: rows of cells (Excel's are rectangular; ragged ones must not crash either). */
export const anyRange: fc.Arbitrary<unknown[][]> = fc.array(fc.array(anyScalar, { minLength: 0, maxLength: 4 }), {
  minLength: 0,
  maxLength: 4,
});

export const anyArgument: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: anyScalar },
  { weight: 1, arbitrary: anyRange },
);

/** An ISO date string from a day number (days since 1970-01-01), four-digit years only. */
export function isoOfDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** Days since 1970-01-01 of 1900-01-01 and of 9999-12-31: Excel's date range. */
export const EXCEL_FIRST_DAY = Date.UTC(1900, 0, 1) / 86_400_000;
export const EXCEL_LAST_DAY = Date.UTC(9999, 11, 31) / 86_400_000;

/** A real calendar date in Excel's range. */
export const excelIsoDate: fc.Arbitrary<string> = fc
  .integer({ min: EXCEL_FIRST_DAY, max: EXCEL_LAST_DAY })
  .map(isoOfDay);
