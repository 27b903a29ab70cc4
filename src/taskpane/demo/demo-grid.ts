/** The demo grid's contents: the shown part of a sheet's used range, cell by cell, as text. */
import type { WorkbookStandIn } from "../../../harness/workbook-stand-in";

/** At most this much of a sheet is drawn; a larger used range says what is shown. */
export const GRID_LIMIT = { rows: 40, columns: 12 };

export interface GridCell {
  address: string;
  shown: string;
  formula: string | null;
  /** The cell holds part of a dynamic array's result, not its formula. */
  spilled: boolean;
}

export interface Grid {
  columns: string[];
  rows: { number: number; cells: GridCell[] }[];
  used: string | null;
  shown: string;
  clipped: boolean;
}

const letters = (index: number): string =>
  index < 26 ? String.fromCharCode(65 + index) : letters(Math.floor(index / 26) - 1) + letters(index % 26);

/** A value as a cell of the grid shows it: numbers to at most 6 decimals, TRUE/FALSE, text as is. */
export function shownValue(value: unknown): string {
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value === null || value === undefined) return "";
  return String(value);
}

/** The grid from A1 to the used range's far corner (within GRID_LIMIT); an empty sheet shows A1:C3. */
export function gridOf(standIn: WorkbookStandIn, sheet: string): Grid {
  const used = standIn.usedRange(sheet);
  const corner = /([A-Z]+)(\d+)$/.exec(used ?? "C3")!;
  const lastColumn = [...corner[1]].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
  const lastRow = Number(corner[2]);
  const columnCount = Math.min(Math.max(lastColumn, 3), GRID_LIMIT.columns);
  const rowCount = Math.min(Math.max(lastRow, 3), GRID_LIMIT.rows);
  const columns = Array.from({ length: columnCount }, (_, i) => letters(i));
  const rows = Array.from({ length: rowCount }, (_, r) => ({
    number: r + 1,
    cells: columns.map((column) => {
      const address = `${column}${r + 1}`;
      const cell = standIn.cell(sheet, address);
      const anchor = standIn.spillOf(sheet, address);
      const formula = anchor ? `spilled from ${anchor}: ${standIn.cell(sheet, anchor).formula}` : cell.formula;
      return { address, shown: shownValue(cell.value), formula, spilled: anchor !== null };
    }),
  }));
  return {
    columns,
    rows,
    used,
    shown: `A1:${columns[columns.length - 1]}${rowCount}`,
    clipped: lastColumn > columnCount || lastRow > rowCount,
  };
}
