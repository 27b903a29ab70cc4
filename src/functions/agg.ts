/** MD.AGG: one statistic over a window ending at as_of, or on the pair's latest data when as_of is omitted. */
import { isMarketDataError } from "../api";
import type { MetricDescriptor } from "../core/domain";
import { parseMetric, parseSymbol } from "../core/arguments";
import { computeStat, defaultStat, parseStat, rollingAggregates, type Stat, STAT_FORMS } from "../core/agg-stat";
import { type AggWindow, parseAggWindow, parsePrefixedMetric, windowStart } from "../core/agg-window";
import type { CellValue } from "../core/cell";
import { ArgumentError, NoDataError } from "../core/errors";
import { readingsOf } from "../core/readings";
import { knownAggregationType, naturalGranularity } from "../core/metric-knowledge";
import { type FormattedValue, numberFormatFor, PERCENT_FORMAT, PLAIN, type ValueKind } from "../core/number-format";
import { type OptionSpec, parseOptions } from "../core/options";
import {
  coverageText,
  pointsIn,
  windowCoverage,
  type WindowCoverage,
  windowEndOf,
  type WindowSpan,
} from "../core/window-span";
import type { CallContext } from "./call-context";
import { SINGLE, withDiagnosis } from "./did-you-mean";
import { datedCell, parseAsOfGiven, windowReadings } from "./latest";
import { valueKind } from "./metric-units";
import { prefixAggregationFor } from "./prefix-aggregation";
import { descriptorForProperties, provenanceOf } from "./provenance";

export interface AggArgs {
  symbol: unknown;
  metric: unknown;
  window: unknown;
  stat?: unknown;
  asOf?: unknown;
  options?: unknown;
}

/**
 * MD.AGG's `options`: show=date puts the window's last day in the cell instead
 * of the statistic, show=start its first day, show=days the days with data in it.
 */
export const AGG_OPTIONS = {
  show: { kind: "choice", values: ["value", "date", "start", "days"], default: "value" },
} as const satisfies OptionSpec;

/** A statistic, and the window it was computed over. */
export interface WindowStat {
  value: CellValue;
  span: WindowSpan;
  /** The days of a daily window and the days among them with data; null for a window of quarters. */
  coverage: WindowCoverage | null;
}

/** MD.AGG's cell: PCT_CHANGE as a percentage, every other statistic in the metric's unit; or, as options ask, a date or a count of days. */
export async function formattedAggregateValue(ctx: CallContext, args: AggArgs): Promise<FormattedValue> {
  const [result, kind, descriptor] = await Promise.all([
    windowStat(ctx, args),
    // Arguments are parsed again inside windowStat; a bad one fails there first with its message.
    unitOf(ctx, args).catch(() => PLAIN),
    ctx.cellProperties ? descriptorForProperties(ctx, parseSymbol(args.symbol), parseMetric(args.metric)) : undefined,
  ]);
  const cell = aggregateCell(ctx, args, result, kind);
  const { span, coverage } = result;
  const input = { date: span.end, span, coverage };
  const provenance = provenanceOf(ctx, parseSymbol(args.symbol), parseMetric(args.metric), input, descriptor);
  if (provenance) cell.provenance = provenance;
  return cell;
}

function aggregateCell(ctx: CallContext, args: AggArgs, result: WindowStat, kind: ValueKind): FormattedValue {
  const { value, span, coverage } = result;
  const note = `Over ${coverageText(span, coverage)}`;
  const show = parseOptions(args.options, AGG_OPTIONS).show;
  if (show === "date") return { ...datedCell(span.end, ctx.dateSystem), note };
  if (show === "start") return { ...datedCell(span.start, ctx.dateSystem), note };
  if (show === "days") {
    if (!coverage)
      throw new ArgumentError("options", `show=days counts days; ${parseMetric(args.metric)} is read per quarter.`);
    return { value: coverage.daysWithData, format: null, note };
  }
  if (typeof value !== "number") return { value, format: null, note };
  const stat = parseStat(args.stat);
  return { value, format: stat === "PCT_CHANGE" ? PERCENT_FORMAT : numberFormatFor(kind, value), note };
}

async function unitOf(ctx: CallContext, args: AggArgs): Promise<ValueKind> {
  const symbol = parseSymbol(args.symbol);
  const metric = parseMetric(args.metric);
  return valueKind(ctx, symbol, parsePrefixedMetric(metric)?.base ?? metric);
}

export async function aggregateValue(ctx: CallContext, args: AggArgs): Promise<CellValue> {
  return (await windowStat(ctx, args)).value;
}

async function windowStat(ctx: CallContext, args: AggArgs): Promise<WindowStat> {
  const symbol = parseSymbol(args.symbol);
  const metric = parseMetric(args.metric);
  const window = parseAggWindow(args.window);
  const stat = parseStat(args.stat);
  const asOf = parseAsOfGiven(args.asOf, ctx.today, ctx.dateSystem);
  parseOptions(args.options, AGG_OPTIONS);
  return withDiagnosis(ctx, symbol, metric, SINGLE, () => aggregate(ctx, symbol, metric, window, stat, asOf));
}

/**
 * MD.AGG's statistic of parsed arguments over the window the window rule
 * gives (core/window-span.ts: as_of undefined, the window ends on the pair's
 * latest data), without the did-you-mean diagnosis of a failure (MD.ASSET
 * reads many pairs, some absent).
 */
export async function aggregate(
  ctx: CallContext,
  symbol: string,
  metric: string,
  window: AggWindow,
  stat: Stat | undefined,
  asOf: string | undefined,
): Promise<WindowStat> {
  const end = windowEndOf(asOf, ctx.today);
  const prefixed = parsePrefixedMetric(metric);

  let values: number[];
  let chosen: Stat;
  let span: WindowSpan;
  let coverage: WindowCoverage | null;
  if (prefixed) {
    // A prefixed metric is a daily series of rolling sums (or averages): fetch far enough back for the first date's.
    const granularity = naturalGranularity(prefixed.base);
    const [aggregation, read] = await Promise.all([
      prefixAggregationFor(ctx, symbol, metric, prefixed, "metric"),
      windowReadings(ctx, symbol, prefixed.base, granularity, window, end, (start) =>
        windowStart(prefixed.window, start),
      ),
    ]);
    span = read.span;
    coverage = granularity === "DAY" ? windowCoverage(read.points, span) : null;
    values = rollingAggregates(read.points, prefixed.window, span.start, span.end, aggregation).map(
      (point) => point.val,
    );
    chosen = stat ?? "LAST";
  } else {
    const granularity = naturalGranularity(metric);
    const [fetched, defaulted] = await Promise.allSettled([
      windowReadings(ctx, symbol, metric, granularity, window, end),
      stat ?? defaultStatFor(ctx, symbol, metric),
    ]);
    // The series' failure comes first: an unknown name says what was meant, not that it has no default stat.
    if (fetched.status === "rejected") throw fetched.reason;
    if (defaulted.status === "rejected") throw defaulted.reason;
    span = fetched.value.span;
    coverage = granularity === "DAY" ? windowCoverage(fetched.value.points, span) : null;
    values = readingsOf(pointsIn(fetched.value.points, span)).map((point) => point.val);
    chosen = defaulted.value;
  }
  if (values.length === 0)
    throw new NoDataError(`No ${symbol} ${metric} data in the ${window.label} window ${span.start} to ${span.end}.`);
  return { value: computeStat(chosen, values), span, coverage };
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
