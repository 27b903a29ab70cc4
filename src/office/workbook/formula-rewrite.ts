/**
 * Entering formulas again, the one rule the Excel adapter keeps itself: each
 * block is re-read in the same batch as the write, because only such a read
 * is current, and only cells that still hold exactly the scanned formula are
 * written.
 */
import { cellAddress, cellsOf, parseRange, withoutSheet } from "../../refresh/a1";
import { holdsFormula, planBlocks, type FormulaCell } from "../../refresh/formula-cells";
import type { FormulaBlock, RewriteOutcome } from "../../refresh/workbook-adapter";
import { inChunks } from "./sync-chunks";

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
  const refused = await writeFormulaBlocks(context, sheet, planBlocks(unchanged));
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

/** Each block's formulas and values now, with each cell's spill parent where dynamic arrays exist (ExcelApi 1.12). */
async function rereadBlocks(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  blocks: readonly FormulaBlock[],
  spillsSupported: () => boolean,
): Promise<{ reads: BlockRead[]; parents: Map<string, Excel.Range> }> {
  const reads: BlockRead[] = [];
  const parents = new Map<string, Excel.Range>();
  await inChunks(context, blocks, (block) => {
    const range = sheet.getRange(block.address);
    range.load("formulas,values");
    reads.push({ block, range });
    if (spillsSupported()) {
      const rect = parseRange(block.address);
      for (let row = rect.top; row <= rect.bottom; row += 1) {
        for (let col = rect.left; col <= rect.right; col += 1) {
          const parent = range.getCell(row - rect.top, col - rect.left).getSpillParentOrNullObject();
          parent.load("address");
          parents.set(cellAddress(row, col), parent);
        }
      }
    }
  });
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

/** Writes the blocks; returns those Excel refused, with its reason. */
async function writeFormulaBlocks(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  writes: readonly FormulaBlock[],
): Promise<RewriteOutcome["refused"]> {
  const refused: RewriteOutcome["refused"] = [];
  try {
    await inChunks(context, writes, (block) => {
      sheet.getRange(block.address).formulas = block.formulas;
    });
  } catch {
    // One refused block (a legacy array formula, a locked cell) fails the batch: try each on its own.
    // Rewriting a block the failed batch had already applied only runs its functions once more.
    for (const block of writes) {
      try {
        sheet.getRange(block.address).formulas = block.formulas;
        await context.sync();
      } catch (error) {
        refused.push({
          address: block.address,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
  return refused;
}
