/**
 * The cell the user selected, followed for the pane's Trace: Office's
 * DocumentSelectionChanged event says the selection moved
 * (https://learn.microsoft.com/en-us/javascript/api/office/office.documentselectionchangedeventargs,
 * added with `Office.context.document.addHandlerAsync`: Common API, every
 * Excel), and one batch reads the selection's first cell and, where it lies
 * in a dynamic array's spill, the anchor's formula
 * (`Range.getSpillParentOrNullObject`, ExcelApi 1.12: "Gets the range object
 * containing the anchor cell for the cell getting spilled into",
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.range#excel-excel-range-getspillparentornullobject-member(1)).
 * `select` moves the selection to a cell (`Range.select`, ExcelApi 1.1), so a
 * changed cell named in the pane can be shown.
 *
 * Reading sends no request to the service: the Trace joins the formula with
 * what the runtime recorded (src/office/call-records.ts).
 */
import { runBatch, type ExcelRunner } from "./excel-batch";

export interface SelectedCell {
  sheet: string;
  /** The selected cell ("B5"; the first cell of a larger selection). */
  address: string;
  /** The cell whose formula computes it: itself, or the anchor of the spill it lies in. */
  formulaCell: string;
  /** That cell's formula, or null for a constant or an empty cell. */
  formula: string | null;
  /** The cell lies in another cell's spill. */
  spilled: boolean;
}

export interface CellSelection {
  /** Calls `listener` after each change of the selection; returns the unsubscribe. */
  watch(listener: () => void): () => void;
  read(): Promise<SelectedCell | null>;
  select(sheet: string, address: string): Promise<void>;
}

type SelectionHandler = (args: unknown) => void;

/** The part of `Office` this needs (the stand-in's, or office.js's). */
export interface SelectionOffice {
  EventType?: { DocumentSelectionChanged?: string };
  context?: {
    document?: {
      addHandlerAsync?(type: string, handler: SelectionHandler, callback?: (result: unknown) => void): void;
      removeHandlerAsync?(
        type: string,
        options: { handler: SelectionHandler },
        callback?: (result: unknown) => void,
      ): void;
    };
    requirements?: { isSetSupported(name: string, minVersion?: string): boolean };
  };
}

/** "'Q1 comps'!C7" → { sheet: "Q1 comps", address: "C7" }. */
export function splitAddress(full: string): { sheet: string; address: string } {
  const at = full.lastIndexOf("!");
  const sheet = at < 0 ? "" : full.slice(0, at);
  const unquoted = sheet.startsWith("'") && sheet.endsWith("'") ? sheet.slice(1, -1).replace(/''/g, "'") : sheet;
  return { sheet: unquoted, address: full.slice(at + 1) };
}

function formulaOf(value: unknown): string | null {
  return typeof value === "string" && value.startsWith("=") ? value : null;
}

export function cellSelectionFor(globals: { Excel: ExcelRunner; Office: SelectionOffice }): CellSelection {
  const { Excel: excel, Office: office } = globals;
  const type = office.EventType?.DocumentSelectionChanged ?? "documentSelectionChanged";
  const spills = () => office.context?.requirements?.isSetSupported("ExcelApi", "1.12") ?? true;
  return {
    watch(listener) {
      const document = office.context?.document;
      if (!document?.addHandlerAsync) return () => undefined;
      const handler: SelectionHandler = () => listener();
      document.addHandlerAsync(type, handler);
      return () => document.removeHandlerAsync?.(type, { handler });
    },
    read: () =>
      runBatch(excel, async (context) => {
        const cell = context.workbook.getSelectedRange().getCell(0, 0);
        cell.load(["address", "formulas"]);
        const parent = spills() ? cell.getSpillParentOrNullObject() : null;
        parent?.load(["address", "formulas"]);
        await context.sync();
        const { sheet, address } = splitAddress(cell.address);
        const own = formulaOf(cell.formulas?.[0]?.[0]);
        if (parent && !parent.isNullObject) {
          const anchor = splitAddress(parent.address).address;
          const formula = formulaOf(parent.formulas?.[0]?.[0]);
          return { sheet, address, formulaCell: anchor, formula, spilled: anchor !== address };
        }
        return { sheet, address, formulaCell: address, formula: own, spilled: false };
      }),
    select: (sheet, address) =>
      runBatch(excel, async (context) => {
        context.workbook.worksheets.getItem(sheet).getRange(address).select();
        await context.sync();
      }),
  };
}
