/**
 * The MD custom functions, as Excel sees them. Each is a thin wrapper: the
 * JSDoc below becomes functions.json (names, parameter help, help links), the
 * body hands Excel's raw arguments to the modules that parse them, ask the
 * shared client and shape the answer (src/functions/*, src/core/*).
 *
 * Conventions Excel imposes: an omitted optional argument arrives as null;
 * a parameter typed as a 2-D array receives a range, or a single value wrapped
 * as [[value]]; dates arrive as serial numbers. Descriptions must not contain
 * the at sign: the metadata generator cuts a description there.
 *
 * Every argument is read once, as it enters, by plainArguments: Excel hands
 * these `any` parameters a cell's data type (a formatted number, an entity, an
 * error value) rather than its plain value (src/core/excel-input.ts).
 */
import { ASSET_OPTIONS } from "../core/asset-card";
import { plainArguments } from "../core/excel-input";
import { parseOptions } from "../core/options";
import { BUILD_INFO } from "../office/build-info";
import { getRuntime } from "../office/runtime";
import { formattedAggregateValue } from "./agg";
import { assetCard } from "./asset";
import { assetsTable, metricsTable } from "./catalogs";
import { formattedFlowsTable } from "./flows";
import { formattedInsightsTable } from "./insights";
import { invokeCard, invokeSync, invokeTable, invokeValue } from "./invoke";
import { formattedLatestValue } from "./latest";
import { formattedSeriesTable } from "./series";
import { formattedSnapshotTable } from "./snapshot";
import { streamStatus } from "./status";
import { formattedSupplyTable } from "./supply";

// The shared runtime (client, cache, settings) is created as this bundle loads:
// the task pane in the same page uses this instance rather than its own. The
// workbook's date system is asked for now, once Office is ready, not inside a calculation.
void getRuntime().dateSystem();

/**
 * The version of the Market Data add-in that is running.
 * @customfunction VERSION
 * @helpurl https://localhost:3000/docs/functions.html#mdversion
 * @returns The add-in version, e.g. 0.1.0.
 */
export function version(): string {
  return invokeSync(() => BUILD_INFO.version);
}

/**
 * A table of time series: a date column, then one column per symbol and metric, dates and values formatted.
 * @customfunction SERIES
 * @helpurl https://localhost:3000/docs/functions.html#mdseries
 * @param symbols One or more symbols: text such as "eth", a comma list such as "eth, btc, eq-aapl", or a range of cells.
 * @param metrics One or more metrics: text such as "PRICE", a comma list such as "PRICE, FEES", or a range of cells.
 * @param [start] First date: an Excel date, "YYYY-MM-DD", "TODAY", or relative to the end such as "-30D", "-12W", "-6M", "-2Q", "-1Y".
 * @param [end] Last date: an Excel date, "YYYY-MM-DD", "TODAY", or relative to today such as "-1M". Omitted: the latest data.
 * @param [granularity] DAY, WEEK, MONTH, QUARTER or YEAR (or D, W, M, Q, Y). Omitted: DAY, or QUARTER for financials.
 * @param [options] "key=value; key=value" text or a two-column range: headers, dates, order (asc/desc), fill (blank/prev/na), days (all/weekdays), last, transpose, period (start/end), partial (keep/drop), fiscal (label fiscal quarters), transform (pct/diff/rebase/cumsum/yoy), rolling (N rows), rolling_stat (avg/sum).
 * @returns A table that spills: dates down, series across.
 */
export function series(
  symbols: unknown[][],
  metrics: unknown[][],
  start: number | string | null,
  end: number | string | null,
  granularity: string | number | null,
  options: unknown[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return invokeTable(
    invocation,
    (ctx) => formattedSeriesTable(ctx, plainArguments({ symbols, metrics, start, end, granularity, options })),
    undefined,
    { fn: "SERIES", args: [symbols, metrics, start, end, granularity, options] },
  );
}

/**
 * The latest value of a metric on or before a date. Built for thousands of cells: they share requests.
 * @customfunction LATEST
 * @helpurl https://localhost:3000/docs/functions.html#mdlatest
 * @param symbol One symbol, such as "eth" or "eq-aapl".
 * @param metric One metric, such as "PRICE", or a summed one such as "L30_FEES" (also L7_, L90_, CM_, CQ_, LTM_, YTD_).
 * @param [as_of] The date to read on: an Excel date, "YYYY-MM-DD", "TODAY" or "-1M". Omitted: today, and a summed metric's window ends on the latest day with data.
 * @param [options] "key=value" text: show=value (default) or show=date, the date the value is dated on, to put beside it.
 * @returns The last value dated on or before as_of, or its date.
 */
export function latest(
  symbol: string | number,
  metric: string | number,
  as_of: number | string | null,
  options: unknown[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<number | Excel.DoubleCellValue> {
  return invokeValue(
    invocation,
    (ctx) => {
      // Named one by one, not spread: a big workbook holds one of these per waiting cell, and V8 gives spread copies
      // made here a hidden class each.
      const args = plainArguments({ symbol, metric, as_of, options });
      return formattedLatestValue(ctx, {
        symbol: args.symbol,
        metric: args.metric,
        asOf: args.as_of,
        options: args.options,
      });
    },
    undefined,
    { fn: "LATEST", args: [symbol, metric, as_of, options] },
  ) as Promise<number | Excel.DoubleCellValue>;
}

/**
 * One statistic of a metric over a window that ends on a date, such as fees over the last 30 days.
 * @customfunction AGG
 * @helpurl https://localhost:3000/docs/functions.html#mdagg
 * @param symbol One symbol, such as "eth" or "eq-aapl".
 * @param metric One metric, such as "FEES", or a summed one such as "L30_FEES".
 * @param window "7D", "30D", "90D", "MTD", "QTD", "YTD", "LTM", or "-ND", "-NW", "-NM", "-NQ", "-NY" such as "-6M".
 * @param [stat] SUM, AVG, MIN, MAX, FIRST, LAST, CHANGE or PCT_CHANGE. Omitted: SUM for flows, LAST for levels.
 * @param [as_of] The window's last day: an Excel date, "YYYY-MM-DD", "TODAY" or "-1M". Omitted: the latest day with data, so 30D covers 30 days of data.
 * @param [options] "key=value" text: show=value (default), show=date (the window's last day), show=start (its first day) or show=days (days with data in it).
 * @returns The statistic over the window, or what options show.
 */
export function agg(
  symbol: string | number,
  metric: string | number,
  window: string | number,
  stat: string | number | null,
  as_of: number | string | null,
  options: unknown[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<number | Excel.DoubleCellValue> {
  return invokeValue(
    invocation,
    (ctx) => {
      const { as_of: asOf, ...args } = plainArguments({ symbol, metric, window, stat, as_of, options });
      return formattedAggregateValue(ctx, { ...args, asOf });
    },
    undefined,
    { fn: "AGG", args: [symbol, metric, window, stat, as_of, options] },
  ) as Promise<number | Excel.DoubleCellValue>;
}

/**
 * Chain-level capital flows for source chains over a window, in USD, largest first.
 * @customfunction FLOWS
 * @helpurl https://localhost:3000/docs/functions.html#mdflows
 * @param source_chains One or more chains: text such as "ethereum", a comma list, or a range of cells.
 * @param [start] First date: an Excel date, "YYYY-MM-DD", "TODAY", or relative to the end such as "-30D".
 * @param [end] Last date: an Excel date, "YYYY-MM-DD", "TODAY", or relative to today such as "-1M".
 * @param [granularity] Leave empty: flows are one total per chain over the window, so a granularity is refused.
 * @param [flow_type] NETFLOW (default), INFLOW, OUTFLOW, ALL, or a comma list such as "INFLOW, OUTFLOW".
 * @param [options] "key=value; key=value" text or a two-column range: headers (true/false), top (keep the first N chains).
 * @returns A table: chain, then one column per flow type.
 */
export function flows(
  source_chains: unknown[][],
  start: number | string | null,
  end: number | string | null,
  granularity: string | number | null,
  flow_type: string | number | null,
  options: unknown[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return invokeTable(
    invocation,
    (ctx) => {
      const {
        source_chains: sourceChains,
        flow_type: flowType,
        ...args
      } = plainArguments({
        source_chains,
        start,
        end,
        granularity,
        flow_type,
        options,
      });
      return formattedFlowsTable(ctx, { ...args, sourceChains, flowType });
    },
    undefined,
    { fn: "FLOWS", args: [source_chains, start, end, granularity, flow_type, options] },
  );
}

/**
 * The asset catalog: platform_id, symbol, title, aggregator_id, color and kind of every asset the service covers.
 * @customfunction ASSETS
 * @helpurl https://localhost:3000/docs/functions.html#mdassets
 * @param [search] Words to look for in the id, symbol or title, such as "usd eth". Omitted: every asset.
 * @param [type] ALL (default), CRYPTO, EQUITY, or a kind: CHAIN, TOKEN, STABLECOIN, CATEGORY.
 * @returns A table of assets.
 */
export function assets(
  search: string | number | null,
  type: string | number | null,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return invokeTable(invocation, (ctx) => assetsTable(ctx, plainArguments({ search, type })), undefined, {
    fn: "ASSETS",
    args: [search, type],
  });
}

/**
 * The metrics available for a symbol, with label, unit, aggregation, source and description.
 * @customfunction METRICS
 * @helpurl https://localhost:3000/docs/functions.html#mdmetrics
 * @param symbol One symbol, such as "eth" or "eq-aapl".
 * @param [search] Words to look for in the name, label or description, such as "fees". Omitted: every metric.
 * @returns A table of metrics.
 */
export function metrics(
  symbol: string | number,
  search: string | number | null,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return invokeTable(invocation, (ctx) => metricsTable(ctx, plainArguments({ symbol, search })), undefined, {
    fn: "METRICS",
    args: [symbol, search],
  });
}

/**
 * Insight cards such as growth and decline streaks: entity, metric, flag, duration, dates, values and change.
 * @customfunction INSIGHTS
 * @helpurl https://localhost:3000/docs/functions.html#mdinsights
 * @param feed STREAKS or DECLINE-STREAKS, or the name of another insight feed.
 * @param [search] Words to look for in the entity or metric, such as "eth". Omitted: every card.
 * @param [flag] Text the card's flag must contain, such as "weekly" or "decline_streak_monthly".
 * @returns A table of insight cards, latest first.
 */
export function insights(
  feed: string | number,
  search: string | number | null,
  flag: string | number | null,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  // Its own deadline (58 s): the cell says the feed is still being prepared while the load carries on.
  return invokeTable(invocation, (ctx) => formattedInsightsTable(ctx, plainArguments({ feed, search, flag })), null, {
    fn: "INSIGHTS",
    args: [feed, search, flag],
  });
}

/**
 * A stablecoin's supply per date: total, bridged, premint, peg stability, other locked, circulating.
 * @customfunction SUPPLY
 * @helpurl https://localhost:3000/docs/functions.html#mdsupply
 * @param symbol One stablecoin symbol, such as "usdc", or one on a chain, such as "usdc-eth".
 * @param [start] First date: an Excel date, "YYYY-MM-DD", "TODAY", or relative to the end such as "-90D".
 * @param [end] Last date: an Excel date, "YYYY-MM-DD", "TODAY", or relative to today such as "-1M".
 * @param [granularity] DAY (default), WEEK, MONTH, QUARTER or YEAR (or D, W, M, Q, Y).
 * @returns A table: date, then the supply buckets.
 */
export function supply(
  symbol: string | number,
  start: number | string | null,
  end: number | string | null,
  granularity: string | number | null,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return invokeTable(
    invocation,
    (ctx) => formattedSupplyTable(ctx, plainArguments({ symbol, start, end, granularity })),
    undefined,
    { fn: "SUPPLY", args: [symbol, start, end, granularity] },
  );
}

/**
 * A comps table in one formula: one row per symbol, one column per metric, each the latest value on or before as_of. Shares requests like MD.LATEST cells.
 * @customfunction SNAPSHOT
 * @helpurl https://localhost:3000/docs/functions.html#mdsnapshot
 * @param symbols Symbols down the table: text such as "eth", a comma list such as "eth, sol, eq-coin", or a range of cells.
 * @param metrics Metrics across: text such as "PRICE", a comma list such as "PRICE, MC, L30_FEES", or a range of cells.
 * @param [as_of] The date to read on: an Excel date, "YYYY-MM-DD", "TODAY" or "-1M". Omitted: today, and summed metrics end on the latest day with data.
 * @param [options] "key=value; key=value" text or a two-column range: headers (true/false), transpose (true/false), dates (true: each metric followed by its values' dates).
 * @returns A table: Symbol, then one column per metric; a pair without data is #N/A.
 */
export function snapshot(
  symbols: unknown[][],
  metrics: unknown[][],
  as_of: number | string | null,
  options: unknown[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return invokeTable(
    invocation,
    (ctx) => {
      const { as_of: asOf, ...args } = plainArguments({ symbols, metrics, as_of, options });
      return formattedSnapshotTable(ctx, { ...args, asOf });
    },
    undefined,
    { fn: "SNAPSHOT", args: [symbols, metrics, as_of, options] },
  );
}

/**
 * One asset as a card, like the Stocks data type: the cell shows its name, the card its kind, colour and headline metrics, each formatted and dated. A1.Price reads a property.
 * @customfunction ASSET
 * @helpurl https://localhost:3000/docs/functions.html#mdasset
 * @param symbol One symbol, such as "eth", "usdc" or "eq-aapl".
 * @param [as_of] The date to read on: an Excel date, "YYYY-MM-DD", "TODAY" or "-1M". Omitted: today.
 * @param [options] "key=value" text: table=true spills the property/value table instead of the card, for a workbook older Excel opens too.
 * @returns An entity card; where Excel has no data types, or with table=true, a two-column table of properties and values.
 */
export function asset(
  symbol: string | number,
  as_of: number | string | null,
  options: unknown[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<unknown[][]> {
  return invokeCard(
    invocation,
    async (ctx) => {
      const { as_of: asOf, options: given, ...args } = plainArguments({ symbol, as_of, options });
      const { table } = parseOptions(given, ASSET_OPTIONS);
      return { card: await assetCard(ctx, { ...args, asOf }), table };
    },
    { fn: "ASSET", args: [symbol, as_of, options] },
  );
}

/**
 * Whether the workbook's MD cells have all settled: "Up to date 10:42 · 1,250 cells", "Refreshing 312 of 1,250" or "3 failed · 1,250 cells"; updates as cells settle and sends no request.
 * @customfunction STATUS
 * @helpurl https://localhost:3000/docs/functions.html#mdstatus
 * @streaming
 * @param [show] TEXT (default), PENDING (the number of MD calls still running, 0 when done: for a model to test), FAILED (the number that failed) or CELLS (the number of MD calls).
 * @returns The status in words, or the number asked for.
 */
export function status(show: string | null, invocation: CustomFunctions.StreamingInvocation<string | number>): void {
  streamStatus(show, invocation);
}
