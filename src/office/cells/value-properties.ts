/**
 * A value's provenance as properties on the value itself.
 *
 * Microsoft Learn, "Add properties to basic cell values"
 * (learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-add-properties-to-basic-cell-values):
 * "you can add properties to the string, double, and Boolean basic types …
 * If the user chooses to show the data type card, they'll see the values for
 * the fields. Cell value properties can also be used in formulas" (`=A1.Food`).
 * The value stays a number: `{ type: "Double", basicValue, numberFormat,
 * properties: { Name: { type: "String", basicValue } … } }` (Excel.DoubleCellValue,
 * its `properties` a map of EntityPropertyType). Properties on basic values
 * came with ExcelApi 1.19 ("updates to the data types feature, such as support
 * for … dot notation, and expanded options for basic cell values": Microsoft
 * Learn, "Excel JavaScript API requirement set 1.19"), the set that also
 * brings DoubleCellValue.numberFormat: so a host whose support is `double`
 * (cell-values.ts DataTypeSupport: CustomFunctionsRuntime 1.4 and ExcelApi 1.19) gets them;
 * ExcelApi 1.16 hosts get the formatted number alone, older hosts the plain
 * number, as before.
 *
 * The properties: Date (the reading's date, or a window's last day, with its
 * First day and Days with data), Symbol, Metric (the catalog's description and
 * unit under it, `propertyMetadata.sublabel`), Settled, Source, Fetched, and
 * where a recheck corrected the day, Revised (in words) and Earlier value.
 */
import { isoToSerialIn } from "../../core/excel-date";
import { DATE_FORMAT, type NumberFormat } from "../../core/number-format";
import { type Provenance, SOURCE_NAMES } from "../../core/provenance";

export const FETCHED_FORMAT: NumberFormat = "yyyy-mm-dd hh:mm";

interface Metadata {
  sublabel?: string;
}

export type BasicProperty =
  | { type: "String"; basicValue: string; propertyMetadata?: Metadata }
  | { type: "Boolean"; basicValue: boolean }
  | { type: "Double"; basicValue: number; numberFormat?: NumberFormat };

export type ValueProperties = Record<string, BasicProperty>;

/** Whether the host shows properties on values: ExcelApi 1.19 with data types in custom functions. */
export function showsProperties(support: "none" | "formatted-number" | "double"): boolean {
  return support === "double";
}

/**
 * The Date and Fetched properties, made once a day (or moment) and date system and shared by the values that carry
 * them: a recalculation's cells mostly share their reading's day and their answer's fetch time. Never changed once
 * made (Excel reads them; nothing here writes to them).
 */
const PROPERTIES_HELD = 512;
const madeProperties = new Map<string, BasicProperty>();

function held(key: string, make: () => BasicProperty): BasicProperty {
  let property = madeProperties.get(key);
  if (property === undefined) {
    property = make();
    if (madeProperties.size >= PROPERTIES_HELD) madeProperties.clear();
    madeProperties.set(key, property);
  }
  return property;
}

function dateProperty(iso: string, provenance: Provenance): BasicProperty {
  const system = provenance.dateSystem ?? 1900;
  return held(`d${system}${iso}`, () => ({
    type: "Double",
    basicValue: isoToSerialIn(iso, system),
    numberFormat: DATE_FORMAT,
  }));
}

/** A moment as Excel holds it: the local day's serial plus the time of day as a fraction. */
function momentProperty(ms: number, provenance: Provenance): BasicProperty {
  return held(`m${provenance.dateSystem ?? 1900}${ms}`, () => makeMomentProperty(ms, provenance));
}

function makeMomentProperty(ms: number, provenance: Provenance): BasicProperty {
  const at = new Date(ms);
  const iso = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
  const fraction = (at.getHours() * 3600 + at.getMinutes() * 60 + at.getSeconds()) / 86_400;
  const serial = isoToSerialIn(iso, provenance.dateSystem ?? 1900) + fraction;
  return { type: "Double", basicValue: Math.round(serial * 1e6) / 1e6, numberFormat: FETCHED_FORMAT };
}

function momentText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** The properties of a value, in the order the card lists them. */
export function provenanceProperties(provenance: Provenance): ValueProperties {
  const properties: ValueProperties = { Date: dateProperty(provenance.date, provenance) };
  if (provenance.start !== undefined) properties["First day"] = dateProperty(provenance.start, provenance);
  if (provenance.daysWithData !== undefined)
    properties["Days with data"] = { type: "Double", basicValue: provenance.daysWithData };
  properties.Symbol = { type: "String", basicValue: provenance.symbol };
  const about = [provenance.description, provenance.unit && `unit: ${provenance.unit}`].filter(Boolean).join(" · ");
  properties.Metric = {
    type: "String",
    basicValue: provenance.metric,
    ...(about ? { propertyMetadata: { sublabel: about } } : {}),
  };
  properties.Settled = { type: "Boolean", basicValue: provenance.settled };
  properties.Source = { type: "String", basicValue: SOURCE_NAMES[provenance.source] };
  properties.Fetched = momentProperty(provenance.fetchedAt, provenance);
  const revised = provenance.revised;
  if (revised) {
    properties.Revised = {
      type: "String",
      basicValue: `Corrected ${momentText(revised.at)}; was ${revised.was} (fetched ${momentText(revised.wasFetchedAt)})`,
    };
    properties["Earlier value"] = { type: "Double", basicValue: revised.was };
  }
  return properties;
}

/** The JSON bytes a value's properties add (`,"properties":{…}`), for the payload guard (cell-values.ts). */
export function propertiesBytes(properties: ValueProperties): number {
  return JSON.stringify(properties).length + 14;
}
