/**
 * Undo freeze in the workbook: a frozen formula goes back into its cell only
 * where its range still holds exactly the values the freeze wrote and no
 * formula, read in the same batch as the write.
 */
import { holdsFormula } from "../../refresh/formula-cells";
import type { FormulaRestore, RestoreOutcome } from "../../refresh/workbook-adapter";
import { BYTES_PER_CELL_READ, loadInBands, valueBytes, writeRefusable } from "./sync-chunks";

export async function restoreFrozenFormulas(
  context: Excel.RequestContext,
  name: string,
  restores: readonly FormulaRestore[],
): Promise<RestoreOutcome> {
  const sheet = context.workbook.worksheets.getItem(name);
  const outcome: RestoreOutcome = { restored: [], changed: [], refused: [] };
  const chosen = await unchangedRestores(context, sheet, restores, outcome);
  await applyRestores(context, sheet, chosen, outcome);
  return outcome;
}

/**
 * The restores whose range holds no formula and the frozen values; the others
 * go to `outcome.changed`. Read within the payload budget, a big range (a
 * frozen spill) in bands of rows joined again.
 */
async function unchangedRestores(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  restores: readonly FormulaRestore[],
  outcome: RestoreOutcome,
): Promise<FormulaRestore[]> {
  const reads = await loadInBands(
    context,
    sheet,
    restores.map((restore) => restore.range),
    "formulas,values",
    2 * BYTES_PER_CELL_READ,
  );
  const formulas: unknown[][][] = restores.map(() => []);
  const values: unknown[][][] = restores.map(() => []);
  for (const { owner, range } of reads) {
    formulas[owner].push(...range.formulas);
    values[owner].push(...range.values);
  }
  return restores.filter((restore, i) => {
    const noFormula = formulas[i].every((line, r) =>
      line.every((formula, c) => !holdsFormula({ formula, value: values[i][r][c] })),
    );
    const same = noFormula && restore.unchanged(values[i]);
    if (!same) outcome.changed.push(restore.address);
    return same;
  });
}

/** In chunks within the payload budget; when Excel refuses one, halves of the chunk again, so only the refused ones fail (sync-chunks.ts). */
async function applyRestores(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  chosen: readonly FormulaRestore[],
  outcome: RestoreOutcome,
): Promise<void> {
  const refused = new Set<FormulaRestore>();
  await writeRefusable(context, chosen, {
    // Clear first (a formula cannot spill over the frozen values), then enter the formula in its cell.
    write: (restore) => {
      sheet.getRange(restore.range).clear("Contents");
      sheet.getRange(restore.address).formulas = [[restore.formula]];
    },
    cost: (restore) => ({ operations: 4, bytes: valueBytes([[restore.formula]]) }),
    split: () => [],
    refused: (restore, reason) => {
      refused.add(restore);
      outcome.refused.push({ address: restore.address, reason });
    },
  });
  outcome.restored.push(...chosen.filter((restore) => !refused.has(restore)).map((restore) => restore.address));
}
