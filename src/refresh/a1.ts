/**
 * A1 addresses on one sheet, 0-based inside. Excel hands back addresses with a
 * sheet prefix ("'Q1 comps'!B2:D9"); everything here works on the part after
 * the last "!", since a sheet name may contain "!" but an A1 address may not.
 */

export interface CellPosition {
  row: number;
  col: number;
}

/** An inclusive rectangle of cells. */
export interface Rect {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;

export function columnIndex(letters: string): number {
  let index = 0;
  for (const ch of letters.toUpperCase()) index = index * 26 + (ch.charCodeAt(0) - 64);
  return index - 1;
}

export function columnLetters(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** "Sheet1!B2:D4" → "B2:D4"; an address without a sheet is returned unchanged. */
export function withoutSheet(address: string): string {
  const bang = address.lastIndexOf("!");
  return bang >= 0 ? address.slice(bang + 1) : address;
}

export function parseCell(address: string): CellPosition {
  const match = CELL.exec(address.trim());
  if (!match) throw new Error(`"${address}" is not a cell address like B2.`);
  return { row: Number(match[2]) - 1, col: columnIndex(match[1]) };
}

/** "B2:D4", "B2", or either with a sheet prefix. Whole-row/column forms (A:A, 1:1) are not used by this feature. */
export function parseRange(address: string): Rect {
  const [first, second = first] = withoutSheet(address).split(":");
  const a = parseCell(first);
  const b = parseCell(second);
  return {
    top: Math.min(a.row, b.row),
    left: Math.min(a.col, b.col),
    bottom: Math.max(a.row, b.row),
    right: Math.max(a.col, b.col),
  };
}

export function cellAddress(row: number, col: number): string {
  return `${columnLetters(col)}${row + 1}`;
}

export function rectAddress(rect: Rect): string {
  const topLeft = cellAddress(rect.top, rect.left);
  return rect.top === rect.bottom && rect.left === rect.right
    ? topLeft
    : `${topLeft}:${cellAddress(rect.bottom, rect.right)}`;
}

export function rectOfSize(top: number, left: number, rows: number, cols: number): Rect {
  return { top, left, bottom: top + Math.max(rows, 1) - 1, right: left + Math.max(cols, 1) - 1 };
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
}

/** Every cell of a range, row by row: "B2:C3" → B2, C2, B3, C3. */
export function cellsOf(address: string): string[] {
  const rect = parseRange(address);
  const cells: string[] = [];
  for (let row = rect.top; row <= rect.bottom; row += 1) {
    for (let col = rect.left; col <= rect.right; col += 1) cells.push(cellAddress(row, col));
  }
  return cells;
}

export function cellCount(rect: Rect): number {
  return (rect.bottom - rect.top + 1) * (rect.right - rect.left + 1);
}

/**
 * Splits a rectangle into bands of whole rows holding at most `maxCells` cells
 * each (at least one row), so a big sheet is read in pieces that stay under
 * Excel's per-request payload limit.
 */
export function rowBands(rect: Rect, maxCells: number): Rect[] {
  const width = rect.right - rect.left + 1;
  const rowsPerBand = Math.max(1, Math.floor(maxCells / width));
  const bands: Rect[] = [];
  for (let top = rect.top; top <= rect.bottom; top += rowsPerBand) {
    bands.push({ top, left: rect.left, bottom: Math.min(rect.bottom, top + rowsPerBand - 1), right: rect.right });
  }
  return bands;
}

/** Excel's way of naming a cell on a sheet: quotes when the name is not a plain word, doubled quotes inside. */
export function qualifiedAddress(sheet: string, address: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) && !/^[A-Za-z]{1,3}\d+$/.test(sheet);
  return `${plain ? sheet : `'${sheet.replace(/'/g, "''")}'`}!${address}`;
}
