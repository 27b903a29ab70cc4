/**
 * The workbook as refresh and freeze see it (src/refresh/workbook-adapter.ts),
 * implemented with `Excel.run`, `Office.context.document.settings` and
 * `Office.addin`. Thin on purpose: it moves data in and out in as few syncs as
 * Excel's limits allow; the one rule it keeps itself is the re-check before a
 * rewrite, because only a read in the same batch as the write is current.
 *
 * APIs used, each feature-detected with Office.context.requirements.isSetSupported:
 * ExcelApi 1.4 (getUsedRangeOrNullObject(valuesOnly)), 1.5 (custom XML
 * parts), 1.9 (getSpecialCellsOrNullObject, getSelectedRanges; without them
 * every used cell is read), 1.12 (getSpillingToRangeOrNullObject,
 * getSpillParentOrNullObject; without them every formula counts as one cell,
 * which is right for an Excel without dynamic arrays), 1.16 (valuesAsJson: the
 * format a value carries, kept by a freeze, and the MD.ASSET card behind a
 * cell that reads #VALUE!; without it the cells' own formats, and every
 * #VALUE! an error), SharedRuntime 1.1
 * (setStartupBehavior).
 *
 * The factory only composes: each method is one `Excel.run` (or one Office
 * call) around a named part in its own module — the formula scan, the
 * rewrite, the results, the freeze log (a custom XML part, freeze-log.ts)
 * and the undo of a freeze.
 */
import { runBatch, type ExcelRunner } from "./excel-batch";
import type {
  FormulaBlock,
  FormulaRestore,
  StartupBehavior,
  ValueBlock,
  WorkbookAdapter,
} from "../../refresh/workbook-adapter";
import { saveDocumentSetting } from "./document-settings";
import { readFreezeLog, writeFreezeLog } from "./freeze-log";
import { restoreFrozenFormulas } from "./freeze-restore";
import { rewriteFormulaBlocks } from "./formula-rewrite";
import { scanFormulaCells } from "./formula-scan";
import { loadResults, loadSpillValues, loadValues, writeValues } from "./range-values";
import { readStartupBehavior, setStartupBehavior } from "./startup-behavior";
import { inAddressChunks } from "./sync-chunks";
import { readActiveSheetName, readCalculationMode, readSelection, readSheetNames } from "./workbook-state";

export { FREEZE_LOG_NAMESPACE, parseFreezeLog, serializeFreezeLog } from "./freeze-log";
export { areaAddresses } from "./formula-scan";
export { MAX_CELLS_PER_SYNC } from "./sync-chunks";

export type ExcelLike = ExcelRunner;

export interface OfficeLike {
  context: {
    document: { settings: Pick<Office.Settings, "get" | "set" | "saveAsync"> };
    requirements?: { isSetSupported(name: string, minVersion?: string): boolean };
  };
  addin: Pick<Office.Addin, "setStartupBehavior"> & Partial<Pick<Office.Addin, "getStartupBehavior">>;
  StartupBehavior: { load: Office.StartupBehavior; none: Office.StartupBehavior };
}

export interface ExcelWorkbookGlobals {
  Excel: ExcelLike;
  Office: OfficeLike;
}

/** True when the Excel and document APIs this feature needs are present (inside Excel, after Office.onReady). */
export function excelWorkbookAvailable(
  globals: Partial<ExcelWorkbookGlobals> = globalThis as Partial<ExcelWorkbookGlobals>,
): boolean {
  return (
    typeof globals.Excel?.run === "function" && typeof globals.Office?.context?.document?.settings?.get === "function"
  );
}

export function createExcelWorkbook(
  globals: ExcelWorkbookGlobals = globalThis as unknown as ExcelWorkbookGlobals,
): WorkbookAdapter {
  const { Excel: excel, Office: office } = globals;
  /** Feature detection by requirement set; a host that cannot say is assumed current. */
  const supports = (version: string) => office.context?.requirements?.isSetSupported("ExcelApi", version) ?? true;
  const spillsSupported = () => supports("1.12");
  const sheetOf = (context: Excel.RequestContext, name: string) => context.workbook.worksheets.getItem(name);
  /** Every batch waits while the user is in cell edit (excel-batch.ts). */
  const run = <T>(batch: (context: Excel.RequestContext) => Promise<T>, options?: Excel.RunOptions) =>
    runBatch(excel, batch, options);
  const oneUndo = (): Excel.RunOptions => (supports("1.20") ? { mergeUndoGroup: true } : {});

  return {
    capabilities: () => ({ calculate: supports("1.6"), mergeUndo: supports("1.20") }),
    calculationMode: () => run(readCalculationMode),
    recalculate: (name, addresses) =>
      // Range.calculate (ExcelApi 1.6): "Calculates a range of cells on a worksheet."
      // https://learn.microsoft.com/javascript/api/excel/excel.range#excel-excel-range-calculate-member(1)
      // It re-runs custom functions in the range (office-js #576, where Excel on the web re-ran too many).
      run(async (context) => {
        const sheet = sheetOf(context, name);
        await inAddressChunks(context, addresses, (address) => sheet.getRange(address).calculate());
      }),
    listSheets: () => run(readSheetNames),
    readFormulaCells: (name) => run((context) => scanFormulaCells(context, name, supports)),
    rewriteFormulas: (name, blocks: readonly FormulaBlock[]) =>
      // mergeUndoGroup (ExcelApi 1.20): "all context.sync() calls in a single Excel.run are merged into one undo group".
      run((context) => rewriteFormulaBlocks(context, name, blocks, spillsSupported), oneUndo()),
    readValues: (name, addresses) =>
      run((context) => loadValues(context, sheetOf(context, name), addresses, supports("1.16"))),
    readResults: (name, addresses) =>
      run((context) =>
        loadResults(context, sheetOf(context, name), addresses, {
          spills: spillsSupported,
          valuesAsJson: () => supports("1.16"),
        }),
      ),
    readSpills: (name, addresses) =>
      run((context) => loadSpillValues(context, sheetOf(context, name), addresses, spillsSupported())),
    writeValues: (name, blocks: readonly ValueBlock[]) =>
      run((context) => writeValues(context, sheetOf(context, name), blocks)),
    getSelection: () => run(readSelection),
    getActiveSheet: () => run(readActiveSheetName),
    getDocumentSetting: (key) => office.context.document.settings.get(key),
    setDocumentSetting: (key, value) => saveDocumentSetting(office, key, value),
    setStartupBehavior: (behavior: StartupBehavior) => setStartupBehavior(office, behavior),
    getStartupBehavior: () => readStartupBehavior(office),
    restoreFormulas: (name, restores: readonly FormulaRestore[]) =>
      run((context) => restoreFrozenFormulas(context, name, restores), oneUndo()),
    readFreezeLog: () => run(readFreezeLog),
    writeFreezeLog: (records) => run((context) => writeFreezeLog(context, records)),
  };
}
