/**
 * What changed on Refresh all: the MD cells whose value changed (old → new,
 * and by how much for numbers) and the cells that became errors. The values
 * before are the ones the refresh's scan read anyway (`Range.values` beside
 * `Range.formulas`: workbook-adapter.ts FormulaReading), the values after the
 * ones it reads to report errors, so this costs no extra batch and no request.
 * History values a recheck revised are the client's to tell (the pane joins
 * them from the call records, src/office/cell-trace.ts). A spilled table's
 * cells are compared from one read of its spill before the refresh and one
 * after (spill-changes.ts), by the key in its first column where it has one.
 */
import { cellAddress } from "./a1";

export interface CellChange {
  sheet: string;
  address: string;
  was: unknown;
  now: unknown;
  /** now − was, for two numbers. */
  by?: number;
  /** The cell shows an error now and did not before. */
  error?: true;
  /** A cell of a spilled table: the table's anchor (the cell holding its formula), on the same sheet. */
  table?: string;
}

/** What changed in one spilled table: cells whose value changed (all of them, listed or not), rows in and out. */
export interface TableChange {
  sheet: string;
  anchor: string;
  changed: number;
  /** Rows whose first-column key (a date, a symbol) is new, and keys no longer there. */
  rowsIn: number;
  rowsOut: number;
}

/** The changes of one refresh, as the pane keeps them. */
export interface RefreshChanges {
  /** When the refresh started, ms since the epoch (history revised since then belongs to it). */
  startedAt: number;
  cells: CellChange[];
  /** More cells changed than are listed. */
  more?: number;
  /** The spilled tables that changed (their cells listed up to MAX_CHANGES_PER_TABLE each). */
  tables?: TableChange[];
}

/** Cells listed at most; a refresh that changes more says how many more. */
export const MAX_CHANGES_LISTED = 500;
/** Cells listed at most per spilled table (a year of history that all moved would flood the list). */
export const MAX_CHANGES_PER_TABLE = 20;

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

/** The row of each key in a table's first column below its header, or null when the column cannot key its rows. */
function rowsByKey(values: readonly (readonly unknown[])[]): Map<string, number> | null {
  const keys = new Map<string, number>();
  for (let r = 1; r < values.length; r++) {
    const key = values[r]?.[0];
    if ((typeof key !== "string" && typeof key !== "number") || key === "" || keys.has(String(key))) return null;
    keys.set(String(key), r);
  }
  return keys;
}

/** A header row: text in every cell, no two alike. */
function headerOf(values: readonly (readonly unknown[])[]): string[] | null {
  const first = values[0];
  if (!first?.length || !first.every((v) => typeof v === "string" && v !== "")) return null;
  const names = first as string[];
  return new Set(names).size === names.length ? names : null;
}

/**
 * What changed in a spilled table between its values `before` and `after` (whole spills, anchored at `anchor`).
 * Where both have a header row and a first column that keys each row (MD.SERIES's dates, MD.SNAPSHOT's symbols),
 * a value is compared with the one of the same key and header before, wherever the row sits now: a window that
 * moved on a day is one row in and one out, not every cell changed. Otherwise cell by cell, where both hold one.
 * The anchor cell itself is the refresh's own comparison. Every changed cell is counted; `cells` lists them all
 * (the caller keeps the first MAX_CHANGES_PER_TABLE).
 */
export function tableChanges(
  sheet: string,
  anchor: { address: string; top: number; left: number },
  before: readonly (readonly unknown[])[],
  after: readonly (readonly unknown[])[],
): { cells: CellChange[]; summary: TableChange } {
  const cells: CellChange[] = [];
  const summary: TableChange = { sheet, anchor: anchor.address, changed: 0, rowsIn: 0, rowsOut: 0 };
  const note = (r: number, c: number, was: unknown, now: unknown) => {
    if (r === 0 && c === 0) return;
    const change = cellChange(sheet, cellAddress(anchor.top + r, anchor.left + c), was, now, isErrorValue(now));
    if (!change) return;
    change.table = anchor.address;
    cells.push(change);
  };
  const headerBefore = headerOf(before);
  const headerAfter = headerOf(after);
  const keysBefore = headerBefore && rowsByKey(before);
  const keysAfter = headerAfter && rowsByKey(after);
  if (headerBefore && headerAfter && keysBefore && keysAfter) {
    const columnBefore = new Map(headerBefore.map((name, c) => [name, c]));
    for (const [key, r] of keysAfter) {
      const rb = keysBefore.get(key);
      if (rb === undefined) {
        summary.rowsIn += 1;
        continue;
      }
      headerAfter.forEach((name, c) => {
        const cb = columnBefore.get(name);
        if (c > 0 && cb !== undefined) note(r, c, before[rb]![cb], after[r]![c]);
      });
    }
    for (const key of keysBefore.keys()) if (!keysAfter.has(key)) summary.rowsOut += 1;
  } else {
    for (let r = 0; r < Math.min(before.length, after.length); r++)
      for (let c = 0; c < Math.min(before[r]!.length, after[r]!.length); c++) note(r, c, before[r]![c], after[r]![c]);
    summary.rowsIn = Math.max(0, after.length - before.length);
    summary.rowsOut = Math.max(0, before.length - after.length);
  }
  summary.changed = cells.length;
  return { cells, summary };
}
