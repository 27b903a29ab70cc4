/**
 * MD.ASSET's card: what the add-in knows of one asset, as properties in
 * sections, independent of how Excel shows it. The Office edge turns a card
 * into an entity value where the host has them (src/office/cells/entity-value.ts),
 * and `shapeAssetTable` lays it flat as a two-column property/value table
 * where it does not.
 *
 * Every metric property is read exactly as a cell would read it: `latest`
 * is MD.LATEST(symbol, metric, as_of), `agg` is MD.AGG(symbol, metric, window,
 * stat, as_of), so `=A1.Price` equals `=MD.LATEST(sym,"PRICE")` and costs no
 * request a sheet of those cells would not. A crypto asset's kind is not in
 * the asset catalog: every crypto property is asked at once (one batched
 * burst) and the kind follows from which metrics the service offers, by the
 * rule MD.ASSETS uses (kindFromOffer in assets-table.ts). A property whose
 * metric the service lacks for the asset is absent from the card, never 0.
 */
import type { Provenance } from "./provenance";
import { type AssetKind, kindFromOffer } from "./assets-table";
import { BLANK, type CellValue, textCell } from "./cell";
import { DATE_FORMAT, type FormatAt, type FormattedTable, type NumberFormat } from "./number-format";
import { type DateSystem, isoToSerialIn } from "./excel-date";
import type { OptionSpec } from "./options";
import { coverageText, type WindowCoverage, type WindowSpan } from "./window-span";

/** The provider every MD.ASSET entity names: how an MD entity passed back into an MD function is recognised (excel-input.ts). */
export const ASSET_PROVIDER = "Market Data for Excel";

/** The property an MD.ASSET entity carries its symbol in: what an MD function reads from it (not its display text). */
export const SYMBOL_PROPERTY = "Symbol";

/**
 * MD.ASSET's `options`: table=true spills the two-column property/value table
 * even where Excel has entities, for a workbook that an Excel without them
 * (Excel 2021 and older) opens too: there a card cell shows #VALUE!.
 */
export const ASSET_OPTIONS = {
  table: { kind: "boolean", default: false },
} as const satisfies OptionSpec;

/** How a property's number is read: as MD.LATEST reads it, or as MD.AGG computes it over a window ending at as_of. */
export type PropertyRead =
  { kind: "latest"; metric: string } | { kind: "agg"; metric: string; window: string; stat: "SUM" | "AVG" };

export interface AssetPropertySpec {
  /** The property's name: `=A1.Price`, `=A1.[Market cap]`. */
  name: string;
  read: PropertyRead;
  /** The metric whose catalog unit formats the value (a prefixed metric: its base). */
  unitMetric: string;
}

export interface AssetSectionSpec {
  title: string;
  properties: readonly AssetPropertySpec[];
}

const latest = (name: string, metric: string, unitMetric = metric): AssetPropertySpec => ({
  name,
  read: { kind: "latest", metric },
  unitMetric,
});
const over30Days = (name: string, metric: string, stat: "SUM" | "AVG"): AssetPropertySpec => ({
  name,
  read: { kind: "agg", metric, window: "30D", stat },
  unitMetric: metric,
});

/** The stablecoin supply buckets, as MD.SUPPLY reads them (supply-table.ts SUPPLY_PARTS), and the identity's remainder. */
export const OTHER_LOCKED = "Other locked";
const SUPPLY_SPECS = {
  circulating: latest("Circulating supply", "STABLECOIN_SUPPLY_CIRCULATING"),
  total: latest("Total supply", "STABLECOIN_SUPPLY_TOTAL"),
  bridged: latest("Bridged", "STABLECOIN_SUPPLY_BRIDGED"),
  premint: latest("Premint", "STABLECOIN_SUPPLY_PREMINT"),
  peg: latest("Peg stability", "STABLECOIN_SUPPLY_PEG_STABILITY"),
};

const MARKET: AssetSectionSpec = {
  title: "Market",
  properties: [latest("Price", "PRICE"), latest("Market cap", "MC"), latest("Volume", "VOLUME")],
};
const ACTIVITY: AssetSectionSpec = {
  title: "Activity (30 days)",
  properties: [
    latest("TVL", "TVL"),
    over30Days("Fees 30D", "FEES", "SUM"),
    over30Days("DAU 30D", "DAU", "AVG"),
    over30Days("DEX volume 30D", "DEX_VOLUMES", "SUM"),
  ],
};
const SUPPLY: AssetSectionSpec = { title: "Supply", properties: Object.values(SUPPLY_SPECS) };

/** Sections of a crypto asset by its kind, headline first; every crypto property is asked whatever the kind. */
const CRYPTO_SECTIONS: Readonly<Record<Exclude<AssetKind, "equity">, readonly AssetSectionSpec[]>> = {
  token: [MARKET, ACTIVITY, SUPPLY],
  chain: [ACTIVITY, MARKET, SUPPLY],
  stablecoin: [SUPPLY, MARKET, ACTIVITY],
  category: [ACTIVITY, MARKET, SUPPLY],
};

const EQUITY_SECTIONS: readonly AssetSectionSpec[] = [
  { title: "Market", properties: [latest("Price", "PRICE"), latest("Market cap", "MC")] },
  {
    title: "Financials (last twelve months)",
    properties: [latest("LTM revenue", "LTM_TOTAL_REVENUE", "TOTAL_REVENUE"), latest("EBITDA", "LTM_EBITDA", "EBITDA")],
  },
  {
    title: "Valuation",
    properties: [
      latest("EV/EBITDA", "ENTERPRISE_VALUE_DIVIDE_EBITDA"),
      latest("Earnings yield", "EARNINGS_YIELD"),
      latest("FCF yield", "FCF_YIELD"),
    ],
  },
];

export function isEquitySymbol(symbol: string): boolean {
  return symbol.startsWith("eq-");
}

/** Every property an asset of this symbol's family (equity or crypto) is asked for, each once. */
export function assetPropertySpecs(symbol: string): AssetPropertySpec[] {
  const sections = isEquitySymbol(symbol) ? EQUITY_SECTIONS : CRYPTO_SECTIONS.token;
  return sections.flatMap((section) => section.properties);
}

/** What reading a property gave: a value with its date, offered without a value (no reading), or not offered at all. */
export type PropertyOutcome =
  | { kind: "value"; value: number; date: string; format: NumberFormat | null; note?: string; provenance?: Provenance }
  | { kind: "no-value" }
  | { kind: "not-offered" };

export interface AssetFact {
  name: string;
  value: number;
  /** The reading's date (a windowed property: the window's last day), ISO. */
  date: string;
  format: NumberFormat | null;
  /** What the card says under the value: its date, and a window. */
  note: string;
  /** Where the value came from, where the host shows properties on values (core/provenance.ts). */
  provenance?: Provenance;
}

export interface AssetSection {
  title: string;
  facts: AssetFact[];
}

export interface AssetCard {
  symbol: string;
  title: string;
  kind: AssetKind | "";
  color: string;
  asOf: string;
  sections: AssetSection[];
  dateSystem: DateSystem;
}

export interface AssetIdentity {
  symbol: string;
  title: string;
  color: string;
}

/** The kind of an asset: equity by its prefix, a crypto asset's from the metrics its properties found offered. */
export function assetKindOf(symbol: string, outcomes: ReadonlyMap<string, PropertyOutcome>): AssetKind {
  if (isEquitySymbol(symbol)) return "equity";
  const offered = new Set<string>();
  for (const spec of assetPropertySpecs(symbol)) {
    const outcome = outcomes.get(spec.name);
    if (outcome && outcome.kind !== "not-offered") offered.add(spec.unitMetric);
  }
  return kindFromOffer(offered);
}

/** True when no property has a value: nothing to show on a card (an unknown symbol, or nothing on or before as_of). */
export function noValue(outcomes: ReadonlyMap<string, PropertyOutcome>): boolean {
  return [...outcomes.values()].every((outcome) => outcome.kind !== "value");
}

/** True when no property of the asset is offered: the service has nothing for the symbol. */
export function nothingOffered(outcomes: ReadonlyMap<string, PropertyOutcome>): boolean {
  return [...outcomes.values()].every((outcome) => outcome.kind === "not-offered");
}

/**
 * The card from the identity (asset catalog) and each property's outcome
 * (keyed by property name). Sections without a value are left out; "Other
 * locked" follows from the supply identity (TOTAL − CIRCULATING − BRIDGED −
 * PREMINT − PEG_STABILITY, as MD.SUPPLY derives it) when all five are read on
 * the same date.
 */
export function buildAssetCard(
  identity: AssetIdentity,
  outcomes: ReadonlyMap<string, PropertyOutcome>,
  asOf: string,
  dateSystem: DateSystem = 1900,
): AssetCard {
  const kind = assetKindOf(identity.symbol, outcomes);
  const specs = kind === "equity" ? EQUITY_SECTIONS : CRYPTO_SECTIONS[kind];
  const sections: AssetSection[] = [];
  for (const spec of specs) {
    const facts: AssetFact[] = [];
    for (const property of spec.properties) {
      const outcome = outcomes.get(property.name);
      if (outcome?.kind === "value") facts.push(factOf(property.name, outcome));
    }
    if (spec === SUPPLY) {
      const other = otherLocked(outcomes);
      if (other) facts.splice(facts.findIndex((fact) => fact.name === SUPPLY_SPECS.peg.name) + 1, 0, other);
    }
    if (facts.length > 0) sections.push({ title: spec.title, facts });
  }
  // The catalog's text, cut to what a cell holds as MD.ASSETS cuts it: the entity's text, its Name, the table.
  const title = textCell(identity.title);
  const color = textCell(identity.color);
  return { symbol: identity.symbol, title, color, kind, asOf, sections, dateSystem };
}

function factOf(name: string, outcome: Extract<PropertyOutcome, { kind: "value" }>): AssetFact {
  return {
    name,
    value: outcome.value,
    date: outcome.date,
    format: outcome.format,
    note: outcome.note ?? `as of ${outcome.date}`,
    ...(outcome.provenance ? { provenance: outcome.provenance } : {}),
  };
}

function otherLocked(outcomes: ReadonlyMap<string, PropertyOutcome>): AssetFact | undefined {
  const parts = Object.values(SUPPLY_SPECS).map((spec) => outcomes.get(spec.name));
  const values = parts.flatMap((part) => (part?.kind === "value" ? [part] : []));
  if (values.length !== parts.length || values.some((part) => part.date !== values[0].date)) return undefined;
  const [circulating, total, bridged, premint, peg] = values.map((part) => part.value);
  const raw = total - circulating - bridged - premint - peg;
  // Subtracting large floats leaves rounding dust where the identity holds exactly (as in MD.SUPPLY): 0.
  const value = Math.abs(raw) <= Math.abs(total) * 1e-12 ? 0 : raw;
  return factOf(OTHER_LOCKED, { kind: "value", value, date: values[0].date, format: values[1].format });
}

/**
 * What the card says under a windowed value: "sum over 30D, 2026-10-24 to
 * 2026-11-22", and for a window missing days "…; 28 of 30 days have data".
 */
export function windowNote(what: string, window: string, span: WindowSpan, coverage: WindowCoverage | null): string {
  return `${what} over ${window}, ${coverageText(span, coverage)}`;
}

/** The name of the property that holds a fact's date: `=A1.[Price date]`. */
export function dateProperty(name: string): string {
  return `${name} date`;
}

/** The identity's rows, in card order: Name first, so the cell a table starts in shows the asset, as an entity does. */
export function identityRows(card: AssetCard): [string, string][] {
  return [
    ["Name", card.title],
    [SYMBOL_PROPERTY, card.symbol],
    ["Kind", card.kind],
    ["Colour", card.color],
  ];
}

/**
 * The card laid flat for a host without entities: Name, Symbol, Kind, Colour,
 * As of, then each fact and its date (`Price`, `Price date`), two columns, no header
 * row (the first cell shows `Name`, the second the asset's title).
 */
export function shapeAssetTable(card: AssetCard): FormattedTable {
  const rows: CellValue[][] = identityRows(card).map(([name, value]) => [name, value || BLANK]);
  const formats: (NumberFormat | null)[] = rows.map(() => null);
  rows.push(["As of", isoToSerialIn(card.asOf, card.dateSystem)]);
  formats.push(DATE_FORMAT);
  for (const section of card.sections)
    for (const fact of section.facts) {
      rows.push([fact.name, fact.value]);
      formats.push(fact.format);
      rows.push([dateProperty(fact.name), isoToSerialIn(fact.date, card.dateSystem)]);
      formats.push(DATE_FORMAT);
    }
  const formatAt: FormatAt = (row, column) => (column === 1 ? formats[row] : null);
  return { rows, formatAt };
}
