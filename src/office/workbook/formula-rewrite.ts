/**
 * Entering formulas again, the one rule the Excel adapter keeps itself: each
 * block is re-read in the same batch as the write, because only such a read
 * is current, and only cells that still hold exactly the scanned formula are
 * written.
 */
import { cellAddress, cellsOf, parseRange, withoutSheet } from "../../refresh/a1";
import { holdsFormula, planBlocks, type FormulaCell } from "../../refresh/formula-cells";
import type { FormulaBlock, RewriteOutcome } from "../../refresh/workbook-adapter";
import {
  BYTES_PER_CELL_READ,
  formulaBands,
  inAddressChunks,
  loadFormulaBlocks,
  rangeCost,
  valueBytes,
  writeRefusable,
} from "./sync-chunks";

interface BlockRead {
  block: FormulaBlock;
  range: Excel.Range;
}

/** The blocks' cells sorted by what the re-read found. */
interface CellSort {
  unchanged: FormulaCell[];
  changed: string[];
  spilled: string[];
}

export async function rewriteFormulaBlocks(
  context: Excel.RequestContext,
  name: string,
  blocks: readonly FormulaBlock[],
  spillsSupported: () => boolean,
): Promise<RewriteOutcome> {
  const sheet = context.workbook.worksheets.getItem(name);
  const expected = expectedFormulas(blocks);
  // Re-read at the moment of writing: the scan may be seconds old, and the user or a co-author may have typed since.
  const { reads, parents } = await rereadBlocks(context, sheet, blocks, spillsSupported);
  const { unchanged, changed, spilled } = sortCells(reads, parents, expected);
  const writes = planBlocks(unchanged).flatMap(formulaBands);
  const refused = await writeFormulaBlocks(context, sheet, writes);
  const refusedCells = new Set(refused.flatMap((r) => cellsOf(r.address)));
  return {
    written: unchanged.map((cell) => cell.address).filter((address) => !refusedCells.has(address)),
    changed,
    spilled,
    refused,
  };
}

/** Cell address → the formula the scan found there. */
function expectedFormulas(blocks: readonly FormulaBlock[]): Map<string, string> {
  const expected = new Map<string, string>();
  for (const block of blocks) {
    const rect = parseRange(block.address);
    block.formulas.forEach((line, r) =>
      line.forEach((formula, c) => expected.set(cellAddress(rect.top + r, rect.left + c), formula)),
    );
  }
  return expected;
}

/**
 * Each block's formulas and values now (a big block in bands of rows), then
 * each cell's spill parent (ExcelApi 1.12), both in syncs the payload budget
 * sizes (sync-chunks.ts): three objects and calls a cell, 20,000 cells in
 * several syncs instead of one over 5 MB. Every cell is asked, not only
 * those whose formula changed: a cell inside a spill may read as its
 * anchor's formula (the worst case the stand-in can play,
 * `spilledCellsReportAnchorFormula`).
 */
async function rereadBlocks(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  blocks: readonly FormulaBlock[],
  spillsSupported: () => boolean,
): Promise<{ reads: BlockRead[]; parents: Map<string, Excel.Range> }> {
  const reads: BlockRead[] = await loadFormulaBlocks(context, sheet, blocks);
  const parents = new Map<string, Excel.Range>();
  if (!spillsSupported()) return { reads, parents };
  await inAddressChunks(
    context,
    reads.flatMap(({ block }) => cellsOf(block.address)),
    (address) => {
      const parent = sheet.getRange(address).getSpillParentOrNullObject();
      parent.load("address");
      parents.set(address, parent);
    },
    () => ({ operations: 3, bytes: BYTES_PER_CELL_READ }),
  );
  return { reads, parents };
}

/** Unchanged (still the scanned formula, as a formula), changed since the scan, or inside another formula's spill. */
function sortCells(
  reads: readonly BlockRead[],
  parents: Map<string, Excel.Range>,
  expected: Map<string, string>,
): CellSort {
  const sorted: CellSort = { unchanged: [], changed: [], spilled: [] };
  for (const { block, range } of reads) {
    const rect = parseRange(block.address);
    range.formulas.forEach((line, r) =>
      line.forEach((formula, c) => {
        const address = cellAddress(rect.top + r, rect.left + c);
        const parent = parents.get(address);
        const spilledFromElsewhere = parent && !parent.isNullObject && withoutSheet(parent.address) !== address;
        if (spilledFromElsewhere) sorted.spilled.push(address);
        else if (formula === expected.get(address) && holdsFormula({ formula, value: range.values[r][c] }))
          sorted.unchanged.push({ row: rect.top + r, col: rect.left + c, address, formula: formula as string });
        else sorted.changed.push(address);
      }),
    );
  }
  return sorted;
}

/** Writes the blocks within the payload budget; returns those Excel refused, with its reason (sync-chunks.ts finds them by halving). */
async function writeFormulaBlocks(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  writes: readonly FormulaBlock[],
): Promise<RewriteOutcome["refused"]> {
  const refused: RewriteOutcome["refused"] = [];
  // A refused block (a legacy array formula, a locked cell) is reported whole, as Excel refused it.
  await writeRefusable(context, writes, {
    write: (block) => {
      sheet.getRange(block.address).formulas = block.formulas;
    },
    cost: (block) => rangeCost(block.address, valueBytes(block.formulas)),
    split: () => [],
    refused: (block, reason) => refused.push({ address: block.address, reason }),
  });
  return refused;
}
