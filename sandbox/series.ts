/**
 * Answers one (symbol, metric) pair of a `/data/api/` request: generate the
 * daily points inside the window, apply the free-cash-flow sparsity rule,
 * aggregate to the granularity, keep the most recent `limit` points.
 *
 * Sparsity rule for ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW,
 * MARKET_CAP_DIVIDE_FREE_CASH_FLOW and FCF_YIELD: a point exists only from the
 * first fiscal period end inside the window on (that day included, trading
 * days only). A window with no fiscal period end gets an empty series.
 */
import { aggregate, type DayPoint } from "./aggregate";
import type { AssetCatalog } from "./asset-catalog";
import { makeCryptoSeries } from "./crypto-series";
import { DATA_START_DAY, type Granularity, isoOfDay, isTradingDay, periodStart } from "./dates";
import { makeEquityMarket, makeRatioSeries, quarterFinancials, type QuarterFinancials } from "./equity-series";
import { fiscalQuarters } from "./fiscal-calendar";
import { isFcfRatioMetric, type MetricSpec } from "./metric-catalog";
import { metricSpecFor, resolveSymbol, type ResolvedSymbol } from "./symbols";

export interface DataContext {
  seed: number;
  /** Day number of the last day with data. */
  today: number;
  catalog: AssetCatalog;
  /** A methodology change: every series value is scaled by 1 + revision (0, the default: none). */
  revision?: number;
  /** One day's correction: that day's daily value is scaled, before any roll-up (null or absent: none). */
  revisedDay?: { day: number; scale: number } | null;
}

export interface SeriesQuery {
  startDay: number; // as requested; clipped to the data range here
  endDay: number;
  granularity: Granularity;
  limit: number; // 1..1000
}

export interface WirePoint {
  date: string;
  val: number;
}

/** The series, or the message the service answers in its place for an unsupported pair. */
export type SeriesAnswer = WirePoint[] | string;

export function unknownSymbolMessage(symbol: string): string {
  return `Symbol ${symbol} is not in the asset catalog`;
}

export function unsupportedMetricMessage(metric: string, symbol: string): string {
  return `Metric ${metric} is not available for ${symbol}`;
}

export function seriesFor(ctx: DataContext, requestedSymbol: string, metric: string, query: SeriesQuery): SeriesAnswer {
  const symbol = resolveSymbol(ctx.catalog, ctx.seed, requestedSymbol);
  if (!symbol) return unknownSymbolMessage(requestedSymbol);
  const spec = metricSpecFor(symbol, metric);
  if (!spec) return unsupportedMetricMessage(metric, requestedSymbol);
  const points = reviseOneDay(dailyPoints(ctx, symbol, spec, query), ctx.revisedDay);
  const rolled = spec.cadence === "fiscal" ? points : aggregate(points, query.granularity, spec.aggregation);
  const scale = 1 + (ctx.revision ?? 0);
  return rolled.slice(-query.limit).map((point) => ({ date: isoOfDay(point.day), val: point.val * scale }));
}

/** The daily points with one day's value corrected (SandboxOptions.reviseDay). */
function reviseOneDay(points: DayPoint[], revised: DataContext["revisedDay"]): DayPoint[] {
  if (!revised) return points;
  return points.map((point) =>
    point.day === revised.day ? { day: point.day, val: point.val * revised.scale } : point,
  );
}

/** The raw points of a metric inside the window (clipped to 2018-01-01 … today). */
export function dailyPoints(
  ctx: DataContext,
  symbol: ResolvedSymbol,
  spec: MetricSpec,
  query: SeriesQuery,
): DayPoint[] {
  const start = Math.max(query.startDay, DATA_START_DAY);
  const end = Math.min(query.endDay, ctx.today);
  if (start > end) return [];
  const company = symbol.company;
  if (spec.cadence === "fiscal") {
    if (!company) return [];
    return fiscalQuarters(company)
      .filter((quarter) => quarter.end >= start && quarter.end <= end)
      .map((quarter) => ({
        day: quarter.end,
        val: quarterFinancials(ctx.seed, company, quarter)[spec.name as keyof QuarterFinancials],
      }));
  }
  let from = start;
  if (company && isFcfRatioMetric(spec.name)) {
    const firstEnd = fiscalQuarters(company).find((quarter) => quarter.end >= start && quarter.end <= end);
    if (!firstEnd) return [];
    from = firstEnd.end;
  }
  from = Math.max(from, earliestNeeded(end, query, spec));
  const valueOf = dayValue(ctx, symbol, spec);
  const points: DayPoint[] = [];
  for (let day = from; day <= end; day++) {
    if (spec.cadence === "trading" && !isTradingDay(day)) continue;
    const val = valueOf(day);
    if (val !== undefined && Number.isFinite(val)) points.push({ day, val });
  }
  return points;
}

/**
 * The first day worth generating when only the last `limit` periods are kept:
 * the start of a whole period far enough back to yield more than `limit`
 * periods. Skipping the days before it changes no returned value.
 */
function earliestNeeded(end: number, query: SeriesQuery, spec: MetricSpec): number {
  const { granularity, limit } = query;
  if (granularity === "DAY") return spec.cadence === "trading" ? end - Math.ceil(limit / 5) * 7 - 7 : end - limit + 1;
  const longest = { WEEK: 7, MONTH: 31, QUARTER: 92, YEAR: 366 }[granularity];
  return periodStart(end - longest * (limit + 1), granularity);
}

function dayValue(ctx: DataContext, symbol: ResolvedSymbol, spec: MetricSpec): (day: number) => number | undefined {
  const company = symbol.company;
  if (!company) return makeCryptoSeries(ctx.seed, symbol, spec.name) ?? (() => undefined);
  if (spec.group === "valuation") return makeRatioSeries(ctx.seed, company, spec.name) ?? (() => undefined);
  const market = makeEquityMarket(ctx.seed, company);
  if (spec.name === "PRICE") return (day) => market(day).price;
  if (spec.name === "VOLUME") return (day) => market(day).volume;
  if (spec.name === "MC") return (day) => market(day).marketCap;
  return () => undefined;
}
