/**
 * From a sheet's formulas grid to the cells to rewrite, and from those cells
 * to as few write operations as possible.
 */
import { cellAddress, parseRange, rectAddress, type Rect } from "./a1";
import { callsMd } from "./md-formula";
import type { FormulaBlock, SheetFormulas } from "./workbook-adapter";

export interface FormulaCell {
  row: number;
  col: number;
  address: string;
  formula: string;
}

/**
 * The cells of a sheet whose formula calls an MD function. A spilled array is
 * found once, at its anchor: the cells it spills into report values, not the
 * formula, so they never match.
 */
export function findMdCells(sheet: SheetFormulas): FormulaCell[] {
  if (!sheet.usedAddress) return [];
  const origin = parseRange(sheet.usedAddress);
  const cells: FormulaCell[] = [];
  sheet.formulas.forEach((line, r) => {
    line.forEach((formula, c) => {
      if (!callsMd(formula)) return;
      const row = origin.top + r;
      const col = origin.left + c;
      cells.push({ row, col, address: cellAddress(row, col), formula: formula as string });
    });
  });
  return cells;
}

/**
 * Groups cells into rectangles that contain nothing else: runs of adjacent
 * cells in a row, stacked while the next row has a run over exactly the same
 * columns. A comps sheet with a 200 × 5 block of MD.LATEST becomes one
 * assignment instead of 1,000, and no rectangle ever covers a cell outside
 * `cells` — rewriting a neighbour would re-enter someone else's formula or
 * overwrite a value a spill put there.
 */
export function planBlocks(cells: readonly FormulaCell[]): FormulaBlock[] {
  const byRow = new Map<number, FormulaCell[]>();
  for (const cell of cells) {
    const line = byRow.get(cell.row) ?? [];
    line.push(cell);
    byRow.set(cell.row, line);
  }

  interface OpenBlock {
    rect: Rect;
    formulas: string[][];
  }
  const done: OpenBlock[] = [];
  // Blocks that end on the previous row, keyed by "left:right".
  let open = new Map<string, OpenBlock>();
  let previousRow = Number.NEGATIVE_INFINITY;

  for (const row of [...byRow.keys()].sort((a, b) => a - b)) {
    if (row !== previousRow + 1) {
      done.push(...open.values());
      open = new Map();
    }
    const next = new Map<string, OpenBlock>();
    for (const run of runsOf(byRow.get(row)!)) {
      const key = `${run[0].col}:${run[run.length - 1].col}`;
      const formulas = run.map((cell) => cell.formula);
      const above = open.get(key);
      if (above) {
        above.rect.bottom = row;
        above.formulas.push(formulas);
        open.delete(key);
        next.set(key, above);
      } else {
        const rect = { top: row, bottom: row, left: run[0].col, right: run[run.length - 1].col };
        next.set(key, { rect, formulas: [formulas] });
      }
    }
    done.push(...open.values());
    open = next;
    previousRow = row;
  }
  done.push(...open.values());

  return done
    .sort((a, b) => a.rect.top - b.rect.top || a.rect.left - b.rect.left)
    .map((block) => ({ address: rectAddress(block.rect), formulas: block.formulas }));
}

/** Maximal runs of horizontally adjacent cells, left to right. */
function runsOf(line: FormulaCell[]): FormulaCell[][] {
  const sorted = [...line].sort((a, b) => a.col - b.col);
  const runs: FormulaCell[][] = [];
  for (const cell of sorted) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1].col === cell.col - 1) run.push(cell);
    else runs.push([cell]);
  }
  return runs;
}
