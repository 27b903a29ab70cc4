/**
 * What refresh and freeze need from a workbook, and nothing more. The Excel
 * implementation (src/office/workbook/workbook.ts) is the only code that calls
 * `Excel.run` for this feature; tests supply an in-memory one. Each method is
 * one batch (one `Excel.run`, normally one `context.sync()`), so the logic in
 * this folder decides how many round trips a refresh costs.
 *
 * Addresses are A1 on one sheet, without the sheet prefix ("B2", "B2:D9").
 */

/**
 * A cell Excel reports as holding a formula, as read for a refresh: `formula`
 * from `Range.formulas`, `value` from `Range.values`.
 *
 * `Range.formulas` cannot tell a formula from text that looks like one: "If a
 * cell has no formula, its value is returned instead" (Excel.Range.formulas in
 * @types/office-js), and text entered with a leading apostrophe reads back
 * without it (office-js issue #6687). A value cell holding the text
 * `=MD.LATEST("eth","PRICE")` therefore reads exactly like that formula. The
 * two reads together tell them apart: a constant's `formulas` entry is its
 * value; a formula's is its text, never equal to its result.
 */
export interface FormulaReading {
  /** "B2", on the sheet. */
  address: string;
  formula: unknown;
  value: unknown;
}

/** A sheet's formula cells (`Range.getSpecialCells(formulas)`, ExcelApi 1.9), or every used cell on hosts without it. */
export interface SheetScan {
  name: string;
  /** A protected sheet rejects writes to locked cells. */
  protected: boolean;
  /** Cells whose `formulas` entry is text starting with "=". Cells a dynamic array spills into may be among them. */
  cells: FormulaReading[];
}

/** What a rewrite did, block by block, after re-reading each block at the moment of writing. */
export interface RewriteOutcome {
  /** Cells whose formula was entered again. */
  written: string[];
  /** Cells left alone because they no longer held the formula found by the scan: edited meanwhile, by the user or a co-author. */
  changed: string[];
  /** Cells left alone because a dynamic array spills into them: the formula is its anchor's, not theirs. */
  spilled: string[];
  /** Blocks Excel refused to write, with its reason. */
  refused: { address: string; reason: string }[];
}

/** A rectangle of cells written in one assignment. */
export interface FormulaBlock {
  address: string;
  formulas: string[][];
}

export interface ValueBlock {
  address: string;
  values: unknown[][];
  /**
   * Number formats put on the cells with the values (`Range.numberFormat`),
   * one per cell; absent: the cells' formats are left as they are.
   */
  formats?: string[][];
  /**
   * Entities written over the values (`Range.valuesAsJson`, ExcelApi 1.16),
   * one per cell, null where the value stands: a frozen MD.ASSET card
   * (cell-cards.ts). `values` holds the card's text for the same cell, the
   * fallback where Excel refuses the card.
   */
  cards?: (CellJson | null)[][];
}

/** One cell's `Range.valuesAsJson` entry (Excel.CellValue): `{ type, basicValue, … }`, an entity's `{ type: "Entity", text, properties, … }`. */
export type CellJson = Record<string, unknown>;

/** Excel's `Range.valueTypes` names. */
export type ValueType = "Unknown" | "Empty" | "String" | "Integer" | "Double" | "Boolean" | "Error" | "RichValue";

export interface RangeValues {
  address: string;
  values: unknown[][];
  types: ValueType[][];
  /**
   * `Range.valuesAsJson` of each cell `valueTypes` calls "Error", null
   * elsewhere: an entity (an MD.ASSET card) reads "#VALUE!" typed Error
   * (Excel.EntityCellValue.basicValue / basicType), and only this says it is
   * a card and not an error. Absent where Excel cannot say (before ExcelApi 1.16).
   */
  errorsAsJson?: (CellJson | null)[][];
}

/** What a formula cell shows now, with the spill it produces (a one-cell range when it does not spill). */
export interface CellResult extends RangeValues {
  /** The whole result: the spill range, or the formula cell itself. */
  range: string;
  /**
   * The number format each cell shows its value in, as `values`: the format
   * carried in the value (a formatted number or date the function returned
   * as an Excel data type, which `Range.values` drops) where Excel can say,
   * otherwise the cell's own number format.
   */
  formats: string[][];
}

/** A formula cell's whole spill: its range (the cell itself where it does not spill) and the values shown. */
export interface SpillValues {
  address: string;
  range: string;
  values: unknown[][];
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
  /**
   * A hash of the values written in place of the formula (valuesHash in
   * freeze.ts), not the values: Undo freeze restores the formula only where
   * the cells still hold exactly those values. Absent in logs written before.
   */
  valuesHash?: string;
  /** An MD.ASSET card frozen as a static card, or as its text where Excel refused the card; absent for other values. */
  frozenAs?: "card" | "text";
}

/** One frozen formula to put back, if its cells still hold what the freeze wrote. */
export interface FormulaRestore {
  /** The formula cell. */
  address: string;
  /** The cells the freeze wrote (cleared, so the formula can spill again). */
  range: string;
  formula: string;
  /** Whether the values the range holds now are the frozen ones. */
  unchanged(values: unknown[][]): boolean;
}

export interface RestoreOutcome {
  /** Formula cells whose formula is back. */
  restored: string[];
  /** Formula cells left alone: a cell of the range was changed since the freeze (edited, or holds a formula). */
  changed: string[];
  /** Restores Excel refused, with its reason (a protected sheet). */
  refused: { address: string; reason: string }[];
}

export type StartupBehavior = "load" | "none";

export type CalculationMode = "Automatic" | "AutomaticExceptTables" | "Manual";

/** What this Excel can do for a refresh, by requirement set (Office.context.requirements.isSetSupported). */
export interface RefreshCapabilities {
  /** `Range.calculate()`, ExcelApi 1.6. */
  calculate: boolean;
  /** `Excel.run({ mergeUndoGroup: true }, …)`: the batch's syncs make one undo entry. ExcelApi 1.20. */
  mergeUndo: boolean;
}

export interface WorkbookAdapter {
  /** Every sheet's name, hidden and very hidden ones included, in tab order. */
  listSheets(): Promise<string[]>;
  readFormulaCells(sheet: string): Promise<SheetScan>;
  /**
   * Enters each block's formulas again, in one `Excel.run`: first re-reads the
   * blocks, then writes only the cells that still hold exactly the formula the
   * scan found (as a formula, not as text, and not inside another formula's
   * spill). Never rejects for one refused block; the others are still written.
   */
  rewriteFormulas(sheet: string, blocks: readonly FormulaBlock[]): Promise<RewriteOutcome>;
  capabilities(): RefreshCapabilities;
  /** Excel's calculation mode (`Application.calculationMode`, ExcelApi 1.1). */
  calculationMode(): Promise<CalculationMode>;
  /**
   * Makes Excel calculate exactly these ranges again (`Range.calculate()`),
   * in one `Excel.run`. Writes nothing: values, formulas, formats and the
   * user's edits stay as they are, and a protected sheet may be calculated.
   */
  recalculate(sheet: string, addresses: readonly string[]): Promise<void>;
  /** What each range shows now, in the order asked. */
  readValues(sheet: string, addresses: readonly string[]): Promise<RangeValues[]>;
  /** The whole current result of each formula cell, with its spill and the format each cell shows, in the order asked. */
  readResults(sheet: string, addresses: readonly string[]): Promise<CellResult[]>;
  /**
   * The values of each formula cell's whole spill (the cell alone where it does not spill), in the order asked, in
   * one `Excel.run`: what What changed compares a spilled table by. Absent: tables are not compared.
   */
  readSpills?(sheet: string, addresses: readonly string[]): Promise<SpillValues[]>;
  /** Writes each block's values, then its formats where given, in one `Excel.run`. */
  writeValues(sheet: string, blocks: readonly ValueBlock[]): Promise<void>;
  getSelection(): Promise<SelectionInfo>;
  getActiveSheet(): Promise<string>;

  /** The document's own settings (`Office.context.document.settings`): saved in the file, never secrets. */
  getDocumentSetting(key: string): unknown;
  /** Sets and saves; resolves once the document has the value. */
  setDocumentSetting(key: string, value: unknown): Promise<void>;
  setStartupBehavior(behavior: StartupBehavior): Promise<void>;
  /** Whether Office loads the add-in when this document opens (SharedRuntime 1.1); null where Office cannot say. */
  getStartupBehavior(): Promise<StartupBehavior | null>;

  /**
   * Puts frozen formulas back, in one `Excel.run`: re-reads each range, and
   * only where no cell holds a formula and `unchanged` accepts its values,
   * clears the range's contents and enters the formula in its cell.
   */
  restoreFormulas(sheet: string, restores: readonly FormulaRestore[]): Promise<RestoreOutcome>;

  readFreezeLog(): Promise<FreezeRecord[]>;
  writeFreezeLog(records: readonly FreezeRecord[]): Promise<void>;
}
