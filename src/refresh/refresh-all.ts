/**
 * "Refresh all": make every MD formula in the workbook compute again.
 *
 * Excel does not re-run custom functions when a workbook opens, and a normal
 * recalculation skips them too (they are not volatile and their arguments did
 * not change). Re-entering a formula does re-run it, so refresh writes each MD
 * formula back into its own cell, after emptying the client's cache so the
 * functions ask the service rather than the cache. Only cells that really
 * hold a formula calling an MD function are written (src/refresh/formula-cells.ts),
 * each re-checked at the moment of writing; every other cell is left alone.
 *
 * When it is done is counted where the functions run: the runtime's call
 * counter (src/refresh/completion.ts), not the cells' display, which keeps the
 * old value while a function runs in current Excel.
 *
 * Cost: per sheet, one read of its formula cells and one re-read and write of
 * its MD cells (grouped into rectangles); then one read of the refreshed cells
 * once the calls have settled, to report errors.
 */
import { cellAddress, parseRange } from "./a1";
import { explainError, isCalculating } from "./cell-errors";
import { systemClock, type Clock } from "./clock";
import { waitForCalls, type CustomFunctionCalls } from "./completion";
import { findMdCells, planBlocks, type FormulaCell } from "./formula-cells";
import type { FormulaBlock, WorkbookAdapter } from "./workbook-adapter";

export interface CellRef {
  sheet: string;
  address: string;
}

export interface CellFailure extends CellRef {
  /** The error value the cell shows, e.g. "#N/A". */
  error: string;
  message: string;
}

export interface SheetSkipped {
  sheet: string;
  /** MD cells on the sheet that were not refreshed. */
  cells: number;
  message: string;
}

export interface RefreshReport {
  /** ISO 8601 time the refresh started. */
  startedAt: string;
  /** From start until every MD call it started had settled (or the wait ran out). */
  ms: number;
  /** MD formula cells made to calculate again. */
  cells: number;
  /** Sheets whose MD cells were refreshed. */
  sheets: string[];
  failed: CellFailure[];
  /** Cells still showing #BUSY! when the refresh ended; they keep computing in Excel. */
  pending: CellRef[];
  /** MD calls still running when the wait ran out (they keep running and fill their cells). */
  running: number;
  /** Sheets, or cells, left alone (protected, refused by Excel, edited meanwhile). */
  skipped: SheetSkipped[];
}

export type RefreshPhase = "scanning" | "writing" | "calculating";

export interface RefreshProgress {
  phase: RefreshPhase;
  /** Cells written so far, or MD calls settled so far while calculating. */
  done: number;
  total: number;
}

export interface RefreshOptions {
  /** Drops the shared client's cached answers. */
  clearCache(): void;
  /** The runtime's count of MD calls: how a refresh knows the functions have finished. */
  calls: CustomFunctionCalls;
  clock?: Clock;
  /** How long to wait for the calls before reporting them as still running. Every call settles within 60 s by design. */
  settleTimeoutMs?: number;
  /** First wait between polls of the call counts; it doubles up to `maxPollMs`. */
  pollMs?: number;
  maxPollMs?: number;
  /** No MD call started this long after the trigger: Excel did not run the functions. */
  noStartMs?: number;
  /** With fewer calls than cells (a formula that skips its MD part), nothing running for this long ends the wait. */
  quietMs?: number;
  /** A more specific message for a failed cell, when the caller knows one. */
  describeError?(failure: Omit<CellFailure, "message">): string | undefined;
  onProgress?(progress: RefreshProgress): void;
}

export const DEFAULT_SETTLE_TIMEOUT_MS = 90_000;
export const DEFAULT_NO_START_MS = 5_000;
export const DEFAULT_QUIET_MS = 2_000;

interface RefreshedSheet {
  sheet: string;
  cells: FormulaCell[];
}

export async function refreshAll(workbook: WorkbookAdapter, options: RefreshOptions): Promise<RefreshReport> {
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const report: RefreshReport = {
    startedAt: new Date(started).toISOString(),
    ms: 0,
    cells: 0,
    sheets: [],
    failed: [],
    pending: [],
    running: 0,
    skipped: [],
  };
  const progress = (phase: RefreshPhase, done: number, total: number) => options.onProgress?.({ phase, done, total });

  options.clearCache();

  progress("scanning", 0, 0);
  const planned: { sheet: string; cells: FormulaCell[]; protected: boolean }[] = [];
  for (const sheet of await workbook.listSheets()) {
    const scan = await workbook.readFormulaCells(sheet);
    const cells = findMdCells(scan);
    if (cells.length > 0) planned.push({ sheet, cells, protected: scan.protected });
  }

  const before = options.calls.counts();
  const total = planned.reduce((sum, p) => sum + (p.protected ? 0 : p.cells.length), 0);
  const refreshed: RefreshedSheet[] = [];
  for (const { sheet, cells, protected: isProtected } of planned) {
    if (isProtected) {
      report.skipped.push({
        sheet,
        cells: cells.length,
        message: `Sheet "${sheet}" is protected; unprotect it to refresh its ${cells.length} MD cell(s).`,
      });
      continue;
    }
    const done = await rewrite(workbook, sheet, cells, report);
    if (done.length === 0) continue;
    report.cells += done.length;
    report.sheets.push(sheet);
    refreshed.push({ sheet, cells: done });
    progress("writing", report.cells, total);
  }

  if (report.cells > 0) {
    const completion = await waitForCalls(options.calls, before, {
      clock,
      expected: report.cells,
      deadline: started + (options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS),
      noStartMs: options.noStartMs ?? DEFAULT_NO_START_MS,
      quietMs: options.quietMs ?? DEFAULT_QUIET_MS,
      pollMs: options.pollMs ?? 200,
      maxPollMs: options.maxPollMs ?? 2_000,
      onProgress: (settled, expected) => progress("calculating", settled, expected),
    });
    if (completion.kind === "timeout") report.running = completion.running;
    await reportResults(workbook, refreshed, report, options);
  }
  report.ms = clock.now() - started;
  return report;
}

/** Enters the cells' formulas again, re-checked at the moment of writing; returns the cells written. */
async function rewrite(
  workbook: WorkbookAdapter,
  sheet: string,
  cells: FormulaCell[],
  report: RefreshReport,
): Promise<FormulaCell[]> {
  const outcome = await workbook.rewriteFormulas(sheet, planBlocks(cells));
  if (outcome.refused.length > 0) {
    report.skipped.push({
      sheet,
      cells: outcome.refused.reduce((sum, r) => sum + cellsOf(r.address).length, 0),
      message: `Excel refused to rewrite ${outcome.refused.map((r) => r.address).join(", ")} on "${sheet}": ${outcome.refused[0].reason}`,
    });
  }
  if (outcome.changed.length > 0) {
    report.skipped.push({
      sheet,
      cells: outcome.changed.length,
      message: `${outcome.changed.length} cell(s) on "${sheet}" changed while refreshing (${outcome.changed.slice(0, 5).join(", ")}${outcome.changed.length > 5 ? ", …" : ""}) and were left as they are now.`,
    });
  }
  const written = new Set(outcome.written);
  return cells.filter((cell) => written.has(cell.address));
}

/** Once the calls have settled: which refreshed cells show an error, and which still show #BUSY!. */
async function reportResults(
  workbook: WorkbookAdapter,
  refreshed: RefreshedSheet[],
  report: RefreshReport,
  options: RefreshOptions,
): Promise<void> {
  for (const { sheet, cells } of refreshed) {
    const blocks: FormulaBlock[] = planBlocks(cells);
    const ours = new Set(cells.map((cell) => cell.address));
    const readings = await workbook.readValues(
      sheet,
      blocks.map((block) => block.address),
    );
    for (const reading of readings) {
      const origin = parseRange(reading.address);
      reading.values.forEach((line, r) =>
        line.forEach((value, c) => {
          const address = cellAddress(origin.top + r, origin.left + c);
          if (!ours.has(address)) return;
          if (isCalculating(value)) {
            report.pending.push({ sheet, address });
          } else if (reading.types[r]?.[c] === "Error") {
            const failure = { sheet, address, error: String(value) };
            report.failed.push({
              ...failure,
              message: options.describeError?.(failure) ?? explainError(String(value)),
            });
          }
        }),
      );
    }
  }
}

function cellsOf(address: string): string[] {
  const rect = parseRange(address);
  const cells: string[] = [];
  for (let row = rect.top; row <= rect.bottom; row += 1) {
    for (let col = rect.left; col <= rect.right; col += 1) cells.push(cellAddress(row, col));
  }
  return cells;
}
