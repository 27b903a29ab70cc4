/** MD.SERIES: a table of series for symbols × metrics over a window. */
import {
  assertFinancialGranularity,
  parseDateWindow,
  parseGranularity,
  parseMetrics,
  parseSymbols,
} from "../core/arguments";
import type { CellValue } from "../core/cell";
import { DATE_FORMAT, type FormattedTable, numberFormatFor, type ValueKind } from "../core/number-format";
import { parseOptions } from "../core/options";
import { assertShapeFitsExcel } from "../core/payload-size";
import {
  expectedRows,
  SERIES_OPTIONS,
  SERIES_SIZE_ADVICE,
  type SeriesTableOptions,
  seriesHeader,
  shapeSeriesTable,
} from "../core/series-table";
import type { CallContext } from "./call-context";
import { fetchSeriesColumns, type WindowedRequest } from "./fetch-series";
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
  const window = parseDateWindow(args.start, args.end, ctx.today);
  const granularity = parseGranularity(args.granularity, metrics);
  assertFinancialGranularity(metrics, granularity);
  const options = parseOptions(args.options, SERIES_OPTIONS);

  // Refuse what can never fit before downloading it.
  if (window.start) {
    const rows = Math.min(options.last ?? Infinity, expectedRows(window.start, window.end ?? ctx.today, granularity));
    const columns = symbols.length * metrics.length + 1;
    if (options.transpose) assertShapeFitsExcel(columns, rows + 1, SERIES_SIZE_ADVICE);
    else assertShapeFitsExcel(rows + 1, columns, SERIES_SIZE_ADVICE);
  }

  const pairs = symbols.flatMap((symbol) => metrics.map((metric) => ({ symbol, metric })));
  const requests: WindowedRequest[] = pairs.map(({ symbol, metric }) => ({
    symbol,
    metric,
    granularity,
    ...(window.start ? { startDate: window.start } : {}),
    ...(window.end ? { endDate: window.end } : {}),
  }));
  const [results, kinds] = await Promise.all([
    fetchSeriesColumns(ctx, requests),
    Promise.all(pairs.map(({ symbol, metric }) => valueKind(ctx, symbol, metric))),
  ]);
  const columns = pairs.map(({ symbol, metric }, i) => ({ header: seriesHeader(symbol, metric), result: results[i] }));
  const rows = shapeSeriesTable(columns, options, describeWindow(window));
  return { rows, formatAt: seriesFormats(options, kinds) };
}

/** Dates in the date column (row when transposed), each series in its metric's unit. */
export function seriesFormats(options: SeriesTableOptions, kinds: readonly ValueKind[]) {
  const first = options.dates ? 1 : 0;
  return (row: number, column: number, value: number) => {
    const index = options.transpose ? row : column;
    if (options.dates && index === 0) return DATE_FORMAT;
    const kind = kinds[index - first];
    return kind ? numberFormatFor(kind, value) : null;
  };
}
