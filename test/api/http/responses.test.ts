import { BadResponseError } from "../../../src/api/errors";
import {
  parseAssetsResponse,
  parseFlowsResponse,
  parseInsightsResponse,
  parseMetricsResponse,
  parseSeriesResponse,
} from "../../../src/api/http/responses";

const wrap = (symbols: unknown) => ({ data: { symbols } });

describe("metric-data response", () => {
  it("reads each requested pair", () => {
    const body = wrap({
      eth: {
        PRICE: [
          { date: "2024-01-01", val: 1 },
          { date: "2024-01-02", val: 2 },
        ],
        FEES: [],
      },
      sol: { PRICE: [{ date: "2024-01-01", val: 3 }] },
    });
    const table = parseSeriesResponse(body, ["eth", "sol"], ["PRICE", "FEES"]);
    expect(table.get("eth")!.get("PRICE")).toEqual({
      kind: "points",
      points: [
        { date: "2024-01-01", val: 1 },
        { date: "2024-01-02", val: 2 },
      ],
    });
    expect(table.get("eth")!.get("FEES")).toEqual({ kind: "points", points: [] });
    expect(table.get("sol")!.get("PRICE")).toEqual({ kind: "points", points: [{ date: "2024-01-01", val: 3 }] });
    // Absent metric → empty series, as the description allows.
    expect(table.get("sol")!.get("FEES")).toEqual({ kind: "points", points: [] });
  });

  it.each([
    [
      "a message string in place of one series",
      wrap({ eth: { PRICE: "Metric PRICE is not available for eth" } }),
      "Metric PRICE is not available for eth",
    ],
    [
      "a message string in place of a whole symbol",
      wrap({ eth: "Symbol eth is not in the asset catalog" }),
      "Symbol eth is not in the asset catalog",
    ],
  ])("keeps %s as that pair's message", (_name, body, message) => {
    expect(parseSeriesResponse(body, ["eth"], ["PRICE"]).get("eth")!.get("PRICE")).toEqual({
      kind: "message",
      message,
    });
  });

  it("matches keys case-insensitively, keeps null values as dates without a value, and sorts disorder", () => {
    const body = wrap({
      ETH: {
        price: [
          { date: "2024-01-03", val: 3.5 },
          { date: "2024-01-01", val: 1 },
          { date: "2024-01-02", val: null },
        ],
      },
    });
    expect(parseSeriesResponse(body, ["eth"], ["PRICE"]).get("eth")!.get("PRICE")).toEqual({
      kind: "points",
      points: [
        { date: "2024-01-01", val: 1 },
        { date: "2024-01-02", val: null },
        { date: "2024-01-03", val: 3.5 },
      ],
    });
  });

  it.each([
    ["not an object", "nope"],
    ["no data", { symbols: {} }],
    ["symbols as a number", { data: { symbols: 5 } }],
    ["no symbols", { data: {} }],
    ["symbols as an array", { data: { symbols: [] } }],
  ])("refuses a body with %s", (_name, body) => {
    expect(() => parseSeriesResponse(body, ["eth"], ["PRICE"])).toThrow(BadResponseError);
  });

  it.each([
    ["a series that is an object", { eth: { PRICE: { date: "2024-01-01" } } }],
    ["a point without a date", { eth: { PRICE: [{ val: 1 }] } }],
    ["a point with a text value", { eth: { PRICE: [{ date: "2024-01-01", val: "n/a" }] } }],
    ["a symbol that is a number", { eth: 5 }],
  ])("fails only the pair with %s", (_name, symbols) => {
    const table = parseSeriesResponse(
      wrap({ ...symbols, sol: { PRICE: [{ date: "2024-01-01", val: 1 }] } }),
      ["eth", "sol"],
      ["PRICE"],
    );
    expect(table.get("eth")!.get("PRICE")).toBeInstanceOf(BadResponseError);
    expect(table.get("sol")!.get("PRICE")).toEqual({ kind: "points", points: [{ date: "2024-01-01", val: 1 }] });
  });
});

describe("catalogs and feeds", () => {
  it("flattens the metric catalog into descriptors with a name", () => {
    const body = {
      metrics: [
        {
          FEES: {
            label: "Fees",
            description: "Fees paid",
            tags: [{ value: "fees", label: "Fees" }],
            aggregation_type: "SUM",
            unit: "CURRENCY",
            internal_data_source: "x",
            source: "chain",
            base_metric: null,
            accepts_date: true,
            cuts: [{ granularity: "DAY", dimension_type: "TOTAL" }],
            thumbnail_url: null,
            source_link: null,
            methodology: "Sum of fees",
            priority: 2,
          },
        },
        { DAU: { label: "Daily active users", aggregation_type: "AVERAGE", unit: "NOMINAL" } },
      ],
    };
    const metrics = parseMetricsResponse(body);
    expect(metrics.map((m) => m.name)).toEqual(["FEES", "DAU"]);
    expect(metrics[0]).toMatchObject({
      name: "FEES",
      label: "Fees",
      aggregation_type: "SUM",
      priority: 2,
      methodology: "Sum of fees",
    });
    // The older reference's shape: missing fields get neutral values, the newer ones stay absent.
    expect(metrics[1]).toMatchObject({
      name: "DAU",
      description: "",
      tags: [],
      base_metric: null,
      accepts_date: false,
      cuts: [],
    });
    expect("priority" in metrics[1]!).toBe(false);
  });

  it("reads the asset catalog and drops records without a symbol", () => {
    const { assets, dropped } = parseAssetsResponse({
      assets: [
        { platform_id: "ethereum", symbol: "eth", aggregator_id: "ethereum", title: "Ethereum", color: "#627EEA" },
        { platform_id: "eq-coin", symbol: "eq-coin", aggregator_id: null, title: "Coinbase", color: "#0052FF" },
        { title: "nameless" },
        7,
      ],
    });
    expect(assets.map((a) => a.symbol)).toEqual(["eth", "eq-coin"]);
    expect(assets[1]!.aggregator_id).toBeNull();
    expect(dropped).toBe(2);
  });

  it("keeps insight rows whole and always gives them a sparkline array", () => {
    const rows = parseInsightsResponse({ rows: [{ ENTITY_ID: "eth", FLAG: "streak_weekly", EXTRA: 1 }] });
    expect(rows[0]).toMatchObject({ ENTITY_ID: "eth", EXTRA: 1, SPARKLINE: [] });
  });

  it("reads one flow type", () => {
    expect(parseFlowsResponse({ netflow: { ethereum: -5, solana: 2.5 } }, "netflow")).toEqual({
      ethereum: -5,
      solana: 2.5,
    });
  });

  it.each([
    ["assets", () => parseAssetsResponse({ rows: [] })],
    ["metrics", () => parseMetricsResponse({ metrics: [5] })],
    ["insights", () => parseInsightsResponse({ rows: "none" })],
    ["flows without the requested type", () => parseFlowsResponse({ inflow: {} }, "netflow")],
    ["flows with a text amount", () => parseFlowsResponse({ netflow: { ethereum: "lots" } }, "netflow")],
  ])("refuses a malformed %s body", (_name, parse) => {
    expect(parse).toThrow(BadResponseError);
  });
});
