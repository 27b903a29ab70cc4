/**
 * "Did you mean": the names the service's catalogs hold that are closest to a
 * symbol or metric it does not know. Pure: the catalogs are passed in.
 *
 * Symbols, best first: the equity of that ticker (`coin` → `eq-coin`), then a
 * catalog symbol or platform_id the text begins (three characters at least:
 * `ether` → `eth`, whose platform_id is ethereum), then one a typo away (optimal
 * string alignment distance: one edit per four characters, at least one),
 * then (only when none of those exists) an asset whose title has the text as
 * a word.
 *
 * Metrics, best first: a name with the text as a whole `_`-separated part
 * (`REVENUE` → `TOTAL_REVENUE`; `SUPPLY` → `STABLECOIN_SUPPLY…`), shorter
 * names first; then a name a typo away; then a name whose label spells the
 * text (`MARKET_CAP` → `MC`). A legacy name (its descriptor says "legacy") is
 * replaced by the metric it stands for (its base_metric), so the suggestion is
 * the name to use.
 */
import type { AssetRecord, MetricDescriptor } from "./domain";

/** Edits (insert, delete, substitute, swap two neighbours) from a to b; stops counting past `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0][j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
      best = Math.min(best, d);
    }
    if (i > 0 && best > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** Edits a name of this length may be from the one meant and still be suggested. */
export function typoBudget(text: string): number {
  return Math.max(1, Math.floor(text.length / 4));
}

interface Ranked {
  name: string;
  rank: number;
  /** Ties within a rank: smaller first. */
  tie: number;
}

function best(ranked: Ranked[], limit: number): string[] {
  ranked.sort((a, b) => a.rank - b.rank || a.tie - b.tie || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names: string[] = [];
  for (const { name } of ranked) if (!names.includes(name) && names.length < limit) names.push(name);
  return names;
}

/** Whether the catalog knows a symbol: its symbol or platform_id, or every dash-separated part of an intersection. */
export function isKnownSymbol(symbol: string, assets: readonly AssetRecord[]): boolean {
  const names = symbolNames(assets);
  if (names.has(symbol)) return true;
  const parts = symbol.split("-");
  return parts.length > 1 && parts.every((part) => names.has(part));
}

function symbolNames(assets: readonly AssetRecord[]): Set<string> {
  const names = new Set<string>();
  for (const asset of assets) {
    if (asset.symbol) names.add(asset.symbol.toLowerCase());
    if (asset.platform_id) names.add(asset.platform_id.toLowerCase());
  }
  return names;
}

/** Catalog symbols close to an unknown one (lowercase), best first. */
export function suggestSymbols(symbol: string, assets: readonly AssetRecord[], limit = 3): string[] {
  const names = symbolNames(assets);
  const parts = symbol.split("-");
  const unknown = parts.filter((part) => !names.has(part));
  if (parts.length > 1 && unknown.length > 0 && unknown.length < parts.length) {
    // An intersection with some parts known: mend the others, one suggestion each.
    const mended = parts.map((part) => (names.has(part) ? part : (suggestSymbols(part, assets, 1)[0] ?? null)));
    if (mended.every((part) => part !== null)) return [mended.join("-")];
  }
  const budget = typoBudget(symbol);
  const ranked: Ranked[] = [];
  for (const asset of assets) {
    const own = (asset.symbol ?? "").toLowerCase();
    if (!own) continue;
    const ids = [own, (asset.platform_id ?? "").toLowerCase()].filter(Boolean);
    if (own === `eq-${symbol}`) ranked.push({ name: own, rank: 0, tie: 0 });
    for (const id of ids) {
      if (symbol.length >= 3 && id.startsWith(symbol))
        ranked.push({ name: own, rank: 1, tie: Math.abs(id.length - symbol.length) });
      const distance = editDistance(symbol, id, budget);
      if (distance <= budget) ranked.push({ name: own, rank: 2, tie: distance });
    }
    if (symbol.length >= 3 && words(asset.title ?? "").includes(symbol)) ranked.push({ name: own, rank: 3, tie: 0 });
  }
  // A title word is a weak hint: offered only when no name is closer.
  const closer = ranked.filter((r) => r.rank < 3);
  return best(closer.length > 0 ? closer : ranked, limit);
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The name to suggest for a descriptor: a legacy name's successor when the catalog has it. */
function successor(descriptor: MetricDescriptor, names: ReadonlySet<string>): string {
  const legacy = /\blegacy\b/i.test(`${descriptor.label}\n${descriptor.description}`);
  const base = descriptor.base_metric?.toUpperCase();
  return legacy && base && names.has(base) ? base : descriptor.name;
}

/** Metrics of a catalog close to an unknown one (uppercase), best first. */
export function suggestMetrics(metric: string, catalog: readonly MetricDescriptor[], limit = 3): string[] {
  const names = new Set(catalog.map((d) => d.name));
  const budget = typoBudget(metric);
  const ranked: Ranked[] = [];
  for (const descriptor of catalog) {
    const name = descriptor.name;
    if (name === metric) continue;
    const suggestion = successor(descriptor, names);
    if (`_${name}_`.includes(`_${metric}_`)) ranked.push({ name: suggestion, rank: 0, tie: name.length });
    const distance = editDistance(metric, name, budget);
    if (distance <= budget) ranked.push({ name: suggestion, rank: 1, tie: distance });
    if (words(descriptor.label ?? "").join("_") === metric.toLowerCase())
      ranked.push({ name: suggestion, rank: 2, tie: 0 });
  }
  return best(ranked, limit).filter((name) => name !== metric);
}

/** "Did you mean A?" / "Did you mean A (or B, C)?" / "" */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return "";
  const [first, ...rest] = suggestions;
  return rest.length === 0 ? `Did you mean ${first}?` : `Did you mean ${first} (or ${rest.join(", ")})?`;
}
