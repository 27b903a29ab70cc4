/**
 * The formulas the pane writes into a cell, as text (quoting and omitted
 * arguments are core/formula's). The functions parse and check their
 * arguments when Excel calls them; here only the pane's choices are encoded.
 */
import type { Granularity } from "../../core/domain";
import { buildFormula } from "../../core/formula";

export type SeriesOrder = "asc" | "desc";

/**
 * The MD.SERIES options the pane offers for one symbol × metric (`fill` and
 * `days` only matter when several series share a date column, so they are
 * left to hand-written formulas). A value equal to the default is not written.
 */
export interface SeriesOptions {
  headers: boolean;
  order: SeriesOrder;
  /** Keep only the most recent N rows; null keeps all. */
  last: number | null;
}

export const DEFAULT_SERIES_OPTIONS: SeriesOptions = { headers: true, order: "asc", last: null };

/** `"headers=false; order=desc"`, or "" when every option is at its default. */
export function seriesOptionsText(options: SeriesOptions): string {
  const parts: string[] = [];
  if (options.headers !== DEFAULT_SERIES_OPTIONS.headers) parts.push(`headers=${options.headers}`);
  if (options.order !== DEFAULT_SERIES_OPTIONS.order) parts.push(`order=${options.order}`);
  if (options.last !== null) parts.push(`last=${options.last}`);
  return parts.join("; ");
}

export interface SeriesFormulaInput {
  symbol: string;
  metric: string;
  /** As the user typed it: YYYY-MM-DD, TODAY or -1Y style; empty → omitted. */
  start: string;
  end: string;
  /** Omitted when it is what the function would choose anyway. */
  granularity: Granularity | null;
  options: SeriesOptions;
}

export function seriesFormula(input: SeriesFormulaInput): string {
  const options = seriesOptionsText(input.options);
  return buildFormula("MD.SERIES", [
    input.symbol,
    input.metric,
    input.start.trim() || undefined,
    input.end.trim() || undefined,
    input.granularity ?? undefined,
    options || undefined,
  ]);
}

export function latestFormula(symbol: string, metric: string, asOf: string): string {
  return buildFormula("MD.LATEST", [symbol, metric, asOf.trim() || undefined]);
}

/** `"a=b; c=d"` from the options that differ from their defaults, or undefined when none does (the argument is omitted). */
function optionsArg(parts: readonly (string | null)[]): string | undefined {
  const text = parts.filter((p): p is string => p !== null).join("; ");
  return text || undefined;
}

/** Text as typed, or omitted when blank. */
function given(text: string): string | undefined {
  return text.trim() || undefined;
}

/** A list as the functions read it: `"eth, sol, eq-coin"` (names trimmed, blanks dropped). */
export function listText(names: readonly string[]): string {
  return names
    .map((n) => n.trim())
    .filter(Boolean)
    .join(", ");
}

export interface AggFormulaInput {
  symbol: string;
  metric: string;
  /** 30D, MTD, -6M … */
  window: string;
  /** SUM, AVG …; empty: the metric's default (SUM for flows, LAST for levels). */
  stat: string;
  asOf: string;
}

export function aggFormula(input: AggFormulaInput): string {
  return buildFormula("MD.AGG", [
    input.symbol,
    input.metric,
    input.window.trim(),
    given(input.stat),
    given(input.asOf),
  ]);
}

export interface SnapshotFormulaInput {
  symbols: readonly string[];
  metrics: readonly string[];
  asOf: string;
  headers: boolean;
  transpose: boolean;
}

/** MD.SNAPSHOT's options text, or undefined when both are at their default (the argument is omitted). */
export function snapshotOptionsText(input: { headers: boolean; transpose: boolean }): string | undefined {
  return optionsArg([input.headers ? null : "headers=false", input.transpose ? "transpose=true" : null]);
}

export function snapshotFormula(input: SnapshotFormulaInput): string {
  return buildFormula("MD.SNAPSHOT", [
    listText(input.symbols),
    listText(input.metrics),
    given(input.asOf),
    snapshotOptionsText(input),
  ]);
}

/** MD.ASSET for one symbol: the asset as an entity card, or with `table` as its property/value table (as_of left to today). */
export function assetFormula(symbol: string, table = false): string {
  return buildFormula("MD.ASSET", [symbol, undefined, optionsArg([table ? "table=true" : null])]);
}

export interface SupplyFormulaInput {
  symbol: string;
  start: string;
  end: string;
  /** Omitted when DAY, the function's default. */
  granularity: Granularity;
}

export function supplyFormula(input: SupplyFormulaInput): string {
  return buildFormula("MD.SUPPLY", [
    input.symbol,
    given(input.start),
    given(input.end),
    input.granularity === "DAY" ? undefined : input.granularity,
  ]);
}

/** MD.FLOWS's flow_type: NETFLOW alone is the default and is not written; all three are ALL. */
export type FlowChoice = "NETFLOW" | "INFLOW" | "OUTFLOW";
export const FLOW_CHOICES: readonly FlowChoice[] = ["NETFLOW", "INFLOW", "OUTFLOW"];

export function flowTypeText(types: readonly FlowChoice[]): string | undefined {
  const chosen = FLOW_CHOICES.filter((t) => types.includes(t));
  if (chosen.length === 0 || (chosen.length === 1 && chosen[0] === "NETFLOW")) return undefined;
  if (chosen.length === FLOW_CHOICES.length) return "ALL";
  return chosen.join(", ");
}

export interface FlowsFormulaInput {
  chains: readonly string[];
  start: string;
  end: string;
  flowTypes: readonly FlowChoice[];
  headers: boolean;
  /** Keep the first N chains; null keeps all. */
  top: number | null;
}

export function flowsFormula(input: FlowsFormulaInput): string {
  return buildFormula("MD.FLOWS", [
    listText(input.chains),
    given(input.start),
    given(input.end),
    // granularity: refused by MD.FLOWS, always left empty.
    undefined,
    flowTypeText(input.flowTypes),
    flowsOptionsText(input),
  ]);
}

/** MD.FLOWS's options text, or undefined when both are at their default (the argument is omitted). */
export function flowsOptionsText(input: { headers: boolean; top: number | null }): string | undefined {
  return optionsArg([input.headers ? null : "headers=false", input.top !== null ? `top=${input.top}` : null]);
}
