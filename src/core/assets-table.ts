/**
 * MD.ASSETS's table: the asset catalog, filtered by text and by asset type,
 * with each asset's kind.
 *
 * The asset catalog (interface 2.6) says what an asset is called, not what it
 * is; what it is shows in which metrics the service offers for it (its metric
 * catalog: a chain has on-chain DEX volume, a stablecoin its supply, a token a
 * market). So the kind is derived, in this order:
 * - `equity`: the symbol (or platform_id) has the `eq-` prefix (interface 2.1);
 * - `chain`: the service offers DEX_VOLUMES for it;
 * - `stablecoin`: it offers STABLECOIN_SUPPLY_TOTAL (and not DEX_VOLUMES, which
 *   chains hosting stablecoins have too);
 * - `token`: it offers VOLUME or PRICE (a traded asset that is neither);
 * - `category`: none of these (an aggregate such as DeFi: fees, TVL, users, no market).
 * An asset whose offer could not be read has no kind (blank).
 */
import type { AssetRecord } from "./domain";
import { parseKeyword } from "./arguments";
import { type CellValue, textCell } from "./cell";
import { NoDataError } from "./errors";
import { assertFitsExcel } from "./payload-size";
import { matchesWords, searchWords } from "./text-search";

export type AssetKind = "chain" | "token" | "stablecoin" | "equity" | "category";
export type AssetType = "ALL" | "CRYPTO" | "EQUITY" | "CHAIN" | "TOKEN" | "STABLECOIN" | "CATEGORY";

const ASSET_TYPES: Record<string, AssetType> = {
  ALL: "ALL",
  CRYPTO: "CRYPTO",
  EQUITY: "EQUITY",
  EQUITIES: "EQUITY",
  CHAIN: "CHAIN",
  CHAINS: "CHAIN",
  TOKEN: "TOKEN",
  TOKENS: "TOKEN",
  STABLECOIN: "STABLECOIN",
  STABLECOINS: "STABLECOIN",
  CATEGORY: "CATEGORY",
  CATEGORIES: "CATEGORY",
};

export function parseAssetType(value: unknown, argument = "type"): AssetType {
  return parseKeyword<AssetType>(
    value,
    argument,
    ASSET_TYPES,
    "ALL, CRYPTO, EQUITY, CHAIN, TOKEN, STABLECOIN or CATEGORY",
    "ALL",
  );
}

/** Types that need each crypto asset's kind to filter by. */
export function isKindType(type: AssetType): boolean {
  return type === "CHAIN" || type === "TOKEN" || type === "STABLECOIN" || type === "CATEGORY";
}

/** Equities carry the `eq-` prefix (2.1); everything else is crypto. */
export function isEquity(asset: AssetRecord): boolean {
  return asset.symbol.startsWith("eq-") || asset.platform_id.startsWith("eq-");
}

/** The metrics whose offer tells a crypto asset's kind, in the order the rule reads them. */
export const KIND_PROBES = ["DEX_VOLUMES", "STABLECOIN_SUPPLY_TOTAL", "VOLUME", "PRICE"] as const;

/** The kind of a crypto asset from the metrics the service offers for it (see the rule above). */
export function kindFromOffer(offered: ReadonlySet<string>): AssetKind {
  if (offered.has("DEX_VOLUMES")) return "chain";
  if (offered.has("STABLECOIN_SUPPLY_TOTAL")) return "stablecoin";
  if (offered.has("VOLUME") || offered.has("PRICE")) return "token";
  return "category";
}

export const ASSET_HEADERS = ["platform_id", "symbol", "title", "aggregator_id", "color", "kind"];

/** By text and by ALL / CRYPTO / EQUITY; a kind type (CHAIN …) keeps the crypto assets, to be narrowed by kind. */
export function filterAssets(assets: readonly AssetRecord[], search: string, type: AssetType): AssetRecord[] {
  const words = searchWords(search);
  return assets.filter(
    (asset) =>
      (type === "ALL" || (type === "EQUITY") === isEquity(asset)) &&
      matchesWords(words, [asset.platform_id, asset.symbol, asset.title]),
  );
}

/** `kinds`: crypto asset symbol → kind (missing: not known). */
export function shapeAssetsTable(
  assets: readonly AssetRecord[],
  search: string,
  type: AssetType,
  kinds: ReadonlyMap<string, AssetKind> = new Map(),
): CellValue[][] {
  const kindOf = (asset: AssetRecord): AssetKind | "" => (isEquity(asset) ? "equity" : (kinds.get(asset.symbol) ?? ""));
  let found = filterAssets(assets, search, type);
  if (isKindType(type)) found = found.filter((asset) => kindOf(asset) === type.toLowerCase());
  if (found.length === 0) {
    throw new NoDataError(
      `No ${type === "ALL" ? "" : `${type.toLowerCase()} `}asset matches ${JSON.stringify(search)}.`,
    );
  }
  const rows: CellValue[][] = [ASSET_HEADERS];
  for (const asset of found)
    rows.push(
      [asset.platform_id, asset.symbol, asset.title, asset.aggregator_id ?? "", asset.color, kindOf(asset)].map(
        textCell,
      ),
    );
  assertFitsExcel(rows, "Narrow it with a search text or a type (CHAIN, TOKEN, STABLECOIN, CATEGORY or EQUITY).");
  return rows;
}
