/**
 * Formatted numbers as Excel data types, where the host has them.
 *
 * Microsoft Learn, "Use data types with custom functions in Excel"
 * (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts):
 * a custom function returns a formatted number as
 * `{ type: "Double", basicValue, numberFormat }` (Excel.DoubleCellValue) when
 * functions.json sets `allowCustomDataForDataTypeAny` (custom-functions-metadata
 * emits it) and the result's type is `any`. Requirement sets
 * (learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets):
 * CustomFunctionsRuntime 1.4 brings data types to custom functions;
 * DoubleCellValue.numberFormat is ExcelApi 1.19, and before it ExcelApi 1.16's
 * FormattedNumberCellValue (`type: "FormattedNumber"`, deprecated since 1.19)
 * carried the same two fields. Older hosts get the plain number, as before.
 *
 * Whether the host supports them is read from Office.context.requirements
 * (decided by the host's declared support, never by trying and watching for
 * a failure); everything else receives that decision as a flag.
 */
import type { CellValue } from "../core/cell";
import type { FormatAt, NumberFormat } from "../core/number-format";
import { type ExcelCell, toExcelCell, toExcelTable } from "./errors";

/** `none`: plain numbers. `formatted-number`: ExcelApi 1.16's FormattedNumber. `double`: ExcelApi 1.19's Double with numberFormat. */
export type DataTypeSupport = "none" | "formatted-number" | "double";

interface RequirementsLike {
  isSetSupported(name: string, minVersion?: string): boolean;
}

/** The host's support, from Office.context.requirements; `none` outside Office or before it is ready. */
export function dataTypeSupport(office: unknown = (globalThis as { Office?: unknown }).Office): DataTypeSupport {
  let requirements: RequirementsLike | undefined;
  try {
    requirements = (office as { context?: { requirements?: RequirementsLike } } | undefined)?.context?.requirements;
    if (typeof requirements?.isSetSupported !== "function") return "none";
    if (!requirements.isSetSupported("CustomFunctionsRuntime", "1.4")) return "none";
    if (requirements.isSetSupported("ExcelApi", "1.19")) return "double";
    if (requirements.isSetSupported("ExcelApi", "1.16")) return "formatted-number";
  } catch {
    // A host whose requirements object throws is treated as one without data types.
  }
  return "none";
}

export interface FormattedNumberCell {
  type: "Double" | "FormattedNumber";
  basicValue: number;
  numberFormat: NumberFormat;
}

export type ExcelValue = ExcelCell | FormattedNumberCell;

function formatted(value: number, format: NumberFormat, support: DataTypeSupport): ExcelValue {
  return { type: support === "double" ? "Double" : "FormattedNumber", basicValue: value, numberFormat: format };
}

/** One cell: a formatted number where supported and asked for, otherwise what toExcelCell gives. */
export function toExcelValue(cell: CellValue, format: NumberFormat | null, support: DataTypeSupport): ExcelValue {
  const plain = toExcelCell(cell);
  if (support === "none" || format === null || typeof plain !== "number") return plain;
  return formatted(plain, format, support);
}

/** A table: numbers get their format where supported; errors, text and booleans are as toExcelTable makes them. */
export function toExcelValues(
  table: readonly (readonly CellValue[])[],
  formatAt: FormatAt | undefined,
  support: DataTypeSupport,
): ExcelValue[][] {
  const plain = toExcelTable(table);
  if (support === "none" || !formatAt) return plain;
  return plain.map((row, r) =>
    row.map((cell, c) => {
      if (typeof cell !== "number") return cell;
      const format = formatAt(r, c, cell);
      return format === null ? cell : formatted(cell, format, support);
    }),
  );
}
