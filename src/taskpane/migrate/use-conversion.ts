/**
 * Convert and Undo conversion: the chosen formulas replaced in one batch, and
 * what Undo puts back (only where a cell still holds what was written), with
 * a sentence saying what each did. Both scan the workbook again after.
 */
import { useState } from "react";
import type { FormulaChange, MigrationWorkbook, ReplaceOutcome } from "../../office/workbook/formula-migration";
import { errorText } from "../shared/error-text";
import { cellName, plural } from "./cell-name";
import type { Row } from "./use-artemis-scan";

/** What Undo puts back: each cell converted since the last undo, what Excel stored there, and the original. */
export interface Conversion {
  cells: { sheet: string; address: string; stored: string; original: string }[];
}

export interface Result {
  intent: "success" | "warning" | "error";
  text: string;
}

/** What a Convert or an Undo did: `done`, then the sheets skipped (protected), the cells left alone (edited since) and the ones Excel refused. */
function replaceResult(outcome: ReplaceOutcome, done: string, changedSince: string): Result {
  const left = [
    ...outcome.skipped.map(
      (s) => `Sheet ${s.sheet} skipped (${plural(s.cells, "formula")} left as they are): ${s.reason}.`,
    ),
    outcome.changed.length > 0 &&
      `${changedSince} (${outcome.changed.map((c) => cellName(c.sheet, c.address)).join(", ")}).`,
    outcome.refused.length > 0 &&
      `Excel refused ${outcome.refused.map((r) => `${cellName(r.sheet, r.address)} (${r.reason})`).join(", ")}.`,
  ].filter(Boolean);
  return { intent: left.length ? "warning" : "success", text: [done, ...left].join(" ") };
}

export function useConversion(book: MigrationWorkbook, runScan: () => Promise<void>) {
  const [busy, setBusy] = useState<"convert" | "undo" | null>(null);
  const [undo, setUndo] = useState<Conversion | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  const convert = async (chosen: readonly Row[]) => {
    const changes: FormulaChange[] = chosen.map((row) => ({
      sheet: row.sheet,
      address: row.address,
      from: row.formula,
      to: row.converted!.formula,
    }));
    const originals = new Map(chosen.map((row) => [row.key, row.formula]));
    setBusy("convert");
    setResult(null);
    try {
      const outcome = await book.replaceFormulas(changes);
      const cells = outcome.written.map((cell) => ({
        sheet: cell.sheet,
        address: cell.address,
        stored: cell.formula,
        original: originals.get(cellName(cell.sheet, cell.address))!,
      }));
      // A second conversion before an undo adds to what Undo puts back (its cells held Artemis formulas, so they differ).
      if (cells.length > 0) setUndo((previous) => ({ cells: [...(previous?.cells ?? []), ...cells] }));
      setResult(
        replaceResult(
          outcome,
          `Converted ${plural(outcome.written.length, "formula")}.`,
          `${plural(outcome.changed.length, "formula")} left as they are: changed since the scan`,
        ),
      );
    } catch (error) {
      setResult({ intent: "error", text: `Nothing was converted: ${errorText(error)}` });
    } finally {
      setBusy(null);
    }
    await runScan();
  };

  const undoConversion = async () => {
    if (!undo) return;
    setBusy("undo");
    setResult(null);
    try {
      const outcome = await book.replaceFormulas(
        undo.cells.map((cell) => ({ sheet: cell.sheet, address: cell.address, from: cell.stored, to: cell.original })),
      );
      setUndo(null);
      setResult(
        replaceResult(
          outcome,
          `Restored ${plural(outcome.written.length, "original formula")}.`,
          `${plural(outcome.changed.length, "cell")} edited since the conversion kept as they are`,
        ),
      );
    } catch (error) {
      setResult({ intent: "error", text: `Nothing was restored: ${errorText(error)}` });
    } finally {
      setBusy(null);
    }
    await runScan();
  };

  return { busy, undo, result, convert, undoConversion };
}
