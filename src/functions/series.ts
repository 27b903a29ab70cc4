/** MD.SERIES: a table of series for symbols × metrics over a window. */
import {
  assertFinancialGranularity,
  parseDateWindow,
  parseGranularity,
  parseMetrics,
  parseSymbols,
} from "../core/arguments";
import type { CellValue } from "../core/cell";
import { parseOptions } from "../core/options";
import { assertShapeFitsExcel } from "../core/payload-size";
import { expectedRows, SERIES_OPTIONS, SERIES_SIZE_ADVICE, seriesHeader, shapeSeriesTable } from "../core/series-table";
import type { CallContext } from "./call-context";
import { fetchSeriesColumns, type WindowedRequest } from "./fetch-series";
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
  const symbols = parseSymbols(args.symbols);
  const metrics = parseMetrics(args.metrics);
  const window = parseDateWindow(args.start, args.end, ctx.today);
  const granularity = parseGranularity(args.granularity, metrics);
  assertFinancialGranularity(metrics, granularity);
  const options = parseOptions(args.options, SERIES_OPTIONS);

  // Refuse what can never fit before downloading it (without a start, the history's length is known only after).
  const rows = window.start
    ? Math.min(options.last ?? Infinity, expectedRows(window.start, window.end ?? ctx.today, granularity))
    : 1;
  const width = symbols.length * metrics.length + 1;
  if (options.transpose) assertShapeFitsExcel(width, rows + 1, SERIES_SIZE_ADVICE);
  else assertShapeFitsExcel(rows + 1, width, SERIES_SIZE_ADVICE);

  const pairs = symbols.flatMap((symbol) => metrics.map((metric) => ({ symbol, metric })));
  const requests: WindowedRequest[] = pairs.map(({ symbol, metric }) => ({
    symbol,
    metric,
    granularity,
    ...(window.start ? { startDate: window.start } : {}),
    ...(window.end ? { endDate: window.end } : {}),
  }));
  const results = await fetchSeriesColumns(ctx, requests);
  const columns = pairs.map(({ symbol, metric }, i) => ({ header: seriesHeader(symbol, metric), result: results[i] }));
  return shapeSeriesTable(columns, options, describeWindow(window));
}
