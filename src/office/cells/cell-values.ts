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
import type { CellValue } from "../../core/cell";
import type { FormatAt, NumberFormat } from "../../core/number-format";
import {
  assertBytesFitExcel,
  EXCEL_RESULT_LIMIT_BYTES,
  estimatePayloadBytes,
  megabytesText,
} from "../../core/payload-size";
import type { Provenance } from "../../core/provenance";
import { type ExcelCell, toExcelCell, toExcelTable } from "./errors";
import { propertiesBytes, provenanceProperties, showsProperties, type ValueProperties } from "./value-properties";

/** `none`: plain numbers. `formatted-number`: ExcelApi 1.16's FormattedNumber. `double`: ExcelApi 1.19's Double with numberFormat. */
export type DataTypeSupport = "none" | "formatted-number" | "double";

interface RequirementsLike {
  isSetSupported(name: string, minVersion?: string): boolean;
}

/** What a host's requirements object said, asked once per object: every cell asks, and the host's sets do not change while it runs. */
const supportOf = new WeakMap<RequirementsLike, DataTypeSupport>();

/** The host's support, from Office.context.requirements; `none` outside Office or before it is ready. */
export function dataTypeSupport(office: unknown = (globalThis as { Office?: unknown }).Office): DataTypeSupport {
  let requirements: RequirementsLike | undefined;
  try {
    requirements = (office as { context?: { requirements?: RequirementsLike } } | undefined)?.context?.requirements;
    if (typeof requirements?.isSetSupported !== "function") return "none";
  } catch {
    return "none";
  }
  let support = supportOf.get(requirements);
  if (support === undefined) supportOf.set(requirements, (support = askedSupport(requirements)));
  return support;
}

function askedSupport(requirements: RequirementsLike): DataTypeSupport {
  try {
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
  numberFormat?: NumberFormat;
  /** The value's provenance (value-properties.ts), where the host shows properties on values. */
  properties?: ValueProperties;
}

/** Where each value of a table came from, by position (core/number-format.ts FormattedTable.provenanceAt). */
export type ProvenanceAt = (row: number, column: number) => Provenance | undefined;

export type ExcelValue = ExcelCell | FormattedNumberCell;

function formatted(value: number, format: NumberFormat, support: DataTypeSupport): ExcelValue {
  return { type: support === "double" ? "Double" : "FormattedNumber", basicValue: value, numberFormat: format };
}

/** A number with its provenance as properties (and its format, if any): only where the host shows properties. */
function withProperties(value: number, format: NumberFormat | null, provenance: Provenance): FormattedNumberCell {
  const cell: FormattedNumberCell = { type: "Double", basicValue: value };
  if (format !== null) cell.numberFormat = format;
  cell.properties = provenanceProperties(provenance);
  return cell;
}

/**
 * One cell: a formatted number where supported and asked for (with its provenance as properties where the host
 * shows them), otherwise what toExcelCell gives.
 */
export function toExcelValue(
  cell: CellValue,
  format: NumberFormat | null,
  support: DataTypeSupport,
  provenance?: Provenance,
): ExcelValue {
  const plain = toExcelCell(cell);
  if (support === "none" || typeof plain !== "number") return plain;
  if (provenance && showsProperties(support)) return withProperties(plain, format, provenance);
  if (format === null) return plain;
  return formatted(plain, format, support);
}

/** A table: numbers get their format where supported; errors, text and booleans are as toExcelTable makes them. */
export function toExcelValues(
  table: readonly (readonly CellValue[])[],
  formatAt: FormatAt | undefined,
  support: DataTypeSupport,
  provenanceAt?: ProvenanceAt,
): ExcelValue[][] {
  const plain = toExcelTable(table);
  if (support === "none" || (!formatAt && !provenanceAt)) return plain;
  const properties = provenanceAt && showsProperties(support) ? provenanceAt : undefined;
  return plain.map((row, r) =>
    row.map((cell, c) => {
      if (typeof cell !== "number") return cell;
      const format = formatAt ? formatAt(r, c, cell) : null;
      const provenance = properties?.(r, c);
      if (provenance) return withProperties(cell, format, provenance);
      return format === null ? cell : formatted(cell, format, support);
    }),
  );
}

/**
 * The bytes a formatted number adds, as JSON, to the plain number it wraps:
 * measured on the object the add-in sends (`formatted`), with 0 for the value
 * (whose digits the plain estimate counts), once per type and format.
 * `{"type":"Double","basicValue":2553.26,"numberFormat":"$#,##0.00"}` is 65
 * bytes where the plain number is 7.
 */
const wrapperBytes = new Map<string, number>();
function formattedExtraBytes(cell: FormattedNumberCell): number {
  const key = `${cell.type} ${cell.numberFormat ?? ""}`;
  let bytes = wrapperBytes.get(key);
  if (bytes === undefined) {
    bytes = JSON.stringify({ type: cell.type, basicValue: 0, numberFormat: cell.numberFormat }).length - 1;
    wrapperBytes.set(key, bytes);
  }
  return bytes + (cell.properties ? propertiesBytes(cell.properties) : 0);
}

function isFormattedNumberCell(cell: ExcelValue): cell is FormattedNumberCell {
  return typeof cell === "object" && cell !== null && ("numberFormat" in cell || "properties" in cell);
}

/** The bytes the table will reach Excel as: the plain estimate and what each data type adds. */
function sentBytesOf(values: readonly (readonly ExcelValue[])[], plainBytes: number): number {
  let sentBytes = plainBytes;
  for (const row of values)
    for (const cell of row) if (isFormattedNumberCell(cell)) sentBytes += formattedExtraBytes(cell);
  return sentBytes;
}

/** A table as it will be sent, and what was changed to keep it within Excel's limit. */
export interface SentTable {
  values: ExcelValue[][];
  /** Set when the formats were dropped to fit: what happened, sizes stated. */
  note?: string;
}

export const SIZE_ADVICE = "Ask for fewer symbols or metrics, a shorter window, or a coarser granularity.";

/**
 * The table as toExcelValues makes it, measured as Excel will receive it.
 * Excel refuses a custom function's result over 5 MB, and on the web such a
 * result can leave the cell #BUSY! for good (office-js issues #2786, #4654), so
 * nothing over the limit is ever sent: a formatted table over it goes as plain
 * numbers with its formats dropped (a `note` says so); a table still over it
 * as plain numbers is refused (ResultTooLargeError, the size stated).
 */
export function toExcelValuesWithinLimit(
  table: readonly (readonly CellValue[])[],
  formatAt: FormatAt | undefined,
  support: DataTypeSupport,
  provenanceAt?: ProvenanceAt,
): SentTable {
  const rows = table.length;
  const columns = table[0]?.length ?? 0;
  const plainBytes = estimatePayloadBytes(table);
  assertBytesFitExcel(plainBytes, rows, columns, SIZE_ADVICE);
  const values = toExcelValues(table, formatAt, support, provenanceAt);
  if (support === "none" || (!formatAt && !provenanceAt)) return { values };
  const sentBytes = sentBytesOf(values, plainBytes);
  if (sentBytes <= EXCEL_RESULT_LIMIT_BYTES) return { values };
  // Over the limit: the properties go first (the card and `=A1.Date` are lost, the formats kept) …
  if (provenanceAt && showsProperties(support)) {
    const formattedOnly = toExcelValues(table, formatAt, support);
    if (sentBytesOf(formattedOnly, plainBytes) <= EXCEL_RESULT_LIMIT_BYTES)
      return {
        values: formattedOnly,
        note:
          `the result with each value's properties (${rows.toLocaleString("en-US")} rows × ${columns.toLocaleString("en-US")} columns) would reach Excel as about ${megabytesText(sentBytes)}, ` +
          "over its 5 MB limit for one formula, so it was sent without the properties (date, source, settled): " +
          "MD.LATEST cells carry them one value at a time.",
      };
  }
  // … then the formats.
  return {
    values: toExcelValues(table, undefined, support),
    note:
      `the formatted result (${rows.toLocaleString("en-US")} rows × ${columns.toLocaleString("en-US")} columns) would reach Excel as about ${megabytesText(sentBytes)}, ` +
      `over its 5 MB limit for one formula, so it was sent as plain numbers (about ${megabytesText(plainBytes)}) with its formats dropped: ` +
      "format the date and value columns in Excel, or ask for fewer symbols or metrics, a shorter window, or a coarser granularity.",
  };
}
