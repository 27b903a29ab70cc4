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
 * Property objects that many values share (a recalculation's 1,000 cells have a few dates, one fetch time per
 * request, a few metrics, three sources), made once and frozen: every value with the same field holds the same
 * object, and the payload guard measures each object once (propertiesBytes). One map a field, looked up by the
 * field's own value (no key text is built for each value), each emptied past HELD.
 */
const HELD = 4096;

type Held<K> = Map<K, BasicProperty>;

/** Holds a new shared property (frozen) under `key`, and returns it. */
function hold<K>(held: Held<K>, key: K, property: BasicProperty): BasicProperty {
  if (held.size >= HELD) held.clear();
  const frozen = Object.freeze(property) as BasicProperty;
  held.set(key, frozen);
  return frozen;
}

/** Dates and fetch times by date system (1900, 1904): the same day is another serial in each. */
const dates = { 1900: new Map() as Held<string>, 1904: new Map() as Held<string> };
const moments = { 1900: new Map() as Held<number>, 1904: new Map() as Held<number> };
const symbols: Held<string> = new Map();
/** By metric, then by its catalog words (description and unit). */
const metrics = new Map<string, Held<string>>();

function dateProperty(iso: string, provenance: Provenance): BasicProperty {
  const system = provenance.dateSystem ?? 1900;
  const held = dates[system];
  return (
    held.get(iso) ??
    hold(held, iso, { type: "Double", basicValue: isoToSerialIn(iso, system), numberFormat: DATE_FORMAT })
  );
}

/** A moment as Excel holds it: the local day's serial plus the time of day as a fraction. */
function momentProperty(ms: number, provenance: Provenance): BasicProperty {
  const system = provenance.dateSystem ?? 1900;
  const held = moments[system];
  const property = held.get(ms);
  if (property) return property;
  const at = new Date(ms);
  const iso = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
  const fraction = (at.getHours() * 3600 + at.getMinutes() * 60 + at.getSeconds()) / 86_400;
  const serial = isoToSerialIn(iso, system) + fraction;
  return hold(held, ms, { type: "Double", basicValue: Math.round(serial * 1e6) / 1e6, numberFormat: FETCHED_FORMAT });
}

function momentText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

function metricProperty(provenance: Provenance): BasicProperty {
  const { metric, description, unit } = provenance;
  let held = metrics.get(metric);
  if (!held) {
    if (metrics.size >= HELD) metrics.clear();
    metrics.set(metric, (held = new Map()));
  }
  const words = unit === undefined ? (description ?? "") : `${description ?? ""}\u0000${unit}`;
  const property = held.get(words);
  if (property) return property;
  const about = [description, unit && `unit: ${unit}`].filter(Boolean).join(" · ");
  return hold(held, words, {
    type: "String",
    basicValue: metric,
    ...(about ? { propertyMetadata: { sublabel: about } } : {}),
  });
}

function symbolProperty(symbol: string): BasicProperty {
  return symbols.get(symbol) ?? hold(symbols, symbol, { type: "String", basicValue: symbol });
}

const SETTLED: Readonly<Record<"yes" | "no", BasicProperty>> = {
  yes: Object.freeze({ type: "Boolean", basicValue: true }),
  no: Object.freeze({ type: "Boolean", basicValue: false }),
};

const SOURCES: Readonly<Record<Provenance["source"], BasicProperty>> = {
  service: Object.freeze({ type: "String", basicValue: SOURCE_NAMES.service }),
  "gateway-cache": Object.freeze({ type: "String", basicValue: SOURCE_NAMES["gateway-cache"] }),
  store: Object.freeze({ type: "String", basicValue: SOURCE_NAMES.store }),
};

/** The properties of a value, in the order the card lists them. */
export function provenanceProperties(provenance: Provenance): ValueProperties {
  const properties: ValueProperties = { Date: dateProperty(provenance.date, provenance) };
  if (provenance.start !== undefined) properties["First day"] = dateProperty(provenance.start, provenance);
  if (provenance.daysWithData !== undefined)
    properties["Days with data"] = { type: "Double", basicValue: provenance.daysWithData };
  properties.Symbol = symbolProperty(provenance.symbol);
  properties.Metric = metricProperty(provenance);
  properties.Settled = SETTLED[provenance.settled ? "yes" : "no"];
  properties.Source = SOURCES[provenance.source];
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

/** Each property object's JSON length, measured once (the shared ones are measured once for all the values holding them). */
const jsonLength = new WeakMap<BasicProperty, number>();

function lengthOf(property: BasicProperty): number {
  let length = jsonLength.get(property);
  if (length === undefined) jsonLength.set(property, (length = JSON.stringify(property).length));
  return length;
}

/** The JSON bytes a value's properties add (`,"properties":{…}`), for the payload guard (cell-values.ts). */
export function propertiesBytes(properties: ValueProperties): number {
  // JSON.stringify(properties).length without writing it out: `{` `"name":value` joined by `,` `}`.
  let bytes = 14 + 1;
  let count = 0;
  for (const name in properties) {
    bytes += JSON.stringify(name).length + 1 + lengthOf(properties[name]!) + 1;
    count += 1;
  }
  return count === 0 ? bytes + 1 : bytes;
}
