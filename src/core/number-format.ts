/**
 * How a number should look where it lands: the Excel number format of a date,
 * a fraction shown as a percentage, a value in the metric's unit. Pure: the
 * Office edge (src/office/cells/cell-values.ts) turns a format into an Excel data
 * type where the host supports them, and drops it elsewhere (plain numbers).
 *
 * Number format strings are Excel's en-US codes (the form a DoubleCellValue's
 * `numberFormat` takes), see "Review guidelines for customizing a number
 * format" (support.microsoft.com/office/c0a1d1fa-d3f4-4018-96b7-9c9354dd99f5).
 */
import type { Provenance } from "./provenance";
import type { MetricDescriptor } from "./domain";
import type { CellValue } from "./cell";

/** An Excel number format code, e.g. "yyyy-mm-dd" or "0.00%". */
export type NumberFormat = string;

/** Dates: ISO order, unambiguous in every locale, sorts as text would. */
export const DATE_FORMAT: NumberFormat = "yyyy-mm-dd";
/** A date row whose period is incomplete (MD.SERIES's option partial=keep). */
export const PARTIAL_DATE_FORMAT: NumberFormat = 'yyyy-mm-dd" (partial)"';
/** A fraction (0.25) shown as a percentage (25.00%): PCT_CHANGE, an insight's change. */
export const PERCENT_FORMAT: NumberFormat = "0.00%";
/** A value the service already reports in percent (3.2 meaning 3.2 %): shown with a % sign, never multiplied. */
export const PERCENT_UNITS_FORMAT: NumberFormat = '0.00"%"';
/** An index rebased to 100 (MD.SERIES transform=rebase): 104.27. */
export const INDEX_FORMAT: NumberFormat = "0.00";
/** A multiple such as EV / EBITDA: 25.31x. */
export const RATIO_FORMAT: NumberFormat = '0.00"x"';
/** A count: transactions, users, shares. */
export const COUNT_FORMAT: NumberFormat = "#,##0";

/**
 * What a metric's values are, read from its catalog descriptor:
 * - `currency`: unit CURRENCY, in `currency` (the descriptor's currency_type, USD when unnamed);
 * - `percent-units`: a NOMINAL value the descriptor says is "in percent" (FCF_YIELD = 3.2 means 3.2 %);
 * - `ratio`: a NOMINAL quotient of two metrics (name `…_DIVIDE_…`, or a label `A / B`);
 * - `count`: a NOMINAL metric that is summed or averaged (transactions, active users, shares traded);
 * - `plain`: anything else: no format is imposed.
 */
export type ValueKind =
  | { kind: "currency"; currency: string }
  | { kind: "percent-units" }
  | { kind: "ratio" }
  | { kind: "count" }
  | { kind: "plain" };

export const PLAIN: ValueKind = { kind: "plain" };

const PERCENT_WORDS = /\bin percent\b|\bpercentage\b|%/i;

/** The descriptor fields a unit is read from; the catalog's descriptor has them all, an insight card some. */
export type UnitFacts = Pick<MetricDescriptor, "name" | "unit"> &
  Partial<Pick<MetricDescriptor, "label" | "description" | "methodology" | "aggregation_type" | "currency_type">>;

export function valueKindOf(descriptor: UnitFacts | undefined): ValueKind {
  if (!descriptor) return PLAIN;
  const unit = (descriptor.unit ?? "").trim().toUpperCase();
  if (unit === "CURRENCY") {
    const currency = (descriptor.currency_type ?? "").trim().toUpperCase();
    return { kind: "currency", currency: currency || "USD" };
  }
  if (unit === "PERCENT" || unit === "PERCENTAGE") return { kind: "percent-units" };
  if (unit !== "NOMINAL") return PLAIN;
  const words = [descriptor.label ?? "", descriptor.description ?? "", descriptor.methodology ?? ""].join("\n");
  if (PERCENT_WORDS.test(words)) return { kind: "percent-units" };
  if (/_DIVIDE_/.test(descriptor.name) || / \/ /.test(descriptor.label ?? "")) return { kind: "ratio" };
  const aggregation = (descriptor.aggregation_type ?? "").trim().toUpperCase();
  if (aggregation === "SUM" || aggregation === "AVERAGE") return { kind: "count" };
  return PLAIN;
}

const CURRENCY_SYMBOLS: Record<string, string> = { USD: "$", EUR: "€", GBP: "£", JPY: "¥" };

/**
 * The format of one value of a kind. Currency keeps two decimals, more for
 * amounts under one unit (a token priced 0.000312 must not read $0.00).
 */
export function numberFormatFor(kind: ValueKind, value: number): NumberFormat | null {
  switch (kind.kind) {
    case "currency": {
      const small = value !== 0 && Math.abs(value) < 1;
      const digits = small ? "0.00####" : "#,##0.00";
      const symbol = CURRENCY_SYMBOLS[kind.currency];
      return symbol ? `${symbol}${digits}` : `${digits} "${kind.currency.replace(/"/g, "")}"`;
    }
    case "percent-units":
      return PERCENT_UNITS_FORMAT;
    case "ratio":
      return RATIO_FORMAT;
    case "count":
      return COUNT_FORMAT;
    case "plain":
      return null;
  }
}

/**
 * The format of each numeric cell of a table, by position (header rows hold
 * text and are never asked). `null`: the number stays plain.
 */
export type FormatAt = (row: number, column: number, value: number) => NumberFormat | null;

/** A table with the formats its numbers should carry. */
export interface FormattedTable {
  rows: CellValue[][];
  formatAt: FormatAt;
  /** What the values cover, in words (the dates they are dated on), for a preview to show beside them. */
  note?: string;
  /** Where each value came from, by position (core/provenance.ts); undefined where unknown. */
  provenanceAt?: (row: number, column: number) => Provenance | undefined;
}

/** One number with its format (MD.LATEST, MD.AGG). */
export interface FormattedValue {
  value: CellValue;
  format: NumberFormat | null;
  /** What the value covers, in words ("dated 2026-11-22"), for a preview to show beside it. */
  note?: string;
  /** Where the value came from (core/provenance.ts), when the host shows properties on values. */
  provenance?: Provenance;
}

export function isFormattedTable(value: unknown): value is FormattedTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "formatAt" in value;
}

export function isFormattedValue(value: unknown): value is FormattedValue {
  return typeof value === "object" && value !== null && "format" in value && "value" in value;
}
