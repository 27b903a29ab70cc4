/** MD.ASSETS's table: the asset catalog, filtered by text and by asset type. */
import type { AssetRecord } from "./domain";
import { parseKeyword } from "./arguments";
import { type CellValue, textCell } from "./cell";
import { NoDataError } from "./errors";
import { assertFitsExcel } from "./payload-size";
import { matchesWords, searchWords } from "./text-search";

export type AssetType = "ALL" | "CRYPTO" | "EQUITY";

const ASSET_TYPES: Record<string, AssetType> = {
  ALL: "ALL",
  CRYPTO: "CRYPTO",
  EQUITY: "EQUITY",
  EQUITIES: "EQUITY",
};

export function parseAssetType(value: unknown, argument = "type"): AssetType {
  return parseKeyword<AssetType>(value, argument, ASSET_TYPES, "ALL, CRYPTO or EQUITY", "ALL");
}

/** Equities carry the `eq-` prefix (2.1); everything else is crypto. */
export function isEquity(asset: AssetRecord): boolean {
  return asset.symbol.startsWith("eq-") || asset.platform_id.startsWith("eq-");
}

export const ASSET_HEADERS = ["platform_id", "symbol", "title", "aggregator_id", "color"];

export function filterAssets(assets: readonly AssetRecord[], search: string, type: AssetType): AssetRecord[] {
  const words = searchWords(search);
  return assets.filter(
    (asset) =>
      (type === "ALL" || (type === "EQUITY") === isEquity(asset)) &&
      matchesWords(words, [asset.platform_id, asset.symbol, asset.title]),
  );
}

export function shapeAssetsTable(assets: readonly AssetRecord[], search: string, type: AssetType): CellValue[][] {
  const found = filterAssets(assets, search, type);
  if (found.length === 0) {
    throw new NoDataError(
      `No ${type === "ALL" ? "" : `${type.toLowerCase()} `}asset matches ${JSON.stringify(search)}.`,
    );
  }
  const rows: CellValue[][] = [ASSET_HEADERS];
  for (const asset of found)
    rows.push([asset.platform_id, asset.symbol, asset.title, asset.aggregator_id ?? "", asset.color].map(textCell));
  assertFitsExcel(rows, "Narrow it with a search text or a type (CRYPTO or EQUITY).");
  return rows;
}
