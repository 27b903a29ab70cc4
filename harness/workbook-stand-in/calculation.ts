/**
 * Recalculation and dynamic arrays: Excel.Application.calculate
 * (https://learn.microsoft.com/en-us/javascript/api/excel/excel.application),
 * Range.calculate / setDirty (https://learn.microsoft.com/en-us/javascript/api/excel/excel.range),
 * and spilling ("Handle dynamic arrays and spilling",
 * https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-add-ins-ranges-dynamic-arrays).
 *
 * - `Range.calculate()` (1.6) recalculates the range; `Range.setDirty()` (1.9)
 *   marks it, and Excel recalculates marked cells at once in automatic mode,
 *   at the next calculation in manual mode; `Worksheet.calculate(markAllDirty)`
 *   (1.6) and `Application.calculate` (1.1).
 * - A custom function is a call into the add-in's runtime that settles later;
 *   while it runs, current Excel keeps showing the old value (with a refresh
 *   icon) rather than #BUSY!. A host may skip custom functions on
 *   recalculation (as F9 does: office-js #1462).
 * - A result spills into its neighbours unless one holds something (#SPILL!);
 *   a write into a spill breaks it.
 */
import { inside, key, parseCell, type Rect } from "./addresses";
import { type Model, read, type Sheet } from "./model";
import type { RecordedResult, StandInHooks } from "./types";
import { acceptedValue, propertyReference, readProperty } from "./value-properties";

export function clearSpill(sheet: Sheet, anchor: string): void {
  const cell = sheet.cells.get(anchor);
  if (!cell?.spill) return;
  for (const [address, other] of [...sheet.cells]) if (other.spillOf === anchor) sheet.cells.delete(address);
  cell.spill = null;
}

/** A write into a cell a spill covers breaks that spill, as in Excel. */
export function breakSpillAt(sheet: Sheet, address: string): void {
  const cell = sheet.cells.get(address);
  if (!cell?.spillOf) return;
  const anchor = sheet.cells.get(cell.spillOf);
  const anchorAddress = cell.spillOf;
  clearSpill(sheet, anchorAddress);
  if (anchor) anchor.value = "#SPILL!";
}

/** `=B2.Date`: the property of B2's value, read now (value-properties.ts). */
function landProperty(sheet: Sheet, address: string, reference: { address: string; name: string }): void {
  const cell = sheet.cells.get(address);
  if (!cell) return;
  const { row, col } = parseCell(reference.address);
  cell.value = readProperty(read(sheet, row, col).value, reference.name);
}

/** The cells that read a property of `address`'s value, read again now its value has landed. */
function refreshPropertyReaders(sheet: Sheet, address: string): void {
  for (const [at, other] of sheet.cells) {
    const reference = other.formula ? propertyReference(other.formula) : null;
    if (reference?.address === address) landProperty(sheet, at, reference);
  }
}

function landResult(m: Model, sheet: Sheet, address: string, formula: string, result: RecordedResult): void {
  const cell = sheet.cells.get(address);
  if (!cell || cell.formula !== formula) return; // rewritten or frozen meanwhile
  if (!result.spill) {
    clearSpill(sheet, address);
    cell.value = acceptedValue(m, result.value ?? "");
    refreshPropertyReaders(sheet, address);
    return;
  }
  const { row, col } = parseCell(address);
  const rows = result.spill.length;
  const cols = result.spill[0].length;
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      if (r === 0 && c === 0) continue;
      const other = read(sheet, row + r, col + c);
      if (other.formula !== null || (other.value !== "" && other.spillOf !== address)) {
        clearSpill(sheet, address);
        cell.value = "#SPILL!";
        return;
      }
    }
  }
  clearSpill(sheet, address);
  result.spill.forEach((line, r) =>
    line.forEach((value, c) => {
      if (r === 0 && c === 0) return;
      sheet.cells.set(key(row + r, col + c), {
        formula: null,
        value: acceptedValue(m, value),
        spillOf: address,
        spill: null,
      });
    }),
  );
  cell.value = acceptedValue(m, result.spill[0][0]);
  cell.spill = { rows, cols };
  refreshPropertyReaders(sheet, address);
}

function settleIfIdle(m: Model): void {
  if (m.running.size > 0) return;
  const waiters = m.idleWaiters;
  m.idleWaiters = [];
  waiters.forEach((w) => w());
}

/** Excel runs the cell's formula: an MD function is a call into the add-in's runtime that settles later. */
export function calculate(m: Model, sheet: Sheet, address: string, reason: "entered" | "recalculated"): void {
  const { recording, running, log, hooks } = m;
  const cell = sheet.cells.get(address);
  if (!cell?.formula) return;
  cell.dirty = false;
  const formula = cell.formula;
  const reference = propertyReference(formula);
  if (reference) return landProperty(sheet, address, reference);
  const recorded = recording.results[formula];
  // Not recorded and not computed by the page: an ordinary formula (same inputs, same value, at once).
  if (!recorded && !hooks.evaluate) return;
  if (reason === "recalculated" && recording.calculateSkipsCustomFunctions) return;
  const id = `${sheet.name}!${address}`;
  const previous = running.get(id);
  const entry = { stop: () => undefined as void, end: () => undefined as void };
  const land = (result: RecordedResult) => {
    if (running.get(id) !== entry) return; // superseded meanwhile
    running.delete(id);
    landResult(m, sheet, address, formula, result);
    entry.end();
    hooks.changed?.();
    settleIfIdle(m);
  };
  if (recorded) {
    const timer = setTimeout(() => land(recorded), recorded.afterMs ?? 20);
    entry.stop = () => clearTimeout(timer);
  } else {
    const run = hooks.evaluate?.(formula, { sheet: sheet.name, address });
    if (!run) return;
    void run.result.then(land, () => land({ value: "#VALUE!" }));
    entry.stop = () => run.cancel();
  }
  if (previous) {
    // Excel cancels the superseded call; the runtime sees it settle.
    previous.stop();
    previous.end();
  }
  log.calculations.push(id);
  // Current Excel keeps the last value on screen while the function runs; a new formula has none.
  if (m.whileCalculating === "#BUSY!" || cell.value === "") cell.value = "#BUSY!";
  const calls = hooks.calls ?? runtimeCalls();
  entry.end = calls ? calls.begin() : () => undefined;
  running.set(id, entry);
}

/** In the page, the add-in's runtime registry (src/office/runtime-registry.ts) holds the call counter. */
function runtimeCalls(): StandInHooks["calls"] | undefined {
  const runtime = (globalThis as Record<symbol, { calls?: StandInHooks["calls"] } | undefined>)[
    Symbol.for("market-data.runtime")
  ];
  return runtime?.calls;
}

export function calculateRect(m: Model, sheet: Sheet, r: Rect, onlyDirty: boolean): void {
  for (const [address, cell] of [...sheet.cells]) {
    const { row, col } = parseCell(address);
    if (cell.formula === null || !inside(r, row, col)) continue;
    if (onlyDirty && !cell.dirty) continue;
    calculate(m, sheet, address, "recalculated");
  }
}

export function markDirty(m: Model, sheet: Sheet, r: Rect): void {
  for (const [address, cell] of sheet.cells) {
    const { row, col } = parseCell(address);
    if (cell.formula !== null && inside(r, row, col)) cell.dirty = true;
  }
  // Automatic mode recalculates what is marked right away; manual mode waits for a calculation.
  if (m.calculationMode !== "Manual") calculateRect(m, sheet, r, true);
}
