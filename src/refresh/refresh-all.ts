/**
 * "Refresh all": make every MD formula in the workbook compute again.
 *
 * Excel does not re-run custom functions when a workbook opens, and a normal
 * recalculation skips them too (they are not volatile and their arguments did
 * not change). Re-entering a formula does re-run it, so refresh writes each MD
 * formula back into its own cell, after emptying the client's cache so the
 * functions ask the service rather than the cache. Only the cells that call an
 * MD function are written; every other formula and value is left alone.
 *
 * Cost: per sheet, one read of its formulas and one write of all its MD cells
 * (grouped into rectangles); then, while the functions compute, one read per
 * sheet and poll until no refreshed cell shows #BUSY! or the wait runs out.
 */
import { cellAddress, parseRange } from "./a1";
import { explainError, isCalculating } from "./cell-errors";
import { systemClock, type Clock } from "./clock";
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
  /** From start until every refreshed cell had a value (or the wait ran out). */
  ms: number;
  /** MD formula cells written back. */
  cells: number;
  /** Sheets whose MD cells were written. */
  sheets: string[];
  failed: CellFailure[];
  /** Cells still calculating when the wait ran out; they keep computing in Excel. */
  pending: CellRef[];
  /** Sheets left alone (protected, or Excel refused the write). */
  skipped: SheetSkipped[];
}

export type RefreshPhase = "scanning" | "writing" | "calculating";

export interface RefreshProgress {
  phase: RefreshPhase;
  /** Cells written so far, or cells with a value so far while calculating. */
  done: number;
  total: number;
}

export interface RefreshOptions {
  /** Drops the shared client's cached answers. */
  clearCache(): void;
  clock?: Clock;
  /** How long to wait for results before reporting cells as still calculating. Insight feeds can take a minute on first call. */
  settleTimeoutMs?: number;
  /** First wait between result polls; it doubles up to `maxPollMs`. */
  pollMs?: number;
  maxPollMs?: number;
  /** A more specific message for a failed cell, when the caller knows one. */
  describeError?(failure: Omit<CellFailure, "message">): string | undefined;
  onProgress?(progress: RefreshProgress): void;
}

export const DEFAULT_SETTLE_TIMEOUT_MS = 120_000;

interface WrittenSheet {
  sheet: string;
  blocks: FormulaBlock[];
  /** Formula cells still waiting for a value, by address. */
  waiting: Map<string, FormulaCell>;
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

  const total = planned.reduce((sum, p) => sum + (p.protected ? 0 : p.cells.length), 0);
  const written: WrittenSheet[] = [];
  for (const { sheet, cells, protected: isProtected } of planned) {
    if (isProtected) {
      report.skipped.push({
        sheet,
        cells: cells.length,
        message: `Sheet "${sheet}" is protected; unprotect it to refresh its ${cells.length} MD cell(s).`,
      });
      continue;
    }
    const blocks = planBlocks(cells);
    const outcome = await workbook.rewriteFormulas(sheet, blocks);
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
    const accepted = new Set(outcome.written);
    if (accepted.size === 0) continue;
    report.cells += accepted.size;
    report.sheets.push(sheet);
    written.push({
      sheet,
      blocks: planBlocks(cells.filter((cell) => accepted.has(cell.address))),
      waiting: new Map(cells.filter((cell) => accepted.has(cell.address)).map((cell) => [cell.address, cell])),
    });
    progress("writing", report.cells, total);
  }

  await settle(workbook, written, report, options, clock, started);
  report.ms = clock.now() - started;
  return report;
}

async function settle(
  workbook: WorkbookAdapter,
  written: WrittenSheet[],
  report: RefreshReport,
  options: RefreshOptions,
  clock: Clock,
  started: number,
): Promise<void> {
  const deadline = started + (options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS);
  let wait = options.pollMs ?? 200;
  const maxWait = options.maxPollMs ?? 2_000;
  const total = report.cells;

  for (;;) {
    for (const entry of written) {
      if (entry.waiting.size === 0) continue;
      const blocks = entry.blocks.filter((block) => cellsOf(block.address).some((a) => entry.waiting.has(a)));
      const readings = await workbook.readValues(
        entry.sheet,
        blocks.map((block) => block.address),
      );
      readings.forEach((reading) => {
        const origin = parseRange(reading.address);
        reading.values.forEach((line, r) =>
          line.forEach((value, c) => {
            const address = cellAddress(origin.top + r, origin.left + c);
            if (!entry.waiting.has(address) || isCalculating(value)) return;
            entry.waiting.delete(address);
            if (reading.types[r]?.[c] === "Error") {
              const failure = { sheet: entry.sheet, address, error: String(value) };
              report.failed.push({
                ...failure,
                message: options.describeError?.(failure) ?? explainError(String(value)),
              });
            }
          }),
        );
      });
    }
    const waiting = written.reduce((sum, entry) => sum + entry.waiting.size, 0);
    options.onProgress?.({ phase: "calculating", done: total - waiting, total });
    if (waiting === 0) return;
    if (clock.now() + wait > deadline) break;
    await clock.sleep(wait);
    wait = Math.min(wait * 2, maxWait);
  }
  for (const entry of written) {
    for (const address of entry.waiting.keys()) report.pending.push({ sheet: entry.sheet, address });
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
