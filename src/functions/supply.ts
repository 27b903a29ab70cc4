/** MD.SUPPLY: a stablecoin's supply buckets per date. */
import type { SeriesResult } from "../api/types";
import { parseDateWindow, parseGranularity, parseSymbol } from "../core/arguments";
import type { CellValue } from "../core/cell";
import { SUPPLY_PARTS, type SupplyPart, shapeSupplyTable } from "../core/supply-table";
import type { CallContext } from "./call-context";
import { fetchSeries, fetchSeriesColumns, type WindowedRequest } from "./fetch-series";
import { describeWindow } from "./window-text";

/** The legacy name of circulating supply (identical values), asked for only when the preferred name is refused. */
const LEGACY_CIRCULATING = "STABLECOIN_SUPPLY";

export interface SupplyArgs {
  symbol: unknown;
  start?: unknown;
  end?: unknown;
  granularity?: unknown;
}

export async function supplyTable(ctx: CallContext, args: SupplyArgs): Promise<CellValue[][]> {
  const symbol = parseSymbol(args.symbol);
  const window = parseDateWindow(args.start, args.end, ctx.today, ctx.dateSystem);
  const granularity = parseGranularity(
    args.granularity,
    SUPPLY_PARTS.map((part) => part.metric),
  );
  const request = (metric: string): WindowedRequest => ({
    symbol,
    metric,
    granularity,
    ...(window.start ? { startDate: window.start } : {}),
    ...(window.end ? { endDate: window.end } : {}),
  });
  const results = await fetchSeriesColumns(
    ctx,
    SUPPLY_PARTS.map((part) => request(part.metric)),
  );
  const series = Object.fromEntries(SUPPLY_PARTS.map((part, i) => [part.key, results[i]])) as Record<
    SupplyPart,
    SeriesResult
  >;
  if (series.circulating.kind === "message") {
    const legacy = await fetchSeries(ctx, request(LEGACY_CIRCULATING)).catch(() => undefined);
    if (legacy?.kind === "points") series.circulating = legacy;
  }
  return shapeSupplyTable(symbol, series, describeWindow(window), ctx.dateSystem);
}
