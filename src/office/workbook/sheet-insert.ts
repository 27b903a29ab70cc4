/**
 * Writes a ready-made sheet into the workbook: a new worksheet under a name
 * no other sheet has, its cells (labels and formulas), number formats, bold
 * cells, column widths and one native chart, then shows it. The pane's
 * templates are read into this plan (src/taskpane/templates/); this module
 * knows Excel, not templates.
 *
 * APIs (Microsoft Learn, Excel JavaScript API reference):
 * - `WorksheetCollection.add(name)` (ExcelApi 1.1): "Adds a new worksheet to the workbook. The worksheet will be
 *   added at the end of existing worksheets. If you wish to activate the newly added worksheet, call `.activate()`
 *   on it. … If specified, the name should be unique."
 *   https://learn.microsoft.com/en-us/javascript/api/excel/excel.worksheetcollection#excel-excel-worksheetcollection-add-member(1)
 * - `Worksheet.activate()` (1.1): https://learn.microsoft.com/en-us/javascript/api/excel/excel.worksheet#excel-excel-worksheet-activate-member(1)
 * - `Range.formulas`, `Range.numberFormat` (1.1), two-dimensional arrays the size of the range:
 *   https://learn.microsoft.com/en-us/javascript/api/excel/excel.range
 * - `RangeFormat.columnWidth` (1.2, points) and `RangeFont.bold` (1.1):
 *   https://learn.microsoft.com/en-us/javascript/api/excel/excel.rangeformat#excel-excel-rangeformat-columnwidth-member
 * - `ChartCollection.add(type, sourceData, seriesBy)` (1.1), `Chart.setPosition` (1.1),
 *   `ChartAxis.setCategoryNames` (1.7):
 *   https://learn.microsoft.com/en-us/javascript/api/excel/excel.chartcollection#excel-excel-chartcollection-add-member(1)
 *   https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-add-ins-charts
 * Sheet names follow Excel's rules ("Rename a worksheet", support.microsoft.com): 1–31 characters, none of
 * `: \ / ? * [ ]`, not starting or ending with an apostrophe, not "History", unique regardless of case.
 * https://support.microsoft.com/en-us/office/rename-a-worksheet-3f1f7148-ee83-404d-8ef0-9ff99fbad1f9
 */
import { runBatch, type ExcelRunner } from "./excel-batch";

export type CellEntry = string | number | boolean;

/** A rectangle of cells written from its top-left cell `at` ("A3"): labels, numbers, or formulas ("=…"). */
export interface CellBlock {
  at: string;
  rows: CellEntry[][];
}

/** `Excel.ChartType` values a sheet plan may use (office.js's enum strings). */
export const CHART_TYPES = ["ColumnClustered", "BarClustered", "Line", "Pie"] as const;
export type SheetChartType = (typeof CHART_TYPES)[number];

export interface SheetChart {
  type: SheetChartType;
  /** The chart's data, header row included ("D3:D9"). */
  source: string;
  /** The category labels, when they are not the source's first column ("A4:A9"). */
  categories?: string;
  seriesBy?: "Auto" | "Columns" | "Rows";
  title: string;
  /** The cells the chart covers ("J3:P18"). */
  position: string;
}

export interface SheetPlan {
  sheetName: string;
  cells: CellBlock[];
  numberFormats?: { range: string; format: string }[];
  bold?: string[];
  /** Column widths in points, by column range ("A:A", "B:H"). */
  columnWidths?: { columns: string; width: number }[];
  chart?: SheetChart;
}

export const MAX_SHEET_NAME = 31;
const FORBIDDEN_IN_SHEET_NAME = /[:\\/?*[\]]/;

/** Why Excel would refuse `name` as a worksheet name, or null when it takes it. */
export function sheetNameProblem(name: string): string | null {
  if (name.trim() === "") return "a sheet name cannot be blank";
  if (name.length > MAX_SHEET_NAME) return `a sheet name has at most ${MAX_SHEET_NAME} characters (${name.length})`;
  const bad = FORBIDDEN_IN_SHEET_NAME.exec(name);
  if (bad) return `a sheet name cannot contain ${bad[0]} (none of : \\ / ? * [ ])`;
  if (name.startsWith("'") || name.endsWith("'")) return "a sheet name cannot start or end with an apostrophe";
  if (name.toLowerCase() === "history") return '"History" is a name Excel keeps for itself';
  return null;
}

/** `wanted`, or "wanted (2)", "wanted (3)" … — the first no sheet has (names compare without case, as Excel's do). */
export function uniqueSheetName(wanted: string, taken: readonly string[]): string {
  const lower = new Set(taken.map((name) => name.toLowerCase()));
  if (!lower.has(wanted.toLowerCase())) return wanted;
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = wanted.slice(0, MAX_SHEET_NAME - suffix.length).trimEnd() + suffix;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}

const CELL = /^([A-Z]{1,3})([1-9]\d{0,6})$/;

function columnIndex(letters: string): number {
  return [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

function columnLetters(index: number): string {
  let s = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** { row: 2, column: 1 } → "B3". */
export function cellAddress(row: number, column: number): string {
  return `${columnLetters(column)}${row + 1}`;
}

/** "B3" → { row: 2, column: 1 }, or null when it is not one cell in A1 notation. */
export function parseCellAddress(address: string): { row: number; column: number } | null {
  const match = CELL.exec(address);
  return match ? { row: Number(match[2]) - 1, column: columnIndex(match[1]) } : null;
}

/** "B3:D9" (or one cell) → its size, or null when it is not a range in A1 notation. */
export function rangeSize(address: string): { rows: number; columns: number } | null {
  const [from, to = from, extra] = address.split(":");
  if (extra !== undefined) return null;
  const a = parseCellAddress(from);
  const b = parseCellAddress(to);
  if (!a || !b || b.row < a.row || b.column < a.column) return null;
  return { rows: b.row - a.row + 1, columns: b.column - a.column + 1 };
}

/** True for a column range such as "A:A" or "B:H". */
export function isColumnRange(address: string): boolean {
  const match = /^([A-Z]{1,3}):([A-Z]{1,3})$/.exec(address);
  return !!match && columnIndex(match[1]) <= columnIndex(match[2]);
}

/** The address a block covers: "A3" with 2 rows of 3 → "A3:C4". */
export function blockAddress(block: CellBlock): string {
  const start = parseCellAddress(block.at);
  if (!start) throw new RangeError(`${block.at} is not a cell address`);
  const width = Math.max(...block.rows.map((row) => row.length));
  const end = `${columnLetters(start.column + width - 1)}${start.row + block.rows.length}`;
  return `${block.at}:${end}`;
}

/** Rows padded to one width with empty text (an empty entry writes nothing visible). */
function rectangular(rows: CellEntry[][]): CellEntry[][] {
  const width = Math.max(...rows.map((row) => row.length));
  return rows.map((row) => [...row, ...Array<CellEntry>(width - row.length).fill("")]);
}

/**
 * One batch, one sync to read the sheet names and one to write: the plan is
 * written whole or, when Excel refuses part of it, the new sheet is removed
 * again so a failed insert leaves no half-made sheet behind.
 */
export async function insertSheetPlan(excel: ExcelRunner, plan: SheetPlan): Promise<{ sheet: string }> {
  let created: string | null = null;
  try {
    return await runBatch(excel, async (context) => {
      const worksheets = context.workbook.worksheets;
      worksheets.load("items/name");
      await context.sync();
      const name = uniqueSheetName(
        plan.sheetName,
        worksheets.items.map((sheet) => sheet.name),
      );
      const sheet = worksheets.add(name);
      created = name;
      for (const block of plan.cells) sheet.getRange(blockAddress(block)).formulas = rectangular(block.rows);
      for (const { range, format } of plan.numberFormats ?? []) {
        const size = rangeSize(range);
        if (!size) throw new RangeError(`${range} is not a range`);
        sheet.getRange(range).numberFormat = Array.from({ length: size.rows }, () => Array(size.columns).fill(format));
      }
      for (const range of plan.bold ?? []) sheet.getRange(range).format.font.bold = true;
      for (const { columns, width } of plan.columnWidths ?? []) sheet.getRange(columns).format.columnWidth = width;
      if (plan.chart) {
        const { type, source, categories, seriesBy = "Columns", title, position } = plan.chart;
        const chart = sheet.charts.add(type, sheet.getRange(source), seriesBy);
        chart.title.text = title;
        if (categories) chart.axes.categoryAxis.setCategoryNames(sheet.getRange(categories));
        const [start, end = start] = position.split(":");
        chart.setPosition(start, end);
      }
      sheet.activate();
      await context.sync();
      return { sheet: name };
    });
  } catch (error) {
    if (created !== null) await removeSheet(excel, created);
    throw error;
  }
}

/** Best effort: the sheet a failed insert began (if Excel made it) is deleted; a failure here leaves the first error to report. */
async function removeSheet(excel: ExcelRunner, name: string): Promise<void> {
  try {
    await runBatch(excel, async (context) => {
      // WorksheetCollection.getItemOrNullObject (ExcelApi 1.4); Worksheet.delete (1.1).
      const sheet = context.workbook.worksheets.getItemOrNullObject(name);
      sheet.load("isNullObject");
      await context.sync();
      if (sheet.isNullObject) return;
      sheet.delete();
      await context.sync();
    });
  } catch {
    // The original error is the one the user needs.
  }
}
