/**
 * Undo freeze in the workbook: a frozen formula goes back into its cell only
 * where its range still holds exactly the values the freeze wrote and no
 * formula, read in the same batch as the write.
 */
import { holdsFormula } from "../../refresh/formula-cells";
import type { FormulaRestore, RestoreOutcome } from "../../refresh/workbook-adapter";

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

/** The restores whose range holds no formula and the frozen values; the others go to `outcome.changed`. */
async function unchangedRestores(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  restores: readonly FormulaRestore[],
  outcome: RestoreOutcome,
): Promise<FormulaRestore[]> {
  const reads = restores.map((restore) => {
    const range = sheet.getRange(restore.range);
    range.load("formulas,values");
    return { restore, range };
  });
  await context.sync();
  const chosen = reads.filter(({ restore, range }) => {
    const noFormula = range.formulas.every((line, r) =>
      line.every((formula, c) => !holdsFormula({ formula, value: range.values[r][c] })),
    );
    const same = noFormula && restore.unchanged(range.values as unknown[][]);
    if (!same) outcome.changed.push(restore.address);
    return same;
  });
  return chosen.map(({ restore }) => restore);
}

/** All in one sync; when Excel refuses one, each on its own, so only the refused ones fail. */
async function applyRestores(
  context: Excel.RequestContext,
  sheet: Excel.Worksheet,
  chosen: readonly FormulaRestore[],
  outcome: RestoreOutcome,
): Promise<void> {
  // Clear first (a formula cannot spill over the frozen values), then enter the formula in its cell.
  const apply = (restore: FormulaRestore) => {
    sheet.getRange(restore.range).clear("Contents");
    sheet.getRange(restore.address).formulas = [[restore.formula]];
  };
  try {
    chosen.forEach((restore) => apply(restore));
    await context.sync();
    outcome.restored.push(...chosen.map((restore) => restore.address));
  } catch {
    for (const restore of chosen) {
      try {
        apply(restore);
        await context.sync();
        outcome.restored.push(restore.address);
      } catch (error) {
        outcome.refused.push({
          address: restore.address,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
}
