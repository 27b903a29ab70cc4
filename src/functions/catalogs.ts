/** MD.ASSETS and MD.METRICS: the service's catalogs as tables. */
import { parseSymbol } from "../core/arguments";
import type { AssetRecord } from "../core/domain";
import {
  type AssetKind,
  filterAssets,
  isEquity,
  isKindType,
  KIND_PROBES,
  kindFromOffer,
  parseAssetType,
  shapeAssetsTable,
} from "../core/assets-table";
import { addDays } from "../core/calendar";
import type { CellValue } from "../core/cell";
import { shapeMetricsTable } from "../core/metrics-table";
import { parseSearch } from "../core/text-search";
import type { CallContext } from "./call-context";
import { isPairFailure } from "./fetch-series";

export interface AssetsArgs {
  search?: unknown;
  type?: unknown;
}

export async function assetsTable(ctx: CallContext, args: AssetsArgs): Promise<CellValue[][]> {
  const search = parseSearch(args.search);
  const type = parseAssetType(args.type);
  const assets = await ctx.client.getAssets(ctx.call);
  const shown = filterAssets(assets, search, isKindType(type) ? "CRYPTO" : type).filter((asset) => !isEquity(asset));
  return shapeAssetsTable(assets, search, type, await assetKinds(ctx, shown));
}

/**
 * Which of the kind-telling metrics (KIND_PROBES) the service offers for each
 * crypto asset, asked for one recent day through the shared client: every
 * asset × probe is issued at once, so the client batches them (50 assets × 4
 * metrics per request) and caches the answers. A message in place of the
 * series means "not offered"; an answer refused for one asset (a symbol the
 * client cannot send, one the service rejects) leaves its kind unknown; a
 * failure of the whole request (key, network) fails the formula.
 */
async function assetKinds(ctx: CallContext, assets: readonly AssetRecord[]): Promise<Map<string, AssetKind>> {
  const day = addDays(ctx.today, -1);
  const symbols = [...new Set(assets.map((asset) => asset.symbol))];
  const answers = await Promise.all(
    symbols.map((symbol) =>
      Promise.allSettled(
        KIND_PROBES.map((metric) =>
          ctx.client.getSeries({ symbol, metric, start: day, end: day, granularity: "DAY" }, ctx.call),
        ),
      ),
    ),
  );
  const fatal = answers.flat().find((a) => a.status === "rejected" && !isPairFailure(a.reason));
  if (fatal?.status === "rejected") throw fatal.reason;
  const kinds = new Map<string, AssetKind>();
  symbols.forEach((symbol, i) => {
    if (answers[i].some((a) => a.status === "rejected")) return;
    const offered = new Set(
      KIND_PROBES.filter((_, p) => {
        const answer = answers[i][p];
        return answer.status === "fulfilled" && answer.value.kind === "points";
      }),
    );
    kinds.set(symbol, kindFromOffer(offered));
  });
  return kinds;
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
