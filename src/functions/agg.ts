/** MD.AGG: one statistic over a window ending at as_of. */
import { isMarketDataError } from "../api";
import type { MetricDescriptor } from "../core/domain";
import { parseMetric, parseSymbol } from "../core/arguments";
import { computeStat, defaultStat, parseStat, rollingSums, type Stat, STAT_FORMS } from "../core/agg-stat";
import { type AggWindow, parseAggWindow, parsePrefixedMetric, windowStart } from "../core/agg-window";
import type { CellValue } from "../core/cell";
import { ArgumentError, NoDataError } from "../core/errors";
import { readingsOf } from "../core/readings";
import { knownAggregationType, naturalGranularity } from "../core/metric-knowledge";
import { type FormattedValue, numberFormatFor, PERCENT_FORMAT, PLAIN, type ValueKind } from "../core/number-format";
import type { CallContext } from "./call-context";
import { SINGLE, withDiagnosis } from "./did-you-mean";
import { fetchReadings } from "./fetch-series";
import { parseAsOf } from "./latest";
import { valueKind } from "./metric-units";

export interface AggArgs {
  symbol: unknown;
  metric: unknown;
  window: unknown;
  stat?: unknown;
  asOf?: unknown;
}

/** MD.AGG's number: PCT_CHANGE as a percentage, every other statistic in the metric's unit. */
export async function formattedAggregateValue(ctx: CallContext, args: AggArgs): Promise<FormattedValue> {
  const [value, kind] = await Promise.all([
    aggregateValue(ctx, args),
    // Arguments are parsed again inside aggregateValue; a bad one fails there first with its message.
    unitOf(ctx, args).catch(() => PLAIN),
  ]);
  if (typeof value !== "number") return { value, format: null };
  const stat = parseStat(args.stat);
  return { value, format: stat === "PCT_CHANGE" ? PERCENT_FORMAT : numberFormatFor(kind, value) };
}

async function unitOf(ctx: CallContext, args: AggArgs): Promise<ValueKind> {
  const symbol = parseSymbol(args.symbol);
  const metric = parseMetric(args.metric);
  return valueKind(ctx, symbol, parsePrefixedMetric(metric)?.base ?? metric);
}

export async function aggregateValue(ctx: CallContext, args: AggArgs): Promise<CellValue> {
  const symbol = parseSymbol(args.symbol);
  const metric = parseMetric(args.metric);
  const window = parseAggWindow(args.window);
  const stat = parseStat(args.stat);
  const asOf = parseAsOf(args.asOf, ctx.today, ctx.dateSystem);
  return withDiagnosis(ctx, symbol, metric, SINGLE, () => aggregate(ctx, symbol, metric, window, stat, asOf));
}

/** MD.AGG's statistic of parsed arguments, without the did-you-mean diagnosis of a failure (MD.ASSET reads many pairs, some absent). */
export async function aggregate(
  ctx: CallContext,
  symbol: string,
  metric: string,
  window: AggWindow,
  stat: Stat | undefined,
  asOf: string,
): Promise<CellValue> {
  const start = windowStart(window, asOf);
  const prefixed = parsePrefixedMetric(metric);

  let values: number[];
  let chosen: Stat;
  if (prefixed) {
    // A prefixed metric is a daily series of rolling sums: fetch far enough back for the first date's sum.
    const granularity = naturalGranularity(prefixed.base);
    const points = await fetchReadings(
      ctx,
      symbol,
      prefixed.base,
      granularity,
      windowStart(prefixed.window, start),
      asOf,
    );
    values = rollingSums(points, prefixed.window, start, asOf).map((point) => point.val);
    chosen = stat ?? "LAST";
  } else {
    const granularity = naturalGranularity(metric);
    const [fetched, defaulted] = await Promise.allSettled([
      fetchReadings(ctx, symbol, metric, granularity, start, asOf),
      stat ?? defaultStatFor(ctx, symbol, metric),
    ]);
    // The series' failure comes first: an unknown name says what was meant, not that it has no default stat.
    if (fetched.status === "rejected") throw fetched.reason;
    if (defaulted.status === "rejected") throw defaulted.reason;
    const points = fetched.value;
    const statToUse = defaulted.value;
    values = readingsOf(points)
      .filter((point) => point.date >= start && point.date <= asOf)
      .map((point) => point.val);
    chosen = statToUse;
  }
  if (values.length === 0)
    throw new NoDataError(`No ${symbol} ${metric} data in the ${window.label} window ${start} to ${asOf}.`);
  return computeStat(chosen, values);
}

/** SUM for flows, LAST for levels, from the catalog's aggregation_type (built-in knowledge when the catalog does not list the metric). */
export async function defaultStatFor(ctx: CallContext, symbol: string, metric: string): Promise<Stat> {
  let descriptors: MetricDescriptor[] = [];
  try {
    descriptors = await ctx.client.getMetrics(symbol, ctx.call);
  } catch (error) {
    // A symbol the catalog does not know still has a default for well-known metrics.
    if (!isMarketDataError(error) || (error.kind !== "not-found" && error.kind !== "bad-request")) throw error;
  }
  const type =
    descriptors.find((descriptor) => descriptor.name === metric)?.aggregation_type ?? knownAggregationType(metric);
  if (type === undefined) {
    throw new ArgumentError(
      "stat",
      `the metric catalog does not describe ${metric} for ${symbol}, so there is no default. Use ${STAT_FORMS}.`,
    );
  }
  return defaultStat(type);
}
