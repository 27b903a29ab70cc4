/**
 * MD.LATEST: the last reading on or before a date. Workbooks hold thousands of
 * these cells, so every cell with the same as_of asks for the same window
 * (as_of − 30 days … as_of for daily metrics): the client then answers them
 * with one request per 50 symbols instead of one per cell. Only a cell whose
 * window holds no reading looks further back. A prefixed metric (`L30_FEES`)
 * is a windowed sum (an average for an AVERAGE metric such as DAU; refused for
 * a level such as TVL: prefix-aggregation.ts) whose days the window rule
 * chooses (core/window-span.ts): here, for MD.AGG, MD.SNAPSHOT and MD.ASSET alike.
 */
import { parseDate, parseMetric, parseSymbol } from "../core/arguments";
import { type DateSystem, isoToSerialIn } from "../core/excel-date";
import { type AggWindow, type PrefixAggregation, parsePrefixedMetric, type PrefixedMetric } from "../core/agg-window";
import { type DateUnit, shiftDate } from "../core/calendar";
import { NoDataError } from "../core/errors";
import { aggregateBetween, upperBound } from "../core/agg-stat";
import { naturalGranularity } from "../core/metric-knowledge";
import { DATE_FORMAT, type FormattedValue, numberFormatFor, PLAIN, type ValueKind } from "../core/number-format";
import { type OptionSpec, parseOptions } from "../core/options";
import {
  coverageText,
  fetchRange,
  latestDataDate,
  lookupDate,
  windowCoverage,
  type WindowCoverage,
  type WindowEnd,
  windowEndOf,
  type WindowSpan,
  windowSpan,
} from "../core/window-span";
import type { DataPoint, Granularity, Reading } from "../core/domain";
import { hasValue } from "../core/readings";
import type { CallContext } from "./call-context";
import { type NameArguments, SINGLE, withDiagnosis } from "./did-you-mean";
import { fetchReadings } from "./fetch-series";
import { valueKind } from "./metric-units";
import { prefixAggregationFor } from "./prefix-aggregation";
import { kindAndWords, type MetricWords, provenanceOf } from "./provenance";

export interface LatestArgs {
  symbol: unknown;
  metric: unknown;
  asOf?: unknown;
  options?: unknown;
}

/** Windows tried in turn, ending at as_of. Quarterly financials need a longer first look: a quarter is reported weeks after it ends. */
export const LATEST_LOOKBACKS: Readonly<Record<"DAY" | "QUARTER", readonly { count: number; unit: DateUnit }[]>> = {
  DAY: [
    { count: 30, unit: "D" },
    { count: 2, unit: "Y" },
  ],
  QUARTER: [
    { count: 15, unit: "M" },
    { count: 5, unit: "Y" },
  ],
};

/**
 * Arguments as cells write them, parsed once: a workbook's MD.LATEST cells
 * repeat the same few symbols, metrics and dates thousands of times. Only
 * text that parses is remembered (a failure is thrown each time, as before);
 * dates with the day and date system they were read on.
 */
const PARSED_HELD = 4096;

class ParsedText {
  private readonly held = new Map<string, string | undefined>();
  private context = "";

  /** `context`: what else the parse depends on; a new one forgets the rest. */
  get(value: unknown, parse: () => string | undefined, context = ""): string | undefined {
    if (typeof value !== "string") return parse();
    if (context !== this.context) {
      this.held.clear();
      this.context = context;
    }
    const known = this.held.get(value);
    if (known !== undefined || this.held.has(value)) return known;
    const parsed = parse();
    if (this.held.size >= PARSED_HELD) this.held.clear();
    this.held.set(value, parsed);
    return parsed;
  }
}

const SYMBOLS = new ParsedText();
const METRICS = new ParsedText();
const AS_OF = new ParsedText();

function parsedSymbol(value: unknown): string {
  return SYMBOLS.get(value, () => parseSymbol(value))!;
}

function parsedMetric(value: unknown): string {
  return METRICS.get(value, () => parseMetric(value))!;
}

export function parseAsOf(value: unknown, today: string, dateSystem?: DateSystem): string {
  return parseDate(value, "as_of", { today, anchor: today, dateSystem, upToToday: true }) ?? today;
}

/** as_of as written: undefined when omitted, which lets a window end on the latest data (core/window-span.ts). */
export function parseAsOfGiven(value: unknown, today: string, dateSystem?: DateSystem): string | undefined {
  return AS_OF.get(
    value,
    () => parseDate(value, "as_of", { today, anchor: today, dateSystem, upToToday: true }) ?? undefined,
    `${today} ${dateSystem ?? ""}`,
  );
}

/** MD.LATEST's `options`: show=date puts the value's date in the cell instead of the value. */
export const LATEST_OPTIONS = {
  show: { kind: "choice", values: ["value", "date"], default: "value" },
} as const satisfies OptionSpec;

export async function latestValue(ctx: CallContext, args: LatestArgs): Promise<number> {
  const symbol = parsedSymbol(args.symbol);
  const metric = parsedMetric(args.metric);
  return (await latestReading(ctx, symbol, metric, parseAsOfGiven(args.asOf, ctx.today, ctx.dateSystem))).val;
}

/**
 * MD.LATEST's number in the unit of its metric (a prefixed metric sums its
 * base metric: the base's unit), or with show=date its date; either way with
 * a note of the date it is dated on (what the pane's preview shows beside it).
 */
export function formattedLatestValue(ctx: CallContext, args: LatestArgs): Promise<FormattedValue> {
  // A promise chain rather than an async function: every cell of a cold workbook waits here at once.
  try {
    const symbol = parsedSymbol(args.symbol);
    const metric = parsedMetric(args.metric);
    const asOf = parseAsOfGiven(args.asOf, ctx.today, ctx.dateSystem);
    const options = parseOptions(args.options, LATEST_OPTIONS);
    const reading = latestReading(ctx, symbol, metric, asOf);
    const shown = (reading: DatedReading, kind: ValueKind, descriptor?: MetricWords): FormattedValue => {
      const note = readingNote(reading);
      const cell: FormattedValue =
        options.show === "date"
          ? { ...datedCell(reading.date, ctx.dateSystem), note }
          : { value: reading.val, format: numberFormatFor(kind, reading.val), note };
      const provenance = provenanceOf(ctx, symbol, metric, reading, descriptor);
      if (provenance) cell.provenance = provenance;
      return cell;
    };
    // Plain cells (no number formats) need no value kind: one promise less per waiting cell.
    if (!ctx.cellFormats) return reading.then((answer) => shown(answer, PLAIN));
    if (ctx.cellProperties) {
      // One look at the catalog for the format and the Metric property's words.
      const described = kindAndWords(ctx, symbol, metric);
      return Promise.all([reading, described]).then(([answer, { kind, words }]) => shown(answer, kind, words));
    }
    const kind = valueKind(ctx, symbol, parsePrefixedMetric(metric)?.base ?? metric);
    return Promise.all([reading, kind]).then(([answer, valueKind]) => shown(answer, valueKind));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** A date as its cell holds it: a serial of the workbook's date system, formatted as MD.SERIES formats its dates. */
export function datedCell(iso: string, dateSystem: DateSystem | undefined): FormattedValue {
  return { value: isoToSerialIn(iso, dateSystem ?? 1900), format: DATE_FORMAT };
}

/** "Dated 2026-11-22", or for a windowed sum "Sum over 2026-10-24 to 2026-11-22" (and the days it misses). */
export function readingNote(reading: DatedReading): string {
  if (!reading.span) return `Dated ${reading.date}`;
  const what = reading.aggregation === "AVERAGE" ? "Average" : "Sum";
  return `${what} over ${coverageText(reading.span, reading.coverage ?? null)}`;
}

/** A reading, and for a windowed sum or average (`L30_FEES`, `L30_DAU`) the days it covers. */
export interface DatedReading extends Reading {
  span?: WindowSpan;
  coverage?: WindowCoverage | null;
  aggregation?: PrefixAggregation;
}

/**
 * The last reading of a parsed pair on or before as_of (a prefixed metric: its
 * windowed sum, by the window rule). Throws NoDataError, or UnknownNameError for a name the
 * catalogs do not know (`names`: the arguments its message names).
 */
export function latestReading(
  ctx: CallContext,
  symbol: string,
  metric: string,
  asOf: string | undefined,
  names: NameArguments = SINGLE,
): Promise<DatedReading> {
  return withDiagnosis(ctx, symbol, metric, names, () => datedLatest(ctx, symbol, metric, asOf, names));
}

/**
 * MD.LATEST's reading with its date (a prefixed metric: its sum, dated on the
 * day its window ends), without the did-you-mean diagnosis of a failure: for
 * callers that read many pairs and expect some to be absent (MD.ASSET).
 * `asOf` undefined: today, and a prefixed metric's window ends on the latest data.
 * `names`: the arguments a refused prefix (a level's: `L30_TVL`) names.
 */
export function datedLatest(
  ctx: CallContext,
  symbol: string,
  metric: string,
  asOf: string | undefined,
  names: NameArguments = SINGLE,
): Promise<DatedReading> {
  try {
    const prefixed = parsePrefixedMetric(metric);
    if (prefixed) return prefixedLatest(ctx, symbol, metric, prefixed, windowEndOf(asOf, ctx.today), names.metric);
    return plainLatest(ctx, symbol, metric, asOf ?? ctx.today);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The lookbacks in turn until one holds a reading. A promise chain rather than
 * an async function: every cell of a big workbook waits here at once, and a
 * suspended async function holds its frame while it waits.
 */
function plainLatest(ctx: CallContext, symbol: string, metric: string, asOf: string): Promise<Reading> {
  const granularity = naturalGranularity(metric);
  const lookbacks = LATEST_LOOKBACKS[granularity === "QUARTER" ? "QUARTER" : "DAY"];
  const look = (i: number): Promise<Reading> => {
    const lookback = lookbacks[i]!;
    const searchedFrom = shiftDate(asOf, -lookback.count, lookback.unit);
    return fetchReadings(ctx, symbol, metric, granularity, searchedFrom, asOf, "keep").then((points) => {
      const last = lastOnOrBefore(points, asOf);
      if (last) return last;
      if (i + 1 < lookbacks.length) return look(i + 1);
      throw new NoDataError(`No ${symbol} ${metric} value on or before ${asOf} (searched from ${searchedFrom}).`);
    });
  };
  try {
    return look(0);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The last reading with a value dated on or before `date`: a null (a day not filled in yet) is skipped, never read as 0. */
export function lastOnOrBefore(points: readonly DataPoint[], date: string): Reading | undefined {
  for (let i = upperBound(points, date) - 1; i >= 0; i--) {
    const point = points[i];
    if (hasValue(point)) return point;
  }
  return undefined;
}

/**
 * One pair's readings for a window, its days chosen by the window rule
 * (core/window-span.ts): one request, the same for every cell with this
 * window and end, and a second only when the pair's latest data is older than
 * the margin fetched. `reach`: the first day the computation needs, from the
 * window's first day. The points returned run from reach(start) to the end.
 */
export async function windowReadings(
  ctx: CallContext,
  symbol: string,
  metric: string,
  granularity: Granularity,
  window: AggWindow,
  end: WindowEnd,
  reach: (start: string) => string = (start) => start,
): Promise<{ span: WindowSpan; points: readonly DataPoint[] }> {
  const range = fetchRange(window, end, granularity, reach);
  let points = await fetchReadings(ctx, symbol, metric, granularity, range.from, range.to);
  let latest: string | undefined;
  if (end.kind === "latest-data") {
    latest = latestDataDate(points, end.today) ?? (await plainLatest(ctx, symbol, metric, end.today)).date;
  }
  const span = windowSpan(window, end, latest);
  if (!span) throw new NoDataError(`No ${symbol} ${metric} value on or before ${lookupDate(end)}.`);
  const from = reach(span.start);
  if (from < range.from) points = await fetchReadings(ctx, symbol, metric, granularity, from, span.end);
  return { span, points: points.filter((point) => point.date >= from && point.date <= span.end) };
}

/**
 * `L30_FEES`: FEES summed over its 30-day window (`L30_DAU`: DAU averaged),
 * dated on the window's last day. as_of omitted: the window ends on the base
 * metric's latest data; given: on as_of. `argument`: what a refusal names.
 */
async function prefixedLatest(
  ctx: CallContext,
  symbol: string,
  metric: string,
  prefixed: PrefixedMetric,
  end: WindowEnd,
  argument: string,
): Promise<DatedReading> {
  const granularity = naturalGranularity(prefixed.base);
  // Both at once: the catalog that says how to aggregate is the one that formats the cell, usually held already.
  const [aggregation, { span, points }] = await Promise.all([
    prefixAggregationFor(ctx, symbol, metric, prefixed, argument),
    windowReadings(ctx, symbol, prefixed.base, granularity, prefixed.window, end),
  ]);
  const val = aggregateBetween(points, span.start, span.end, aggregation);
  if (val === undefined)
    throw new NoDataError(
      `No ${symbol} ${prefixed.base} value from ${span.start} to ${span.end} to compute ${metric}.`,
    );
  const coverage = granularity === "DAY" ? windowCoverage(points, span) : null;
  return { date: span.end, val, span, coverage, aggregation };
}
