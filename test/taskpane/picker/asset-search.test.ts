import type { AssetRecord } from "../../../src/core/domain";
import { assetKind, buildAssetIndex, type AssetFilter } from "../../../src/taskpane/picker/asset-search";
import { normaliseSearchText } from "../../../src/taskpane/shared/search-text";

function asset(symbol: string, title: string, extra: Partial<AssetRecord> = {}): AssetRecord {
  return { platform_id: symbol, symbol, aggregator_id: null, title, color: "#000000", ...extra };
}

/**
 * The ranking as the pane promises it, written the slow obvious way: keep the
 * assets containing every query word (in symbol, title, platform or aggregator
 * id), then a stable sort by rank — exact symbol or ticker, symbol/ticker
 * prefix, a title word starting with the first query word, anything else.
 */
function reference(assets: readonly AssetRecord[], query: string, filter: AssetFilter): number[] {
  const lower = (s: string) => s.toLowerCase().trim().replace(/\s+/g, " ");
  const words = lower(query).split(" ").filter(Boolean);
  const hits: { i: number; rank: number }[] = [];
  assets.forEach((a, i) => {
    const equity = a.symbol.startsWith("eq-") || a.platform_id.startsWith("eq-");
    if (filter === "equity" && !equity) return;
    if (filter === "crypto" && equity) return;
    const fields = [a.symbol, a.title, a.platform_id, a.aggregator_id ?? ""].map(lower);
    if (!words.every((w) => fields.some((f) => f.includes(w)))) return;
    if (words.length === 0) return void hits.push({ i, rank: 0 });
    const first = words[0];
    const symbol = lower(a.symbol);
    const ticker = symbol.replace(/^eq-/, "");
    const rank =
      symbol === first || ticker === first
        ? 0
        : symbol.startsWith(first) || ticker.startsWith(first)
          ? 1
          : lower(a.title)
                .split(" ")
                .some((t) => t.startsWith(first))
            ? 2
            : 3;
    hits.push({ i, rank });
  });
  return hits.sort((x, y) => x.rank - y.rank).map((h) => h.i);
}

describe("asset search: ranking on a small catalog", () => {
  const catalog = [
    asset("steth", "Lido Staked Ether"),
    asset("eq-ethe", "Grayscale Ethereum Trust"),
    asset("weth", "Wrapped Ether"),
    asset("eth", "Ethereum"),
    asset("ethfi", "Ether.fi"),
    asset("eq-aapl", "Apple Inc."),
    asset("aave", "Aave", { aggregator_id: "aave-token" }),
    asset("btc", "Bitcoin", { platform_id: "bitcoin-main" }),
    asset("xyz", "Café Crème"),
  ];
  const index = buildAssetIndex(catalog);
  const symbols = (q: string, f: AssetFilter = "all") => index.search(q, f).map((i) => catalog[i].symbol);

  it.each([
    { query: "eth", filter: "all", expected: ["eth", "eq-ethe", "ethfi", "steth", "weth"] },
    { query: "ETH", filter: "crypto", expected: ["eth", "ethfi", "steth", "weth"] },
    { query: "eth", filter: "equity", expected: ["eq-ethe"] },
    { query: "aapl", filter: "all", expected: ["eq-aapl"] },
    { query: "ether", filter: "all", expected: ["steth", "eq-ethe", "weth", "eth", "ethfi"] },
    { query: "ethereum trust", filter: "all", expected: ["eq-ethe"] },
    { query: "  wrapped   ETHER ", filter: "all", expected: ["weth"] },
    { query: "aave-token", filter: "all", expected: ["aave"] },
    { query: "bitcoin-main", filter: "all", expected: ["btc"] },
    { query: "cafe creme", filter: "all", expected: ["xyz"] },
    { query: "nothing-here", filter: "all", expected: [] },
    { query: "", filter: "equity", expected: ["eq-ethe", "eq-aapl"] },
  ] as { query: string; filter: AssetFilter; expected: string[] }[])(
    "“$query” ($filter) → $expected",
    ({ query, filter, expected }) => {
      expect(symbols(query, filter)).toEqual(expected);
    },
  );

  it("a query does not match across the symbol/title boundary", () => {
    // "xyz" + "Café" joined would contain "zcaf"; no single field does.
    expect(symbols("zcaf")).toEqual([]);
  });

  it.each([
    ["all", catalog.length],
    ["equity", catalog.filter((a) => a.symbol.startsWith("eq-")).length],
    ["crypto", catalog.filter((a) => !a.symbol.startsWith("eq-")).length],
  ] as [AssetFilter, number][])("count(%s) = %d", (filter, n) => {
    expect(index.count(filter)).toBe(n);
    expect(index.search("", filter)).toHaveLength(n);
  });

  it.each([
    ["Café", "cafe"],
    ["  Two   Spaces\tTab ", "two spaces tab"],
    ["ÅNGSTRÖM", "angstrom"],
    ["ﬁne", "fine"],
  ])("normaliseSearchText(%j) = %j", (input, expected) => {
    expect(normaliseSearchText(input)).toBe(expected);
  });

  it.each([
    [asset("eq-msft", "Microsoft"), "equity"],
    [asset("msft", "Microsoft", { platform_id: "eq-msft" }), "equity"],
    [asset("btc", "Bitcoin"), "crypto"],
  ] as [AssetRecord, string][])("assetKind(%o) = %s", (a, kind) => {
    expect(assetKind(a)).toBe(kind);
  });
});

describe("asset search: a 20,000-row catalog agrees with the reference", () => {
  // A seeded generator, so a failure reproduces.
  let seed = 20240615;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const syllables = [
    "eth",
    "bit",
    "coin",
    "sol",
    "ana",
    "lido",
    "wrap",
    "ape",
    "dog",
    "chain",
    "link",
    "net",
    "fi",
    "x",
  ];
  const word = () =>
    Array.from({ length: 1 + Math.floor(rand() * 3) }, () => syllables[Math.floor(rand() * syllables.length)]).join("");
  const assets: AssetRecord[] = Array.from({ length: 20_000 }, (_, i) => {
    const sym = `${word()}${i % 7 === 0 ? i : ""}`;
    return asset(rand() < 0.3 ? `eq-${sym}` : sym, `${word()} ${word()} ${i % 11 === 0 ? "Holdings" : "Token"}`, {
      platform_id: `p-${word()}`,
      aggregator_id: rand() < 0.5 ? `agg-${word()}` : null,
    });
  });
  const index = buildAssetIndex(assets);

  const queries = [
    "",
    "eth",
    "coin",
    "ethcoin",
    "bit sol",
    "eq-",
    "holdings",
    "HOLDINGS eth",
    "p-lido",
    "agg-",
    "fi",
    "x",
    "140",
    "zzz",
    "token chain",
    "wrapape",
  ];
  const filters: AssetFilter[] = ["all", "crypto", "equity"];
  it.each(queries.flatMap((q) => filters.map((f) => [q, f] as const)))("“%s” (%s)", (query, filter) => {
    const expected = reference(assets, query, filter);
    expect(index.search(query, filter)).toEqual(expected);
  });

  it("the filters partition the catalog", () => {
    expect(index.count("crypto") + index.count("equity")).toBe(assets.length);
    expect(index.count("all")).toBe(20_000);
  });
});
