/**
 * What changed on Refresh all: the MD cells whose value changed (old → new,
 * and by how much for numbers) and the cells that became errors. The values
 * before are the ones the refresh's scan read anyway (`Range.values` beside
 * `Range.formulas`: workbook-adapter.ts FormulaReading), the values after the
 * ones it reads to report errors, so this costs no extra batch and no request.
 * History values a recheck revised are the client's to tell (the pane joins
 * them from the call records, src/office/cell-trace.ts).
 */

export interface CellChange {
  sheet: string;
  address: string;
  was: unknown;
  now: unknown;
  /** now − was, for two numbers. */
  by?: number;
  /** The cell shows an error now and did not before. */
  error?: true;
}

/** The changes of one refresh, as the pane keeps them. */
export interface RefreshChanges {
  /** When the refresh started, ms since the epoch (history revised since then belongs to it). */
  startedAt: number;
  cells: CellChange[];
  /** More cells changed than are listed. */
  more?: number;
}

/** Cells listed at most; a refresh that changes more says how many more. */
export const MAX_CHANGES_LISTED = 500;

const ERROR_VALUE =
  /^#(N\/A|VALUE!|REF!|DIV\/0!|NUM!|NAME\?|NULL!|SPILL!|CALC!|FIELD!|CONNECT!|BLOCKED!|UNKNOWN!|BUSY!)$/i;

/** What `Range.values` reads for an error: its code ("#N/A"). */
export function isErrorValue(value: unknown): boolean {
  return typeof value === "string" && ERROR_VALUE.test(value);
}

/** The change of one cell, or null when it shows what it showed (an error still an error is no change). */
export function cellChange(
  sheet: string,
  address: string,
  was: unknown,
  now: unknown,
  nowIsError: boolean,
): CellChange | null {
  if (Object.is(was, now) || was === now) return null;
  if (nowIsError) return isErrorValue(was) ? null : { sheet, address, was, now, error: true };
  const change: CellChange = { sheet, address, was, now };
  if (typeof was === "number" && typeof now === "number") change.by = now - was;
  return change;
}
