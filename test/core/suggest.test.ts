import type { AssetRecord, MetricDescriptor } from "../../src/core/domain";
import {
  didYouMean,
  editDistance,
  isKnownSymbol,
  suggestMetrics,
  suggestSymbols,
  typoBudget,
} from "../../src/core/suggest";

const asset = (symbol: string, platform_id: string, title: string): AssetRecord => ({
  symbol,
  platform_id,
  title,
  aggregator_id: null,
  color: "#000000",
});

const ASSETS = [
  asset("eth", "ethereum", "Ethereum"),
  asset("sol", "solana", "Solana"),
  asset("usdc", "usd_coin", "USD Coin"),
  asset("usdt", "tether", "Tether USD"),
  asset("uni", "uniswap", "Uniswap"),
  asset("eq-coin", "coinbase", "Coinbase Global"),
  asset("eq-aapl", "apple", "Apple"),
  asset("defi", "defi", "DeFi"),
];

const metric = (name: string, label = name, extra: Partial<MetricDescriptor> = {}): MetricDescriptor => ({
  name,
  label,
  description: "",
  tags: [],
  aggregation_type: "LAST",
  unit: "CURRENCY",
  internal_data_source: "",
  source: "",
  base_metric: null,
  accepts_date: true,
  cuts: [],
  thumbnail_url: null,
  source_link: null,
  methodology: null,
  ...extra,
});

const EQUITY = [
  "PRICE",
  "VOLUME",
  "MC",
  "TOTAL_REVENUE",
  "NET_INCOME",
  "ENTERPRISE_VALUE_DIVIDE_TOTAL_REVENUE",
  "FCF_YIELD",
].map((name) => metric(name, name === "MC" ? "Market Cap" : name));

const STABLECOIN = [
  metric("PRICE"),
  metric("STABLECOIN_SUPPLY_TOTAL"),
  metric("STABLECOIN_SUPPLY", "Stablecoin Supply (legacy)", { base_metric: "STABLECOIN_SUPPLY_CIRCULATING" }),
  metric("STABLECOIN_SUPPLY_CIRCULATING", "Stablecoin Supply (Circulating)", {
    base_metric: "STABLECOIN_SUPPLY_TOTAL",
  }),
  metric("STABLECOIN_SUPPLY_BRIDGED"),
  metric("STABLECOIN_TRANSFER_VOLUME"),
  metric("STABLECOIN_DAU"),
];

const CHAIN_WITHOUT_TOKEN = ["FEES", "REVENUE", "DAU", "TXNS", "AVG_TXN_FEE", "TVL", "DEX_VOLUMES"].map((n) =>
  metric(n),
);

describe("edit distance (optimal string alignment)", () => {
  it.each([
    ["eth", "eth", 0],
    ["etherum", "ethereum", 1],
    ["soalna", "solana", 1],
    ["usdcc", "usdc", 1],
    ["PRCE", "PRICE", 1],
    ["kitten", "sitting", 3],
    ["", "abc", 3],
  ])("%s → %s: %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it("stops counting past the budget", () => {
    expect(editDistance("abcdefgh", "zzzzzzzz", 2)).toBe(3);
    expect(typoBudget("eth")).toBe(1);
    expect(typoBudget("ethereum")).toBe(2);
  });
});

describe("did you mean: symbols", () => {
  it.each([
    ["coin", ["eq-coin"]],
    ["aapl", ["eq-aapl"]],
    ["etherum", ["eth"]],
    ["soalna", ["sol"]],
    ["usdcc", ["usdc"]],
    ["ether", ["eth"]],
    ["usdc-etherum", ["usdc-eth"]],
    ["eq-con", ["eq-coin"]],
    ["coinbase-x", ["eq-coin"]],
    ["qqqq-zzzz", []],
    ["zzzzzz", []],
  ])("%s → %j", (symbol, expected) => {
    expect(suggestSymbols(symbol, ASSETS).slice(0, Math.max(1, expected.length))).toEqual(expected);
  });

  it("knows catalog symbols, platform ids and intersections of them", () => {
    expect(isKnownSymbol("eth", ASSETS)).toBe(true);
    expect(isKnownSymbol("ethereum", ASSETS)).toBe(true);
    expect(isKnownSymbol("usdc-eth", ASSETS)).toBe(true);
    expect(isKnownSymbol("defi-uni-sol", ASSETS)).toBe(true);
    expect(isKnownSymbol("coin", ASSETS)).toBe(false);
    expect(isKnownSymbol("usdc-etherum", ASSETS)).toBe(false);
  });
});

describe("did you mean: metrics", () => {
  it.each<[string, MetricDescriptor[], string[]]>([
    ["REVENUE", EQUITY, ["TOTAL_REVENUE", "ENTERPRISE_VALUE_DIVIDE_TOTAL_REVENUE"]],
    ["SUPPLY", STABLECOIN, ["STABLECOIN_SUPPLY_CIRCULATING", "STABLECOIN_SUPPLY_TOTAL", "STABLECOIN_SUPPLY_BRIDGED"]],
    ["PRCE", EQUITY, ["PRICE"]],
    ["MARKET_CAP", EQUITY, ["MC"]],
    ["YIELD", EQUITY, ["FCF_YIELD"]],
    ["PRICE", CHAIN_WITHOUT_TOKEN, []],
    ["NONSENSE", EQUITY, []],
  ])("%s → %j", (name, catalog, expected) => {
    expect(suggestMetrics(name, catalog)).toEqual(expected);
  });

  it("words the suggestion", () => {
    expect(didYouMean(["TOTAL_REVENUE"])).toBe("Did you mean TOTAL_REVENUE?");
    expect(didYouMean(["A", "B", "C"])).toBe("Did you mean A (or B, C)?");
    expect(didYouMean([])).toBe("");
  });
});
