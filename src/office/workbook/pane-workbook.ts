/**
 * The task pane's only contact with the workbook (`PaneServices.workbook`).
 * Views call this interface; the Excel implementation here is the pane's one
 * use of `Excel.run`, and tests (and the plain-browser case) supply another.
 */
import { runBatch, type ExcelRunner } from "./excel-batch";
import { localeDecimalSeparator } from "../../core/formula-locale";
import { insertSheetPlan, type SheetPlan } from "./sheet-insert";

export interface WorkbookActions {
  /** True when the pane runs inside Excel and can write to the sheet. */
  readonly canInsert: boolean;
  /** Writes the formula into the active cell (the top-left cell of the selection); resolves with its address. */
  insertFormula(formula: string): Promise<{ address: string }>;
  /**
   * Writes the formula into the active cell and adds a line chart of the
   * table it spills (`table`: its rows and columns, a header row and a date
   * column first) beside it; resolves with the cell's address.
   */
  insertWithChart(formula: string, table: ChartTableShape): Promise<{ address: string }>;
  /** Adds a new worksheet written from the plan (src/office/workbook/sheet-insert.ts) and shows it; resolves with its name. */
  insertSheet?(plan: SheetPlan): Promise<{ sheet: string }>;
  /** The decimal separator a formula typed or pasted here uses ("," means ";" between arguments). */
  decimalSeparator?(): Promise<string>;
}

/** A dated table as MD.SERIES and MD.SUPPLY spill it: header row, date column, then one column per series. */
export interface ChartTableShape {
  rows: number;
  columns: number;
  title: string;
  /** The dates run newest first (MD.SERIES's order=desc): the chart still reads oldest to newest, left to right. */
  newestFirst?: boolean;
}

/** `Excel.ChartType.line` and `Excel.ChartSeriesBy.columns`: office.js's enums are these strings (written out so the injected `excel` alone is needed). */
const CHART_TYPE_LINE = "Line";
const SERIES_BY_COLUMNS = "Columns";

/** Where the chart sits: one empty column right of the table, this many columns wide and rows tall. */
export const CHART_SIZE = { columns: 8, rows: 15 };

/** Outside Office there is no sheet: the views offer copying instead. */
export const NO_WORKBOOK: WorkbookActions = {
  canInsert: false,
  insertFormula: () => Promise.reject(new Error("There is no workbook: open this pane in Excel to insert formulas.")),
  insertWithChart: () => Promise.reject(new Error("There is no workbook: open this pane in Excel to insert formulas.")),
  insertSheet: () => Promise.reject(new Error("There is no workbook: open this pane in Excel to insert a sheet.")),
  // The formula will be pasted into an Excel on this machine: its locale is the best guess.
  decimalSeparator: async () => localeDecimalSeparator(),
};

type ExcelLike = ExcelRunner;

/**
 * Writes through `Excel.run`. Only the selection's first cell is written: a
 * one-by-one `formulas` array on a multi-cell selection is an InvalidArgument
 * error, and MD.SERIES spills from its cell anyway.
 */
export function excelWorkbook(excel: ExcelLike = Excel): WorkbookActions {
  return {
    canInsert: true,
    insertFormula: (formula) =>
      runBatch(excel, async (context) => {
        const cell = context.workbook.getSelectedRange().getCell(0, 0);
        cell.formulas = [[formula]];
        cell.load("address");
        await context.sync();
        return { address: cell.address };
      }),
    /*
     * The chart is made on the cells the formula will spill into, before they are filled: a chart follows
     * its source range, so it draws once the function's values land. `ChartCollection.add(type, sourceData,
     * seriesBy)` (ExcelApi 1.1) takes the value columns with their header row (series names), and the date
     * column becomes the category axis with `ChartAxis.setCategoryNames` (ExcelApi 1.7):
     * https://learn.microsoft.com/en-us/javascript/api/excel/excel.chartcollection#excel-excel-chartcollection-add-member(1)
     * https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-add-ins-charts
     * https://learn.microsoft.com/en-us/javascript/api/excel/excel.chartaxis#excel-excel-chartaxis-setcategorynames-member(1)
     */
    insertWithChart: (formula, table) =>
      runBatch(excel, async (context) => {
        const cell = context.workbook.getSelectedRange().getCell(0, 0);
        cell.formulas = [[formula]];
        const sheet = cell.worksheet;
        const values = cell.getOffsetRange(0, 1).getResizedRange(table.rows - 1, table.columns - 2);
        const dates = cell.getOffsetRange(1, 0).getResizedRange(table.rows - 2, 0);
        const chart = sheet.charts.add(CHART_TYPE_LINE, values, SERIES_BY_COLUMNS);
        chart.title.text = table.title;
        chart.axes.categoryAxis.setCategoryNames(dates);
        // ChartAxis.reversePlotOrder (ExcelApi 1.7), "plots data points from last to first":
        // https://learn.microsoft.com/en-us/javascript/api/excel/excel.chartaxis#excel-excel-chartaxis-reverseplotorder-member
        if (table.newestFirst) chart.axes.categoryAxis.reversePlotOrder = true;
        const corner = cell.getOffsetRange(0, table.columns + 1);
        chart.setPosition(corner, corner.getOffsetRange(CHART_SIZE.rows - 1, CHART_SIZE.columns - 1));
        cell.load("address");
        await context.sync();
        return { address: cell.address };
      }),
    insertSheet: (plan) => insertSheetPlan(excel, plan),
    // Application.decimalSeparator (ExcelApi 1.11), "the decimal separator based on the local Excel settings":
    // https://learn.microsoft.com/javascript/api/excel/excel.application#excel-excel-application-decimalseparator-member
    decimalSeparator: async () => {
      try {
        return await runBatch(excel, async (context) => {
          context.application.load("decimalSeparator");
          await context.sync();
          return context.application.decimalSeparator || localeDecimalSeparator();
        });
      } catch {
        return localeDecimalSeparator();
      }
    },
  };
}

/** Excel when the host says so and the Excel API is present, otherwise none. */
export function workbookForHost(
  host: string | null,
  globals: { Excel?: ExcelLike } = globalThis as { Excel?: ExcelLike },
): WorkbookActions {
  return host === "Excel" && typeof globals.Excel?.run === "function" ? excelWorkbook(globals.Excel) : NO_WORKBOOK;
}
