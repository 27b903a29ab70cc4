/**
 * What a test gives the workbook stand-in (a WorkbookRecording: sheets,
 * cells, the custom functions' results, the host's quirks) and what it reads
 * back (the WorkbookStandIn handle and its StandInLog). The Excel objects
 * they describe are modelled one per file beside this one; index.ts says
 * what the stand-in keeps from Office.js and why it is not a property bag.
 */

import type { Platform, RuntimePage } from "./runtime-page";

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
  /** Excel refuses an entity (or other data type without a basic form) written through `Range.valuesAsJson`, with this message. */
  refuseDataTypeWrites?: string;
  /** Set to make `setStartupBehavior` reject, as on a host without SharedRuntime 1.1. */
  startupBehaviorFails?: string;
  /** The newest ExcelApi requirement set the host supports; "1.20" when absent. */
  excelApi?: string;
  /** What `Office.addin.getStartupBehavior()` answers before the add-in sets it (saved with the document). */
  startupBehavior?: "Load" | "None";
  /** `Office.context.diagnostics.platform` (and `Office.onReady`'s `platform`); "PC" when absent. See runtime-page.ts. */
  platform?: Platform;
  /** How the runtime's page started: "document" (loaded with the workbook, no UI; the default) or "user" (opening the pane). */
  runtimeStartedBy?: "document" | "user";
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
  /** Other add-ins whose custom functions the formulas call (custom-functions.ts). */
  otherAddIns?: OtherAddIn[];
}

/** An add-in's custom functions as formulas call them: `=NAMESPACE.NAME(…)` (custom-functions.ts). */
export interface OtherAddIn {
  namespace: string;
  functions: string[];
  /** Not loaded: its formulas read `_xldudf_NAMESPACE_NAME(…)`. */
  loaded: boolean;
  /** An external reference Excel saved before the function (`[2]!`, office-js #2568). */
  linkPrefix?: string;
}

/** How the stand-in reaches the add-in's runtime: each custom function Excel runs is one call the runtime sees start and settle. */
export interface StandInHooks {
  calls?: { begin(): () => void };
  /**
   * Computes a formula the recording has no result for, as Excel runs a custom function in the add-in's runtime
   * (the dev build's demo workbook: the add-in's own functions, in the same page); undefined: an ordinary formula.
   */
  evaluate?(formula: string, at: { sheet: string; address: string }): RunningFormula | undefined;
  /** The workbook may have changed: after each sync and each result that lands. */
  changed?(): void;
}

/** A formula's run: its result, and what Excel does when it supersedes the run (the function sees it cancelled). */
export interface RunningFormula {
  result: Promise<RecordedResult>;
  cancel(): void;
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
  /** The largest request and response of one sync, in the bytes payload.ts estimates (Excel on the web's 5 MB limit). */
  largestRequestBytes: number;
  largestResponseBytes: number;
  /** Syncs refused for their size (RequestPayloadSizeLimitExceeded / ResponsePayloadSizeLimitExceeded). */
  payloadRefusals: number;
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
  /** The number format the user sees: the one applied to the cell, else the one carried in the value (data-types.ts). */
  format: string;
  /** The cell's own number format (`Range.numberFormat`). */
  own: string;
  /** What `Range.valuesAsJson` reads. */
  json: Record<string, unknown>;
}

export interface WorkbookStandIn {
  log: StandInLog;
  /** The runtime's page: its `document` as the add-in sees it, and the pane shown (runtime-page.ts). */
  page: RuntimePage;
  cell(sheet: string, address: string): CellView;
  /** The format the cell shows its value in, and the value as `valuesAsJson` reads it. */
  display(sheet: string, address: string): CellDisplay;
  settings: Record<string, unknown>;
  /** The data type card Excel shows for the cell's value (value-properties.ts); null for a value without properties. */
  card(
    sheet: string,
    address: string,
  ): { title: unknown; fields: { name: string; value: unknown; sublabel?: string }[] } | null;
  customXmlParts(): { namespace: string; xml: string }[];
  /** Calls a ribbon command the add-in associated, with an event whose completion is observed. */
  runCommand(id: string): Promise<{ completed: boolean }>;
  /** Resolves once no custom function is running. */
  idle(): Promise<void>;
  select(sheet: string, areas: string[]): void;
  /** The user clicks the sheet's tab: Excel shows it (the active sheet). */
  activate(sheet: string): void;
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
  /** The cells holding a formula or a value ("A1:C7"), or null for an empty sheet. */
  usedRange(sheet: string): string | null;
  /** The anchor of the dynamic array whose result covers the cell ("A1"), or null. */
  spillOf(sheet: string, address: string): string | null;
  /** The selected sheet and areas. */
  selection(): { sheet: string; areas: string[] };
  /** The sheet Excel shows (`Worksheet.activate`). */
  activeSheet(): string;
  /** A column's width in points as set through `format.columnWidth` ("B"), or null when never set. */
  columnWidth(sheet: string, column: string): number | null;
  /** Whether the cell was made bold (`format.font.bold`). */
  isBold(sheet: string, address: string): boolean;
}
