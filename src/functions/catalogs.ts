/** MD.ASSETS and MD.METRICS: the service's catalogs as tables. */
import { parseSymbol } from "../core/arguments";
import { parseAssetType, shapeAssetsTable } from "../core/assets-table";
import type { CellValue } from "../core/cell";
import { shapeMetricsTable } from "../core/metrics-table";
import { parseSearch } from "../core/text-search";
import type { CallContext } from "./call-context";

export interface AssetsArgs {
  search?: unknown;
  type?: unknown;
}

export async function assetsTable(ctx: CallContext, args: AssetsArgs): Promise<CellValue[][]> {
  const search = parseSearch(args.search);
  const type = parseAssetType(args.type);
  return shapeAssetsTable(await ctx.client.getAssets(ctx.call), search, type);
}

export interface MetricsArgs {
  symbol: unknown;
  search?: unknown;
}

export async function metricsTable(ctx: CallContext, args: MetricsArgs): Promise<CellValue[][]> {
  const symbol = parseSymbol(args.symbol);
  const search = parseSearch(args.search);
  return shapeMetricsTable(symbol, await ctx.client.getMetrics(symbol, ctx.call), search);
}
