/**
 * "Freeze to values": replace MD formulas with what they show now, so the
 * workbook can go to people who do not have the add-in (or a key) and they see
 * numbers instead of #NAME?. Each frozen formula is recorded — sheet, cell,
 * formula, range, time — in the workbook's freeze log (see the Excel adapter
 * for where it lives), so the owner can tell what was frozen and when, and put
 * the formulas back. The log is written before the values: a log that cannot
 * be read, parsed or saved stops the freeze, so no formula is ever replaced
 * without its record.
 *
 * A frozen cell keeps the format it showed: dates stay dates, prices keep
 * `$#,##0.00`, percentages stay percentages (the adapter reads the format
 * each cell shows and writes it onto the cell with the value).
 *
 * An MD.ASSET card reads as `#VALUE!` (an entity's basic value), so it is
 * frozen from its JSON: as a static card, which keeps its card and every
 * `=A1.Price` without the add-in, or as its text where Excel refuses the card
 * (cell-cards.ts); the report, its message and the log say which.
 */
import { intersects, parseRange, qualifiedAddress, type Rect } from "./a1";
import { isEntity, shownText, staticCard, valueBehindError } from "./cell-cards";
import { isCalculating } from "./cell-errors";
import { systemClock, type Clock } from "./clock";
import { waitForIdle, type CustomFunctionCalls } from "./completion";
import { findMdCells } from "./formula-cells";
import type { CellJson, CellResult, FreezeRecord, ValueBlock, ValueType, WorkbookAdapter } from "./workbook-adapter";

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
  /** MD.ASSET cards (formula cells): kept as static cards, or frozen as their text because Excel refused the card (its reason). */
  cards: { asCards: string[]; asText: string[]; reason: string | null };
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
    cards: { asCards: [], asText: [], reason: null },
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
  /** For each card's record, the hash its range reads with the card's text in place of the card. */
  const asTextHashes = new Map<FreezeRecord, string>();
  for (const { result, formula } of chosen) {
    if (isCalculating(result.values[0]?.[0])) {
      report.stillCalculating.push(result.address);
      continue;
    }
    const frozen = frozenCells(result);
    // The format each cell shows goes with its value: a format carried in the value (a date, $, %) does not
    // survive `Range.values`, so it is put on the cell, where a colleague's Excel of any version shows it.
    blocks.push({ address: result.range, values: frozen.values, formats: result.formats, ...frozen.cards });
    const record: FreezeRecord = {
      sheet,
      address: result.address,
      range: result.range,
      formula,
      frozenAt,
      // A card reads back as #VALUE!, as it did before the freeze.
      valuesHash: valuesHash(result.values),
      ...(frozen.cards ? { frozenAs: "card" as const } : {}),
    };
    if (frozen.cards) {
      asTextHashes.set(record, valuesHash(frozen.asText));
      report.cards.asCards.push(result.address);
    }
    report.records.push(record);
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
    const refused = await writeFrozen(workbook, sheet, blocks, report, earlier, asTextHashes);
    if (refused) return stopped(report, `Excel refused to write the values (${refused})`);
  }
  if (!report.message) report.message = summary(report, where);
  return report;
}

/**
 * Writes the frozen values, cards as cards. Where Excel refuses that write and
 * it held cards, the cards go as their text instead, and their records get the
 * hash of the text (what Undo freeze will read) and say "text". Returns
 * Excel's reason when nothing could be written; then the records are taken
 * out of the log again (they would claim cells that were not frozen).
 */
async function writeFrozen(
  workbook: WorkbookAdapter,
  sheet: string,
  blocks: ValueBlock[],
  report: FreezeReport,
  earlier: FreezeRecord[],
  asTextHashes: Map<FreezeRecord, string>,
): Promise<string | null> {
  let refusal: string;
  try {
    await workbook.writeValues(sheet, blocks);
    return null;
  } catch (error) {
    refusal = reasonOf(error);
  }
  if (asTextHashes.size > 0) {
    try {
      await workbook.writeValues(
        sheet,
        blocks.map(({ cards: _cards, ...block }) => block),
      );
      for (const [record, hash] of asTextHashes) Object.assign(record, { valuesHash: hash, frozenAs: "text" });
      report.cards = { asCards: [], asText: report.cards.asCards, reason: refusal };
      // The cells hold the text now: a log that keeps the cards' hashes only makes Undo call them changed.
      await workbook.writeFreezeLog([...earlier, ...report.records]).catch(() => undefined);
      return null;
    } catch (error) {
      refusal = reasonOf(error);
    }
  }
  await workbook.writeFreezeLog(earlier).catch(() => undefined);
  return refusal;
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
  const { asCards, asText, reason } = report.cards;
  const cards =
    (asCards.length > 0
      ? ` ${asCards.length} MD.ASSET card(s) kept as cards (${asCards.join(", ")}): they no longer update, and formulas such as =A1.Price still read them.`
      : "") +
    (asText.length > 0
      ? ` ${asText.length} MD.ASSET card(s) frozen as their text (Excel refused the card: ${reason}): formulas such as =A1.Price that read them now show #VALUE!.`
      : "");
  return `Froze ${report.formulas} MD formula(s) ${where} into ${report.cells} value cell(s).${cards}${calculating}`;
}

/**
 * Values as they must be written to come back as the same values. Excel reads
 * an assigned string the way it reads typing: "=x" becomes a formula, "00123"
 * a number, "1/2" a date. A leading apostrophe keeps text as text (and is not
 * part of the value); error values are written as their code, which Excel
 * turns back into the error. A value that reads as an error but is a data
 * type (an MD.ASSET card: cell-cards.ts) is written as the text it shows, and
 * an entity as itself over it (`cards`); `asText` is what the range reads
 * back where only the text is written.
 */
export function frozenCells(result: Pick<CellResult, "values" | "types" | "errorsAsJson">): {
  values: unknown[][];
  asText: unknown[][];
  cards?: { cards: (CellJson | null)[][] };
} {
  let cards: (CellJson | null)[][] | null = null;
  const textBehind = (r: number, c: number) => {
    const behind = valueBehindError(result, r, c);
    return behind ? shownText(behind) : null;
  };
  const asText = result.values.map((line, r) => line.map((value, c) => textBehind(r, c) ?? value));
  const values = result.values.map((line, r) =>
    line.map((value, c) => {
      const type: ValueType | undefined = result.types[r]?.[c];
      const behind = valueBehindError(result, r, c);
      if (isEntity(behind)) {
        cards ??= result.values.map((row) => row.map(() => null));
        cards[r][c] = staticCard(behind);
      }
      const text = textBehind(r, c);
      if (text !== null) return `'${text}`;
      if (type === "Empty") return "";
      if (typeof value === "string" && value !== "" && type !== "Error") return `'${value}`;
      return value;
    }),
  );
  return cards ? { values, asText, cards: { cards } } : { values, asText };
}

/**
 * A short hash of a range's values as Excel reads them (FNV-1a, 32 bits, over
 * their JSON), with the range's size: what the freeze log keeps instead of
 * the values, so Undo freeze can tell whether the cells still hold what the
 * freeze wrote. Values written by a freeze read back as they were read
 * (`frozenCells`: text as text, errors as errors, cards as cards), so an untouched range
 * hashes alike; an edit changes it (a collision is a 1 in 4 billion chance).
 */
export function valuesHash(values: readonly (readonly unknown[])[]): string {
  const text = JSON.stringify(values);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${values.length}x${values[0]?.length ?? 0}:${hash.toString(16).padStart(8, "0")}`;
}

export interface UndoFreezeReport {
  /** The freeze undone: the latest `frozenAt` in the log; null when the log is empty. */
  frozenAt: string | null;
  /** Formula cells whose formula is back ("Sheet1!B2"). */
  restored: string[];
  /** Left alone because a cell of the frozen range was changed since (edited, cleared, or given a formula). */
  changed: string[];
  /** Records from before the log kept a values hash: their cells cannot be checked, so they are left alone. */
  unverified: string[];
  /** Excel refused the restore (a protected sheet), with its reason. */
  refused: { address: string; reason: string }[];
  /** False when the log could not be read or saved. */
  recorded: boolean;
  message: string;
}

/**
 * "Undo freeze": the formulas of the last freeze go back into their cells,
 * where those cells still hold exactly the values that freeze wrote (never
 * over a cell the user changed since), and their records leave the log.
 * Records of that freeze that were not restored stay in the log, so a later
 * undo (once the user reverts the edit) can still restore them.
 */
export async function undoLastFreeze(workbook: WorkbookAdapter): Promise<UndoFreezeReport> {
  const report: UndoFreezeReport = {
    frozenAt: null,
    restored: [],
    changed: [],
    unverified: [],
    refused: [],
    recorded: true,
    message: "",
  };
  let log: FreezeRecord[];
  try {
    log = await workbook.readFreezeLog();
  } catch (error) {
    report.recorded = false;
    report.message = `Nothing was restored: the workbook's freeze log could not be read (${reasonOf(error)}).`;
    return report;
  }
  if (log.length === 0) {
    report.message = "There is no freeze to undo: this workbook's freeze log is empty.";
    return report;
  }
  const frozenAt = log.reduce((latest, r) => (r.frozenAt > latest ? r.frozenAt : latest), log[0].frozenAt);
  report.frozenAt = frozenAt;
  const last = log.filter((r) => r.frozenAt === frozenAt);
  const restoredRecords = new Set<FreezeRecord>();
  const sheets = [...new Set(last.map((r) => r.sheet))];
  for (const sheet of sheets) {
    const records = last.filter((r) => r.sheet === sheet);
    for (const r of records.filter((r) => r.valuesHash === undefined))
      report.unverified.push(qualifiedAddress(sheet, r.address));
    const checkable = records.filter((r) => r.valuesHash !== undefined);
    if (checkable.length === 0) continue;
    let outcome;
    try {
      outcome = await workbook.restoreFormulas(
        sheet,
        checkable.map((r) => ({
          address: r.address,
          range: r.range,
          formula: r.formula,
          unchanged: (values: unknown[][]) => valuesHash(values) === r.valuesHash,
        })),
      );
    } catch (error) {
      for (const r of checkable)
        report.refused.push({ address: qualifiedAddress(sheet, r.address), reason: reasonOf(error) });
      continue;
    }
    const back = new Set(outcome.restored);
    for (const r of checkable) if (back.has(r.address)) restoredRecords.add(r);
    report.restored.push(...outcome.restored.map((a) => qualifiedAddress(sheet, a)));
    report.changed.push(...outcome.changed.map((a) => qualifiedAddress(sheet, a)));
    report.refused.push(
      ...outcome.refused.map((f) => ({ address: qualifiedAddress(sheet, f.address), reason: f.reason })),
    );
  }
  if (restoredRecords.size > 0) {
    try {
      await workbook.writeFreezeLog(log.filter((r) => !restoredRecords.has(r)));
    } catch (error) {
      // The formulas are back; their records stay, which an undo run again will find already changed.
      report.recorded = false;
      report.message = `${undoSummary(report)} The freeze log could not be updated (${reasonOf(error)}).`;
      return report;
    }
  }
  report.message = undoSummary(report);
  return report;
}

function undoSummary(report: UndoFreezeReport): string {
  const parts = [
    report.restored.length > 0
      ? `Restored ${report.restored.length} MD formula(s) frozen at ${report.frozenAt}.`
      : `No formula of the freeze at ${report.frozenAt} was restored.`,
  ];
  if (report.changed.length > 0)
    parts.push(`${report.changed.length} left as they are: changed since the freeze (${report.changed.join(", ")}).`);
  if (report.unverified.length > 0)
    parts.push(
      `${report.unverified.length} frozen before the log could check values, left as they are (${report.unverified.join(", ")}).`,
    );
  if (report.refused.length > 0) parts.push(`Excel refused ${report.refused.length}: ${report.refused[0].reason}`);
  return parts.join(" ");
}
