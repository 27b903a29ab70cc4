/**
 * The one way the add-in runs an Excel batch: it waits while the user is
 * typing in a cell. `Excel.RunOptions.delayForCellEdit` (ExcelApi 1.11):
 * "When false, if the user is in cell edit when the batch request is
 * processed by the host, the batch automatically fails. When true, the batch
 * request is executed immediately if the user is not in cell edit mode, but
 * if the user is in cell edit mode then the batch request is delayed until
 * the user exits cell edit mode. The default behavior with no
 * `delayForCellEdit` property specified is equivalent to when it is `false`"
 * (@types/office-js, Excel.RunOptions). Without it a refresh's scan, its
 * result reads, a freeze's writes and log, an insert from the pane and the
 * date-system probe fail whenever someone types during them.
 * test/office/workbook/excel-batch.test.ts checks that no other code in src/ calls
 * `Excel.run`.
 */
export interface ExcelRunner {
  run<T>(options: Excel.RunOptions, batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
}

/** `excel.run(options, batch)` with `delayForCellEdit: true` always; other options (mergeUndoGroup) as given. */
export function runBatch<T>(
  excel: ExcelRunner,
  batch: (context: Excel.RequestContext) => Promise<T>,
  options: Excel.RunOptions = {},
): Promise<T> {
  return excel.run({ ...options, delayForCellEdit: true }, batch);
}
