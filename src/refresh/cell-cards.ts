/**
 * Cells that read as errors but hold a value: an MD.ASSET card is an Excel
 * entity, and "the value that would be returned by `Range.values` for a cell
 * with this value" is `#VALUE!`, its `basicType` `Error` (Microsoft Learn,
 * Excel.EntityCellValue,
 * https://learn.microsoft.com/en-us/javascript/api/excel/excel.entitycellvalue).
 * Only `Range.valuesAsJson` (ExcelApi 1.16) tells a card from a `#VALUE!`
 * error, so where a cell reads "Error" the adapter reads its JSON too
 * (RangeValues.errorsAsJson), and Refresh all and Freeze ask here.
 *
 * Freezing a card keeps it a card: written back through `Range.valuesAsJson`,
 * the way Microsoft's samples create entity cards ("The valuesAsJson property
 * … is integral to creating data types in Excel", Microsoft Learn, *Excel
 * data types: core concepts*,
 * https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-data-types-concepts).
 * An entity holds its properties, layout and text itself, so a frozen card
 * keeps its card and every `=A1.Price` without the add-in. What is left out:
 * `provider`, the branding of "the service that provided the data"
 * (Excel.CellValueProviderAttributes: "used in card view to provide specified
 * branding information") — a frozen card is no longer the service's live
 * data — and the read-only `basicType` / `basicValue` ("A read-only property.
 * Used as a fallback in incompatible scenarios", Microsoft's
 * Excel.ArrayCellValue sample).
 */
import type { CellJson, RangeValues } from "./workbook-adapter";

/** The data type in a cell that reads as an error but is not one (an entity, a linked entity, an image), or null. */
export function valueBehindError(reading: Pick<RangeValues, "types" | "errorsAsJson">, r: number, c: number) {
  if (reading.types[r]?.[c] !== "Error") return null;
  const json = reading.errorsAsJson?.[r]?.[c];
  return json && typeof json.type === "string" && json.type !== "Error" ? json : null;
}

export const isEntity = (json: CellJson | null): json is CellJson => json?.type === "Entity";

/** The entity to write for a frozen card: itself, without the provider and the read-only basic fields. */
export function staticCard(entity: CellJson): CellJson {
  const { provider: _provider, basicType: _type, basicValue: _value, ...card } = entity;
  return card;
}

/** The text a cell with this value shows ("Represents the text shown when a cell with this value is rendered"). */
export function shownText(json: CellJson): string | null {
  return typeof json.text === "string" ? json.text : null;
}
