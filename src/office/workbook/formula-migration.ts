/**
 * What the pane's "Artemis" view needs from the workbook: every sheet's
 * formulas that call ART, ARTRANGE or ARTINFO, and formulas replaced cell by
 * cell, only where a cell still holds the formula it is replaced from.
 *
 * Undo. Excel keeps add-in changes on its undo stack where the host supports
 * it, and `Excel.run({ mergeUndoGroup: true })` (ExcelApi 1.20) makes one
 * batch one undo step; but "if you call an unsupported API in your add-in, the
 * user's undo stack is cleared from that API call on" (Microsoft Learn, "Undo
 * capabilities in Excel add-ins",
 * https://learn.microsoft.com/office/dev/add-ins/excel/excel-add-ins-undo-capabilities),
 * older hosts have no undo for add-in changes, and saving document settings
 * clears the stack (office-js #3141). So the pane keeps its own undo: a
 * conversion returns the formulas as Excel stored them, and Undo replaces
 * those, and only those, with the originals; a cell edited since is left as
 * the user made it and reported.
 */
import { runBatch, type ExcelRunner } from "./excel-batch";
import { replaceInBatch, type FormulaChange, type ReplaceOutcome } from "./formula-replace";
import { scanWorkbookFormulas, type WorkbookFormula } from "./formula-scan";

export type { FormulaChange, ReplaceOutcome, WorkbookFormula };

export interface MigrationWorkbook {
  /** False outside Excel: there is no workbook to scan. */
  readonly available: boolean;
  /** Every worksheet's formulas that `keep` accepts. */
  findFormulas(keep: (formula: string) => boolean): Promise<WorkbookFormula[]>;
  /** Replaces each cell's formula in one batch (one undo step where the host groups them). */
  replaceFormulas(changes: readonly FormulaChange[]): Promise<ReplaceOutcome>;
}

export const NO_MIGRATION_WORKBOOK: MigrationWorkbook = {
  available: false,
  findFormulas: () => Promise.reject(new Error("There is no workbook: open this pane in Excel to scan it.")),
  replaceFormulas: () =>
    Promise.reject(new Error("There is no workbook: open this pane in Excel to convert formulas.")),
};

interface Requirements {
  isSetSupported(name: string, minVersion?: string): boolean;
}

export function excelMigrationWorkbook(excel: ExcelRunner, requirements?: Requirements): MigrationWorkbook {
  const supports = (version: string) => requirements?.isSetSupported("ExcelApi", version) ?? true;
  return {
    available: true,
    findFormulas: (keep) => runBatch(excel, (context) => scanWorkbookFormulas(context, supports, keep)),
    replaceFormulas: (changes) =>
      runBatch(excel, (context) => replaceInBatch(context, changes), supports("1.20") ? { mergeUndoGroup: true } : {}),
  };
}

/** Excel when the host says so and its API is present, otherwise none. */
export function migrationWorkbookForHost(
  host: string | null,
  globals: { Excel?: ExcelRunner; Office?: { context?: { requirements?: Requirements } } } = globalThis as never,
): MigrationWorkbook {
  return host === "Excel" && typeof globals.Excel?.run === "function"
    ? excelMigrationWorkbook(globals.Excel, globals.Office?.context?.requirements)
    : NO_MIGRATION_WORKBOOK;
}
