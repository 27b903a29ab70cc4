/** MD.AGG: one statistic over a window ending at as_of. */
import { isMarketDataError } from "../api";
import type { MetricDescriptor } from "../core/domain";
import { parseMetric, parseSymbol } from "../core/arguments";
import { computeStat, defaultStat, parseStat, rollingSums, type Stat, STAT_FORMS } from "../core/agg-stat";
import { parseAggWindow, parsePrefixedMetric, windowStart } from "../core/agg-window";
import type { CellValue } from "../core/cell";
import { ArgumentError, NoDataError } from "../core/errors";
import { readingsOf } from "../core/readings";
import { knownAggregationType, naturalGranularity } from "../core/metric-knowledge";
import type { CallContext } from "./call-context";
import { fetchReadings } from "./fetch-series";
import { parseAsOf } from "./latest";

export interface AggArgs {
  symbol: unknown;
  metric: unknown;
  window: unknown;
  stat?: unknown;
  asOf?: unknown;
}

export async function aggregateValue(ctx: CallContext, args: AggArgs): Promise<CellValue> {
  const symbol = parseSymbol(args.symbol);
  const metric = parseMetric(args.metric);
  const window = parseAggWindow(args.window);
  const stat = parseStat(args.stat);
  const asOf = parseAsOf(args.asOf, ctx.today);
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
    const [points, statToUse] = await Promise.all([
      fetchReadings(ctx, symbol, metric, granularity, start, asOf),
      stat ?? defaultStatFor(ctx, symbol, metric),
    ]);
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
