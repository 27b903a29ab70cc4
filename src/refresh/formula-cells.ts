/**
 * From a sheet's formulas grid to the cells to rewrite, and from those cells
 * to as few write operations as possible.
 */
import { parseCell, rectAddress, type Rect } from "./a1";
import { callsMd, isFormula } from "./md-formula";
import type { FormulaBlock, FormulaReading, SheetScan } from "./workbook-adapter";

export interface FormulaCell {
  row: number;
  col: number;
  address: string;
  formula: string;
}

/**
 * True only for a cell that really holds a formula. A text constant reads
 * back from `Range.formulas` as its value — `=HYPERLINK(…,MD.VERSION())` in a
 * catalog title, text Freeze wrote with an apostrophe, a user's quoted note —
 * and its value is that same text; a formula's value is its result, never its
 * own text. (A formula whose result is a number or TRUE/FALSE differs from its
 * text by type.)
 */
export function holdsFormula(
  reading: Pick<FormulaReading, "formula" | "value">,
): reading is { formula: string; value: unknown } {
  return isFormula(reading.formula) && !(typeof reading.value === "string" && reading.value === reading.formula);
}

/**
 * The cells of a sheet whose formula calls an MD function. Only formula cells
 * are candidates: constants that look like formulas never are (see
 * `holdsFormula`), and neither are the cells a dynamic array spills into, whose
 * `formulas` entry is their value.
 */
export function findMdCells(scan: Pick<SheetScan, "cells">): FormulaCell[] {
  const cells: FormulaCell[] = [];
  for (const reading of scan.cells) {
    if (!holdsFormula(reading) || !callsMd(reading.formula)) continue;
    const { row, col } = parseCell(reading.address);
    cells.push({ row, col, address: reading.address, formula: reading.formula });
  }
  return cells.sort((a, b) => a.row - b.row || a.col - b.col);
}

/**
 * While Excel is still loading the add-in, its functions are unknown names and
 * formulas read `=_xldudf_MD_LATEST(…)` instead of `=MD.LATEST(…)`. Such cells
 * cannot be refreshed yet; counting them tells a refresh on open to wait.
 */
const UNREGISTERED_MD = /(^|[^A-Za-z0-9_.])_xldudf_MD_[A-Za-z0-9_.]*\(/i;

export function countUnregisteredMdCells(scan: Pick<SheetScan, "cells">): number {
  return scan.cells.filter((reading) => holdsFormula(reading) && UNREGISTERED_MD.test(reading.formula)).length;
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
