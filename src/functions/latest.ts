/**
 * MD.LATEST: the last reading on or before a date. Workbooks hold thousands of
 * these cells, so every cell with the same as_of asks for the same window
 * (as_of − 30 days … as_of for daily metrics): the client then answers them
 * with one request per 50 symbols instead of one per cell. Only a cell whose
 * window holds no reading looks further back.
 */
import { parseDate, parseMetric, parseSymbol } from "../core/arguments";
import type { DateSystem } from "../core/excel-date";
import { parsePrefixedMetric, type PrefixedMetric, windowStart } from "../core/agg-window";
import { lowerBound } from "../core/agg-stat";
import { addDays, type DateUnit, shiftDate } from "../core/calendar";
import { NoDataError } from "../core/errors";
import { naturalGranularity } from "../core/metric-knowledge";
import { type FormattedValue, numberFormatFor } from "../core/number-format";
import type { DataPoint, Granularity, Reading } from "../core/domain";
import { hasValue } from "../core/readings";
import type { CallContext } from "./call-context";
import { type NameArguments, SINGLE, withDiagnosis } from "./did-you-mean";
import { fetchReadings } from "./fetch-series";
import { valueKind } from "./metric-units";

export interface LatestArgs {
  symbol: unknown;
  metric: unknown;
  asOf?: unknown;
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

export function parseAsOf(value: unknown, today: string, dateSystem?: DateSystem): string {
  return parseDate(value, "as_of", { today, anchor: today, dateSystem, upToToday: true }) ?? today;
}

export async function latestValue(ctx: CallContext, args: LatestArgs): Promise<number> {
  const symbol = parseSymbol(args.symbol);
  const metric = parseMetric(args.metric);
  return latestReading(ctx, symbol, metric, parseAsOf(args.asOf, ctx.today, ctx.dateSystem));
}

/** MD.LATEST's number in the unit of its metric (a prefixed metric sums its base metric: the base's unit). */
export async function formattedLatestValue(ctx: CallContext, args: LatestArgs): Promise<FormattedValue> {
  const symbol = parseSymbol(args.symbol);
  const metric = parseMetric(args.metric);
  const asOf = parseAsOf(args.asOf, ctx.today, ctx.dateSystem);
  const [value, kind] = await Promise.all([
    latestReading(ctx, symbol, metric, asOf),
    valueKind(ctx, symbol, parsePrefixedMetric(metric)?.base ?? metric),
  ]);
  return { value, format: numberFormatFor(kind, value) };
}

/**
 * The last reading of a parsed pair on or before as_of (a prefixed metric: its
 * windowed sum). Throws NoDataError, or UnknownNameError for a name the
 * catalogs do not know (`names`: the arguments its message names).
 */
export async function latestReading(
  ctx: CallContext,
  symbol: string,
  metric: string,
  asOf: string,
  names: NameArguments = SINGLE,
): Promise<number> {
  return withDiagnosis(ctx, symbol, metric, names, () => readLatest(ctx, symbol, metric, asOf));
}

async function readLatest(ctx: CallContext, symbol: string, metric: string, asOf: string): Promise<number> {
  return (await datedLatest(ctx, symbol, metric, asOf)).val;
}

/**
 * MD.LATEST's reading with its date (a prefixed metric: its sum, dated on the
 * day its window ends), without the did-you-mean diagnosis of a failure: for
 * callers that read many pairs and expect some to be absent (MD.ASSET).
 */
export async function datedLatest(ctx: CallContext, symbol: string, metric: string, asOf: string): Promise<Reading> {
  const prefixed = parsePrefixedMetric(metric);
  if (prefixed) return prefixedLatest(ctx, symbol, metric, prefixed, asOf);

  const granularity = naturalGranularity(metric);
  let searchedFrom = asOf;
  for (const lookback of LATEST_LOOKBACKS[granularity === "QUARTER" ? "QUARTER" : "DAY"]) {
    searchedFrom = shiftDate(asOf, -lookback.count, lookback.unit);
    const points = await fetchReadings(ctx, symbol, metric, granularity, searchedFrom, asOf, "keep");
    const last = lastOnOrBefore(points, asOf);
    if (last) return last;
  }
  throw new NoDataError(`No ${symbol} ${metric} value on or before ${asOf} (searched from ${searchedFrom}).`);
}

/** The last reading with a value dated on or before `date`: a null (a day not filled in yet) is skipped, never read as 0. */
export function lastOnOrBefore(points: readonly DataPoint[], date: string): Reading | undefined {
  for (let i = lowerBound(points, addDays(date, 1)) - 1; i >= 0; i--) {
    const point = points[i];
    if (hasValue(point)) return point;
  }
  return undefined;
}

/** Days before the window's start also fetched, so the latest reading may be a little older than as_of and its window still be complete. */
function anchorSlackDays(granularity: Granularity): number {
  return granularity === "QUARTER" ? 120 : 7;
}

/**
 * `L30_FEES` on as_of: FEES summed over the 30 days ending on the latest
 * reading on or before as_of (the same date MD.LATEST would read FEES on).
 */
async function prefixedLatest(
  ctx: CallContext,
  symbol: string,
  metric: string,
  prefixed: PrefixedMetric,
  asOf: string,
): Promise<Reading> {
  const granularity = naturalGranularity(prefixed.base);
  const from = addDays(windowStart(prefixed.window, asOf), -anchorSlackDays(granularity));
  let points = await fetchReadings(ctx, symbol, prefixed.base, granularity, from, asOf);
  const anchor = lastOnOrBefore(points, asOf);
  if (!anchor)
    throw new NoDataError(`No ${symbol} ${prefixed.base} value from ${from} to ${asOf} to compute ${metric}.`);
  const windowFrom = windowStart(prefixed.window, anchor.date);
  if (windowFrom < from) points = await fetchReadings(ctx, symbol, prefixed.base, granularity, windowFrom, anchor.date);
  return { date: anchor.date, val: sumBetween(points, windowFrom, anchor.date) };
}

export function sumBetween(points: readonly DataPoint[], from: string, to: string): number {
  let total = 0;
  for (const point of points) if (point.date >= from && point.date <= to && point.val !== null) total += point.val;
  return total;
}
