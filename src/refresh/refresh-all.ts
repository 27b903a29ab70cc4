/**
 * "Refresh all": make every MD formula in the workbook compute again.
 *
 * Excel does not re-run custom functions when asked to "Calculate Now" (F9
 * skips them: office-js #1462; they are not volatile and their arguments did
 * not change). Two ways make them run, in this order of preference:
 *
 * 1. `Range.calculate()` on exactly the MD cells (ExcelApi 1.6; Learn:
 *    "Calculates a range of cells on a worksheet"; it re-runs custom functions,
 *    office-js #576). Nothing is written: values, formats, other formulas and
 *    the undo list stay, and a protected sheet can be refreshed.
 * 2. Entering each MD formula again (`Range.formulas`), only where the first
 *    is unavailable (before ExcelApi 1.6) or did not run any function (no call
 *    started within `noStartMs`). Only cells that really hold a formula calling
 *    MD are written, each re-checked at the moment of writing, in one undo
 *    group where Excel allows it (ExcelApi 1.20); protected sheets are skipped.
 *
 * The recalculation API Microsoft announced for custom functions (office-js
 * #6575, "the API to force recalculation of Custom Functions is now available
 * for all production users", 2026-03-12) is not named in the material this
 * project can consult, and neither @types/office-js 1.0.612 nor office.js
 * 1.1.110 declares it; `WorkbookAdapter.recalculate` is where it would go.
 *
 * The client's cache is emptied first, so the functions ask the service.
 * When it is done is counted where the functions run: the runtime's call
 * counter (src/refresh/completion.ts), not the cells' display, which keeps the
 * old value while a function runs in current Excel.
 *
 * Cost: per sheet, one read of its formula cells, one request to calculate
 * (or re-read and write) its MD cells grouped into rectangles, and one read of
 * their results once the calls have settled, to report errors.
 */
import { cellAddress, cellCount, parseRange } from "./a1";
import { valueBehindError } from "./cell-cards";
import { explainError, isCalculating } from "./cell-errors";
import { systemClock, type Clock } from "./clock";
import { waitForCalls, type CallCounts, type Completion, type CustomFunctionCalls } from "./completion";
import { countUnregisteredMdCells, findMdCells, planBlocks, type FormulaCell } from "./formula-cells";
import { cellChange, MAX_CHANGES_LISTED, type CellChange, type TableChange } from "./refresh-changes";
import { changedTables, readTables, tableAnchors } from "./spill-changes";
import type { FormulaBlock, SpillValues, WorkbookAdapter } from "./workbook-adapter";

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
  /** How: Excel recalculated the cells (nothing written), their formulas were entered again, or some of each. */
  method: "recalculate" | "rewrite" | "both" | "none";
  failed: CellFailure[];
  /** Cells still showing #BUSY! when the refresh ended; they keep computing in Excel. */
  pending: CellRef[];
  /** MD calls still running when the wait ran out (they keep running and fill their cells). */
  running: number;
  /** Sheets, or cells, left alone (protected, refused by Excel, edited meanwhile). */
  skipped: SheetSkipped[];
  /** What else the user should know: manual calculation, a fallback taken. */
  notes: string[];
  /** Cells whose value changed or that became errors (refresh-changes.ts), the first MAX_CHANGES_LISTED. */
  changes?: CellChange[];
  /** The spilled tables that changed (spill-changes.ts): their cells are among `changes`, the first few each. */
  tables?: TableChange[];
  /** Changed cells beyond those listed. */
  moreChanges?: number;
}

export type RefreshPhase = "scanning" | "writing" | "calculating";

export interface RefreshProgress {
  phase: RefreshPhase;
  /** Cells written so far, or MD calls settled so far while calculating. */
  done: number;
  total: number;
}

/** What a refresh can ask of the client's cache beyond emptying it. */
export interface RecheckOptions {
  recheckHistory?: boolean;
}

export interface RefreshOptions {
  /** Drops the shared client's cached answers; with `recheckHistory`, stored settled days are asked again too. */
  clearCache(options?: RecheckOptions): void;
  /**
   * Recheck history: the settled days stored on this computer are asked
   * again for the formulas refreshed (the service may have revised them),
   * rather than trusted until their trust period ends. Default false.
   */
  recheckHistory?: boolean;
  /** "Reload everything": drops the data stored on this computer too, before the cache. */
  clearStored?(): Promise<void>;
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
  /**
   * On open: while Excel registers the add-in's functions, formulas read
   * `_xldudf_MD_…` and a scan finds no MD cell. Before each of these delays,
   * a scan that found no MD cell, or found unregistered ones, is repeated.
   */
  registrationRetriesMs?: readonly number[];
}

/** About 15 s in all: Excel loads a shared runtime's functions within seconds of opening. */
export const OPEN_REGISTRATION_RETRIES_MS = [1_000, 2_000, 4_000, 8_000] as const;

export const DEFAULT_SETTLE_TIMEOUT_MS = 90_000;
export const DEFAULT_NO_START_MS = 5_000;
export const DEFAULT_QUIET_MS = 2_000;

interface RefreshedSheet {
  sheet: string;
  cells: FormulaCell[];
}

interface PlannedSheet {
  sheet: string;
  cells: FormulaCell[];
  protected: boolean;
  /** What the MD cells showed when scanned: the values before the refresh. */
  before: Map<string, unknown>;
  /** The spilled tables' values before the refresh (spill-changes.ts). */
  tables: SpillValues[];
}

export async function refreshAll(workbook: WorkbookAdapter, options: RefreshOptions): Promise<RefreshReport> {
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const report: RefreshReport = {
    startedAt: new Date(started).toISOString(),
    ms: 0,
    cells: 0,
    sheets: [],
    method: "none",
    failed: [],
    pending: [],
    running: 0,
    skipped: [],
    notes: [],
  };
  const progress = (phase: RefreshPhase, done: number, total: number) => options.onProgress?.({ phase, done, total });

  if (options.clearStored) await options.clearStored();
  if (options.recheckHistory) options.clearCache({ recheckHistory: true });
  else options.clearCache();

  progress("scanning", 0, 0);
  let { planned, unregistered } = await scanWorkbook(workbook);
  for (const delay of options.registrationRetriesMs ?? []) {
    if (planned.length > 0 && unregistered === 0) break;
    await clock.sleep(delay);
    ({ planned, unregistered } = await scanWorkbook(workbook));
  }
  if (unregistered > 0) {
    report.notes.push(
      `${unregistered} cell(s) still read _xldudf_MD_…: Excel had not loaded the MD functions yet, so they were not refreshed. Use Refresh all once the add-in has loaded.`,
    );
  }
  if (planned.length === 0) {
    report.ms = clock.now() - started;
    return report;
  }
  // The spilled tables as they are before the refresh: read once, for the scan that stands (spill-changes.ts).
  for (const plan of planned) plan.tables = await readTables(workbook, plan.sheet, tableAnchors(plan.cells));

  const mode = await workbook.calculationMode().catch(() => null);
  const wait = (before: CallCounts, expected: number) =>
    waitForCalls(options.calls, before, {
      clock,
      expected,
      deadline: started + (options.settleTimeoutMs ?? DEFAULT_SETTLE_TIMEOUT_MS),
      noStartMs: options.noStartMs ?? DEFAULT_NO_START_MS,
      quietMs: options.quietMs ?? DEFAULT_QUIET_MS,
      pollMs: options.pollMs ?? 200,
      maxPollMs: options.maxPollMs ?? 2_000,
      onProgress: (settled, total) => progress("calculating", settled, total),
    });

  // First choice: ask Excel to calculate the MD cells again. Nothing is written.
  let refreshed: RefreshedSheet[] = [];
  let completion: Completion | null = null;
  if (workbook.capabilities().calculate) {
    const before = options.calls.counts();
    const toRewrite: PlannedSheet[] = [];
    for (const plan of planned) {
      try {
        await workbook.recalculate(
          plan.sheet,
          planBlocks(plan.cells).map((block) => block.address),
        );
        refreshed.push({ sheet: plan.sheet, cells: plan.cells });
      } catch {
        toRewrite.push(plan);
      }
    }
    const expected = refreshed.reduce((sum, r) => sum + r.cells.length, 0);
    if (expected > 0) {
      completion = await wait(before, expected);
      if (completion.kind === "no-calls") {
        // This Excel calculated the cells without calling the functions: enter them again instead.
        report.notes.push(
          "Excel did not run the MD functions when asked to recalculate them, so their formulas were entered again.",
        );
        toRewrite.unshift(...planned.filter((plan) => refreshed.some((r) => r.sheet === plan.sheet)));
        refreshed = [];
        completion = null;
      } else {
        report.method = "recalculate";
      }
    }
    if (toRewrite.length > 0) {
      const beforeRewrite = options.calls.counts();
      const rewritten = await rewriteAll(workbook, toRewrite, report, progress);
      if (rewritten.length > 0) {
        report.method = report.method === "recalculate" ? "both" : "rewrite";
        refreshed.push(...rewritten);
        // The running count is the runtime's, so this last wait covers calls from the first round too.
        completion = await wait(
          beforeRewrite,
          rewritten.reduce((sum, r) => sum + r.cells.length, 0),
        );
      }
    }
  } else {
    const before = options.calls.counts();
    refreshed = await rewriteAll(workbook, planned, report, progress);
    if (refreshed.length > 0) {
      report.method = "rewrite";
      completion = await wait(
        before,
        refreshed.reduce((sum, r) => sum + r.cells.length, 0),
      );
    }
  }

  for (const { sheet, cells } of refreshed) {
    report.cells += cells.length;
    report.sheets.push(sheet);
  }
  if (completion?.kind === "timeout") report.running = completion.running;
  if (mode === "Manual" && report.cells > 0) {
    report.notes.push(
      "Excel is set to calculate manually: the MD cells were calculated, and formulas that use their results update when you press F9 (Calculate Now).",
    );
  }
  if (refreshed.length > 0) await reportResults(workbook, refreshed, report, options, planned);
  report.ms = clock.now() - started;
  return report;
}

async function scanWorkbook(workbook: WorkbookAdapter): Promise<{ planned: PlannedSheet[]; unregistered: number }> {
  const planned: PlannedSheet[] = [];
  let unregistered = 0;
  for (const sheet of await workbook.listSheets()) {
    const scan = await workbook.readFormulaCells(sheet);
    unregistered += countUnregisteredMdCells(scan);
    const cells = findMdCells(scan);
    const before = new Map(scan.cells.map((reading) => [reading.address, reading.value]));
    if (cells.length > 0) planned.push({ sheet, cells, protected: scan.protected, before, tables: [] });
  }
  return { planned, unregistered };
}

/** The rewrite fallback: protected sheets cannot be written and are skipped with the reason. */
async function rewriteAll(
  workbook: WorkbookAdapter,
  planned: PlannedSheet[],
  report: RefreshReport,
  progress: (phase: RefreshPhase, done: number, total: number) => void,
): Promise<RefreshedSheet[]> {
  const total = planned.reduce((sum, p) => sum + (p.protected ? 0 : p.cells.length), 0);
  const refreshed: RefreshedSheet[] = [];
  let done = 0;
  for (const { sheet, cells, protected: isProtected } of planned) {
    if (isProtected) {
      report.skipped.push({
        sheet,
        cells: cells.length,
        message: `Sheet "${sheet}" is protected, and this Excel can refresh its ${cells.length} MD cell(s) only by entering them again; unprotect it to refresh them.`,
      });
      continue;
    }
    const written = await rewrite(workbook, sheet, cells, report);
    if (written.length === 0) continue;
    refreshed.push({ sheet, cells: written });
    done += written.length;
    progress("writing", done, total);
  }
  return refreshed;
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
      cells: outcome.refused.reduce((sum, r) => sum + cellCount(parseRange(r.address)), 0),
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
  planned: readonly PlannedSheet[],
): Promise<void> {
  const before = new Map(planned.map((plan) => [plan.sheet, plan.before]));
  const changes: CellChange[] = (report.changes = []);
  const changed = (change: CellChange | null) => {
    if (!change) return;
    if (changes.length < MAX_CHANGES_LISTED) changes.push(change);
    else report.moreChanges = (report.moreChanges ?? 0) + 1;
  };
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
            return;
          }
          // An MD.ASSET card reads #VALUE! typed Error (an entity's basic value: cell-cards.ts); it is a value.
          const error = reading.types[r]?.[c] === "Error" && !valueBehindError(reading, r, c);
          const was = before.get(sheet)?.get(address);
          if (before.get(sheet)?.has(address)) changed(cellChange(sheet, address, was, value, error));
          if (error) {
            const failure = { sheet, address, error: String(value) };
            report.failed.push({
              ...failure,
              message: options.describeError?.(failure) ?? explainError(String(value)),
            });
          }
        }),
      );
    }
    const tablesBefore = planned.find((plan) => plan.sheet === sheet)?.tables ?? [];
    const tables = await changedTables(workbook, sheet, tablesBefore, changed);
    if (tables.length > 0) (report.tables ??= []).push(...tables);
  }
}
