/**
 * Formulas replaced cell by cell in one Excel.run, within Excel on the web's
 * 5 MB a request (sync-chunks.ts): a protected sheet is skipped with its
 * reason, read first (`Worksheet.protection.protected`, ExcelApi 1.2:
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.worksheetprotection)
 * instead of each of its cells tried and refused; the other cells are re-read,
 * written and read back a contiguous block at a time (one range and one
 * `Range.formulas` per block, not a range per cell: "Create fewer range
 * objects", Microsoft Learn, "Performance optimization using the Excel
 * JavaScript API"), each sheet named once, in syncs the payload budget sizes.
 */
import { cellAddress, cellsOf, parseCell, parseRange } from "../../refresh/a1";
import { planBlocks, type FormulaCell } from "../../refresh/formula-cells";
import type { FormulaBlock } from "../../refresh/workbook-adapter";
import type { WorkbookFormula } from "./formula-scan";
import { formulaBands, loadFormulaBlocks, rangeCost, valueBytes, writeRefusable } from "./sync-chunks";

/** One cell's formula to replace: `from` is what it must still hold. */
export interface FormulaChange {
  sheet: string;
  address: string;
  from: string;
  to: string;
}

export interface ReplaceOutcome {
  /** Cells written, with the formula Excel stored (what an undo must find there). */
  written: WorkbookFormula[];
  /** Cells left alone: they no longer held `from` (edited since, by the user or a co-author). */
  changed: { sheet: string; address: string }[];
  /** Cells Excel refused to write (part of an array, a locked cell), with its reason. */
  refused: { sheet: string; address: string; reason: string }[];
  /** Sheets left as they are, with how many of the cells were on each and why (a protected sheet). */
  skipped: { sheet: string; cells: number; reason: string }[];
}

/** Why a protected sheet is left as it is, in the user's words. */
export const PROTECTED_SHEET_REASON = "the sheet is protected (Review › Unprotect Sheet, then try again)";

/** Re-reads each cell in the batch that writes it (only such a read is current), writes the unchanged ones, reads back what Excel stored. */
export async function replaceInBatch(
  context: Excel.RequestContext,
  changes: readonly FormulaChange[],
): Promise<ReplaceOutcome> {
  const outcome: ReplaceOutcome = { written: [], changed: [], refused: [], skipped: [] };
  const bySheet = new Map<string, FormulaChange[]>();
  for (const change of changes) bySheet.set(change.sheet, [...(bySheet.get(change.sheet) ?? []), change]);
  const sheets = [...bySheet.keys()].map((name) => {
    const sheet = context.workbook.worksheets.getItem(name);
    sheet.protection.load("protected");
    return { name, sheet };
  });
  await context.sync();
  for (const { name, sheet } of sheets) {
    const sheetChanges = bySheet.get(name)!;
    if (sheet.protection.protected)
      outcome.skipped.push({ sheet: name, cells: sheetChanges.length, reason: PROTECTED_SHEET_REASON });
    else await replaceOnSheet(context, sheet, name, sheetChanges, outcome);
  }
  return inChangeOrder(outcome, changes);
}

/** One sheet's changes: blocks of the cells still holding `from`, written, then read back. */
async function replaceOnSheet(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  name: string,
  changes: readonly FormulaChange[],
  outcome: ReplaceOutcome,
): Promise<void> {
  const byAddress = new Map(changes.map((change) => [change.address, change]));
  const current = await readBlocks(
    context,
    sheet,
    blocksOf(changes, (change) => change.from),
  );
  const writes = changes.filter((change) => {
    const now = current.get(change.address);
    const unchanged = now !== undefined && now.formula === change.from && now.value !== now.formula;
    if (!unchanged) outcome.changed.push({ sheet: name, address: change.address });
    return unchanged;
  });
  const refused = new Set<string>();
  await writeRefusable(
    context,
    blocksOf(writes, (change) => change.to),
    {
      write: (block) => {
        sheet.getRange(block.address).formulas = block.formulas;
      },
      cost: (block) => rangeCost(block.address, valueBytes(block.formulas)),
      split: (block) =>
        cellsOf(block.address).map((address) => ({ address, formulas: [[byAddress.get(address)!.to]] })),
      refused: (block, reason) => {
        refused.add(block.address);
        outcome.refused.push({ sheet: name, address: block.address, reason });
      },
    },
  );
  const done = writes.filter((change) => !refused.has(change.address));
  const stored = await readBlocks(
    context,
    sheet,
    blocksOf(done, (change) => change.to),
  );
  for (const change of done) {
    const formula = stored.get(change.address)?.formula;
    outcome.written.push({
      sheet: name,
      address: change.address,
      formula: typeof formula === "string" ? formula : change.to,
    });
  }
}

/** The contiguous blocks of the changes' cells, each cell holding `formulaOf(change)`. */
function blocksOf(changes: readonly FormulaChange[], formulaOf: (change: FormulaChange) => string): FormulaBlock[] {
  const cells: FormulaCell[] = changes.map((change) => {
    const { row, col } = parseCell(change.address);
    return { row, col, address: change.address, formula: formulaOf(change) };
  });
  // A block of more than MAX_CELLS_PER_PIECE cells goes in bands, each within the budget.
  return planBlocks(cells).flatMap(formulaBands);
}

/** Each block's cells as they are now: formula and value by address. */
async function readBlocks(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  blocks: readonly FormulaBlock[],
): Promise<Map<string, { formula: unknown; value: unknown }>> {
  const reads = await loadFormulaBlocks(context, sheet, blocks);
  const cells = new Map<string, { formula: unknown; value: unknown }>();
  for (const { block, range } of reads) {
    const rect = parseRange(block.address);
    range.formulas.forEach((line, r) =>
      line.forEach((formula, c) =>
        cells.set(cellAddress(rect.top + r, rect.left + c), { formula, value: range.values[r][c] }),
      ),
    );
  }
  return cells;
}

/** The outcome's lists in the order the changes were given (blocks and sheets regroup them). */
function inChangeOrder(outcome: ReplaceOutcome, changes: readonly FormulaChange[]): ReplaceOutcome {
  const order = new Map(changes.map((change, i) => [`${change.sheet}\u0000${change.address}`, i]));
  const rank = (cell: { sheet: string; address: string }) => order.get(`${cell.sheet}\u0000${cell.address}`) ?? 0;
  const byRank = (a: { sheet: string; address: string }, b: { sheet: string; address: string }) => rank(a) - rank(b);
  return {
    written: outcome.written.sort(byRank),
    changed: outcome.changed.sort(byRank),
    refused: outcome.refused.sort(byRank),
    skipped: outcome.skipped,
  };
}
