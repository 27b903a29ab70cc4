/**
 * The picker's asset search. The catalog holds tens of thousands of records and
 * the list filters on every keystroke, so everything that does not depend on
 * the query — normalised text, the asset kind, the unfiltered orders — is
 * computed once when the catalog arrives. A keystroke is then one pass of
 * `String.includes` over short precomputed strings plus a bucket ranking (no
 * sort), which keeps it linear and allocation-light.
 */
import type { AssetRecord } from "../../core/domain";
import { isEquity } from "../../core/assets-table";
import { normaliseSearchText } from "../shared/search-text";

export type AssetKind = "crypto" | "equity";
export type AssetFilter = "all" | AssetKind;

const EQUITY_PREFIX = "eq-";

export function assetKind(asset: AssetRecord): AssetKind {
  return isEquity(asset) ? "equity" : "crypto";
}

/** How well one asset matches, best first; the list shows bucket 0, then 1, ... each in catalog order. */
const EXACT_SYMBOL = 0;
const SYMBOL_PREFIX = 1;
const TITLE_WORD_PREFIX = 2;
const CONTAINS = 3;
const RANKS = 4;

export interface AssetIndex {
  readonly assets: readonly AssetRecord[];
  /** Indices into `assets` matching every word of `query` and the kind filter, best matches first. */
  search(query: string, filter?: AssetFilter): readonly number[];
  count(filter: AssetFilter): number;
}

export function buildAssetIndex(assets: readonly AssetRecord[]): AssetIndex {
  const n = assets.length;
  const symbols: string[] = new Array(n);
  const tickers: string[] = new Array(n); // symbol without the eq- prefix, so "aapl" ranks eq-aapl first
  const titles: string[] = new Array(n); // " " + title, so a word start is an includes(" " + word)
  const haystacks: string[] = new Array(n);
  const all: number[] = new Array(n);
  const crypto: number[] = [];
  const equities: number[] = [];

  for (let i = 0; i < n; i++) {
    const asset = assets[i];
    const symbol = normaliseSearchText(asset.symbol);
    const title = normaliseSearchText(asset.title);
    symbols[i] = symbol;
    tickers[i] = symbol.startsWith(EQUITY_PREFIX) ? symbol.slice(EQUITY_PREFIX.length) : symbol;
    titles[i] = " " + title;
    // \u0001 keeps a query from matching across two fields.
    haystacks[i] = [
      symbol,
      title,
      normaliseSearchText(asset.platform_id),
      normaliseSearchText(asset.aggregator_id ?? ""),
    ].join("\u0001");
    all[i] = i;
    if (assetKind(asset) === "equity") equities.push(i);
    else crypto.push(i);
  }

  const unfiltered: Record<AssetFilter, readonly number[]> = { all, crypto, equity: equities };

  function rank(i: number, first: string, firstAtWordStart: string): number {
    const symbol = symbols[i];
    const ticker = tickers[i];
    if (symbol === first || ticker === first) return EXACT_SYMBOL;
    if (symbol.startsWith(first) || ticker.startsWith(first)) return SYMBOL_PREFIX;
    if (titles[i].includes(firstAtWordStart)) return TITLE_WORD_PREFIX;
    return CONTAINS;
  }

  function search(query: string, filter: AssetFilter = "all"): readonly number[] {
    const words = normaliseSearchText(query).split(" ").filter(Boolean);
    const candidates = unfiltered[filter];
    if (words.length === 0) return candidates;
    const first = words[0];
    const firstAtWordStart = " " + first;
    const buckets: number[][] = [];
    for (let r = 0; r < RANKS; r++) buckets.push([]);
    outer: for (let c = 0; c < candidates.length; c++) {
      const i = candidates[c];
      const haystack = haystacks[i];
      for (let w = 0; w < words.length; w++) if (!haystack.includes(words[w])) continue outer;
      buckets[rank(i, first, firstAtWordStart)].push(i);
    }
    return buckets[0].concat(buckets[1], buckets[2], buckets[3]);
  }

  return {
    assets,
    search,
    count: (filter) => unfiltered[filter].length,
  };
}
