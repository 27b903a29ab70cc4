/**
 * Turns a requested symbol into what the sandbox knows about it (interface
 * 2.1): a catalog `symbol` or `platform_id`, `eq-<ticker>`, or a dash
 * intersection of a category, an asset (token or stablecoin) and a chain, at
 * most one of each (`usdc-eth`, `defi-uni`, `defi-eth`, `defi-usdc-sol`).
 * Parts may be given by symbol or platform_id and in any order; the canonical
 * id (platform ids in category, asset, chain order) seeds the data, so
 * `usdc-eth`, `usd_coin-ethereum` and `eth-usdc` are the same series.
 */
import type { AssetCatalog, CatalogEntry } from "./asset-catalog";
import type { Company } from "./companies";
import type { ActivityLevels } from "./named-assets";
import { CRYPTO_METRICS, EQUITY_METRICS, type MetricSpec, STABLECOIN_METRIC_NAMES } from "./metric-catalog";
import { between, hashOf } from "./rng";

export type Profile =
  "chain" | "token" | "stablecoin" | "category" | "equity" | "token-slice" | "stablecoin-slice" | "category-slice";

export interface ResolvedSymbol {
  /** Canonical id: the platform_id, or platform ids joined by "-" for an intersection. */
  id: string;
  profile: Profile;
  title: string;
  /** Activity scale relative to Ethereum. */
  size: number;
  price?: number;
  /** Typical circulating market cap (named crypto assets). */
  marketCap?: number;
  /** Chains: stablecoin supply on the chain, USD. */
  stablecoins?: number;
  /** Typical levels of some activity metrics (named chains). */
  levels?: ActivityLevels;
  company?: Company;
  metrics: readonly string[];
}

const CHAIN_METRICS = [
  "PRICE",
  "MC",
  "FEES",
  "REVENUE",
  "DAU",
  "TXNS",
  "AVG_TXN_FEE",
  "TVL",
  "DEX_VOLUMES",
  ...STABLECOIN_METRIC_NAMES,
];
const TOKEN_METRICS = ["PRICE", "MC", "VOLUME", "FEES", "REVENUE", "DAU", "TXNS", "TVL"];
const STABLECOIN_METRICS = ["PRICE", ...STABLECOIN_METRIC_NAMES];
const CATEGORY_METRICS = ["MC", "FEES", "REVENUE", "DAU", "TXNS", "TVL"];
const TOKEN_SLICE_METRICS = ["VOLUME", "FEES", "REVENUE", "DAU", "TXNS", "TVL"];
const CATEGORY_SLICE_METRICS = ["FEES", "REVENUE", "DAU", "TXNS", "TVL"];
const EQUITY_METRIC_NAMES = [...EQUITY_METRICS.keys()];

function single(entry: CatalogEntry): ResolvedSymbol {
  const base = {
    id: entry.record.platform_id,
    title: entry.record.title,
    size: entry.size,
    price: entry.price,
    marketCap: entry.marketCap,
    stablecoins: entry.stablecoins,
    levels: entry.levels,
  };
  switch (entry.kind) {
    case "equity":
      return { ...base, profile: "equity", company: entry.company, metrics: EQUITY_METRIC_NAMES };
    case "chain":
      // A chain without a native token has no price or market cap.
      return {
        ...base,
        profile: "chain",
        metrics: entry.price === undefined ? CHAIN_METRICS.filter((m) => m !== "PRICE" && m !== "MC") : CHAIN_METRICS,
      };
    case "token":
      return { ...base, profile: "token", metrics: TOKEN_METRICS };
    case "stablecoin":
      return { ...base, profile: "stablecoin", metrics: STABLECOIN_METRICS };
    case "category":
      return { ...base, profile: "category", metrics: CATEGORY_METRICS };
  }
}

function intersection(seed: number, parts: CatalogEntry[]): ResolvedSymbol | null {
  const category = parts.filter((p) => p.kind === "category");
  const asset = parts.filter((p) => p.kind === "token" || p.kind === "stablecoin");
  const chain = parts.filter((p) => p.kind === "chain");
  if (category.length > 1 || asset.length > 1 || chain.length > 1) return null;
  if (category.length + asset.length + chain.length !== parts.length) return null; // an equity in the mix
  const ordered = [...category, ...asset, ...chain];
  const id = ordered.map((p) => p.record.platform_id).join("-");
  const main = asset[0] ?? category[0];
  // Each further part narrows the main entity to a seeded share of it.
  let size = main.size;
  for (const part of ordered)
    if (part !== main) size *= between(hashOf(seed, "share", id, part.record.platform_id), 0.05, 0.6);
  const title = [
    main.record.title,
    asset.length && category.length ? ` in ${category[0].record.title}` : "",
    chain.length ? ` on ${chain[0].record.title}` : "",
  ].join("");
  if (asset[0]?.kind === "stablecoin")
    return { id, profile: "stablecoin-slice", title, size, metrics: STABLECOIN_METRIC_NAMES };
  if (asset.length) return { id, profile: "token-slice", title, size, metrics: TOKEN_SLICE_METRICS };
  return { id, profile: "category-slice", title, size, metrics: CATEGORY_SLICE_METRICS };
}

/** Null when the symbol is not in the catalog and is not a valid intersection of catalog entries. */
export function resolveSymbol(catalog: AssetCatalog, seed: number, requested: string): ResolvedSymbol | null {
  const name = requested.trim().toLowerCase();
  const whole = catalog.find(name);
  if (whole) return single(whole);
  const names = name.split("-");
  if (names.length < 2 || names.length > 3) return null;
  const parts: CatalogEntry[] = [];
  for (const part of names) {
    const entry = catalog.find(part);
    if (!entry || parts.includes(entry)) return null;
    parts.push(entry);
  }
  return intersection(seed, parts);
}

/** The spec of a metric for a resolved symbol, or undefined when the pair is unsupported. */
export function metricSpecFor(symbol: ResolvedSymbol, metric: string): MetricSpec | undefined {
  if (!symbol.metrics.includes(metric)) return undefined;
  return symbol.profile === "equity" ? EQUITY_METRICS.get(metric) : CRYPTO_METRICS.get(metric);
}
