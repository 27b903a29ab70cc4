/**
 * The workbook's contents behind the proxies (Excel.Workbook,
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.workbook): its
 * sheets and their cells, the selection and the active sheet, the
 * calculation mode, the custom functions running, the undo stack, document
 * settings and custom XML parts, and the log tests read. Every other piece
 * reads and changes this one model; the proxies add-in code holds (range.ts,
 * worksheet.ts, workbook.ts) find their cells here at sync, as Office.js
 * objects find theirs in the document.
 *
 * Requirement sets (Office.context.requirements.isSetSupported,
 * https://learn.microsoft.com/en-us/javascript/api/office/office.requirementsetsupport):
 * the recorded ExcelApi (1.20 when absent); SharedRuntime is supported
 * unless the recording makes `setStartupBehavior` fail.
 *
 * Before registration Excel shows the add-in's functions as unknown names
 * (`_xldudf_MD_…`), as while it loads the add-in; other add-ins' functions
 * read as custom-functions.ts models.
 */
import { extend, inside, key, officeError, parseCell, parseRect, type Rect } from "./addresses";
import { shownWithOtherAddIns } from "./custom-functions";
import { basic } from "./data-types";
import { makeRuntimePage, type RuntimePage } from "./runtime-page";
import type { RecordedSheet, StandInHooks, StandInLog, WorkbookRecording } from "./types";

export interface Cell {
  formula: string | null;
  value: unknown;
  spillOf: string | null;
  spill: { rows: number; cols: number } | null;
  dirty?: boolean;
}

export interface Sheet {
  name: string;
  protected: boolean;
  cells: Map<string, Cell>;
  formattedTo: string | null;
  /** The cells' own number formats, apart from their contents: a cleared or rewritten cell keeps its format. */
  formats: Map<string, string>;
  /** Column widths in points set through `format.columnWidth`, by column letters. */
  columnWidths?: Map<string, number>;
  /** Cells made bold through `format.font.bold`. */
  bold?: Set<string>;
}

/** A cell as it was before a write, to put back on undo. */
export interface UndoEntry {
  sheet: Sheet;
  address: string;
  before: Cell | undefined;
}

export interface Model {
  recording: WorkbookRecording;
  hooks: StandInHooks;
  log: StandInLog;
  sheets: Sheet[];
  selection: { sheet: string; areas: string[] };
  /** Office's DocumentSelectionChanged handlers (office.ts), told after each change of the selection (selectCells). */
  selectionHandlers: Set<(args: { type: string }) => void>;
  activeSheet: string;
  calculationMode: NonNullable<WorkbookRecording["calculationMode"]>;
  /** Document settings as the add-in sees them, and as last saved (`saveAsync`). */
  settings: Record<string, unknown>;
  savedSettings: Record<string, unknown>;
  parts: { id: string; namespace: string; xml: string }[];
  /** Ribbon commands by id (`Office.actions.associate`). */
  actions: Map<string, (event: { completed(): void }) => unknown>;
  /** Running custom functions by "Sheet!A1": the timer and the runtime call to settle. */
  running: Map<string, { stop: () => void; end: () => void }>;
  idleWaiters: (() => void)[];
  installedAt: number;
  /** The newest ExcelApi the host has. */
  excelApi: string;
  whileCalculating: NonNullable<WorkbookRecording["whileCalculating"]>;
  undoStack: UndoEntry[][];
  /** The step the running sync's writes join; null outside a sync (a user's edit is a step of its own). */
  undoStep: UndoEntry[] | null;
  /** The user is typing in a cell; the batches waiting for them to leave it. */
  cellEdit: { on: boolean; waiting: (() => void)[] };
  /** The runtime's page (runtime-page.ts). */
  page: RuntimePage;
}

export function createModel(recording: WorkbookRecording, hooks: StandInHooks): Model {
  const settings: Record<string, unknown> = { ...(recording.documentSettings ?? {}) };
  return {
    recording,
    hooks,
    log: {
      runs: 0,
      syncs: 0,
      runOptions: [],
      formulaWrites: [],
      valueWrites: [],
      formatWrites: [],
      cellsLoaded: 0,
      calculations: [],
      unsupportedCalls: [],
      settingsSaves: 0,
      startupBehavior: [],
      associated: [],
      charts: [],
      sheetsAdded: [],
      largestRequestBytes: 0,
      largestResponseBytes: 0,
      payloadRefusals: 0,
    },
    sheets: recording.sheets.map(loadSheet),
    selection: { sheet: recording.selection.sheet, areas: [...recording.selection.areas] },
    selectionHandlers: new Set(),
    activeSheet: recording.activeSheet,
    calculationMode: recording.calculationMode ?? "Automatic",
    settings,
    savedSettings: { ...settings },
    parts: (recording.customXmlParts ?? []).map((p, i) => ({ id: `part-${i}`, ...p })),
    actions: new Map(),
    running: new Map(),
    idleWaiters: [],
    installedAt: Date.now(),
    excelApi: recording.excelApi ?? "1.20",
    whileCalculating: recording.whileCalculating ?? "stale",
    undoStack: [],
    undoStep: null,
    cellEdit: { on: recording.inCellEdit === true, waiting: [] },
    page: makeRuntimePage(recording.platform ?? "PC", recording.runtimeStartedBy ?? "document"),
  };
}

/** A recorded sheet as the model holds it: a spill's covered cells stored apart from its anchor. */
function loadSheet(s: RecordedSheet): Sheet {
  const cells = new Map<string, Cell>();
  const formats = new Map<string, string>();
  const sheet: Sheet = { name: s.name, protected: !!s.protected, cells, formattedTo: s.formattedTo ?? null, formats };
  for (const [where, format] of Object.entries(s.numberFormats ?? {})) {
    const r = parseRect(where);
    for (let row = r.top; row <= r.bottom; row += 1)
      for (let col = r.left; col <= r.right; col += 1) formats.set(key(row, col), format);
  }
  for (const [address, rec] of Object.entries(s.cells)) {
    const { row, col } = parseCell(address);
    const anchor = key(row, col);
    if (rec.spill) {
      rec.spill.forEach((line, r) =>
        line.forEach((value, c) => {
          if (r === 0 && c === 0) return;
          cells.set(key(row + r, col + c), { formula: null, value, spillOf: anchor, spill: null });
        }),
      );
    }
    cells.set(anchor, {
      formula: rec.formula ?? null,
      value: rec.spill ? rec.spill[0][0] : (rec.value ?? ""),
      spillOf: null,
      spill: rec.spill ? { rows: rec.spill.length, cols: rec.spill[0].length } : null,
    });
  }
  return sheet;
}

const version = (v: string) => v.split(".").map(Number);
const atLeast = (have: string, want: string) => {
  const [a, b] = version(have);
  const [c, d] = version(want);
  return a > c || (a === c && b >= d);
};

export const supports = (m: Model, set: string, minVersion = "1.1") =>
  set === "ExcelApi"
    ? atLeast(m.excelApi, minVersion)
    : set === "SharedRuntime"
      ? !m.recording.startupBehaviorFails
      : true;

export const sheetNamed = (m: Model, name: string) => {
  const sheet = m.sheets.find((s) => s.name === name);
  if (!sheet) throw officeError("ItemNotFound", `The requested resource doesn't exist: worksheet "${name}".`);
  return sheet;
};

export const read = (sheet: Sheet, row: number, col: number): Cell =>
  sheet.cells.get(key(row, col)) ?? { formula: null, value: "", spillOf: null, spill: null };

export const ownFormat = (sheet: Sheet, address: string) => sheet.formats.get(address) ?? "General";

const registered = (m: Model) => Date.now() - m.installedAt >= (m.recording.registerAfterMs ?? 0);

/** Before registration Excel shows the add-in's functions as unknown names; other add-ins' as custom-functions.ts says. */
const shownFormula = (m: Model, formula: string) =>
  shownWithOtherAddIns(registered(m) ? formula : formula.replace(/\bMD\./gi, "_xldudf_MD_"), m.recording.otherAddIns);

/** `Range.formulas` of one cell: its formula, else its value (see range.ts). */
export const formulaOf = (m: Model, sheet: Sheet, cell: Cell): unknown => {
  if (cell.formula !== null) return shownFormula(m, cell.formula);
  if (cell.spillOf && m.recording.spilledCellsReportAnchorFormula) {
    const anchor = sheet.cells.get(cell.spillOf);
    if (anchor?.formula) return shownFormula(m, anchor.formula);
  }
  return basic(cell.value);
};

export const isFormulaCell = (m: Model, cell: Cell) =>
  cell.formula !== null || (cell.spillOf !== null && m.recording.specialCellsIncludeSpills !== false);

/** `Worksheet.getUsedRangeOrNullObject(valuesOnly)`: formatting alone extends it unless `valuesOnly`. */
export const usedRect = (sheet: Sheet, valuesOnly: boolean): Rect | null => {
  let r: Rect | null = null;
  for (const [address, cell] of sheet.cells) {
    if (cell.formula === null && (cell.value === "" || cell.value === null)) continue;
    const { row, col } = parseCell(address);
    r = extend(r, row, col);
  }
  if (!valuesOnly && sheet.formattedTo) {
    const corner = parseCell(sheet.formattedTo);
    r = extend(extend(r, 0, 0), corner.row, corner.col);
  }
  return r;
};

/** Maximal rectangles covering exactly the cells `pick` accepts inside `within`: row runs, stacked when the next row's run matches. */
export function areasOf(sheet: Sheet, within: Rect, pick: (cell: Cell) => boolean): Rect[] {
  const byRow = new Map<number, number[]>();
  for (const [address, cell] of sheet.cells) {
    const { row, col } = parseCell(address);
    if (!inside(within, row, col) || !pick(cell)) continue;
    byRow.set(row, [...(byRow.get(row) ?? []), col]);
  }
  const done: Rect[] = [];
  let open = new Map<string, Rect>();
  let previous = Number.NEGATIVE_INFINITY;
  for (const row of [...byRow.keys()].sort((a, b) => a - b)) {
    if (row !== previous + 1) {
      done.push(...open.values());
      open = new Map();
    }
    const next = new Map<string, Rect>();
    const cols = byRow.get(row)!.sort((a, b) => a - b);
    for (let i = 0; i < cols.length;) {
      let j = i;
      while (j + 1 < cols.length && cols[j + 1] === cols[j] + 1) j += 1;
      const runKey = `${cols[i]}:${cols[j]}`;
      const above = open.get(runKey);
      if (above) {
        above.bottom = row;
        open.delete(runKey);
        next.set(runKey, above);
      } else {
        next.set(runKey, { top: row, bottom: row, left: cols[i], right: cols[j] });
      }
      i = j + 1;
    }
    done.push(...open.values());
    open = next;
    previous = row;
  }
  done.push(...open.values());
  return done.sort((a, b) => a.top - b.top || a.left - b.left);
}

/**
 * The selection moves (the user clicks, or `Range.select()`): Excel raises DocumentSelectionChanged, after the change, asynchronously
 * (https://learn.microsoft.com/en-us/javascript/api/office/office.documentselectionchangedeventargs).
 */
export function selectCells(m: Model, sheet: string, areas: string[]): void {
  m.selection = { sheet, areas: [...areas] };
  const handlers = [...m.selectionHandlers];
  setTimeout(() => {
    for (const handler of handlers) if (m.selectionHandlers.has(handler)) handler({ type: "documentSelectionChanged" });
  }, 0);
}
