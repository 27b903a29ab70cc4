/**
 * What changed in the spilled tables Refresh all recalculated (refresh-changes.ts `tableChanges`): the MD cells
 * whose functions return a table (functions.json's `matrix` results) are read whole, one read of their spills per
 * sheet before the refresh and one after (WorkbookAdapter.readSpills: values only, in bands within Excel on the
 * web's 5 MB), and compared; no request. A workbook adapter without `readSpills` compares no table.
 */
import { parseCell } from "./a1";
import type { FormulaCell } from "./formula-cells";
import { MAX_CHANGES_PER_TABLE, tableChanges, type CellChange, type TableChange } from "./refresh-changes";
import type { SpillValues, WorkbookAdapter } from "./workbook-adapter";

/** The MD functions whose result is a table (dist/functions.json: `"dimensionality": "matrix"`; MD.ASSET's card is one cell). */
const TABLE_FUNCTION = /\bMD\.(SERIES|FLOWS|ASSETS|METRICS|INSIGHTS|SUPPLY|SNAPSHOT)\s*\(/i;

/** The cells whose formula may spill a table. */
export function tableAnchors(cells: readonly FormulaCell[]): string[] {
  return cells.filter((cell) => TABLE_FUNCTION.test(cell.formula)).map((cell) => cell.address);
}

/** The anchors' spills as they are now; none where there is no anchor or the adapter cannot read spills. */
export async function readTables(workbook: WorkbookAdapter, sheet: string, anchors: readonly string[]) {
  if (anchors.length === 0 || !workbook.readSpills) return [];
  return workbook.readSpills(sheet, anchors).catch((): SpillValues[] => []);
}

/** Each table read before compared with the same anchor's now: its changed cells (the first few) and its summary. */
export async function changedTables(
  workbook: WorkbookAdapter,
  sheet: string,
  before: readonly SpillValues[],
  note: (change: CellChange) => void,
): Promise<TableChange[]> {
  if (before.length === 0) return [];
  const after = await readTables(
    workbook,
    sheet,
    before.map((table) => table.address),
  );
  const now = new Map(after.map((table) => [table.address, table.values]));
  const summaries: TableChange[] = [];
  for (const table of before) {
    const values = now.get(table.address);
    if (!values) continue;
    const { row, col } = parseCell(table.address);
    const { cells, summary } = tableChanges(
      sheet,
      { address: table.address, top: row, left: col },
      table.values,
      values,
    );
    cells.slice(0, MAX_CHANGES_PER_TABLE).forEach(note);
    if (summary.changed + summary.rowsIn + summary.rowsOut > 0) summaries.push(summary);
  }
  return summaries;
}
