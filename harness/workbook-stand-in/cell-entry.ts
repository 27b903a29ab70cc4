/**
 * What a write does to a cell, by the add-in (`Range.formulas` / `values`,
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.range) or by a
 * user typing, and how Ctrl+Z takes it back (Microsoft Learn, "Undo
 * capabilities in Excel add-ins",
 * https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-add-ins-undo-capabilities).
 *
 * - Entering a formula calculates it, in manual mode too; entering the same
 *   formula again keeps its value and spill.
 * - `Range.formulas`: "If a cell has no formula, its value is returned
 *   instead". Text typed or written with a leading apostrophe is stored
 *   without it, and `formulas` returns the bare text — office-js issue #6687
 *   ("range.formulas removes Leading Single Quote"). So text such as
 *   `=MD.LATEST(…)` reads back exactly like a formula.
 * - Protection (Excel.WorksheetProtection,
 *   https://learn.microsoft.com/en-us/javascript/api/excel/excel.worksheetprotection):
 *   a protected sheet refuses writes; calculating is not a write. Cells the
 *   recording lists (part of a legacy array formula) refuse writes too.
 * - Undo: "Excel add-ins support undo behavior", actions by the API and by
 *   the user share one undo stack, and with `mergeUndoGroup` (ExcelApi 1.20)
 *   "all context.sync() calls in a single Excel.run are merged into one undo
 *   group"; without it each sync is a step (request-context.ts). `undo()`
 *   plays Ctrl+Z for cell contents written through `formulas`/`values` or
 *   typed; saving document settings clears the stack (settings.ts). Hosts
 *   that keep no undo for add-in changes are not modelled.
 */
import { inside, officeError, parseCell, type Rect } from "./addresses";
import { breakSpillAt, calculate, clearSpill } from "./calculation";
import type { Cell, Model, Sheet } from "./model";

function remember(m: Model, sheet: Sheet, address: string): void {
  const cell = sheet.cells.get(address);
  const entry = { sheet, address, before: cell ? { ...cell } : undefined };
  if (m.undoStep) m.undoStep.push(entry);
  else m.undoStack.push([entry]);
}

/** Ctrl+Z: reverts the newest undo step; false when there is none. */
export function undo(m: Model): boolean {
  const step = m.undoStack.pop();
  if (!step) return false;
  for (const { sheet, address, before } of [...step].reverse()) {
    breakSpillAt(sheet, address);
    clearSpill(sheet, address);
    if (!before || before.spillOf) sheet.cells.delete(address);
    else sheet.cells.set(address, { ...before, spill: null });
  }
  // Restored formulas calculate again (a spill comes back with its result).
  for (const { sheet, address, before } of step) if (before?.formula) calculate(m, sheet, address, "entered");
  return true;
}

function enterFormula(m: Model, sheet: Sheet, address: string, formula: string, source: "api" | "user"): void {
  breakSpillAt(sheet, address);
  const previous = sheet.cells.get(address);
  if (previous?.formula !== formula) clearSpill(sheet, address);
  const cell: Cell = {
    formula,
    value: previous?.formula === formula ? previous.value : "",
    spillOf: null,
    spill: previous?.formula === formula ? previous.spill : null,
  };
  sheet.cells.set(address, cell);
  if (source === "api") m.log.formulaWrites.push({ sheet: sheet.name, address, formula });
  // Entering a formula calculates it, in manual mode too.
  calculate(m, sheet, address, "entered");
}

export function enterValue(
  m: Model,
  sheet: Sheet,
  address: string,
  value: unknown,
  source: "api" | "user" = "api",
): void {
  remember(m, sheet, address);
  if (typeof value === "string" && value.startsWith("=")) return enterFormula(m, sheet, address, value, source);
  breakSpillAt(sheet, address);
  clearSpill(sheet, address);
  if (source === "api") m.log.valueWrites.push({ sheet: sheet.name, address, value });
  let stored = value;
  // The apostrophe marks text as text and is not part of the value (office-js #6687).
  if (typeof value === "string" && value.startsWith("'")) stored = value.slice(1);
  else if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) stored = Number(value);
  if (stored === "" || stored === null) sheet.cells.delete(address);
  else sheet.cells.set(address, { formula: null, value: stored, spillOf: null, spill: null });
}

export function guardWrite(m: Model, sheet: Sheet, rect: Rect): void {
  if (sheet.protected)
    throw officeError("AccessDenied", "The cell or chart you're trying to change is on a protected sheet.");
  for (const refused of m.recording.refuseWrites ?? []) {
    if (refused.sheet !== sheet.name) continue;
    const { row, col } = parseCell(refused.address);
    if (inside(rect, row, col)) {
      throw officeError("InvalidOperation", `You can't change part of an array (${refused.address}).`);
    }
  }
}
