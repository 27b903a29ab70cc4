/**
 * The scan of a sheet for formula cells: where its formulas are, then their
 * text and values, read in row bands of at most MAX_CELLS_PER_SYNC cells.
 */
import { cellAddress, parseCell, parseRange, rectAddress, rowBands, withoutSheet, type Rect } from "../../refresh/a1";
import { holdsFormula } from "../../refresh/formula-cells";
import type { FormulaReading, SheetScan } from "../../refresh/workbook-adapter";
import { inAddressChunks, MAX_CELLS_PER_SYNC } from "./sync-chunks";

export async function scanFormulaCells(
  context: Excel.RequestContext,
  name: string,
  supports: (version: string) => boolean,
): Promise<SheetScan> {
  const sheet = context.workbook.worksheets.getItem(name);
  sheet.protection.load("protected");
  // Values only: a sheet formatted down to row 1,048,576 is not a million used cells.
  const used = sheet.getUsedRangeOrNullObject(true);
  used.load("address");
  await context.sync();
  const isProtected = sheet.protection.protected;
  if (used.isNullObject) return { name, protected: isProtected, cells: [] };
  const areas = await formulaAreas(context, used, supports);
  if (areas.length === 0) return { name, protected: isProtected, cells: [] };
  return { name, protected: isProtected, cells: await readFormulas(context, sheet, areas) };
}

/**
 * The areas of the used range that hold formulas; every used cell without
 * getSpecialCells (ExcelApi 1.9).
 */
async function formulaAreas(
  context: Excel.RequestContext,
  used: Excel.Range,
  supports: (version: string) => boolean,
): Promise<string[]> {
  // Formula cells only (ExcelApi 1.9): the reads cost what the sheet's formulas cost, not its size.
  // https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-ranges-special-cells
  if (!supports("1.9")) return [withoutSheet(used.address)];
  const special = used.getSpecialCellsOrNullObject("Formulas");
  special.load("address");
  await context.sync();
  return special.isNullObject ? [] : areaAddresses(special.address);
}

/** The cells of the areas whose `formulas` entry is text starting with "=". */
async function readFormulas(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  areas: readonly string[],
): Promise<FormulaReading[]> {
  const bands = areas.flatMap((area) => rowBands(parseRange(area), MAX_CELLS_PER_SYNC).map(rectAddress));
  const ranges: { rect: Rect; range: Excel.Range }[] = [];
  await inAddressChunks(context, bands, (address) => {
    const range = sheet.getRange(address);
    range.load("formulas,values");
    ranges.push({ rect: parseRange(address), range });
  });
  const cells: FormulaReading[] = [];
  for (const { rect, range } of ranges) {
    range.formulas.forEach((line, r) =>
      line.forEach((formula, c) => {
        if (typeof formula !== "string" || !formula.startsWith("=")) return;
        cells.push({ address: cellAddress(rect.top + r, rect.left + c), formula, value: range.values[r][c] });
      }),
    );
  }
  return cells;
}

/**
 * The areas of a RangeAreas address, which names the sheet before each area:
 * "Sheet1!A1:B4, Sheet1!D1:D4" (Excel.RangeAreas.address). A quoted sheet name
 * may itself contain ", " or "!", so each area is taken as the A1 reference
 * that follows a "!" and ends at a comma or the end.
 */
export function areaAddresses(address: string): string[] {
  return Array.from(
    address.matchAll(/!(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)(?=\s*,|\s*$)/g),
    (m) => m[1],
  );
}

/** A formula found by a workbook scan: its sheet, cell ("B2") and text. */
export interface WorkbookFormula {
  sheet: string;
  address: string;
  formula: string;
}

/**
 * Every worksheet's formula cells (each sheet's used range, as
 * `scanFormulaCells` reads it) whose formula `keep` accepts, sheet by sheet in
 * the workbook's order and row by row within a sheet. Constants that look like formulas and the cells a
 * dynamic array spills into are not formulas (`holdsFormula`).
 */
export async function scanWorkbookFormulas(
  context: Excel.RequestContext,
  supports: (version: string) => boolean,
  keep: (formula: string) => boolean,
): Promise<WorkbookFormula[]> {
  const sheets = context.workbook.worksheets;
  sheets.load("items/name");
  await context.sync();
  const found: WorkbookFormula[] = [];
  for (const name of sheets.items.map((sheet) => sheet.name)) {
    const scan = await scanFormulaCells(context, name, supports);
    const cells = scan.cells
      .map((cell) => ({ cell, at: parseCell(cell.address) }))
      .sort((a, b) => a.at.row - b.at.row || a.at.col - b.at.col)
      .map(({ cell }) => cell);
    for (const cell of cells) {
      if (!holdsFormula(cell) || !keep(cell.formula)) continue;
      found.push({ sheet: name, address: cell.address, formula: cell.formula });
    }
  }
  return found;
}
