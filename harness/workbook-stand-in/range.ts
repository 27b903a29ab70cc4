/**
 * Excel.Range (https://learn.microsoft.com/en-us/javascript/api/excel/excel.range)
 * and Excel.RangeAreas (https://learn.microsoft.com/en-us/javascript/api/excel/excel.rangeareas):
 * values, formulas and number formats read and written, spills, special
 * cells, offsets, clearing. A range is a place (`locate`, found again at
 * every sync) on one sheet of the model.
 *
 * - `formulas` / `values` / `valueTypes` / `valuesAsJson` (1.16) read as
 *   data-types.ts says (an entity reads "#VALUE!", "Error" and itself);
 *   writes go through cell-entry.ts, `valuesAsJson` writes too.
 * - `numberFormat` (1.1) is the cell's own format, "General" unless set,
 *   which stays on the cell when its contents change; "a null input within
 *   two-dimensional array (for values, number-format, formula) is ignored in
 *   the update API" (Microsoft Learn, Excel JavaScript API, "null-input").
 * - `getSpecialCells(OrNullObject)("Formulas")` (ExcelApi 1.9): the cells
 *   holding formulas, as a RangeAreas. Whether Excel counts the cells a
 *   dynamic array spills into is not documented; by default they are
 *   included, the worst case for refresh.
 * - `getOffsetRange` / `getResizedRange` (1.1 / 1.2) name the cells beside.
 * - `clear("Contents")` empties the cells (a spill anchor's spill too) and
 *   keeps their formats; `clear("All")` resets the formats too.
 * - `select()` (1.1, "Selects the specified range in the Excel UI"): the
 *   range's sheet is shown and the selection raises DocumentSelectionChanged
 *   (model.ts selectCells).
 */
import { cellsIn, grid, key, officeError, parseCell, type Rect, rectText, sheetPrefix } from "./addresses";
import { calculateRect, markDirty, breakSpillAt, clearSpill } from "./calculation";
import { enterValue, guardWrite } from "./cell-entry";
import { asJson, basic, fromJson, isRich, typeOf } from "./data-types";
import {
  areasOf,
  type Cell,
  formulaOf,
  isFormulaCell,
  ownFormat,
  read,
  selectCells,
  type Sheet,
  supports,
} from "./model";
import { makeRangeFormat } from "./range-format";
import { collection, type Context, needs, proxy } from "./request-context";

/** One range: where it is, found again at each use; `rect` throws ItemNotFound when it is nowhere. */
interface Place {
  context: Context;
  sheet: Sheet;
  locate: () => Rect | null;
  rect: () => Rect;
}

export function makeRange(context: Context, sheet: Sheet, locate: () => Rect | null): Record<string, unknown> {
  const rect = () => {
    const r = locate();
    if (!r) throw officeError("ItemNotFound", "The range does not exist.");
    return r;
  };
  const at: Place = { context, sheet, locate, rect };
  context.countObject();
  return proxy(context, rangeProperties(at), { ...rangeSpills(at), ...rangeMethods(at) }, rangeWrites(at), () => {
    const r = locate();
    return r ? cellsIn(r) : 0;
  });
}

/** The properties a range loads. */
function rangeProperties({ context, sheet, locate }: Place): Record<string, () => unknown> {
  const m = context.model;
  const cells = <T>(f: (cell: Cell) => T) => {
    const r = locate();
    return r ? grid(r, (row, col) => f(read(sheet, row, col))) : null;
  };
  return {
    isNullObject: () => locate() === null,
    address: () => {
      const r = locate();
      return r ? `${sheetPrefix(sheet.name)}!${rectText(r)}` : null;
    },
    formulas: () => cells((cell) => formulaOf(m, sheet, cell)),
    values: () => cells((cell) => basic(cell.value)),
    valueTypes: () => cells((cell) => typeOf(cell.value)),
    valuesAsJson: () => {
      if (!supports(m, "ExcelApi", "1.16")) {
        m.log.unsupportedCalls.push("Range.valuesAsJson");
        throw officeError("ApiNotFound", `Range.valuesAsJson needs ExcelApi 1.16; this host has ${m.excelApi}.`);
      }
      return cells((cell) => asJson(cell.value));
    },
    numberFormat: () => {
      const r = locate();
      return r ? grid(r, (row, col) => ownFormat(sheet, key(row, col))) : null;
    },
  };
}

/**
 * The spill's range from its anchor, and the anchor from any cell of the spill. Excel.Range
 * getSpillingToRangeOrNullObject (ExcelApi 1.12): "Gets the range object containing the spill range when called
 * on an anchor cell. If the range isn't an anchor cell or the spill range can't be found, then this method returns
 * an object with its isNullObject property set to true" (Microsoft Learn, Excel.Range class).
 */
function rangeSpills({ context, sheet, locate, rect }: Place): Record<string, unknown> {
  return {
    getSpillingToRangeOrNullObject: () =>
      makeRange(context, sheet, () => {
        const r = rect();
        const cell = read(sheet, r.top, r.left);
        return cell.spill
          ? { top: r.top, left: r.left, bottom: r.top + cell.spill.rows - 1, right: r.left + cell.spill.cols - 1 }
          : null;
      }),
    getSpillParentOrNullObject: () =>
      makeRange(context, sheet, () => {
        const r = locate();
        if (!r || cellsIn(r) !== 1) return null;
        const cell = read(sheet, r.top, r.left);
        if (cell.spill) return r;
        if (!cell.spillOf) return null;
        const anchor = parseCell(cell.spillOf);
        return { top: anchor.row, left: anchor.col, bottom: anchor.row, right: anchor.col };
      }),
    getSpillParent: () =>
      makeRange(context, sheet, () => {
        const r = rect();
        if (cellsIn(r) !== 1) throw officeError("InvalidArgument", "getSpillParent works on one cell.");
        return r;
      }),
  };
}

/** Special cells, ranges beside this one, calculation, clearing, the sheet and the format. */
function rangeMethods(at: Place): Record<string, unknown> {
  const { context, sheet, locate, rect } = at;
  const m = context.model;
  return {
    getSpecialCellsOrNullObject: (type: string) => makeAreas(context, sheet, () => specialCells(at, type, locate())),
    getSpecialCells: (type: string) =>
      makeAreas(context, sheet, () => {
        const areas = specialCells(at, type, locate());
        if (areas.length === 0) throw officeError("ItemNotFound", "No cells were found.");
        return areas;
      }),
    getCell: (row: number, col: number) =>
      makeRange(context, sheet, () => {
        const r = rect();
        return { top: r.top + row, left: r.left + col, bottom: r.top + row, right: r.left + col };
      }),
    calculate: () => needs(context, "Range.calculate", "1.6", () => calculateRect(m, sheet, rect(), false)),
    setDirty: () => needs(context, "Range.setDirty", "1.9", () => markDirty(m, sheet, rect())),
    getOffsetRange: (rows: number, cols: number) =>
      makeRange(context, sheet, () => {
        const r = rect();
        return { top: r.top + rows, left: r.left + cols, bottom: r.bottom + rows, right: r.right + cols };
      }),
    getResizedRange: (rows: number, cols: number) =>
      makeRange(context, sheet, () => {
        const r = rect();
        return { top: r.top, left: r.left, bottom: r.bottom + rows, right: r.right + cols };
      }),
    clear: (applyTo?: string) => context.queue.push(() => clear(at, applyTo)),
    select: () =>
      context.queue.push(() => {
        m.activeSheet = sheet.name;
        selectCells(m, sheet.name, [rectText(rect())]);
      }),
    worksheet: context.worksheetOf(sheet),
    format: makeRangeFormat(context, sheet, rect),
    /** The stand-in's own: the A1 text of this range, for the chart log. */
    __rectText: () => rectText(rect()),
  };
}

function clear({ context, sheet, rect }: Place, applyTo: string | undefined): void {
  const r = rect();
  guardWrite(context.model, sheet, r);
  if (applyTo !== undefined && applyTo !== "Contents" && applyTo !== "All")
    throw officeError("InvalidArgument", `Not modelled: clear(${applyTo})`);
  for (let row = r.top; row <= r.bottom; row += 1)
    for (let col = r.left; col <= r.right; col += 1) {
      const address = key(row, col);
      if (applyTo !== "Contents") sheet.formats.delete(address);
      const cell = sheet.cells.get(address);
      if (!cell) continue;
      breakSpillAt(sheet, address);
      clearSpill(sheet, address);
      sheet.cells.delete(address);
    }
}

/** The properties a range writes (at sync). */
function rangeWrites({ context, sheet, rect }: Place): Record<string, (value: unknown) => void> {
  const m = context.model;
  const enterAll = (value: unknown) => {
    const r = rect();
    guardWrite(m, sheet, r);
    const rows = value as unknown[][];
    rows.forEach((line, i) => line.forEach((v, j) => enterValue(m, sheet, key(r.top + i, r.left + j), v)));
  };
  return {
    formulas: enterAll,
    values: enterAll,
    valuesAsJson: (value) => writeJson(context, sheet, rect(), value as unknown[][]),
    numberFormat: (value) => {
      const r = rect();
      guardWrite(m, sheet, r);
      const rows = value as unknown[][];
      rows.forEach((line, i) =>
        line.forEach((format, j) => {
          // "A null input within two-dimensional array (for values, number-format, formula) is ignored
          // in the update API" (Microsoft Learn, Excel JavaScript API, "null-input").
          if (format === null) return;
          m.log.formatWrites.push({ sheet: sheet.name, address: key(r.top + i, r.left + j), format: String(format) });
          sheet.formats.set(key(r.top + i, r.left + j), String(format));
        }),
      );
    },
  };
}

/**
 * `Range.valuesAsJson = …` (ExcelApi 1.16): each cell takes the data type
 * written (an entity stays an entity: its card, its properties for
 * `=A1.Price`), as Microsoft's samples create entity cards (data-types.ts).
 * `refuseDataTypeWrites` plays an Excel that refuses a data type written
 * (not documented to happen; the worst case for Freeze's text fallback).
 */
function writeJson(context: Context, sheet: Sheet, r: Rect, rows: unknown[][]): void {
  const m = context.model;
  if (!supports(m, "ExcelApi", "1.16")) {
    m.log.unsupportedCalls.push("Range.valuesAsJson");
    throw officeError("ApiNotFound", `Range.valuesAsJson needs ExcelApi 1.16; this host has ${m.excelApi}.`);
  }
  guardWrite(m, sheet, r);
  const refused = m.recording.refuseDataTypeWrites;
  if (refused && rows.some((line) => line.some((json) => isRich(json)))) throw officeError("InvalidArgument", refused);
  rows.forEach((line, i) =>
    line.forEach((json, j) => enterValue(m, sheet, key(r.top + i, r.left + j), fromJson(json))),
  );
}

function specialCells({ context, sheet }: Place, type: string, within: Rect | null): Rect[] {
  const m = context.model;
  if (!supports(m, "ExcelApi", "1.9")) {
    m.log.unsupportedCalls.push("Range.getSpecialCells");
    throw officeError("ApiNotFound", `Range.getSpecialCells needs ExcelApi 1.9; this host has ${m.excelApi}.`);
  }
  if (!within) return [];
  if (String(type).toLowerCase() !== "formulas") throw officeError("InvalidArgument", `Not modelled: ${type}`);
  return areasOf(sheet, within, (cell) => isFormulaCell(m, cell));
}

/** Excel.RangeAreas: the areas `locate` finds (special cells), each a range. */
export function makeAreas(context: Context, sheet: Sheet, locate: () => Rect[]): Record<string, unknown> {
  const m = context.model;
  const areas = () => locate();
  context.countObject();
  return proxy(
    context,
    {
      isNullObject: () => areas().length === 0,
      areaCount: () => areas().length,
      cellCount: () => areas().reduce((n, r) => n + cellsIn(r), 0),
      address: () =>
        areas()
          .map((r) => `${sheetPrefix(sheet.name)}!${rectText(r)}`)
          .join(", "),
    },
    {
      areas: collection(context, () => areas().map((r) => makeRange(context, sheet, () => r))),
      calculate: () =>
        needs(context, "RangeAreas.calculate", "1.9", () => areas().forEach((r) => calculateRect(m, sheet, r, false))),
      setDirty: () =>
        needs(context, "RangeAreas.setDirty", "1.9", () => areas().forEach((r) => markDirty(m, sheet, r))),
    },
  );
}
