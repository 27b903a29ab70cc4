/**
 * Properties on basic cell values: Microsoft Learn, "Add properties to basic
 * cell values"
 * (https://learn.microsoft.com/en-us/office/dev/add-ins/excel/excel-data-types-add-properties-to-basic-cell-values):
 * "you can add properties to the string, double, and Boolean basic types.
 * Each property is a key/value pair … If the user chooses to show the data
 * type card, they'll see the values for the fields. Cell value properties can
 * also be used in formulas" (the page shows `a1.` offering Drinks, Food, Tax,
 * Tip). The value is `{ type: "Double", basicValue, properties: { Name:
 * { type, basicValue } } }` (Excel.DoubleCellValue.properties); the cell's
 * value for `Range.values` and arithmetic stays its basic value (data-types.ts).
 *
 * The model:
 * - `=B2.Date` (or `=B2.[Days with data]` for a name with spaces, the
 *   bracket form Excel uses for entity fields) reads the property of B2's
 *   value: a nested data type as it is (a date property keeps its format), a
 *   name the value lacks `#FIELD!` (Excel's error for a missing field), a
 *   value without properties `#FIELD!` too. It is recalculated when B2's
 *   value lands (calculation.ts).
 * - The card (`card(address)` on the handle) lists the properties in their
 *   order, with a property's `propertyMetadata.sublabel` under it, those
 *   marked `excludeFrom.cardView` left out (Excel.CellValuePropertyMetadata),
 *   titled with the value as the cell shows it.
 * - Properties on basic values came with ExcelApi 1.19 ("expanded options for
 *   basic cell values", Microsoft Learn, "Excel JavaScript API requirement set
 *   1.19"): a custom function that returns one to a host without that set
 *   gets `#VALUE!` in the cell, as a result of a type the host does not know.
 *   (Where Excel really draws that line is a step of docs/excel-checklist.md.)
 */
import { supports, type Model } from "./model";

export const PROPERTIES_API = "1.19";

/** `=B2.Date` / `=B2.[Days with data]`: the cell and the property's name; null for any other formula. */
export function propertyReference(formula: string): { address: string; name: string } | null {
  const match = /^=\s*\$?([A-Z]{1,3})\$?(\d+)\.(?:\[([^\]]+)\]|([A-Za-z_][A-Za-z0-9_]*))\s*$/i.exec(formula);
  if (!match) return null;
  return { address: `${match[1].toUpperCase()}${match[2]}`, name: match[3] ?? match[4] };
}

function propertiesOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const properties = (value as { properties?: unknown }).properties;
  return typeof properties === "object" && properties !== null ? (properties as Record<string, unknown>) : undefined;
}

/** A property of a value, as `=A1.Name` reads it (names match without regard to case, as Excel's do). */
export function readProperty(value: unknown, name: string): unknown {
  const properties = propertiesOf(value);
  if (!properties) return "#FIELD!";
  const found = Object.keys(properties).find((key) => key.toLowerCase() === name.toLowerCase());
  if (found === undefined) return "#FIELD!";
  const property = properties[found] as { type?: string; basicValue?: unknown };
  // A plain string or Boolean property lands as its value; a number keeps its data type (and its format).
  if (property.type === "String" || property.type === "Boolean") return property.basicValue;
  return property;
}

/** A basic value carrying properties (not an entity, which has them by nature). */
export function hasBasicProperties(value: unknown): boolean {
  if (!propertiesOf(value)) return false;
  const type = (value as { type?: unknown }).type;
  return type === "Double" || type === "String" || type === "Boolean" || type === "FormattedNumber";
}

/** A value as the host can hold it: properties on a basic value need ExcelApi 1.19 (also inside a spill). */
export function acceptedValue(m: Model, value: unknown): unknown {
  if (supports(m, "ExcelApi", PROPERTIES_API)) return value;
  return hasBasicProperties(value) ? "#VALUE!" : value;
}

export interface CardField {
  name: string;
  value: unknown;
  sublabel?: string;
}

/** The data type card of a value: its fields in order, without those kept off the card; null for a value without properties. */
export function cardOf(value: unknown): { title: unknown; fields: CardField[] } | null {
  const properties = propertiesOf(value);
  if (!properties) return null;
  const fields: CardField[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    const property = raw as {
      basicValue?: unknown;
      propertyMetadata?: { sublabel?: string; excludeFrom?: { cardView?: boolean } };
    };
    if (property.propertyMetadata?.excludeFrom?.cardView) continue;
    const field: CardField = { name, value: property.basicValue };
    if (property.propertyMetadata?.sublabel) field.sublabel = property.propertyMetadata.sublabel;
    fields.push(field);
  }
  return { title: (value as { basicValue?: unknown }).basicValue, fields };
}
