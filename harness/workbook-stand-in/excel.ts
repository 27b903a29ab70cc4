/**
 * The `Excel` global: its enums and `Excel.run(options, batch)`
 * (https://learn.microsoft.com/en-us/javascript/api/excel#excel-excel-run-function(1)),
 * each run a fresh request context (request-context.ts) whose queue is synced
 * when the batch returns.
 *
 * - `RunOptions.mergeUndoGroup` (ExcelApi 1.20): the run's syncs are one undo
 *   step (cell-entry.ts).
 * - Cell edit (`RunOptions.delayForCellEdit`, ExcelApi 1.11,
 *   https://learn.microsoft.com/en-us/javascript/api/excel/excel.runoptions):
 *   while the user is typing in a cell, "when false, … the batch
 *   automatically fails. When true, … the batch request is delayed until the
 *   user exits cell edit mode"; the default is false.
 */
import { type Model, supports } from "./model";
import { Context } from "./request-context";
import { makeApplication, makeWorkbook } from "./workbook";
import { makeWorksheet } from "./worksheet";

export function makeExcel(m: Model): Record<string, unknown> {
  return {
    SpecialCellType: { formulas: "Formulas" },
    ChartType: { line: "Line" },
    ChartSeriesBy: { auto: "Auto", columns: "Columns", rows: "Rows" },
    ClearApplyTo: { all: "All", formats: "Formats", contents: "Contents" },
    CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
    run: <T>(
      first: Record<string, unknown> | ((context: Context) => Promise<T>),
      second?: (context: Context) => Promise<T>,
    ): Promise<T> => run(m, first, second),
  };
}

async function run<T>(
  m: Model,
  first: Record<string, unknown> | ((context: Context) => Promise<T>),
  second?: (context: Context) => Promise<T>,
): Promise<T> {
  const { log, cellEdit } = m;
  log.runs += 1;
  const batch = typeof first === "function" ? first : second!;
  if (typeof first !== "function") log.runOptions.push({ ...first });
  if (cellEdit.on) {
    const waits = typeof first !== "function" && first.delayForCellEdit === true;
    if (!waits) {
      throw Object.assign(new Error("The batch failed: the user is editing a cell."), {
        code: "InvalidOperationInCellEditMode",
      });
    }
    await new Promise<void>((resolve) => cellEdit.waiting.push(resolve));
  }
  const context = new Context(m, (c) => ({
    workbook: makeWorkbook(c),
    application: makeApplication(c),
    worksheetOf: (sheet) =>
      makeWorksheet(
        c,
        () => sheet.name,
        () => sheet,
      ),
  }));
  if (typeof first !== "function" && first.mergeUndoGroup === true && supports(m, "ExcelApi", "1.20"))
    context.mergedUndo = [];
  const result = await batch(context);
  if (context.queue.length) await context.sync();
  return result;
}
