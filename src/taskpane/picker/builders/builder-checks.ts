/**
 * From a builder's fields to a formula and the arguments Excel will pass its
 * function, checked with the functions' own parsers (src/core/arguments and
 * friends), so a field the pane accepts is one the cell accepts, and a refusal
 * is the cell's message shown under its field. Pure: no React, no client.
 */
import { parseStat } from "../../../core/agg-stat";
import { parseAggWindow } from "../../../core/agg-window";
import {
  parseDate,
  parseDateWindow,
  parseMetric,
  parseMetrics,
  parseSymbol,
  parseSymbols,
} from "../../../core/arguments";
import type { Granularity } from "../../../core/domain";
import { ArgumentError } from "../../../core/errors";
import { FLOWS_OPTIONS, parseFlowTypes } from "../../../core/flows-table";
import { parseOptions } from "../../../core/options";
import type { AggArgs } from "../../../functions/agg";
import type { FlowsArgs } from "../../../functions/flows";
import type { LatestArgs } from "../../../functions/latest";
import type { SeriesArgs } from "../../../functions/series";
import type { SnapshotArgs } from "../../../functions/snapshot";
import type { SupplyArgs } from "../../../functions/supply";
import {
  aggFormula,
  type FlowChoice,
  flowsFormula,
  flowsOptionsText,
  flowTypeText,
  latestFormula,
  listText,
  seriesFormula,
  type SeriesOptions,
  seriesOptionsText,
  snapshotFormula,
  snapshotOptionsText,
  supplyFormula,
} from "../formula-text";
import { typedDate } from "../typed-date";

/** Where the builder runs: the user's date (TODAY) and the locale typed dates follow. */
export interface BuilderEnv {
  today: string;
  dateLocale?: string;
}

export type Checked<A> = { ok: true; formula: string; args: A } | { ok: false; errors: Record<string, string> };

/** The message without its "argument: " prefix, under the field that argument came from. */
function refusal(error: unknown, fieldOf: Record<string, string>, fallback: string): Record<string, string> {
  if (!(error instanceof ArgumentError)) return { [fallback]: error instanceof Error ? error.message : String(error) };
  const prefix = `${error.argument}: `;
  const text = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return { [fieldOf[error.argument] ?? fallback]: text };
}

/** Typed dates (01/15/2025 in the user's locale) become YYYY-MM-DD; a date that is not one is refused under its field. */
function typedDates<K extends string>(
  fields: Record<K, string>,
  env: BuilderEnv,
): { ok: true; dates: Record<K, string> } | { ok: false; errors: Record<string, string> } {
  const dates = {} as Record<K, string>;
  for (const name of Object.keys(fields) as K[]) {
    const typed = typedDate(fields[name], env.dateLocale);
    if (!typed.ok) return { ok: false, errors: { [name]: typed.message } };
    dates[name] = typed.text.trim();
  }
  return { ok: true, dates };
}

/** Excel hands a list argument (a range parameter) a text value as [[text]]. */
const asRange = (text: string): string[][] => [[text]];
const orNull = (text: string): string | null => (text.trim() === "" ? null : text.trim());

/**
 * A start/end window typed the user's way, checked as the function checks it
 * (after `names`, the symbol and metric checks that come first in the cell).
 */
function checkedWindow(
  fields: { start: string; end: string },
  env: BuilderEnv,
  names: () => void,
): { ok: true; start: string; end: string } | { ok: false; errors: Record<string, string> } {
  const typed = typedDates({ start: fields.start, end: fields.end }, env);
  if (!typed.ok) return typed;
  const { start, end } = typed.dates;
  try {
    names();
    parseDateWindow(orNull(start), orNull(end), env.today);
  } catch (error) {
    return { ok: false, errors: refusal(error, { start: "start", end: "end" }, "start") };
  }
  return { ok: true, start, end };
}

/** An as-of date typed the user's way, checked as the function checks it (after `checks`, the cell's earlier checks). */
function checkedAsOf(
  text: string,
  env: BuilderEnv,
  checks: () => void,
  fieldOf: Record<string, string> = {},
  fallback = "asOf",
): { ok: true; asOf: string } | { ok: false; errors: Record<string, string> } {
  const typed = typedDates({ asOf: text }, env);
  if (!typed.ok) return typed;
  const { asOf } = typed.dates;
  try {
    checks();
    parseDate(orNull(asOf), "as_of", { today: env.today, anchor: env.today });
  } catch (error) {
    return { ok: false, errors: refusal(error, { ...fieldOf, as_of: "asOf" }, fallback) };
  }
  return { ok: true, asOf };
}

export interface SeriesFields {
  symbol: string;
  metric: string;
  start: string;
  end: string;
  granularity: Granularity;
  options: SeriesOptions;
}

/** MD.SERIES for one asset and metric; the granularity is always written, so the formula reads as the pane showed it. */
export function checkSeries(fields: SeriesFields, env: BuilderEnv): Checked<SeriesArgs> {
  const window = checkedWindow(fields, env, () => {
    parseSymbol(fields.symbol);
    parseMetric(fields.metric);
  });
  if (!window.ok) return window;
  const { start, end } = window;
  const options = seriesOptionsText(fields.options);
  return {
    ok: true,
    formula: seriesFormula({ ...fields, start, end }),
    args: {
      symbols: asRange(fields.symbol),
      metrics: asRange(fields.metric),
      start: orNull(start),
      end: orNull(end),
      granularity: fields.granularity,
      options: options ? asRange(options) : null,
    },
  };
}

export interface LatestFields {
  symbol: string;
  metric: string;
  asOf: string;
}

export function checkLatest(fields: LatestFields, env: BuilderEnv): Checked<LatestArgs> {
  const checked = checkedAsOf(fields.asOf, env, () => {
    parseSymbol(fields.symbol);
    parseMetric(fields.metric);
  });
  if (!checked.ok) return checked;
  const { asOf } = checked;
  return {
    ok: true,
    formula: latestFormula(fields.symbol, fields.metric, asOf),
    args: { symbol: fields.symbol, metric: fields.metric, asOf: orNull(asOf) },
  };
}

export interface AggFields {
  symbol: string;
  metric: string;
  window: string;
  stat: string;
  asOf: string;
}

export function checkAgg(fields: AggFields, env: BuilderEnv): Checked<AggArgs> {
  const checked = checkedAsOf(
    fields.asOf,
    env,
    () => {
      parseSymbol(fields.symbol);
      parseMetric(fields.metric);
      parseAggWindow(fields.window);
      parseStat(orNull(fields.stat));
    },
    { window: "window", stat: "stat" },
    "window",
  );
  if (!checked.ok) return checked;
  const { asOf } = checked;
  return {
    ok: true,
    formula: aggFormula({ ...fields, asOf }),
    args: {
      symbol: fields.symbol,
      metric: fields.metric,
      window: fields.window.trim(),
      stat: orNull(fields.stat),
      asOf: orNull(asOf),
    },
  };
}

export interface SupplyFields {
  symbol: string;
  start: string;
  end: string;
  granularity: Granularity;
}

export function checkSupply(fields: SupplyFields, env: BuilderEnv): Checked<SupplyArgs> {
  const window = checkedWindow(fields, env, () => parseSymbol(fields.symbol));
  if (!window.ok) return window;
  const { start, end } = window;
  return {
    ok: true,
    formula: supplyFormula({ symbol: fields.symbol, start, end, granularity: fields.granularity }),
    args: {
      symbol: fields.symbol,
      start: orNull(start),
      end: orNull(end),
      granularity: fields.granularity === "DAY" ? null : fields.granularity,
    },
  };
}

export interface SnapshotFields {
  /** As typed: "eth, sol, eq-coin". */
  symbols: string;
  metrics: string;
  asOf: string;
  headers: boolean;
  transpose: boolean;
}

/** Names of a typed list, as the functions split it (commas, blanks dropped). */
export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
}

export function checkSnapshot(fields: SnapshotFields, env: BuilderEnv): Checked<SnapshotArgs> {
  const symbols = splitList(fields.symbols);
  const metrics = splitList(fields.metrics);
  const checked = checkedAsOf(
    fields.asOf,
    env,
    () => {
      parseSymbols(asRange(symbols.join(",")));
      parseMetrics(asRange(metrics.join(",")));
    },
    { symbols: "symbols", metrics: "metrics" },
    "symbols",
  );
  if (!checked.ok) return checked;
  const { asOf } = checked;
  const formula = snapshotFormula({ symbols, metrics, asOf, headers: fields.headers, transpose: fields.transpose });
  const options = snapshotOptionsText(fields);
  return {
    ok: true,
    formula,
    args: {
      symbols: asRange(listText(symbols)),
      metrics: asRange(listText(metrics)),
      asOf: orNull(asOf),
      options: options ? asRange(options) : null,
    },
  };
}

export interface FlowsFields {
  chains: readonly string[];
  start: string;
  end: string;
  flowTypes: readonly FlowChoice[];
  headers: boolean;
  /** As typed; empty keeps every chain. */
  top: string;
}

export function checkFlows(fields: FlowsFields, env: BuilderEnv): Checked<FlowsArgs> {
  const typed = typedDates({ start: fields.start, end: fields.end }, env);
  if (!typed.ok) return typed;
  const { start, end } = typed.dates;
  const chains = fields.chains.map((c) => c.trim()).filter(Boolean);
  if (chains.length === 0) return { ok: false, errors: { chains: "Choose at least one chain." } };
  if (fields.flowTypes.length === 0) return { ok: false, errors: { flowTypes: "Choose at least one flow." } };
  const topText = fields.top.trim();
  let top: number | null = null;
  try {
    // The cell's own option parser: its range (1 to 100,000) and its words.
    if (topText) top = parseOptions(asRange(`top=${topText}`), FLOWS_OPTIONS).top;
  } catch (error) {
    return { ok: false, errors: refusal(error, { options: "top" }, "top") };
  }
  const flowType = flowTypeText(fields.flowTypes) ?? null;
  try {
    parseSymbols(asRange(chains.join(",")), "source_chains");
    parseDateWindow(orNull(start), orNull(end), env.today);
    parseFlowTypes(flowType);
  } catch (error) {
    return {
      ok: false,
      errors: refusal(error, { source_chains: "chains", start: "start", end: "end", flow_type: "flowTypes" }, "chains"),
    };
  }
  const options = flowsOptionsText({ headers: fields.headers, top });
  return {
    ok: true,
    formula: flowsFormula({ chains, start, end, flowTypes: fields.flowTypes, headers: fields.headers, top }),
    args: {
      sourceChains: asRange(listText(chains)),
      start: orNull(start),
      end: orNull(end),
      granularity: null,
      flowType,
      options: options ? asRange(options) : null,
    },
  };
}
