/**
 * A recorded workbook behind the subset of Office.js the refresh feature uses:
 * `Excel.run` with proxy objects, `load`, and `context.sync()`;
 * `Office.context.document.settings`; `Office.addin`; `Office.actions`.
 *
 * Why not office-addin-mock for this part: its mocks are property bags. A
 * write to `range.formulas` is stored and nothing else happens, so it cannot
 * show a formula recalculating, a spill growing into its neighbours, a write
 * into a spill breaking it (#SPILL!), or a sync failing on a protected sheet —
 * the behaviours refresh and freeze exist to handle. Its `load("items/name")`
 * also cannot navigate into a collection's items. The Office.* parts are
 * covered with office-addin-mock in refresh-on-open.test.ts.
 *
 * What this keeps from Office.js: reading a property that was not loaded and
 * synced throws; writes and loads queue and run in order at `sync()`; a sync
 * that fails applies the operations before the failing one; each `sync()` is
 * counted, so tests can hold the feature to its batching.
 *
 * What it models from Microsoft's documentation (each a case in
 * docs/excel-checklist.md, since only real Excel can confirm it):
 * - `Range.formulas`: "If a cell has no formula, its value is returned
 *   instead" (Excel.Range, @types/office-js). Text typed or written with a
 *   leading apostrophe is stored without it, and `formulas` returns the bare
 *   text — office-js issue #6687 ("range.formulas removes Leading Single
 *   Quote"). So text such as `=MD.LATEST(…)` reads back exactly like a formula.
 * - `Range.getSpecialCells(OrNullObject)("Formulas")` (ExcelApi 1.9): the
 *   cells holding formulas, as a RangeAreas. Whether Excel counts the cells a
 *   dynamic array spills into is not documented; by default they are
 *   included, the worst case for refresh.
 * - `Worksheet.getUsedRangeOrNullObject(valuesOnly)` (ExcelApi 1.4):
 *   formatting alone extends the used range unless `valuesOnly` is true.
 * - Recalculation: `Range.calculate()` (1.6) recalculates the range;
 *   `Range.setDirty()` (1.9) marks it, and Excel recalculates marked cells at
 *   once in automatic mode, at the next calculation in manual mode;
 *   `Worksheet.calculate(markAllDirty)` (1.6) and `Application.calculate`
 *   (1.1). While a custom function runs, current Excel keeps showing the old
 *   value (with a refresh icon) rather than #BUSY!.
 * - Protection: a protected sheet refuses writes; calculating is not a write.
 * - The 1904 date system: `DATE(1904,1,1)` is 0 there and 1462 under 1900.
 * - `Excel.run(options, batch)` with `mergeUndoGroup` (ExcelApi 1.20).
 * - Cell edit (`RunOptions.delayForCellEdit`, ExcelApi 1.11): while the user is
 *   typing in a cell, "when false, … the batch automatically fails. When true,
 *   … the batch request is delayed until the user exits cell edit mode"; the
 *   default is false (@types/office-js, Excel.RunOptions).
 * - Office.context.requirements.isSetSupported against the recorded ExcelApi.
 * - Undo (Microsoft Learn, "Undo capabilities in Excel add-ins"): "Excel
 *   add-ins support undo behavior", actions by the API and by the user share
 *   one undo stack, and with `mergeUndoGroup` (ExcelApi 1.20) "all
 *   context.sync() calls in a single Excel.run are merged into one undo
 *   group"; without it each sync is a step. `undo()` plays Ctrl+Z for cell
 *   contents written through `formulas`/`values` or typed (`edit`); saving
 *   document settings clears the stack (office-js #3141). Hosts that keep no
 *   undo for add-in changes are not modelled.
 * - Charts: `Worksheet.charts.add(type, sourceData, seriesBy)` (ExcelApi 1.1),
 *   `Chart.title.text`, `Chart.setPosition(start, end)` (1.1) and
 *   `ChartAxis.setCategoryNames(range)` (1.7) are recorded, not drawn
 *   (https://learn.microsoft.com/en-us/javascript/api/excel/excel.chartcollection);
 *   with `Range.getOffsetRange` / `getResizedRange` (1.1 / 1.2) to name the cells.
 * - New sheets: `WorksheetCollection.add(name)` (ExcelApi 1.1) adds a worksheet
 *   at the end, usable in the same batch; the name "should be unique"
 *   (https://learn.microsoft.com/en-us/javascript/api/excel/excel.worksheetcollection#excel-excel-worksheetcollection-add-member(1)).
 *   Excel's sheet-name rules ("Rename a worksheet", support.microsoft.com:
 *   at most 31 characters, none of : \ / ? * [ ], not blank, no apostrophe
 *   first or last, not "History") and uniqueness without regard to case are
 *   enforced at sync: an invalid name fails with InvalidArgument, a taken one
 *   with ItemAlreadyExists (the codes of Excel.ErrorCodes,
 *   https://learn.microsoft.com/en-us/office/dev/add-ins/reference/javascript-api-for-office-error-codes).
 *   `Worksheet.activate()` (1.1) makes it the active sheet;
 *   `getItemOrNullObject` (1.4) and `Worksheet.delete()` (1.1) remove one.
 * - `RangeFormat.columnWidth` (1.2, points) on a column range ("B:D") and
 *   `RangeFont.bold` (1.1) are recorded per column and per cell
 *   (https://learn.microsoft.com/en-us/javascript/api/excel/excel.rangeformat).
 * - `Range.clear("Contents")` empties the cells (a spill anchor's spill too)
 *   and keeps their formats; `clear("All")` resets the formats too.
 * - Formats carried in values (Microsoft Learn, "Use data types with custom
 *   functions in Excel"; Excel.DoubleCellValue / FormattedNumberCellValue in
 *   @types/office-js): a cell's value may be a data-type object such as
 *   `{ type: "Double", basicValue, numberFormat }`. `Range.values` and
 *   `valueTypes` return its basic value and type ("the value that would be
 *   returned by `Range.values` for a cell with this value"), dropping the
 *   format; `Range.valuesAsJson` (ExcelApi 1.16) returns the object (a plain
 *   value as `{ type, basicValue }`); `Range.numberFormat` (1.1) is the
 *   cell's own format, "General" unless set, which stays on the cell when its
 *   contents change. What the user sees is the carried format, else the
 *   cell's own (`cell().format`).
 *
 * `installWorkbookStandIn` is self-contained (no imports, no outer helpers) so
 * the browser test can hand it to `page.addInitScript` as is.
 */

export interface RecordedCell {
  /** "=..." for a formula cell. */
  formula?: string;
  /** The saved value (the formula's last result, or a constant). Text entered with a leading apostrophe is stored without it. */
  value?: unknown;
  /** A saved dynamic-array result, anchor included; the cells it covers hold these values. */
  spill?: unknown[][];
}

export interface RecordedSheet {
  name: string;
  protected?: boolean;
  cells: Record<string, RecordedCell>;
  /** The far corner of cells that hold only formatting ("Z1048576"): the used range reaches it unless values only are asked for. */
  formattedTo?: string;
  /** Cells' own number formats (`Range.numberFormat`) by cell or range ("A5:A9"); "General" elsewhere. */
  numberFormats?: Record<string, string>;
}

/** What a formula evaluates to when (re)calculated. */
export interface RecordedResult {
  value?: unknown;
  spill?: unknown[][];
  /** Milliseconds the custom function runs before the result lands. */
  afterMs?: number;
}

export interface WorkbookRecording {
  sheets: RecordedSheet[];
  activeSheet: string;
  selection: { sheet: string; areas: string[] };
  documentSettings?: Record<string, unknown>;
  customXmlParts?: { namespace: string; xml: string }[];
  /** By formula text: the add-in's custom functions. Formulas not listed are ordinary Excel formulas: recalculating them keeps their value. */
  results: Record<string, RecordedResult>;
  /** Cells whose writes Excel refuses (e.g. part of a legacy array formula). */
  refuseWrites?: { sheet: string; address: string }[];
  /** Set to make `setStartupBehavior` reject, as on a host without SharedRuntime 1.1. */
  startupBehaviorFails?: string;
  /** The newest ExcelApi requirement set the host supports; "1.20" when absent. */
  excelApi?: string;
  /** What `Office.addin.getStartupBehavior()` answers before the add-in sets it (saved with the document). */
  startupBehavior?: "Load" | "None";
  calculationMode?: "Automatic" | "AutomaticExceptTables" | "Manual";
  /** The workbook uses the 1904 date system. */
  date1904?: boolean;
  /** What a cell shows while its custom function runs: current Excel keeps the old value ("stale", the default); older builds show #BUSY!. */
  whileCalculating?: "stale" | "#BUSY!";
  /** For this many ms after install the MD functions are not registered: formulas read `_xldudf_MD_…`, as while Excel loads the add-in. */
  registerAfterMs?: number;
  /** A host whose recalculation does not re-run custom functions (as F9 does not: office-js #1462). */
  calculateSkipsCustomFunctions?: boolean;
  /** getSpecialCells(formulas) also returns the cells a dynamic array spills into (undocumented; default true, the worst case). */
  specialCellsIncludeSpills?: boolean;
  /** `Range.formulas` of a spilled cell returns the anchor's formula (not what Learn says; a worst case to test against). */
  spilledCellsReportAnchorFormula?: boolean;
  /** Custom XML part reads fail with this message. */
  customXmlFails?: string;
  /** The user is typing in a cell from the start (until `endCellEdit`). */
  inCellEdit?: boolean;
}

/** How the stand-in reaches the add-in's runtime: each custom function Excel runs is one call the runtime sees start and settle. */
export interface StandInHooks {
  calls?: { begin(): () => void };
}

export interface StandInLog {
  runs: number;
  syncs: number;
  /** Options passed to `Excel.run(options, batch)`, in order (runs without options are not listed). */
  runOptions: Record<string, unknown>[];
  formulaWrites: { sheet: string; address: string; formula: string }[];
  valueWrites: { sheet: string; address: string; value: unknown }[];
  /** Cells whose own number format was set (`Range.numberFormat`). */
  formatWrites: { sheet: string; address: string; format: string }[];
  /** Cells whose formulas, values or valueTypes were loaded, counted once per property. */
  cellsLoaded: number;
  /** Custom function runs Excel started ("Sheet!A1"), by recalculation or by (re)entering a formula. */
  calculations: string[];
  /** API calls that need a requirement set the host lacks (they fail at sync). */
  unsupportedCalls: string[];
  settingsSaves: number;
  startupBehavior: string[];
  associated: string[];
  /** Charts added (`Worksheet.charts.add`), as they stand after the batch that made them. */
  charts: RecordedChart[];
  /** Worksheets added (`worksheets.add`), by name, in order. */
  sheetsAdded: string[];
}

/** A chart the add-in made: its type, source data and series orientation, category names, title and position. */
export interface RecordedChart {
  sheet: string;
  type: string;
  /** The source data range ("C2:D7"). */
  source: string;
  seriesBy: string;
  /** The range `categoryAxis.setCategoryNames` was given, if any. */
  categories: string | null;
  title: string | null;
  /** `setPosition(start, end)`: the cells the chart covers. */
  position: { start: string; end: string | null } | null;
  /** `categoryAxis.reversePlotOrder`, when it was set. */
  reversePlotOrder?: boolean;
}

export interface CellView {
  formula: string | null;
  /** What `Range.values` reads: a data type's basic value. */
  value: unknown;
  type: string;
}

/** How a cell shows its value. */
export interface CellDisplay {
  /** The number format the user sees: the one carried in the value, else the cell's own. */
  format: string;
  /** The cell's own number format (`Range.numberFormat`). */
  own: string;
  /** What `Range.valuesAsJson` reads. */
  json: Record<string, unknown>;
}

export interface WorkbookStandIn {
  log: StandInLog;
  cell(sheet: string, address: string): CellView;
  /** The format the cell shows its value in, and the value as `valuesAsJson` reads it. */
  display(sheet: string, address: string): CellDisplay;
  settings: Record<string, unknown>;
  customXmlParts(): { namespace: string; xml: string }[];
  /** Calls a ribbon command the add-in associated, with an event whose completion is observed. */
  runCommand(id: string): Promise<{ completed: boolean }>;
  /** Resolves once no custom function is running. */
  idle(): Promise<void>;
  select(sheet: string, areas: string[]): void;
  /** What a user (or a co-author) does by typing into a cell: a formula, or a constant (a leading apostrophe keeps text as text). */
  edit(sheet: string, address: string, entry: unknown): void;
  /** Ctrl+Z: reverts the newest undo step (see Undo above); false when there is none. */
  undo(): boolean;
  /** Turns sheet protection on or off. */
  protect(sheet: string, on: boolean): void;
  /** The user starts typing in a cell: batches without `delayForCellEdit` fail, the others wait. */
  startCellEdit(): void;
  /** The user leaves the cell: the batches that waited run. */
  endCellEdit(): void;
  /** The workbook's sheets, in tab order. */
  sheetNames(): string[];
  /** The sheet Excel shows (`Worksheet.activate`). */
  activeSheet(): string;
  /** A column's width in points as set through `format.columnWidth` ("B"), or null when never set. */
  columnWidth(sheet: string, column: string): number | null;
  /** Whether the cell was made bold (`format.font.bold`). */
  isBold(sheet: string, address: string): boolean;
}

/** Installs `Excel` and `Office` on `target` (globalThis in the page) and returns the handle tests inspect. */
export function installWorkbookStandIn(
  target: Record<string, unknown>,
  recording: WorkbookRecording,
  hooks: StandInHooks = {},
): WorkbookStandIn {
  type Cell = {
    formula: string | null;
    value: unknown;
    spillOf: string | null;
    spill: { rows: number; cols: number } | null;
    dirty?: boolean;
  };
  type Sheet = {
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
  };
  type Rect = { top: number; left: number; bottom: number; right: number };

  const ERRORS = [
    "#N/A",
    "#VALUE!",
    "#REF!",
    "#DIV/0!",
    "#NUM!",
    "#NAME?",
    "#NULL!",
    "#SPILL!",
    "#CALC!",
    "#BUSY!",
    "#GETTING_DATA",
    "#CONNECT!",
    "#BLOCKED!",
  ];
  const log: StandInLog = {
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
  };
  const settings: Record<string, unknown> = { ...(recording.documentSettings ?? {}) };
  const savedSettings: Record<string, unknown> = { ...settings };
  const parts: { id: string; namespace: string; xml: string }[] = (recording.customXmlParts ?? []).map((p, i) => ({
    id: `part-${i}`,
    ...p,
  }));
  const actions = new Map<string, (event: { completed(): void }) => unknown>();
  /** Running custom functions by "Sheet!A1": the timer and the runtime call to settle. */
  const running = new Map<string, { timer: unknown; end: () => void }>();
  let idleWaiters: (() => void)[] = [];
  let selection = { sheet: recording.selection.sheet, areas: [...recording.selection.areas] };
  let activeSheet = recording.activeSheet;
  let calculationMode = recording.calculationMode ?? "Automatic";
  const installedAt = Date.now();
  const registered = () => Date.now() - installedAt >= (recording.registerAfterMs ?? 0);
  const whileCalculating = recording.whileCalculating ?? "stale";

  // ---- requirement sets ----
  const version = (v: string) => v.split(".").map(Number);
  const atLeast = (have: string, want: string) => {
    const [a, b] = version(have);
    const [c, d] = version(want);
    return a > c || (a === c && b >= d);
  };
  const excelApi = recording.excelApi ?? "1.20";
  const supports = (set: string, minVersion = "1.1") =>
    set === "ExcelApi"
      ? atLeast(excelApi, minVersion)
      : set === "SharedRuntime"
        ? !recording.startupBehaviorFails
        : true;

  // ---- addresses ----
  const colIndex = (letters: string) =>
    [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  const colLetters = (index: number) => {
    let s = "";
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
    return s;
  };
  const key = (row: number, col: number) => `${colLetters(col)}${row + 1}`;
  const parseCell = (a: string) => {
    const m = /^\$?([A-Z]+)\$?(\d+)$/i.exec(a);
    if (!m) throw officeError("InvalidArgument", `The argument is invalid or missing or has an incorrect format: ${a}`);
    return { row: Number(m[2]) - 1, col: colIndex(m[1]) };
  };
  const parseRect = (address: string): Rect => {
    const local = address.slice(address.lastIndexOf("!") + 1);
    // A column range ("B:D"): every row of those columns.
    const columns = /^\$?([A-Z]+):\$?([A-Z]+)$/i.exec(local);
    if (columns) return { top: 0, left: colIndex(columns[1]), bottom: 1_048_575, right: colIndex(columns[2]) };
    const [a, b = a] = local.split(":");
    const p = parseCell(a);
    const q = parseCell(b);
    return {
      top: Math.min(p.row, q.row),
      left: Math.min(p.col, q.col),
      bottom: Math.max(p.row, q.row),
      right: Math.max(p.col, q.col),
    };
  };
  const rectText = (r: Rect) =>
    r.top === r.bottom && r.left === r.right ? key(r.top, r.left) : `${key(r.top, r.left)}:${key(r.bottom, r.right)}`;
  const sheetPrefix = (name: string) =>
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
  const cellsIn = (r: Rect) => (r.bottom - r.top + 1) * (r.right - r.left + 1);
  const inside = (r: Rect, row: number, col: number) =>
    row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;
  const grid = <T>(r: Rect, f: (row: number, col: number) => T): T[][] => {
    const out: T[][] = [];
    for (let row = r.top; row <= r.bottom; row += 1) {
      const line: T[] = [];
      for (let col = r.left; col <= r.right; col += 1) line.push(f(row, col));
      out.push(line);
    }
    return out;
  };

  function officeError(code: string, message: string): Error {
    const error = new Error(message) as Error & { code: string };
    error.name = "RichApi.Error";
    error.code = code;
    return error;
  }

  // ---- the workbook ----
  const sheets: Sheet[] = recording.sheets.map((s) => {
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
  });
  const sheetNamed = (name: string) => {
    const sheet = sheets.find((s) => s.name === name);
    if (!sheet) throw officeError("ItemNotFound", `The requested resource doesn't exist: worksheet "${name}".`);
    return sheet;
  };
  const read = (sheet: Sheet, row: number, col: number): Cell =>
    sheet.cells.get(key(row, col)) ?? { formula: null, value: "", spillOf: null, spill: null };
  /** A data type's basic value (what `Range.values` returns); a plain value as it is. */
  const basic = (value: unknown): unknown =>
    typeof value === "object" && value !== null && "basicValue" in value
      ? (value as { basicValue: unknown }).basicValue
      : value;
  /** The number format a data-type value carries, if any. */
  const carriedFormat = (value: unknown): string | null => {
    const format =
      typeof value === "object" && value !== null ? (value as { numberFormat?: unknown }).numberFormat : null;
    return typeof format === "string" ? format : null;
  };
  const ownFormat = (sheet: Sheet, address: string) => sheet.formats.get(address) ?? "General";
  /** `Range.valuesAsJson`: a data type as it is, a plain value as `{ type, basicValue }`. */
  const asJson = (value: unknown): Record<string, unknown> => {
    if (typeof value === "object" && value !== null && "type" in value)
      return { ...(value as Record<string, unknown>) };
    const type = typeOf(value);
    return type === "Empty" ? { type, basicValue: "" } : { type, basicValue: value };
  };
  const typeOf = (raw: unknown) => {
    const value = basic(raw);
    if (value === "" || value === null || value === undefined) return "Empty";
    if (typeof value === "number") return "Double";
    if (typeof value === "boolean") return "Boolean";
    if (typeof value === "string" && ERRORS.includes(value.toUpperCase())) return "Error";
    return "String";
  };
  /** Before registration Excel shows the add-in's functions as unknown names. */
  const shownFormula = (formula: string) => (registered() ? formula : formula.replace(/\bMD\./gi, "_xldudf_MD_"));
  const formulaOf = (sheet: Sheet, cell: Cell): unknown => {
    if (cell.formula !== null) return shownFormula(cell.formula);
    if (cell.spillOf && recording.spilledCellsReportAnchorFormula) {
      const anchor = sheet.cells.get(cell.spillOf);
      if (anchor?.formula) return shownFormula(anchor.formula);
    }
    return basic(cell.value);
  };
  const isFormulaCell = (cell: Cell) =>
    cell.formula !== null || (cell.spillOf !== null && recording.specialCellsIncludeSpills !== false);
  const extend = (r: Rect | null, row: number, col: number): Rect =>
    r
      ? {
          top: Math.min(r.top, row),
          left: Math.min(r.left, col),
          bottom: Math.max(r.bottom, row),
          right: Math.max(r.right, col),
        }
      : { top: row, left: col, bottom: row, right: col };
  const usedRect = (sheet: Sheet, valuesOnly: boolean): Rect | null => {
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
  function areasOf(sheet: Sheet, within: Rect, pick: (cell: Cell) => boolean): Rect[] {
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

  function clearSpill(sheet: Sheet, anchor: string): void {
    const cell = sheet.cells.get(anchor);
    if (!cell?.spill) return;
    for (const [address, other] of [...sheet.cells]) if (other.spillOf === anchor) sheet.cells.delete(address);
    cell.spill = null;
  }

  /** A write into a cell a spill covers breaks that spill, as in Excel. */
  function breakSpillAt(sheet: Sheet, address: string): void {
    const cell = sheet.cells.get(address);
    if (!cell?.spillOf) return;
    const anchor = sheet.cells.get(cell.spillOf);
    const anchorAddress = cell.spillOf;
    clearSpill(sheet, anchorAddress);
    if (anchor) anchor.value = "#SPILL!";
  }

  function landResult(sheet: Sheet, address: string, formula: string, result: RecordedResult): void {
    const cell = sheet.cells.get(address);
    if (!cell || cell.formula !== formula) return; // rewritten or frozen meanwhile
    if (!result.spill) {
      clearSpill(sheet, address);
      cell.value = result.value ?? "";
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
        sheet.cells.set(key(row + r, col + c), { formula: null, value, spillOf: address, spill: null });
      }),
    );
    cell.value = result.spill[0][0];
    cell.spill = { rows, cols };
  }

  function settleIfIdle(): void {
    if (running.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    waiters.forEach((w) => w());
  }

  /** Excel runs the cell's formula: an MD function is a call into the add-in's runtime that settles later. */
  function calculate(sheet: Sheet, address: string, reason: "entered" | "recalculated"): void {
    const cell = sheet.cells.get(address);
    if (!cell?.formula) return;
    cell.dirty = false;
    const result = recording.results[cell.formula];
    if (!result) return; // an ordinary formula: same inputs, same value, at once
    if (reason === "recalculated" && recording.calculateSkipsCustomFunctions) return;
    const id = `${sheet.name}!${address}`;
    const previous = running.get(id);
    if (previous) {
      // Excel cancels the superseded call; the runtime sees it settle.
      clearTimeout(previous.timer as ReturnType<typeof setTimeout>);
      previous.end();
    }
    log.calculations.push(id);
    // Current Excel keeps the last value on screen while the function runs; a new formula has none.
    if (whileCalculating === "#BUSY!" || cell.value === "") cell.value = "#BUSY!";
    const calls = hooks.calls ?? runtimeCalls();
    const end = calls ? calls.begin() : () => undefined;
    const formula = cell.formula;
    const timer = setTimeout(() => {
      running.delete(id);
      landResult(sheet, address, formula, result);
      end();
      settleIfIdle();
    }, result.afterMs ?? 20);
    running.set(id, { timer, end });
  }

  /** In the page, the add-in's runtime registry (src/office/runtime-registry.ts) holds the call counter. */
  function runtimeCalls(): StandInHooks["calls"] | undefined {
    const runtime = (globalThis as Record<symbol, { calls?: StandInHooks["calls"] } | undefined>)[
      Symbol.for("market-data.runtime")
    ];
    return runtime?.calls;
  }

  function calculateRect(sheet: Sheet, r: Rect, onlyDirty: boolean): void {
    for (const [address, cell] of [...sheet.cells]) {
      const { row, col } = parseCell(address);
      if (cell.formula === null || !inside(r, row, col)) continue;
      if (onlyDirty && !cell.dirty) continue;
      calculate(sheet, address, "recalculated");
    }
  }

  // ---- undo ----
  type UndoEntry = { sheet: Sheet; address: string; before: Cell | undefined };
  const undoStack: UndoEntry[][] = [];
  /** The step the running sync's writes join; null outside a sync (a user's edit is a step of its own). */
  let undoStep: UndoEntry[] | null = null;
  function remember(sheet: Sheet, address: string): void {
    const cell = sheet.cells.get(address);
    const entry = { sheet, address, before: cell ? { ...cell } : undefined };
    if (undoStep) undoStep.push(entry);
    else undoStack.push([entry]);
  }
  function undo(): boolean {
    const step = undoStack.pop();
    if (!step) return false;
    for (const { sheet, address, before } of [...step].reverse()) {
      breakSpillAt(sheet, address);
      clearSpill(sheet, address);
      if (!before || before.spillOf) sheet.cells.delete(address);
      else sheet.cells.set(address, { ...before, spill: null });
    }
    // Restored formulas calculate again (a spill comes back with its result).
    for (const { sheet, address, before } of step) if (before?.formula) calculate(sheet, address, "entered");
    return true;
  }

  function enterFormula(sheet: Sheet, address: string, formula: string, source: "api" | "user" = "api"): void {
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
    if (source === "api") log.formulaWrites.push({ sheet: sheet.name, address, formula });
    // Entering a formula calculates it, in manual mode too.
    calculate(sheet, address, "entered");
  }

  function enterValue(sheet: Sheet, address: string, value: unknown, source: "api" | "user" = "api"): void {
    remember(sheet, address);
    if (typeof value === "string" && value.startsWith("=")) return enterFormula(sheet, address, value, source);
    breakSpillAt(sheet, address);
    clearSpill(sheet, address);
    if (source === "api") log.valueWrites.push({ sheet: sheet.name, address, value });
    let stored = value;
    // The apostrophe marks text as text and is not part of the value (office-js #6687).
    if (typeof value === "string" && value.startsWith("'")) stored = value.slice(1);
    else if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) stored = Number(value);
    if (stored === "" || stored === null) sheet.cells.delete(address);
    else sheet.cells.set(address, { formula: null, value: stored, spillOf: null, spill: null });
  }

  function guardWrite(sheet: Sheet, rect: Rect): void {
    if (sheet.protected)
      throw officeError("AccessDenied", "The cell or chart you're trying to change is on a protected sheet.");
    for (const refused of recording.refuseWrites ?? []) {
      if (refused.sheet !== sheet.name) continue;
      const { row, col } = parseCell(refused.address);
      if (inside(rect, row, col)) {
        throw officeError("InvalidOperation", `You can't change part of an array (${refused.address}).`);
      }
    }
  }

  // ---- request context: queued operations, loads, sync ----
  type Op = () => void;
  class Context {
    queue: Op[] = [];
    workbook: unknown;
    application: unknown;
    /** With mergeUndoGroup on a host that has it: the one undo step of the whole Excel.run. */
    mergedUndo: UndoEntry[] | null = null;
    constructor() {
      this.workbook = makeWorkbook(this);
      this.application = makeApplication(this);
    }
    async sync(): Promise<void> {
      log.syncs += 1;
      const ops = this.queue;
      this.queue = [];
      await Promise.resolve();
      const step = this.mergedUndo ?? [];
      undoStep = step;
      try {
        for (const op of ops) op();
      } finally {
        undoStep = null;
        if (step.length > 0 && !undoStack.includes(step)) undoStack.push(step);
      }
    }
  }

  /** An API call that needs `minVersion`: on a host without it the batch fails at sync, as Office.js does. */
  function needs(context: Context, name: string, minVersion: string, op: Op): void {
    context.queue.push(() => {
      if (!supports("ExcelApi", minVersion)) {
        log.unsupportedCalls.push(name);
        throw officeError("ApiNotFound", `${name} needs ExcelApi ${minVersion}; this host has ${excelApi}.`);
      }
      op();
    });
  }

  /** A proxy whose listed properties throw until loaded and synced, as Office.js does. */
  function proxy(
    context: Context,
    props: Record<string, () => unknown>,
    extra: Record<string, unknown> = {},
    writable: Record<string, (v: unknown) => void> = {},
    cellCount: () => number = () => 0,
  ): Record<string, unknown> {
    const loaded: Record<string, unknown> = {};
    const object: Record<string, unknown> = {
      ...extra,
      load(names?: string | string[]) {
        const list = (Array.isArray(names) ? names : String(names ?? "").split(","))
          .map((p) => p.trim())
          .filter(Boolean);
        context.queue.push(() => {
          for (const name of list.length ? list : Object.keys(props)) {
            if (!props[name]) throw officeError("PropertyNotLoaded", `Unknown property ${name}`);
            if (name === "formulas" || name === "values" || name === "valueTypes") log.cellsLoaded += cellCount();
            loaded[name] = props[name]();
          }
          // Office.js fills isNullObject with whatever else is loaded.
          if (props.isNullObject) loaded.isNullObject = props.isNullObject();
        });
        return object;
      },
    };
    for (const name of Object.keys(props)) {
      Object.defineProperty(object, name, {
        enumerable: true,
        get() {
          if (!(name in loaded)) {
            throw officeError(
              "PropertyNotLoaded",
              `The property '${name}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
            );
          }
          return loaded[name];
        },
        set(value: unknown) {
          const write = writable[name];
          if (!write) throw new TypeError(`${name} is read-only`);
          context.queue.push(() => write(value));
        },
      });
    }
    return object;
  }

  /** A collection whose `load("items/…")` loads those properties of each item in the same sync. */
  function collection(context: Context, list: () => Record<string, unknown>[]): Record<string, unknown> {
    const result: Record<string, unknown> = { items: [] as unknown[] };
    result.load = (names?: string) => {
      const inner = String(names ?? "")
        .split(",")
        .map((n) => n.trim().replace(/^items\//, ""))
        .filter(Boolean)
        .join(",");
      context.queue.push(() => {
        const items = list();
        items.forEach((item) => (item.load as (p: string) => void)(inner));
        result.items = items;
      });
      // The item loads queued above run in the same sync, right after.
      context.queue.push(() => context.queue.splice(0).forEach((op) => op()));
      return result;
    };
    return result;
  }

  function makeRange(context: Context, sheet: Sheet, locate: () => Rect | null): Record<string, unknown> {
    const rect = () => {
      const r = locate();
      if (!r) throw officeError("ItemNotFound", "The range does not exist.");
      return r;
    };
    const cells = <T>(f: (cell: Cell) => T) => {
      const r = locate();
      return r ? grid(r, (row, col) => f(read(sheet, row, col))) : null;
    };
    const single = (what: string) => {
      const r = rect();
      if (cellsIn(r) !== 1) throw officeError("InvalidArgument", `${what} works on one cell.`);
      return r;
    };
    const range: Record<string, unknown> = proxy(
      context,
      {
        isNullObject: () => locate() === null,
        address: () => {
          const r = locate();
          return r ? `${sheetPrefix(sheet.name)}!${rectText(r)}` : null;
        },
        formulas: () => cells((cell) => formulaOf(sheet, cell)),
        values: () => cells((cell) => basic(cell.value)),
        valueTypes: () => cells((cell) => typeOf(cell.value)),
        valuesAsJson: () => {
          if (!supports("ExcelApi", "1.16")) {
            log.unsupportedCalls.push("Range.valuesAsJson");
            throw officeError("ApiNotFound", `Range.valuesAsJson needs ExcelApi 1.16; this host has ${excelApi}.`);
          }
          return cells((cell) => asJson(cell.value));
        },
        numberFormat: () => {
          const r = locate();
          return r ? grid(r, (row, col) => ownFormat(sheet, key(row, col))) : null;
        },
      },
      {
        getSpillingToRangeOrNullObject: () =>
          makeRange(context, sheet, () => {
            const r = rect();
            const cell = read(sheet, r.top, r.left);
            return cell.spill
              ? { top: r.top, left: r.left, bottom: r.top + cell.spill.rows - 1, right: r.left + cell.spill.cols - 1 }
              : null;
          }),
        getSpillParentOrNullObject: () =>
          makeRange(context, sheet, () => {
            const r = locate();
            if (!r || cellsIn(r) !== 1) return null;
            const cell = read(sheet, r.top, r.left);
            if (cell.spill) return r;
            if (!cell.spillOf) return null;
            const anchor = parseCell(cell.spillOf);
            return { top: anchor.row, left: anchor.col, bottom: anchor.row, right: anchor.col };
          }),
        getSpillParent: () => makeRange(context, sheet, () => single("getSpillParent")),
        getSpecialCellsOrNullObject: (type: string) => makeAreas(context, sheet, () => specialCells(type, locate())),
        getSpecialCells: (type: string) =>
          makeAreas(context, sheet, () => {
            const areas = specialCells(type, locate());
            if (areas.length === 0) throw officeError("ItemNotFound", "No cells were found.");
            return areas;
          }),
        getCell: (row: number, col: number) =>
          makeRange(context, sheet, () => {
            const r = rect();
            return { top: r.top + row, left: r.left + col, bottom: r.top + row, right: r.left + col };
          }),
        calculate: () => needs(context, "Range.calculate", "1.6", () => calculateRect(sheet, rect(), false)),
        setDirty: () => needs(context, "Range.setDirty", "1.9", () => markDirty(sheet, rect())),
        getOffsetRange: (rows: number, cols: number) =>
          makeRange(context, sheet, () => {
            const r = rect();
            return { top: r.top + rows, left: r.left + cols, bottom: r.bottom + rows, right: r.right + cols };
          }),
        getResizedRange: (rows: number, cols: number) =>
          makeRange(context, sheet, () => {
            const r = rect();
            return { top: r.top, left: r.left, bottom: r.bottom + rows, right: r.right + cols };
          }),
        clear: (applyTo?: string) =>
          context.queue.push(() => {
            const r = rect();
            guardWrite(sheet, r);
            if (applyTo !== undefined && applyTo !== "Contents" && applyTo !== "All")
              throw officeError("InvalidArgument", `Not modelled: clear(${applyTo})`);
            for (let row = r.top; row <= r.bottom; row += 1)
              for (let col = r.left; col <= r.right; col += 1) {
                const address = key(row, col);
                if (applyTo !== "Contents") sheet.formats.delete(address);
                const cell = sheet.cells.get(address);
                if (!cell) continue;
                breakSpillAt(sheet, address);
                clearSpill(sheet, address);
                sheet.cells.delete(address);
              }
          }),
        worksheet: makeWorksheet(
          context,
          () => sheet.name,
          () => sheet,
        ),
        format: makeRangeFormat(context, sheet, rect),
        /** The stand-in's own: the A1 text of this range, for the chart log. */
        __rectText: () => rectText(rect()),
      },
      {
        formulas: (value) => {
          const r = rect();
          guardWrite(sheet, r);
          const rows = value as unknown[][];
          rows.forEach((line, i) => line.forEach((f, j) => enterValue(sheet, key(r.top + i, r.left + j), f)));
        },
        values: (value) => {
          const r = rect();
          guardWrite(sheet, r);
          const rows = value as unknown[][];
          rows.forEach((line, i) => line.forEach((v, j) => enterValue(sheet, key(r.top + i, r.left + j), v)));
        },
        numberFormat: (value) => {
          const r = rect();
          guardWrite(sheet, r);
          const rows = value as unknown[][];
          rows.forEach((line, i) =>
            line.forEach((format, j) => {
              // "A null input within two-dimensional array (for values, number-format, formula) is ignored
              // in the update API" (Microsoft Learn, Excel JavaScript API, "null-input").
              if (format === null) return;
              log.formatWrites.push({ sheet: sheet.name, address: key(r.top + i, r.left + j), format: String(format) });
              sheet.formats.set(key(r.top + i, r.left + j), String(format));
            }),
          );
        },
      },
      () => {
        const r = locate();
        return r ? cellsIn(r) : 0;
      },
    );
    return range;

    function specialCells(type: string, within: Rect | null): Rect[] {
      if (!supports("ExcelApi", "1.9")) {
        log.unsupportedCalls.push("Range.getSpecialCells");
        throw officeError("ApiNotFound", `Range.getSpecialCells needs ExcelApi 1.9; this host has ${excelApi}.`);
      }
      if (!within) return [];
      if (String(type).toLowerCase() !== "formulas") throw officeError("InvalidArgument", `Not modelled: ${type}`);
      return areasOf(sheet, within, isFormulaCell);
    }
  }

  /** `Range.format`: `columnWidth` (points, whole columns) and `font.bold`, written at sync; a protected sheet refuses them. */
  function makeRangeFormat(context: Context, sheet: Sheet, rect: () => Rect): Record<string, unknown> {
    const format: Record<string, unknown> = {};
    Object.defineProperty(format, "columnWidth", {
      set: (width: number) =>
        needs(context, "RangeFormat.columnWidth", "1.2", () => {
          const r = rect();
          guardWrite(sheet, r);
          sheet.columnWidths ??= new Map();
          for (let col = r.left; col <= r.right; col += 1) sheet.columnWidths.set(colLetters(col), Number(width));
        }),
    });
    const font: Record<string, unknown> = {};
    Object.defineProperty(font, "bold", {
      set: (bold: boolean) =>
        context.queue.push(() => {
          const r = rect();
          guardWrite(sheet, r);
          sheet.bold ??= new Set();
          for (let row = r.top; row <= r.bottom; row += 1)
            for (let col = r.left; col <= r.right; col += 1) {
              if (bold) sheet.bold.add(key(row, col));
              else sheet.bold.delete(key(row, col));
            }
        }),
    });
    format.font = font;
    return format;
  }

  function markDirty(sheet: Sheet, r: Rect): void {
    for (const [address, cell] of sheet.cells) {
      const { row, col } = parseCell(address);
      if (cell.formula !== null && inside(r, row, col)) cell.dirty = true;
    }
    // Automatic mode recalculates what is marked right away; manual mode waits for a calculation.
    if (calculationMode !== "Manual") calculateRect(sheet, r, true);
  }

  function makeAreas(context: Context, sheet: Sheet, locate: () => Rect[]): Record<string, unknown> {
    const areas = () => locate();
    return proxy(
      context,
      {
        isNullObject: () => areas().length === 0,
        areaCount: () => areas().length,
        cellCount: () => areas().reduce((n, r) => n + cellsIn(r), 0),
        address: () =>
          areas()
            .map((r) => `${sheetPrefix(sheet.name)}!${rectText(r)}`)
            .join(", "),
      },
      {
        areas: collection(context, () => areas().map((r) => makeRange(context, sheet, () => r))),
        calculate: () =>
          needs(context, "RangeAreas.calculate", "1.9", () => areas().forEach((r) => calculateRect(sheet, r, false))),
        setDirty: () => needs(context, "RangeAreas.setDirty", "1.9", () => areas().forEach((r) => markDirty(sheet, r))),
      },
    );
  }

  /** `resolve`: the sheet itself (one `add` made in this batch, before the sync that adds it); `isNull`: a null object's test. */
  function makeWorksheet(
    context: Context,
    name: () => string,
    resolve: () => Sheet = () => sheetNamed(name()),
    isNull?: () => boolean,
  ): Record<string, unknown> {
    const sheet = resolve;
    return proxy(
      context,
      { name: () => sheet().name, ...(isNull ? { isNullObject: isNull } : {}) },
      {
        protection: proxy(context, { protected: () => sheet().protected }),
        activate: () =>
          context.queue.push(() => {
            activeSheet = sheet().name;
          }),
        delete: () =>
          context.queue.push(() => {
            const doomed = sheet();
            const at = sheets.indexOf(doomed);
            if (at < 0)
              throw officeError("ItemNotFound", `The requested resource doesn't exist: worksheet "${doomed.name}".`);
            if (sheets.length === 1)
              throw officeError("InvalidOperation", "A workbook must contain at least one visible worksheet.");
            sheets.splice(at, 1);
            if (activeSheet === doomed.name) activeSheet = sheets[Math.max(0, at - 1)].name;
          }),
        getRange: (address: string) => makeRange(context, sheet(), () => parseRect(address)),
        charts: {
          add: (type: string, source: Record<string, unknown>, seriesBy?: string) =>
            makeChart(context, sheet().name, type, source, seriesBy),
        },
        getUsedRangeOrNullObject: (valuesOnly?: boolean) =>
          makeRange(context, sheet(), () => usedRect(sheet(), valuesOnly === true)),
        calculate: (markAllDirty: boolean) =>
          needs(context, "Worksheet.calculate", "1.6", () => {
            const s = sheet();
            const all = usedRect(s, true);
            if (all) calculateRect(s, all, !markAllDirty);
          }),
      },
    );
  }

  /** Excel's objection to a new sheet's name, or null (see the header: "Rename a worksheet"). */
  function sheetNameRefusal(name: string): Error | null {
    const invalid =
      name.trim() === "" ||
      name.length > 31 ||
      /[:\\/?*[\]]/.test(name) ||
      name.startsWith("'") ||
      name.endsWith("'") ||
      name.toLowerCase() === "history";
    if (invalid)
      return officeError(
        "InvalidArgument",
        `The argument is invalid or missing or has an incorrect format: sheet name "${name}".`,
      );
    if (sheets.some((s) => s.name.toLowerCase() === name.toLowerCase()))
      return officeError("ItemAlreadyExists", `The resource with the name or ID "${name}" already exists.`);
    return null;
  }

  /** `worksheets.add(name)`: the new sheet is usable at once in the batch and joins the workbook (at the end) at sync. */
  function addWorksheet(context: Context, wanted?: string): Record<string, unknown> {
    let n = sheets.length + 1;
    while (wanted === undefined && sheets.some((s) => s.name.toLowerCase() === `sheet${n}`)) n += 1;
    const name = wanted ?? `Sheet${n}`;
    const sheet: Sheet = { name, protected: false, cells: new Map(), formattedTo: null, formats: new Map() };
    context.queue.push(() => {
      const refusal = sheetNameRefusal(name);
      if (refusal) throw refusal;
      sheets.push(sheet);
      log.sheetsAdded.push(name);
    });
    return makeWorksheet(
      context,
      () => name,
      () => sheet,
    );
  }

  function makeChart(
    context: Context,
    sheetName: string,
    type: string,
    source: Record<string, unknown>,
    seriesBy?: string,
  ): Record<string, unknown> {
    const rangeText = (range: unknown) =>
      ((range as { __rectText?: () => string }).__rectText ?? (() => String(range)))();
    const chart: RecordedChart = {
      sheet: sheetName,
      type: String(type),
      source: "",
      seriesBy: String(seriesBy ?? "Auto"),
      categories: null,
      title: null,
      position: null,
    };
    context.queue.push(() => {
      chart.source = rangeText(source);
      log.charts.push(chart);
    });
    const title = {};
    Object.defineProperty(title, "text", {
      set: (text: string) => context.queue.push(() => void (chart.title = String(text))),
    });
    return {
      title,
      axes: {
        categoryAxis: Object.defineProperty(
          {
            setCategoryNames: (range: unknown) =>
              needs(context, "ChartAxis.setCategoryNames", "1.7", () => void (chart.categories = rangeText(range))),
          },
          "reversePlotOrder",
          {
            set: (reversed: boolean) =>
              needs(context, "ChartAxis.reversePlotOrder", "1.7", () => void (chart.reversePlotOrder = reversed)),
          },
        ),
      },
      setPosition: (start: unknown, end?: unknown) =>
        context.queue.push(() => {
          chart.position = { start: rangeText(start), end: end === undefined ? null : rangeText(end) };
        }),
    };
  }

  function makeApplication(context: Context): Record<string, unknown> {
    return proxy(
      context,
      { calculationMode: () => calculationMode },
      {
        calculate: (type: string) =>
          context.queue.push(() => {
            for (const s of sheets) {
              const all = usedRect(s, true);
              if (all) calculateRect(s, all, String(type) === "Recalculate");
            }
          }),
      },
      {
        calculationMode: (mode) => {
          if (!supports("ExcelApi", "1.8"))
            throw officeError("ApiNotFound", "Setting calculationMode needs ExcelApi 1.8.");
          calculationMode = mode as typeof calculationMode;
        },
      },
    );
  }

  function makeWorkbook(context: Context): Record<string, unknown> {
    const worksheets = collection(context, () => sheets.map((s) => makeWorksheet(context, () => s.name)));
    Object.assign(worksheets, {
      getItem: (name: string) => makeWorksheet(context, () => name),
      getActiveWorksheet: () => makeWorksheet(context, () => activeSheet),
      add: (name?: string) => addWorksheet(context, name),
      getItemOrNullObject: (name: string) => {
        const found = () => sheets.find((s) => s.name.toLowerCase() === String(name).toLowerCase()) ?? null;
        return makeWorksheet(
          context,
          () => found()?.name ?? String(name),
          undefined,
          () => found() === null,
        );
      },
    });

    const scoped = (namespace: string) => {
      const found: Record<string, unknown>[] = [];
      const coll = proxy(context, { items: () => found });
      const load = coll.load as (p?: string) => unknown;
      coll.load = () => {
        context.queue.push(() => {
          if (recording.customXmlFails) throw officeError("GeneralException", recording.customXmlFails);
          found.length = 0;
          for (const part of parts.filter((p) => p.namespace === namespace)) {
            let xml: { value: unknown } = { value: undefined };
            found.push({
              id: part.id,
              getXml: () => {
                const result = {
                  get value() {
                    if (xml.value === undefined)
                      throw officeError("PropertyNotLoaded", "ClientResult value read before sync");
                    return xml.value;
                  },
                };
                context.queue.push(() => {
                  xml = { value: part.xml };
                });
                return result;
              },
              setXml: (text: string) => context.queue.push(() => void (part.xml = text)),
              delete: () =>
                context.queue.push(() => {
                  const at = parts.indexOf(part);
                  if (at >= 0) parts.splice(at, 1);
                }),
            });
          }
        });
        load("items");
        return coll;
      };
      return coll;
    };

    // DATE(1904,1,1) is day 0 of the 1904 system and day 1462 of the 1900 system.
    const dateSerial = (y: number, m: number, d: number) => {
      const days = Math.round((Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000);
      return recording.date1904 ? days - 1462 : days;
    };

    return {
      worksheets,
      functions: {
        date: (y: number, m: number, d: number) =>
          proxy(context, { value: () => dateSerial(y, m, d), error: () => null }),
      },
      // The active cell's range: the task pane's Insert writes into its first cell.
      getSelectedRange: () => makeRange(context, sheetNamed(selection.sheet), () => parseRect(selection.areas[0])),
      getSelectedRanges: () => {
        const sheet = () => sheetNamed(selection.sheet);
        return {
          areas: collection(context, () =>
            selection.areas.map((area) => makeRange(context, sheet(), () => parseRect(area))),
          ),
          worksheet: makeWorksheet(context, () => selection.sheet),
        };
      },
      customXmlParts: {
        getByNamespace: scoped,
        add: (xml: string) => {
          const namespace = /xmlns="([^"]+)"/.exec(xml)?.[1] ?? "";
          context.queue.push(() => {
            if (recording.customXmlFails) throw officeError("GeneralException", recording.customXmlFails);
            parts.push({ id: `part-${parts.length}-${Date.now()}`, namespace, xml });
          });
        },
      },
    };
  }

  // ---- cell edit ----
  const cellEdit = { on: recording.inCellEdit === true, waiting: [] as (() => void)[] };

  // ---- globals ----
  const excel = {
    SpecialCellType: { formulas: "Formulas" },
    ChartType: { line: "Line" },
    ChartSeriesBy: { auto: "Auto", columns: "Columns", rows: "Rows" },
    ClearApplyTo: { all: "All", formats: "Formats", contents: "Contents" },
    CalculationType: { recalculate: "Recalculate", full: "Full", fullRebuild: "FullRebuild" },
    run: async <T>(
      first: Record<string, unknown> | ((context: Context) => Promise<T>),
      second?: (context: Context) => Promise<T>,
    ): Promise<T> => {
      log.runs += 1;
      const batch = typeof first === "function" ? first : second!;
      if (typeof first !== "function") log.runOptions.push({ ...first });
      if (cellEdit.on) {
        const waits = typeof first !== "function" && first.delayForCellEdit === true;
        if (!waits) {
          throw Object.assign(new Error("The batch failed: the user is editing a cell."), {
            code: "InvalidOperationInCellEditMode",
          });
        }
        await new Promise<void>((resolve) => cellEdit.waiting.push(resolve));
      }
      const context = new Context();
      if (typeof first !== "function" && first.mergeUndoGroup === true && supports("ExcelApi", "1.20"))
        context.mergedUndo = [];
      const result = await batch(context);
      if (context.queue.length) await context.sync();
      return result;
    },
  };

  const office = {
    HostType: { Excel: "Excel" },
    StartupBehavior: { load: "Load", none: "None" },
    AsyncResultStatus: { Succeeded: "succeeded", Failed: "failed" },
    onReady: (callback?: (info: unknown) => void) => {
      const info = { host: "Excel", platform: "OfficeOnline" };
      callback?.(info);
      return Promise.resolve(info);
    },
    context: {
      host: "Excel",
      requirements: { isSetSupported: (name: string, minVersion?: string) => supports(name, minVersion) },
      document: {
        settings: {
          get: (name: string) => (name in settings ? settings[name] : null),
          set: (name: string, value: unknown) => void (settings[name] = value),
          remove: (name: string) => void delete settings[name],
          saveAsync: (callback?: (result: { status: string }) => void) => {
            setTimeout(() => {
              for (const name of Object.keys(savedSettings)) if (!(name in settings)) delete savedSettings[name];
              Object.assign(savedSettings, settings);
              log.settingsSaves += 1;
              // "Office.context.document.settings.saveAsync() disables undo" (office-js #3141).
              undoStack.length = 0;
              callback?.({ status: "succeeded" });
            }, 0);
          },
        },
      },
    },
    addin: {
      setStartupBehavior: async (behavior: string) => {
        if (recording.startupBehaviorFails) throw new Error(recording.startupBehaviorFails);
        log.startupBehavior.push(behavior);
      },
      getStartupBehavior: async () =>
        log.startupBehavior[log.startupBehavior.length - 1] ?? recording.startupBehavior ?? "None",
    },
    actions: {
      associate: (id: string, action: (event: { completed(): void }) => unknown) => {
        log.associated.push(id);
        actions.set(id, action);
      },
    },
  };

  target.Excel = excel;
  target.Office = office;

  return {
    log,
    settings: savedSettings,
    cell(sheetName, address) {
      const sheet = sheetNamed(sheetName);
      const { row, col } = parseCell(address);
      const cell = read(sheet, row, col);
      return { formula: cell.formula, value: basic(cell.value), type: typeOf(cell.value) };
    },
    display(sheetName, address) {
      const sheet = sheetNamed(sheetName);
      const { row, col } = parseCell(address);
      const value = read(sheet, row, col).value;
      const own = ownFormat(sheet, key(row, col));
      return { format: carriedFormat(value) ?? own, own, json: asJson(value) };
    },
    customXmlParts: () => parts.map(({ namespace, xml }) => ({ namespace, xml })),
    async runCommand(id) {
      const action = actions.get(id);
      if (!action)
        throw new Error(`No command "${id}" was associated (have: ${[...actions.keys()].join(", ") || "none"}).`);
      let completed = false;
      await action({ completed: () => void (completed = true) });
      return { completed };
    },
    idle: () => (running.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    select(sheet, areas) {
      selection = { sheet, areas };
    },
    edit(sheetName, address, entry) {
      enterValue(sheetNamed(sheetName), address, entry, "user");
    },
    undo,
    protect(sheetName, on) {
      sheetNamed(sheetName).protected = on;
    },
    startCellEdit() {
      cellEdit.on = true;
    },
    endCellEdit() {
      cellEdit.on = false;
      for (const resume of cellEdit.waiting.splice(0)) resume();
    },
    sheetNames: () => sheets.map((s) => s.name),
    activeSheet: () => activeSheet,
    columnWidth: (sheetName, column) => sheetNamed(sheetName).columnWidths?.get(column.toUpperCase()) ?? null,
    isBold: (sheetName, address) => sheetNamed(sheetName).bold?.has(address.toUpperCase()) ?? false,
  };
}
