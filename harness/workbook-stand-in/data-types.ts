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
 * An entity's basic value is an error: Excel.EntityCellValue documents
 * `basicType?: RangeValueType.error | "Error"` and `basicValue?: "#VALUE!"`
 * (https://learn.microsoft.com/en-us/javascript/api/excel/excel.entitycellvalue;
 * Microsoft's ArrayCellValue sample marks both "A read-only property. Used as
 * a fallback in incompatible scenarios."). So `Range.values` of an MD.ASSET
 * card reads "#VALUE!", `valueTypes` "Error", and only `valuesAsJson` returns
 * the entity (with those two read-only fields). The same holds for the other
 * values without a basic form: LinkedEntityCellValue, WebImageCellValue,
 * ArrayCellValue (each documented with basicValue "#VALUE!").
 *
 * Writing one (`Range.valuesAsJson = [[entity]]`, range.ts) is how
 * Microsoft's own samples create an entity card ("The valuesAsJson property …
 * is integral to creating data types in Excel", Excel data types: core
 * concepts); the read-only fields are not kept from the write.
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

/** Data types whose basic value is #VALUE! (each documented so on Microsoft Learn, Excel.<Type>CellValue.basicValue). */
const WITHOUT_BASIC_FORM = ["Entity", "LinkedEntity", "WebImage", "Array"];

/** An entity, a linked entity, a web image or an array: a value `Range.values` reads as #VALUE!. */
export const isRich = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" &&
  value !== null &&
  WITHOUT_BASIC_FORM.includes(String((value as { type?: unknown }).type));

/** A data type's basic value (what `Range.values` returns); a plain value as it is. */
export const basic = (value: unknown): unknown => {
  if (isRich(value)) return "#VALUE!";
  return typeof value === "object" && value !== null && "basicValue" in value
    ? (value as { basicValue: unknown }).basicValue
    : value;
};

/** What a cell keeps of a value written through `Range.valuesAsJson`: a data type without its read-only fields, a plain value as its basic value. */
export const fromJson = (json: unknown): unknown => {
  if (typeof json !== "object" || json === null) return json;
  const { basicType: _type, basicValue, ...rest } = json as Record<string, unknown>;
  if (isRich(json)) return rest;
  if (rest.type === "Double" || rest.type === "FormattedNumber")
    return typeof rest.numberFormat === "string" ? { ...rest, basicValue } : basicValue;
  // Text stays text, however it reads (the apostrophe is not kept: cell-entry.ts).
  if (rest.type === "String") return `'${String(basicValue ?? "")}`;
  return basicValue ?? "";
};

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
  if (isRich(value)) return { ...value, basicType: "Error", basicValue: "#VALUE!" };
  if (typeof value === "object" && value !== null && "type" in value) return { ...(value as Record<string, unknown>) };
  const type = typeOf(value);
  return type === "Empty" ? { type, basicValue: "" } : { type, basicValue: value };
};
