/** MD.SERIES: a table of series for symbols × metrics over a window. */
import {
  assertFinancialGranularity,
  parseDateWindow,
  parseGranularity,
  parseMetrics,
  parseSymbols,
} from "../core/arguments";
import type { SeriesResult } from "../core/domain";
import type { CellValue } from "../core/cell";
import type { UnknownNameError } from "../core/errors";
import { isoToSerialIn } from "../core/excel-date";
import { isFinancial } from "../core/metric-knowledge";
import {
  DATE_FORMAT,
  type FormattedTable,
  numberFormatFor,
  INDEX_FORMAT,
  PARTIAL_DATE_FORMAT,
  PERCENT_FORMAT,
  type ValueKind,
} from "../core/number-format";
import { assertTransformOptions, historyStart, isPercentTransform, transformNote } from "../core/series-transforms";
import { datedLabel, partialLabels, partialNote, reshapePeriods } from "../core/periods";
import { optionGiven, parseOptions } from "../core/options";
import { assertShapeFitsExcel } from "../core/payload-size";
import {
  DATE_HEADER,
  expectedRows,
  inDateOrder,
  SERIES_OPTIONS,
  SERIES_SIZE_ADVICE,
  type SeriesTableOptions,
  seriesHeader,
  shapeSeriesTable,
} from "../core/series-table";
import type { CallContext } from "./call-context";
import { diagnosePair, LISTS, withHint } from "./did-you-mean";
import { fetchSeriesColumns, isPairFailure, type WindowedRequest } from "./fetch-series";
import { fiscalLabelColumns } from "./fiscal-labels";
import { valueKind } from "./metric-units";
import { describeWindow } from "./window-text";

export interface SeriesArgs {
  symbols: unknown;
  metrics: unknown;
  start?: unknown;
  end?: unknown;
  granularity?: unknown;
  options?: unknown;
}

export async function seriesTable(ctx: CallContext, args: SeriesArgs): Promise<CellValue[][]> {
  return (await formattedSeriesTable(ctx, args)).rows;
}

export async function formattedSeriesTable(ctx: CallContext, args: SeriesArgs): Promise<FormattedTable> {
  const symbols = parseSymbols(args.symbols);
  const metrics = parseMetrics(args.metrics);
  const window = parseDateWindow(args.start, args.end, ctx.today, ctx.dateSystem);
  const granularity = parseGranularity(args.granularity, metrics);
  assertFinancialGranularity(metrics, granularity);
  const options = parseOptions(args.options, SERIES_OPTIONS);
  assertTransformOptions(options, (key) => optionGiven(args.options, key));
  // A transform's history before the window's first row is fetched with it, and cut once computed.
  const fetchStart = window.start ? historyStart(window.start, granularity, options) : undefined;
  const cut = window.start && fetchStart !== window.start ? { start: window.start, granularity } : undefined;

  // Refuse what can never fit before downloading it (without a start, the history's length is known only after).
  const expected = window.start
    ? Math.min(options.last ?? Infinity, expectedRows(window.start, window.end ?? ctx.today, granularity))
    : 1;
  const width = symbols.length * metrics.length + 1;
  if (options.transpose) assertShapeFitsExcel(width, expected + 1, SERIES_SIZE_ADVICE);
  else assertShapeFitsExcel(expected + 1, width, SERIES_SIZE_ADVICE);

  const pairs = symbols.flatMap((symbol) => metrics.map((metric) => ({ symbol, metric })));
  const requests: WindowedRequest[] = pairs.map(({ symbol, metric }) => ({
    symbol,
    metric,
    granularity,
    ...(fetchStart ? { start: fetchStart } : {}),
    ...(window.end ? { end: window.end } : {}),
  }));
  const [fetched, kinds] = await Promise.all([
    fetchSeriesColumns(ctx, requests).catch(async (error: unknown) => {
      // Every pair was refused: a name the catalogs do not know says so; anything else stands.
      if (isPairFailure(error)) await throwIfUnknown(ctx, pairs);
      throw error;
    }),
    Promise.all(pairs.map(({ symbol, metric }) => valueKind(ctx, symbol, metric))),
  ]);
  const { results, unknown } = await diagnoseMessages(ctx, pairs, fetched);

  // Calendar periods: dated and trimmed as asked; financials keep their fiscal period ends.
  const end = window.end && window.end < ctx.today ? window.end : ctx.today;
  const labels = partialLabels(fetchStart, end, granularity);
  const calendar = pairs.map(({ metric }) => granularity !== "DAY" && !isFinancial(metric));
  const has = (label: string | null) =>
    label !== null &&
    results.some((r, i) => calendar[i] && r.kind === "points" && r.points.some((point) => point.date === label));
  const partial = { first: has(labels.first), last: has(labels.last) };
  const reshaped: SeriesResult[] = results.map((result, i) =>
    calendar[i] && result.kind === "points"
      ? {
          kind: "points",
          points: [...reshapePeriods(inDateOrder(result.points), granularity, options.period, options.partial, labels)],
        }
      : result,
  );

  const columns = pairs.map(({ symbol, metric }, i) => ({
    header: `${seriesHeader(symbol, metric)}${transformNote(options)}`,
    result: reshaped[i],
    ...(unknown[i] ? { unknown: unknown[i].message } : {}),
  }));
  const labelColumns = options.fiscal ? await fiscalLabelColumns(ctx, pairs, reshaped) : [];
  const rows = shapeSeriesTable(columns, options, describeWindow(window), ctx.dateSystem, labelColumns, cut);
  const firstSeries = (options.dates ? 1 : 0) + labelColumns.length;

  // Partial periods kept: said in the date column's header (or each calendar series' header), and on their dates.
  const marked = options.partial === "keep" ? [partial.first && labels.first, partial.last && labels.last] : [];
  const partialDates = new Set(
    marked.flatMap((label) =>
      label ? [isoToSerialIn(datedLabel(label, granularity, options.period), ctx.dateSystem ?? 1900)] : [],
    ),
  );
  const note = options.partial === "keep" ? partialNote(partial.first, partial.last) : "";
  if (note && options.headers) {
    if (options.dates) rows[0][0] = `${DATE_HEADER}${note}`;
    else
      pairs.forEach((_, i) => {
        if (!calendar[i]) return;
        const at = firstSeries + i;
        if (options.transpose) rows[at][0] = `${rows[at][0] as string}${note}`;
        else rows[0][at] = `${rows[0][at] as string}${note}`;
      });
  }
  const formats = seriesFormats(options, kinds, labelColumns.length);
  return {
    rows,
    formatAt: (row, column, value) => {
      const format = formats(row, column, value);
      return format === DATE_FORMAT && partialDates.has(value) ? PARTIAL_DATE_FORMAT : format;
    },
  };
}

type Pair = { symbol: string; metric: string };

async function throwIfUnknown(ctx: CallContext, pairs: readonly Pair[]): Promise<void> {
  const diagnoses = await Promise.all(pairs.map(({ symbol, metric }) => diagnosePair(ctx, symbol, metric, LISTS)));
  const first = diagnoses.find((d) => d?.kind === "unknown");
  if (first?.kind === "unknown") throw first.error;
}

/**
 * The message columns explained: an unknown symbol or metric becomes #VALUE!
 * cells saying what exists (the whole formula when no column has data), a gap
 * keeps its #N/A with a pointer to MD.METRICS.
 */
async function diagnoseMessages(
  ctx: CallContext,
  pairs: readonly Pair[],
  results: SeriesResult[],
): Promise<{ results: SeriesResult[]; unknown: (UnknownNameError | undefined)[] }> {
  const diagnoses = await Promise.all(
    results.map((result, i) =>
      result.kind === "message" ? diagnosePair(ctx, pairs[i].symbol, pairs[i].metric, LISTS) : null,
    ),
  );
  const unknown = diagnoses.map((d) => (d?.kind === "unknown" ? d.error : undefined));
  const firstUnknown = unknown.find((error) => error !== undefined);
  if (firstUnknown && results.every((result) => result.kind === "message")) throw firstUnknown;
  return {
    results: results.map((result, i) => {
      const diagnosis = diagnoses[i];
      return result.kind === "message" && diagnosis?.kind === "gap" && diagnosis.hint
        ? { kind: "message", message: withHint(result.message, diagnosis.hint) }
        : result;
    }),
    unknown,
  };
}

/** Dates in the date column (row when transposed), each series in its metric's unit. */
export function seriesFormats(options: SeriesTableOptions, kinds: readonly ValueKind[], labelColumns = 0) {
  const first = (options.dates ? 1 : 0) + labelColumns;
  return (row: number, column: number, value: number) => {
    const index = options.transpose ? row : column;
    if (options.dates && index === 0) return DATE_FORMAT;
    const kind = kinds[index - first];
    if (!kind) return null;
    if (isPercentTransform(options)) return PERCENT_FORMAT;
    if (options.transform === "rebase") return INDEX_FORMAT;
    return numberFormatFor(kind, value);
  };
}
