/**
 * Excel.RangeFormat (https://learn.microsoft.com/en-us/javascript/api/excel/excel.rangeformat)
 * and Excel.RangeFont (https://learn.microsoft.com/en-us/javascript/api/excel/excel.rangefont):
 * `columnWidth` (ExcelApi 1.2, points) on a column range ("B:D") and `bold`
 * (1.1) are recorded per column and per cell, written at sync; a protected
 * sheet refuses them. (A cell's number format is the range's own
 * `numberFormat`, in range.ts.)
 */
import { colLetters, key, type Rect } from "./addresses";
import { guardWrite } from "./cell-entry";
import type { Sheet } from "./model";
import { type Context, needs } from "./request-context";

/** `Range.format`: `columnWidth` (points, whole columns) and `font.bold`, written at sync; a protected sheet refuses them. */
export function makeRangeFormat(context: Context, sheet: Sheet, rect: () => Rect): Record<string, unknown> {
  const m = context.model;
  const format: Record<string, unknown> = {};
  Object.defineProperty(format, "columnWidth", {
    set: (width: number) =>
      needs(context, "RangeFormat.columnWidth", "1.2", () => {
        const r = rect();
        guardWrite(m, sheet, r);
        sheet.columnWidths ??= new Map();
        for (let col = r.left; col <= r.right; col += 1) sheet.columnWidths.set(colLetters(col), Number(width));
      }),
  });
  const font: Record<string, unknown> = {};
  Object.defineProperty(font, "bold", {
    set: (bold: boolean) =>
      context.queue.push(() => {
        const r = rect();
        guardWrite(m, sheet, r);
        sheet.bold ??= new Set();
        for (let row = r.top; row <= r.bottom; row += 1)
          for (let col = r.left; col <= r.right; col += 1) {
            if (bold) sheet.bold.add(key(row, col));
            else sheet.bold.delete(key(row, col));
          }
      }),
  });
  format.font = font;
  return format;
}
