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
import { withTimeout } from "../office/office-ready";
import type { CallContext } from "./call-context";
import { isPairFailure } from "./fetch-series";

export interface AssetsArgs {
  search?: unknown;
  type?: unknown;
}

/**
 * How long a catalog waits for its kind column when nobody filters by kind.
 * The kinds come from series requests (assetKinds), and a catalog answers in
 * catalog time whatever the series endpoint does (DESIGN, "Budgets": catalog
 * calls never wait behind stuck series requests): past this, the kinds not yet
 * known are blank. The lookups carry on, so the client's cache has them for
 * the next call.
 */
export const KIND_WAIT_MS = 3_000;

export async function assetsTable(ctx: CallContext, args: AssetsArgs): Promise<CellValue[][]> {
  const search = parseSearch(args.search);
  const type = parseAssetType(args.type);
  const assets = await ctx.client.getAssets(ctx.call);
  const shown = filterAssets(assets, search, isKindType(type) ? "CRYPTO" : type).filter((asset) => !isEquity(asset));
  // Filtering by a kind needs every kind: the formula waits for them, and fails as the lookup fails.
  const lookup = assetKinds(ctx, shown);
  const kinds = isKindType(type) ? await lookup.done : await kindsWithin(lookup, KIND_WAIT_MS);
  return shapeAssetsTable(assets, search, type, kinds);
}

/** The kinds known by `waitMs`, best effort: a failed or unfinished lookup leaves kinds blank, never fails the catalog. */
async function kindsWithin(lookup: KindLookup, waitMs: number): Promise<ReadonlyMap<string, AssetKind>> {
  await withTimeout(
    lookup.done.catch(() => undefined),
    waitMs,
    undefined,
  );
  // A copy: answers arriving later must not change a table already returned.
  return new Map(lookup.known);
}

interface KindLookup {
  /** Filled as each asset's probes answer. */
  known: Map<string, AssetKind>;
  /** Every kind that could be read; rejects when a request failed for a reason that is not the pair's (key, network). */
  done: Promise<ReadonlyMap<string, AssetKind>>;
}

/**
 * Which of the kind-telling metrics (KIND_PROBES) the service offers for each
 * crypto asset, asked for one recent day through the shared client: every
 * asset × probe is issued at once, so the client batches them (50 assets × 4
 * metrics per request) and caches the answers. A message in place of the
 * series means "not offered"; an answer refused for one asset (a symbol the
 * client cannot send, one the service rejects) leaves its kind unknown; a
 * failure of the whole request (key, network) fails `done`.
 */
function assetKinds(ctx: CallContext, assets: readonly AssetRecord[]): KindLookup {
  const day = addDays(ctx.today, -1);
  const symbols = [...new Set(assets.map((asset) => asset.symbol))];
  const known = new Map<string, AssetKind>();
  const answers = symbols.map(async (symbol) => {
    const probes = await Promise.allSettled(
      KIND_PROBES.map((metric) =>
        ctx.client.getSeries({ symbol, metric, start: day, end: day, granularity: "DAY" }, ctx.call),
      ),
    );
    if (probes.every((a) => a.status === "fulfilled")) {
      const offered = new Set(
        KIND_PROBES.filter((_, p) => probes[p].status === "fulfilled" && probes[p].value.kind === "points"),
      );
      known.set(symbol, kindFromOffer(offered));
    }
    return probes;
  });
  const done = Promise.all(answers).then((all) => {
    const fatal = all.flat().find((a) => a.status === "rejected" && !isPairFailure(a.reason));
    if (fatal?.status === "rejected") throw fatal.reason;
    return known;
  });
  return { known, done };
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
