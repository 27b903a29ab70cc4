/**
 * A1 addresses and the errors Office.js throws, as the stand-in's pieces
 * speak them: a cell ("B7", "$B$7"), a rectangle ("A1:C3"), whole columns
 * ("B:D"), a sheet prefix quoted when the name needs it ('My sheet'!A1).
 *
 * Errors are RichApi.Error objects with a `code` from Excel.ErrorCodes
 * (https://learn.microsoft.com/en-us/office/dev/add-ins/reference/javascript-api-for-office-error-codes):
 * InvalidArgument, ItemNotFound, ItemAlreadyExists, AccessDenied,
 * InvalidOperation, ApiNotFound, PropertyNotLoaded, GeneralException.
 */

/** Rows and columns from 0, both ends included. */
export interface Rect {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function officeError(code: string, message: string): Error {
  const error = new Error(message) as Error & { code: string };
  error.name = "RichApi.Error";
  error.code = code;
  return error;
}

export const colIndex = (letters: string) =>
  [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;

export const colLetters = (index: number) => {
  let s = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

export const key = (row: number, col: number) => `${colLetters(col)}${row + 1}`;

export const parseCell = (a: string) => {
  const m = /^\$?([A-Z]+)\$?(\d+)$/i.exec(a);
  if (!m) throw officeError("InvalidArgument", `The argument is invalid or missing or has an incorrect format: ${a}`);
  return { row: Number(m[2]) - 1, col: colIndex(m[1]) };
};

export const parseRect = (address: string): Rect => {
  const local = address.slice(address.lastIndexOf("!") + 1);
  // A column range ("B:D"): every row of those columns.
  const columns = /^\$?([A-Z]+):\$?([A-Z]+)$/i.exec(local);
  if (columns) return { top: 0, left: colIndex(columns[1]), bottom: 1_048_575, right: colIndex(columns[2]) };
  const [a, b = a] = local.split(":");
  const p = parseCell(a);
  const q = parseCell(b);
  return {
    top: Math.min(p.row, q.row),
    left: Math.min(p.col, q.col),
    bottom: Math.max(p.row, q.row),
    right: Math.max(p.col, q.col),
  };
};

export const rectText = (r: Rect) =>
  r.top === r.bottom && r.left === r.right ? key(r.top, r.left) : `${key(r.top, r.left)}:${key(r.bottom, r.right)}`;

export const sheetPrefix = (name: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;

export const cellsIn = (r: Rect) => (r.bottom - r.top + 1) * (r.right - r.left + 1);

export const inside = (r: Rect, row: number, col: number) =>
  row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;

export const grid = <T>(r: Rect, f: (row: number, col: number) => T): T[][] => {
  const out: T[][] = [];
  for (let row = r.top; row <= r.bottom; row += 1) {
    const line: T[] = [];
    for (let col = r.left; col <= r.right; col += 1) line.push(f(row, col));
    out.push(line);
  }
  return out;
};

/** The smallest rectangle holding `r` (if any) and the cell. */
export const extend = (r: Rect | null, row: number, col: number): Rect =>
  r
    ? {
        top: Math.min(r.top, row),
        left: Math.min(r.left, col),
        bottom: Math.max(r.bottom, row),
        right: Math.max(r.right, col),
      }
    : { top: row, left: col, bottom: row, right: col };
