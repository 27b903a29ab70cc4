/**
 * The task pane's only contact with the workbook (`PaneServices.workbook`).
 * Views call this interface; the Excel implementation here is the pane's one
 * use of `Excel.run`, and tests (and the plain-browser case) supply another.
 */
import { localeDecimalSeparator } from "../core/formula-locale";

export interface WorkbookActions {
  /** True when the pane runs inside Excel and can write to the sheet. */
  readonly canInsert: boolean;
  /** Writes the formula into the active cell (the top-left cell of the selection); resolves with its address. */
  insertFormula(formula: string): Promise<{ address: string }>;
  /** The decimal separator a formula typed or pasted here uses ("," means ";" between arguments). */
  decimalSeparator?(): Promise<string>;
}

/** Outside Office there is no sheet: the views offer copying instead. */
export const NO_WORKBOOK: WorkbookActions = {
  canInsert: false,
  insertFormula: () => Promise.reject(new Error("There is no workbook: open this pane in Excel to insert formulas.")),
  // The formula will be pasted into an Excel on this machine: its locale is the best guess.
  decimalSeparator: async () => localeDecimalSeparator(),
};

interface ExcelLike {
  run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
}

/**
 * Writes through `Excel.run`. Only the selection's first cell is written: a
 * one-by-one `formulas` array on a multi-cell selection is an InvalidArgument
 * error, and MD.SERIES spills from its cell anyway.
 */
export function excelWorkbook(excel: ExcelLike = Excel): WorkbookActions {
  return {
    canInsert: true,
    insertFormula: (formula) =>
      excel.run(async (context) => {
        const cell = context.workbook.getSelectedRange().getCell(0, 0);
        cell.formulas = [[formula]];
        cell.load("address");
        await context.sync();
        return { address: cell.address };
      }),
    // Application.decimalSeparator (ExcelApi 1.11), "the decimal separator based on the local Excel settings":
    // https://learn.microsoft.com/javascript/api/excel/excel.application#excel-excel-application-decimalseparator-member
    decimalSeparator: async () => {
      try {
        return await excel.run(async (context) => {
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
