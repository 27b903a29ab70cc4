import type { AssetRecord, FlowsResult, InsightCard, MetricDescriptor } from "../../src/core/domain";
import { filterAssets, kindFromOffer, parseAssetType, shapeAssetsTable } from "../../src/core/assets-table";
import { errorCell } from "../../src/core/cell";
import { NoDataError } from "../../src/core/errors";
import { isoToSerial } from "../../src/core/excel-date";
import { FLOWS_OPTIONS, parseFlowTypes, shapeFlowsTable } from "../../src/core/flows-table";
import { parseFeed, shapeInsightsTable } from "../../src/core/insights-table";
import { shapeMetricsTable } from "../../src/core/metrics-table";
import { parseOptions } from "../../src/core/options";

const S = isoToSerial;

describe("flows table", () => {
  const result: FlowsResult = {
    netflow: { ethereum: -50, arbitrum: 120, base: 30, solana: 30 },
    inflow: { ethereum: 100, arbitrum: 150, base: 40, solana: 35, optimism: 5 },
    outflow: { ethereum: 150, arbitrum: 30, base: 10, solana: 5 },
  };
  const options = (text: string | null = null) => parseOptions(text, FLOWS_OPTIONS);

  it.each([
    [null, ["netflow"]],
    ["inflow", ["inflow"]],
    ["ALL", ["netflow", "inflow", "outflow"]],
    ["outflow, inflow", ["outflow", "inflow"]],
    ["net,all", ["netflow", "inflow", "outflow"]],
  ])("flow_type %j → %j", (value, expected) => {
    expect(parseFlowTypes(value)).toEqual(expected);
  });

  it.each([
    [
      "sideways",
      'flow_type: "sideways" is not a flow type. Use NETFLOW, INFLOW, OUTFLOW or ALL, or a comma list such as INFLOW, OUTFLOW.',
    ],
    [",", "flow_type: no flow type given."],
    [3, "flow_type: 3 is not a flow type."],
  ])("refuses flow_type %j", (value, message) => {
    expect(() => parseFlowTypes(value)).toThrow(message);
  });

  it("sorts by the first flow column, largest first, ties by chain name", () => {
    expect(shapeFlowsTable(result, ["netflow"], options())).toEqual([
      ["Chain", "Netflow (USD)"],
      ["arbitrum", 120],
      ["base", 30],
      ["solana", 30],
      ["ethereum", -50],
    ]);
  });

  it("ALL: every column, chains missing from the lead column last with blanks", () => {
    expect(shapeFlowsTable(result, ["netflow", "inflow", "outflow"], options())).toEqual([
      ["Chain", "Netflow (USD)", "Inflow (USD)", "Outflow (USD)"],
      ["arbitrum", 120, 150, 30],
      ["base", 30, 40, 10],
      ["solana", 30, 35, 5],
      ["ethereum", -50, 100, 150],
      ["optimism", "", 5, ""],
    ]);
  });

  it("headers=false and top=N", () => {
    expect(shapeFlowsTable(result, ["outflow"], options("headers=false; top=2"))).toEqual([
      ["ethereum", 150],
      ["arbitrum", 30],
    ]);
  });

  it("no chains → NoDataError", () => {
    expect(() => shapeFlowsTable({ netflow: {} }, ["netflow"], options())).toThrow(NoDataError);
  });
});

describe("assets table", () => {
  const assets: AssetRecord[] = [
    { platform_id: "ethereum", symbol: "eth", title: "Ethereum", aggregator_id: "ethereum", color: "#627EEA" },
    {
      platform_id: "usdc-ethereum",
      symbol: "usdc-ethereum",
      title: "USDC on Ethereum",
      aggregator_id: null,
      color: "#2775CA",
    },
    { platform_id: "eq-aapl", symbol: "eq-aapl", title: "Apple Inc. <b>", aggregator_id: null, color: "#A2AAAD" },
  ];

  it("lists every field in catalog order, null aggregator as blank", () => {
    expect(shapeAssetsTable(assets, "", "ALL", new Map([["eth", "chain"]]))).toEqual([
      ["platform_id", "symbol", "title", "aggregator_id", "color", "kind"],
      ["ethereum", "eth", "Ethereum", "ethereum", "#627EEA", "chain"],
      ["usdc-ethereum", "usdc-ethereum", "USDC on Ethereum", "", "#2775CA", ""],
      ["eq-aapl", "eq-aapl", "Apple Inc. <b>", "", "#A2AAAD", "equity"],
    ]);
  });

  it.each([
    [["DEX_VOLUMES", "STABLECOIN_SUPPLY_TOTAL", "PRICE", "FEES"], "chain"],
    [["DEX_VOLUMES"], "chain"],
    [["STABLECOIN_SUPPLY_TOTAL", "PRICE"], "stablecoin"],
    [["VOLUME", "PRICE", "FEES"], "token"],
    [["PRICE"], "token"],
    [["FEES", "TVL"], "category"],
    [[], "category"],
  ])("an asset offering %j is a %s", (offered, kind) => {
    expect(kindFromOffer(new Set(offered))).toBe(kind);
  });

  it("a kind type keeps the assets of that kind", () => {
    const kinds = new Map([
      ["eth", "chain" as const],
      ["usdc-ethereum", "stablecoin" as const],
    ]);
    expect(shapeAssetsTable(assets, "", "STABLECOIN", kinds).map((row) => row[1])).toEqual(["symbol", "usdc-ethereum"]);
    expect(() => shapeAssetsTable(assets, "", "CATEGORY", kinds)).toThrow(
      new NoDataError('No category asset matches "".'),
    );
  });

  it.each([
    ["", "EQUITY", ["eq-aapl"]],
    ["", "CRYPTO", ["ethereum", "usdc-ethereum"]],
    ["ETHER", "ALL", ["ethereum", "usdc-ethereum"]],
    ["usdc eth", "ALL", ["usdc-ethereum"]],
    ["apple", "CRYPTO", []],
  ] as const)("search %j type %s", (search, type, ids) => {
    expect(filterAssets(assets, search, type).map((a) => a.platform_id)).toEqual(ids);
  });

  it.each([
    [null, "ALL"],
    ["equities", "EQUITY"],
    [" crypto ", "CRYPTO"],
    ["chains", "CHAIN"],
    ["Token", "TOKEN"],
    ["STABLECOINS", "STABLECOIN"],
    ["categories", "CATEGORY"],
  ])("type %j → %s", (value, expected) => {
    expect(parseAssetType(value)).toBe(expected);
  });

  it("refuses an unknown type and reports an empty match as no data", () => {
    expect(() => parseAssetType("STOCK")).toThrow(
      'type: "STOCK" is not accepted. Use ALL, CRYPTO, EQUITY, CHAIN, TOKEN, STABLECOIN or CATEGORY.',
    );
    expect(() => shapeAssetsTable(assets, "zzz", "EQUITY")).toThrow(new NoDataError('No equity asset matches "zzz".'));
  });
});

describe("metrics table", () => {
  const descriptor = (name: string, label: string, aggregation: string, description: string): MetricDescriptor => ({
    name,
    label,
    description,
    tags: [],
    aggregation_type: aggregation,
    unit: "CURRENCY",
    internal_data_source: "internal",
    source: "Sandbox",
    base_metric: null,
    accepts_date: true,
    cuts: [{ granularity: "DAY", dimension_type: "TOTAL" }],
    thumbnail_url: null,
    source_link: null,
    methodology: null,
  });
  const metrics = [
    descriptor("PRICE", "Price", "LAST", "Daily close."),
    descriptor("FEES", "Fees", "SUM", "Fees paid by users."),
  ];

  it("shows name, label, unit, aggregation, source, description", () => {
    expect(shapeMetricsTable("eth", metrics, "")).toEqual([
      ["Metric", "Label", "Unit", "Aggregation", "Source", "Description"],
      ["PRICE", "Price", "CURRENCY", "LAST", "Sandbox", "Daily close."],
      ["FEES", "Fees", "CURRENCY", "SUM", "Sandbox", "Fees paid by users."],
    ]);
  });

  it("filters by name, label or description", () => {
    expect(shapeMetricsTable("eth", metrics, "users").map((r) => r[0])).toEqual(["Metric", "FEES"]);
    expect(() => shapeMetricsTable("eth", metrics, "tvl")).toThrow(new NoDataError('No metric of eth matches "tvl".'));
  });
});

describe("insights table", () => {
  const card = (
    entity: string,
    flag: string,
    start: number,
    end: number,
    extra: Record<string, unknown> = {},
  ): InsightCard => ({
    DOMAIN: "protocol",
    ENTITY_ID: entity,
    METRIC_NAME: "FEES",
    FLAG: flag,
    UNIT: "CURRENCY",
    METRIC_TYPE: "flow",
    DURATION: 4,
    DATE_RANGE: "2024-03-04 to 2024-03-31",
    START_VALUE: start,
    END_VALUE: end,
    PERIOD_START_DATE: "2024-03-04",
    PERIOD_END_DATE: "2024-03-31",
    FISCAL_YEAR_END: null,
    FISCAL_PERIOD_END: null,
    LATEST_REPORT_DATE: null,
    SPARKLINE: [{ date: "2024-03-04", value: start }],
    ...extra,
  });
  const cards = [
    card("ethereum", "streak_weekly", 100, 150),
    card("solana", "streak_monthly", 0, 10),
    card("base", "decline_streak_weekly", 80, 20),
  ];

  it.each([
    ["STREAKS", "streaks"],
    ["decline-streaks", "decline-streaks"],
    ["Decline_Streaks", "decline-streaks"],
    ["ath", "ath"],
    ["All-Time-Highs", "all-time-highs"],
  ])("feed %j → /insights/%s/", (value, feed) => {
    expect(parseFeed(value)).toBe(feed);
  });

  it.each([
    [null, "feed: is required."],
    ["../admin", 'feed: "../admin" is not a feed name.'],
    [5, "feed: 5 is not a feed name."],
  ])("refuses feed %j", (value, message) => {
    expect(() => parseFeed(value)).toThrow(message);
  });

  it("documented feeds: nine columns, dates as serials, change as a fraction", () => {
    expect(shapeInsightsTable("streaks", cards, { search: "", flag: "" })).toEqual([
      ["Entity", "Metric", "Flag", "Duration", "Start date", "End date", "Start value", "End value", "Change %"],
      ["ethereum", "FEES", "streak_weekly", 4, S("2024-03-04"), S("2024-03-31"), 100, 150, (150 - 100) / 100],
      [
        "solana",
        "FEES",
        "streak_monthly",
        4,
        S("2024-03-04"),
        S("2024-03-31"),
        0,
        10,
        errorCell("#DIV/0!", "The start value is 0."),
      ],
      ["base", "FEES", "decline_streak_weekly", 4, S("2024-03-04"), S("2024-03-31"), 80, 20, (20 - 80) / 80],
    ]);
  });

  it.each([
    ["sol", "", ["solana"]],
    ["", "weekly", ["ethereum", "base"]],
    ["", "DECLINE", ["base"]],
    ["fees eth", "streak_weekly", ["ethereum"]],
  ])("search %j flag %j", (search, flag, entities) => {
    expect(
      shapeInsightsTable("streaks", cards, { search, flag })
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(entities);
  });

  it("an undescribed feed shows the standard columns its cards have, then their other plain fields", () => {
    const athCards = [
      {
        ENTITY_ID: "eq-aapl",
        METRIC_NAME: "PRICE",
        FLAG: "ath",
        ATH_VALUE: 199.5,
        ATH_DATE: "2024-05-01",
        PREVIOUS_ATH: 198,
        SPARKLINE: [],
      },
      {
        ENTITY_ID: "eth",
        METRIC_NAME: "FEES",
        FLAG: "ath",
        ATH_VALUE: 5e6,
        ATH_DATE: "2024-04-30T00:00:00Z",
        NOTE: null,
      },
    ] as unknown as InsightCard[];
    expect(shapeInsightsTable("ath", athCards, { search: "", flag: "" })).toEqual([
      ["Entity", "Metric", "Flag", "ATH_VALUE", "ATH_DATE", "PREVIOUS_ATH"],
      ["eq-aapl", "PRICE", "ath", 199.5, S("2024-05-01"), 198],
      ["eth", "FEES", "ath", 5e6, S("2024-04-30"), ""],
    ]);
  });

  it("no card → NoDataError naming the feed", () => {
    expect(() => shapeInsightsTable("streaks", cards, { search: "zzz", flag: "" })).toThrow(
      new NoDataError("No streaks insight card matches these filters."),
    );
    expect(() => shapeInsightsTable("ath", [], { search: "", flag: "" })).toThrow(
      new NoDataError("No ath insight card was returned."),
    );
  });
});
