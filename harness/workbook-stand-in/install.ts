/**
 * Installs the stand-in: `Excel` (excel.ts) and `Office` (office.ts) over one
 * model of the workbook (model.ts), and the handle a test inspects and acts
 * through as a user would (typing, undo, protection, cell edit, pressing a
 * ribbon command). Also the page's entry (page-source.ts).
 */
import { key, parseCell, rectText } from "./addresses";
import { enterValue, undo } from "./cell-entry";
import { asJson, basic, shownFormat, typeOf } from "./data-types";
import { makeExcel } from "./excel";
import { createModel, ownFormat, read, selectCells, sheetNamed, usedRect } from "./model";
import { makeOffice, runCommand } from "./office";
import type { StandInHooks, WorkbookRecording, WorkbookStandIn } from "./types";
import { cardOf } from "./value-properties";

/** Installs `Excel` and `Office` on `target` (globalThis in the page) and returns the handle tests inspect. */
export function installWorkbookStandIn(
  target: Record<string, unknown>,
  recording: WorkbookRecording,
  hooks: StandInHooks = {},
): WorkbookStandIn {
  const m = createModel(recording, hooks);
  target.Excel = makeExcel(m);
  target.Office = makeOffice(m);
  return {
    log: m.log,
    page: m.page,
    settings: m.savedSettings,
    cell(sheetName, address) {
      const sheet = sheetNamed(m, sheetName);
      const { row, col } = parseCell(address);
      const cell = read(sheet, row, col);
      return { formula: cell.formula, value: basic(cell.value), type: typeOf(cell.value) };
    },
    display(sheetName, address) {
      const sheet = sheetNamed(m, sheetName);
      const { row, col } = parseCell(address);
      const value = read(sheet, row, col).value;
      const at = key(row, col);
      return { format: shownFormat(value, sheet.formats.get(at)), own: ownFormat(sheet, at), json: asJson(value) };
    },
    card(sheetName, address) {
      const { row, col } = parseCell(address);
      return cardOf(read(sheetNamed(m, sheetName), row, col).value);
    },
    customXmlParts: () => m.parts.map(({ namespace, xml }) => ({ namespace, xml })),
    runCommand: (id) => runCommand(m, id),
    idle: () =>
      m.running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => m.idleWaiters.push(resolve)),
    select(sheet, areas) {
      selectCells(m, sheetNamed(m, sheet).name, areas);
    },
    activate(sheetName) {
      m.activeSheet = sheetNamed(m, sheetName).name;
    },
    edit(sheetName, address, entry) {
      enterValue(m, sheetNamed(m, sheetName), address, entry, "user");
    },
    undo: () => undo(m),
    protect(sheetName, on) {
      sheetNamed(m, sheetName).protected = on;
    },
    startCellEdit() {
      m.cellEdit.on = true;
    },
    endCellEdit() {
      m.cellEdit.on = false;
      for (const resume of m.cellEdit.waiting.splice(0)) resume();
    },
    sheetNames: () => m.sheets.map((s) => s.name),
    usedRange(sheetName) {
      const r = usedRect(sheetNamed(m, sheetName), true);
      return r && rectText(r);
    },
    spillOf(sheetName, address) {
      const { row, col } = parseCell(address);
      return read(sheetNamed(m, sheetName), row, col).spillOf;
    },
    selection: () => ({ sheet: m.selection.sheet, areas: [...m.selection.areas] }),
    activeSheet: () => m.activeSheet,
    columnWidth: (sheetName, column) => sheetNamed(m, sheetName).columnWidths?.get(column.toUpperCase()) ?? null,
    isBold: (sheetName, address) => sheetNamed(m, sheetName).bold?.has(address.toUpperCase()) ?? false,
  };
}
