/**
 * What refresh and freeze need from a workbook, and nothing more. The Excel
 * implementation (src/office/workbook.ts) is the only code that calls
 * `Excel.run` for this feature; tests supply an in-memory one. Each method is
 * one batch (one `Excel.run`, normally one `context.sync()`), so the logic in
 * this folder decides how many round trips a refresh costs.
 *
 * Addresses are A1 on one sheet, without the sheet prefix ("B2", "B2:D9").
 */

/** What a sheet holds, as `Range.formulas` reports it over the used range. */
export interface SheetFormulas {
  name: string;
  /** A protected sheet rejects writes to locked cells, so refresh and freeze leave it alone. */
  protected: boolean;
  /** The used range ("B2:F40"), or null for an empty sheet. */
  usedAddress: string | null;
  /**
   * One entry per cell of the used range: the formula text ("=...") for a
   * formula cell, otherwise the constant. Cells a dynamic array spills into
   * report their value here; only the anchor cell holds the formula.
   */
  formulas: unknown[][];
}

/** A rectangle of cells written in one assignment. */
export interface FormulaBlock {
  address: string;
  formulas: string[][];
}

export interface ValueBlock {
  address: string;
  values: unknown[][];
}

/** Excel's `Range.valueTypes` names. */
export type ValueType = "Unknown" | "Empty" | "String" | "Integer" | "Double" | "Boolean" | "Error" | "RichValue";

export interface RangeValues {
  address: string;
  values: unknown[][];
  types: ValueType[][];
}

/** What a formula cell shows now, with the spill it produces (a one-cell range when it does not spill). */
export interface CellResult extends RangeValues {
  /** The whole result: the spill range, or the formula cell itself. */
  range: string;
}

export interface SelectionInfo {
  sheet: string;
  /** One entry per area of a multi-area selection. */
  areas: string[];
}

/** One frozen formula: where it was, what it said, and when its values replaced it. */
export interface FreezeRecord {
  sheet: string;
  /** The formula cell. */
  address: string;
  /** The cells its values were written to (the spill range for an array). */
  range: string;
  formula: string;
  /** ISO 8601, UTC. */
  frozenAt: string;
}

export type StartupBehavior = "load" | "none";

export interface WorkbookAdapter {
  /** Every sheet's name, hidden and very hidden ones included, in tab order. */
  listSheets(): Promise<string[]>;
  readSheet(sheet: string): Promise<SheetFormulas>;
  /** Assigns `formulas` to each block. Rejects if Excel refuses any of them. */
  writeFormulas(sheet: string, blocks: readonly FormulaBlock[]): Promise<void>;
  /** What each range shows now, in the order asked. */
  readValues(sheet: string, addresses: readonly string[]): Promise<RangeValues[]>;
  /** The whole current result of each formula cell, with its spill, in the order asked. */
  readResults(sheet: string, addresses: readonly string[]): Promise<CellResult[]>;
  writeValues(sheet: string, blocks: readonly ValueBlock[]): Promise<void>;
  getSelection(): Promise<SelectionInfo>;
  getActiveSheet(): Promise<string>;

  /** The document's own settings (`Office.context.document.settings`): saved in the file, never secrets. */
  getDocumentSetting(key: string): unknown;
  /** Sets and saves; resolves once the document has the value. */
  setDocumentSetting(key: string, value: unknown): Promise<void>;
  setStartupBehavior(behavior: StartupBehavior): Promise<void>;

  readFreezeLog(): Promise<FreezeRecord[]>;
  writeFreezeLog(records: readonly FreezeRecord[]): Promise<void>;
}
