/**
 * Cell values as data types: Microsoft Learn, "Excel data types: core
 * concepts" (https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-data-types-concepts),
 * Excel.FormattedNumberCellValue / DoubleCellValue
 * (https://learn.microsoft.com/en-us/javascript/api/excel/excel.formattednumbercellvalue)
 * and Excel.EntityCellValue (https://learn.microsoft.com/en-us/javascript/api/excel/excel.entitycellvalue).
 *
 * A cell's value may be a data-type object such as
 * `{ type: "Double", basicValue, numberFormat }` or an entity
 * `{ type: "Entity", text, properties }`. `Range.values` and `valueTypes`
 * return its basic value and type ("the value that would be returned by
 * `Range.values` for a cell with this value"), dropping the format;
 * `Range.valuesAsJson` (ExcelApi 1.16) returns the object as it is (a plain
 * value as `{ type, basicValue }`).
 *
 * Which format the user sees (`shownFormat`): "The number format in a
 * `DoubleCellValue` is the default format. If a user … applies formatting to
 * the cell later, that applied format overrides the value's format"
 * (Microsoft Learn, "Excel data types: core concepts",
 * https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-data-types-concepts).
 * So a format applied to the cell (by the user, or by the add-in through
 * `Range.numberFormat`) wins; the value's own format shows only in a cell
 * nobody formatted. What `Range.numberFormat` reads for such a cell is not
 * documented; the model says "General" (range.ts), and an applied "General"
 * reads the same (docs/excel-checklist.md §17 asks a person to look).
 */

/** The error values Excel shows; a string among them reads back with type "Error". */
export const ERRORS = [
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

/** A data type's basic value (what `Range.values` returns); a plain value as it is. */
export const basic = (value: unknown): unknown =>
  typeof value === "object" && value !== null && "basicValue" in value
    ? (value as { basicValue: unknown }).basicValue
    : value;

/** The number format a data-type value carries, if any. */
export const carriedFormat = (value: unknown): string | null => {
  const format =
    typeof value === "object" && value !== null ? (value as { numberFormat?: unknown }).numberFormat : null;
  return typeof format === "string" ? format : null;
};

/** The format the user sees: the one applied to the cell, else the value's own, else "General". */
export const shownFormat = (value: unknown, applied: string | undefined): string =>
  applied ?? carriedFormat(value) ?? "General";

/** `Range.valueTypes`: the type of the basic value. */
export const typeOf = (raw: unknown) => {
  const value = basic(raw);
  if (value === "" || value === null || value === undefined) return "Empty";
  if (typeof value === "number") return "Double";
  if (typeof value === "boolean") return "Boolean";
  if (typeof value === "string" && ERRORS.includes(value.toUpperCase())) return "Error";
  return "String";
};

/** `Range.valuesAsJson`: a data type as it is, a plain value as `{ type, basicValue }`. */
export const asJson = (value: unknown): Record<string, unknown> => {
  if (typeof value === "object" && value !== null && "type" in value) return { ...(value as Record<string, unknown>) };
  const type = typeOf(value);
  return type === "Empty" ? { type, basicValue: "" } : { type, basicValue: value };
};
