/**
 * The asset catalog as Artemis's symbols are checked against it
 * (core/artemis.ts): a resolver from a symbol as written to the catalog's.
 */

/** What the asset catalog says of a symbol as written in an Artemis formula. */
export type SymbolResolution =
  | { known: true; id: string; note?: string }
  /** `reason`: why the catalog could not tell (it could not be read). */
  | { known: false; suggestions: readonly string[]; reason?: string };

export type SymbolResolver = (symbol: string) => SymbolResolution;

/** Catalog entries as the resolver needs them (AssetRecord fits). */
export interface CatalogAsset {
  symbol: string;
  platform_id: string;
  aggregator_id: string | null;
}

/**
 * Resolves a symbol as Artemis writes it ("BTC") against the catalog: its
 * symbol in any case, else its platform_id, else its aggregator (CoinGecko)
 * id, each giving the catalog's symbol. An intersection ("USDC-ETH") is
 * resolved part by part. Unknown: the suggestions `suggest` gives.
 */
export function catalogResolver(
  assets: readonly CatalogAsset[],
  suggest: (symbol: string) => readonly string[] = () => [],
): SymbolResolver {
  const bySymbol = new Map<string, string>();
  const byPlatform = new Map<string, string>();
  const byAggregator = new Map<string, string>();
  for (const asset of assets) {
    const symbol = (asset.symbol ?? "").toLowerCase();
    if (!symbol) continue;
    if (!bySymbol.has(symbol)) bySymbol.set(symbol, symbol);
    const platform = (asset.platform_id ?? "").toLowerCase();
    if (platform && !byPlatform.has(platform)) byPlatform.set(platform, symbol);
    const aggregator = (asset.aggregator_id ?? "").toLowerCase();
    if (aggregator && !byAggregator.has(aggregator)) byAggregator.set(aggregator, symbol);
  }
  const one = (name: string): { id: string; via?: string } | null => {
    if (bySymbol.has(name)) return { id: name };
    if (byPlatform.has(name)) return { id: byPlatform.get(name)!, via: "platform id" };
    if (byAggregator.has(name)) return { id: byAggregator.get(name)!, via: "CoinGecko id" };
    return null;
  };
  return (written) => {
    const name = written.trim().toLowerCase();
    const whole = one(name);
    const parts = whole ? [whole] : name.includes("-") ? name.split("-").map(one) : [null];
    if (parts.some((p) => p === null)) return { known: false, suggestions: suggest(name) };
    const id = whole ? whole.id : parts.map((p) => p!.id).join("-");
    const via = parts.find((p) => p!.via)?.via;
    return via ? { known: true, id, note: `"${written}" is the catalog's ${via} of ${id}.` } : { known: true, id };
  };
}

/** What the metric catalogs say of a metric as written (its window prefix removed) for the symbols of a call. */
export type MetricResolution =
  | { known: true }
  /** `reason`: why the catalogs could not tell (one could not be read). */
  | { known: false; suggestions: readonly string[]; reason?: string };

/** `symbols`: the catalog's symbols the call names; `metric`: uppercase, without a window prefix. */
export type MetricResolver = (symbols: readonly string[], metric: string) => MetricResolution;

/** A symbol's metric catalog as read: its names, or why it could not be read. */
export type MetricCatalog = { names: readonly string[] } | { error: string };

/**
 * Resolves a metric against the metric catalogs of the call's symbols: known
 * when one of them lists it (a metric one symbol lacks is a gap in that
 * column, not a typo); unknown otherwise, with the names `suggest` finds in
 * the first symbol's catalog. A catalog that could not be read (or was not
 * asked for) leaves the metric unchecked, with the reason.
 */
export function metricCatalogResolver(
  catalogOf: (symbol: string) => MetricCatalog | undefined,
  suggest: (metric: string, symbol: string) => readonly string[] = () => [],
): MetricResolver {
  return (symbols, metric) => {
    for (const symbol of symbols) {
      const catalog = catalogOf(symbol);
      if (!catalog) return { known: false, suggestions: [], reason: `the metric catalog of ${symbol} was not read` };
      if ("error" in catalog) return { known: false, suggestions: [], reason: catalog.error };
      if (catalog.names.some((name) => name.toUpperCase() === metric)) return { known: true };
    }
    return { known: false, suggestions: symbols.length ? suggest(metric, symbols[0]) : [] };
  };
}
