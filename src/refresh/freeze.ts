/**
 * "Freeze to values": replace MD formulas with what they show now, so the
 * workbook can go to people who do not have the add-in (or a key) and they see
 * numbers instead of #NAME?. Each frozen formula is recorded — sheet, cell,
 * formula, range, time — in the workbook's freeze log (see the Excel adapter
 * for where it lives), so the owner can tell what was frozen and when, and put
 * the formulas back. The log is written before the values: a log that cannot
 * be read, parsed or saved stops the freeze, so no formula is ever replaced
 * without its record.
 */
import { intersects, parseRange, type Rect } from "./a1";
import { isCalculating } from "./cell-errors";
import { systemClock, type Clock } from "./clock";
import { waitForIdle, type CustomFunctionCalls } from "./completion";
import { findMdCells } from "./formula-cells";
import type { CellResult, FreezeRecord, ValueBlock, ValueType, WorkbookAdapter } from "./workbook-adapter";

export type FreezeScope = "selection" | "sheet";

export interface FreezeReport {
  scope: FreezeScope;
  sheet: string;
  /** ISO 8601 time written into each record. */
  frozenAt: string;
  /** Formula cells replaced by values. */
  formulas: number;
  /** Cells written (a spilled table counts all its cells). */
  cells: number;
  records: FreezeRecord[];
  /** Formulas left in place because they were still calculating. */
  stillCalculating: string[];
  /** MD calls still running when the wait for them ran out; nothing was frozen. */
  running: number;
  protected: boolean;
  /** False when the freeze stopped because the log could not be read or saved (then nothing was frozen). */
  recorded: boolean;
  message: string;
}

export interface FreezeOptions {
  clock?: Clock;
  /** The runtime's MD call counter: a value is frozen only once every running call has settled. */
  calls?: CustomFunctionCalls;
  /** How long to wait for running calls before giving up (nothing is frozen then). Every call settles within 60 s by design. */
  waitMs?: number;
  pollMs?: number;
}

export const DEFAULT_FREEZE_WAIT_MS = 65_000;

export async function freezeToValues(
  workbook: WorkbookAdapter,
  scope: FreezeScope,
  options: FreezeOptions = {},
): Promise<FreezeReport> {
  const clock = options.clock ?? systemClock;
  let sheet: string;
  let areas: Rect[] | null = null;
  if (scope === "selection") {
    const selection = await workbook.getSelection();
    sheet = selection.sheet;
    areas = selection.areas.map((area) => parseRange(area));
  } else {
    sheet = await workbook.getActiveSheet();
  }
  const frozenAt = new Date(clock.now()).toISOString();
  const report: FreezeReport = {
    scope,
    sheet,
    frozenAt,
    formulas: 0,
    cells: 0,
    records: [],
    stillCalculating: [],
    running: 0,
    protected: false,
    recorded: true,
    message: "",
  };
  const where = scope === "selection" ? "in the selection" : `on "${sheet}"`;

  const snapshot = await workbook.readFormulaCells(sheet);
  if (snapshot.protected) {
    report.protected = true;
    report.message = `Sheet "${sheet}" is protected; unprotect it to freeze its MD formulas.`;
    return report;
  }
  // Only settled results: current Excel shows a cell's previous value while its function runs, so a
  // value read while MD calls run may be the stale one. Wait for them; freeze nothing if they do not end.
  if (options.calls) {
    let running = 0;
    const idle = await waitForIdle(options.calls, {
      clock,
      deadline: clock.now() + (options.waitMs ?? DEFAULT_FREEZE_WAIT_MS),
      pollMs: options.pollMs ?? 250,
      onWait: (n) => void (running = n),
    });
    if (!idle) {
      report.running = running;
      report.message = `${running} MD call(s) are still running, so their cells may show old values. Nothing was frozen; freeze again when they have finished.`;
      return report;
    }
  }
  const cells = findMdCells(snapshot);
  const results =
    cells.length > 0
      ? await workbook.readResults(
          sheet,
          cells.map((cell) => cell.address),
        )
      : [];

  // A table is frozen whole when any of its cells is selected: part of a spill cannot stay a formula.
  const chosen = results
    .map((result, i) => ({ result, formula: cells[i].formula }))
    .filter(({ result }) => !areas || areas.some((area) => intersects(area, parseRange(result.range))));

  const blocks: ValueBlock[] = [];
  for (const { result, formula } of chosen) {
    if (isCalculating(result.values[0]?.[0])) {
      report.stillCalculating.push(result.address);
      continue;
    }
    blocks.push({ address: result.range, values: frozenValues(result) });
    report.records.push({ sheet, address: result.address, range: result.range, formula, frozenAt });
    report.cells += result.values.reduce((sum, line) => sum + line.length, 0);
  }
  report.formulas = report.records.length;

  if (blocks.length > 0) {
    // Record first, write second: a formula is replaced only once the log that can bring it back is saved.
    let earlier: FreezeRecord[];
    try {
      earlier = await workbook.readFreezeLog();
    } catch (error) {
      return stopped(report, `the workbook's freeze log could not be read (${reasonOf(error)})`);
    }
    try {
      await workbook.writeFreezeLog([...earlier, ...report.records]);
    } catch (error) {
      return stopped(report, `the freeze log could not be saved (${reasonOf(error)})`);
    }
    try {
      await workbook.writeValues(sheet, blocks);
    } catch (error) {
      // The formulas stay; take their records out again (they would claim cells that were not frozen).
      await workbook.writeFreezeLog(earlier).catch(() => undefined);
      return stopped(report, `Excel refused to write the values (${reasonOf(error)})`);
    }
  }
  if (!report.message) report.message = summary(report, where);
  return report;
}

/** Nothing was frozen: every formula is still in its cell. */
function stopped(report: FreezeReport, why: string): FreezeReport {
  report.recorded = false;
  report.message = `Nothing was frozen: ${why}. Every MD formula is still in its cell.`;
  report.formulas = 0;
  report.cells = 0;
  report.records = [];
  return report;
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function summary(report: FreezeReport, where: string): string {
  const calculating = report.stillCalculating.length
    ? ` ${report.stillCalculating.length} still calculating (${report.stillCalculating.join(", ")}) left as formulas.`
    : "";
  if (report.formulas === 0) return `No MD formulas to freeze ${where}.${calculating}`;
  return `Froze ${report.formulas} MD formula(s) ${where} into ${report.cells} value cell(s).${calculating}`;
}

/**
 * Values as they must be written to come back as the same values. Excel reads
 * an assigned string the way it reads typing: "=x" becomes a formula, "00123"
 * a number, "1/2" a date. A leading apostrophe keeps text as text (and is not
 * part of the value); error values are written as their code, which Excel
 * turns back into the error.
 */
export function frozenValues(result: Pick<CellResult, "values" | "types">): unknown[][] {
  return result.values.map((line, r) =>
    line.map((value, c) => {
      const type: ValueType | undefined = result.types[r]?.[c];
      if (type === "Empty") return "";
      if (typeof value === "string" && value !== "" && type !== "Error") return `'${value}`;
      return value;
    }),
  );
}
