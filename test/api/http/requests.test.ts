import { BadRequestError, ConfigError } from "../../../src/api/errors";
import {
  assetSymbolsRequest,
  displayUrl,
  flowsRequest,
  insightsRequest,
  listChars,
  normalizeBaseUrl,
  requestUrl,
  seriesRequest,
  seriesUrlLength,
  supportedMetricsRequest,
} from "../../../src/api/http/requests";

const BASE = "https://api.example.com";

describe("request builders", () => {
  it.each([
    [
      "one metric, one symbol",
      seriesRequest({ symbols: ["eth"], metrics: ["PRICE"] }),
      "https://api.example.com/data/api/PRICE/?symbols=eth&APIKey=KEY",
    ],
    [
      "metrics joined in the path, symbols in the query, every window parameter",
      seriesRequest({
        symbols: ["eth", "eq-coin"],
        metrics: ["FEES", "DAU"],
        start: "2024-01-01",
        end: "2024-03-31",
        granularity: "WEEK",
        limit: 10,
      }),
      "https://api.example.com/data/api/FEES,DAU/?symbols=eth,eq-coin&startDate=2024-01-01&endDate=2024-03-31&granularity=WEEK&limit=10&APIKey=KEY",
    ],
    [
      "flows, one flow type",
      flowsRequest({
        sourceChains: ["ethereum", "solana"],
        flowType: "inflow",
        start: "2024-01-01",
        granularity: "DAY",
      }),
      "https://api.example.com/flows/top/?startDate=2024-01-01&granularity=DAY&sourceChains=ethereum,solana&breakdown=chains&flowType=inflow&APIKey=KEY",
    ],
    [
      "supported metrics",
      supportedMetricsRequest("eq-coin"),
      "https://api.example.com/supported-metrics/?symbol=eq-coin&APIKey=KEY",
    ],
    ["asset catalog", assetSymbolsRequest(), "https://api.example.com/asset/symbols/?APIKey=KEY"],
    [
      "insight feed",
      insightsRequest("decline-streaks"),
      "https://api.example.com/insights/decline-streaks/?APIKey=KEY",
    ],
  ])("%s", (_name, request, expected) => {
    expect(requestUrl(BASE, request, "KEY")).toBe(expected);
  });

  it("encodes what needs encoding, the key included", () => {
    const url = requestUrl(BASE, seriesRequest({ symbols: ["a&b", "c d"], metrics: ["PRICE"] }), "k&y=/+");
    expect(url).toBe("https://api.example.com/data/api/PRICE/?symbols=a%26b,c%20d&APIKey=k%26y%3D%2F%2B");
    expect(new URL(url).searchParams.get("APIKey")).toBe("k&y=/+");
    expect(new URL(url).searchParams.get("symbols")).toBe("a&b,c d");
  });

  it("leaves the key out of the display and keyless forms", () => {
    const request = seriesRequest({ symbols: ["eth"], metrics: ["PRICE"] });
    expect(requestUrl(BASE, request)).toBe("https://api.example.com/data/api/PRICE/?symbols=eth");
    expect(displayUrl(BASE, request)).toBe("https://api.example.com/data/api/PRICE/");
  });

  it.each([
    ["no metric", () => seriesRequest({ symbols: ["eth"], metrics: [] })],
    ["no symbol", () => seriesRequest({ symbols: [], metrics: ["PRICE"] })],
    ["a lowercase metric", () => seriesRequest({ symbols: ["eth"], metrics: ["price"] })],
    ["a metric with a slash", () => seriesRequest({ symbols: ["eth"], metrics: ["A/B"] })],
    ["a symbol with a comma", () => seriesRequest({ symbols: ["a,b"], metrics: ["PRICE"] })],
    ["an empty symbol", () => seriesRequest({ symbols: [""], metrics: ["PRICE"] })],
    ["a limit of 0", () => seriesRequest({ symbols: ["eth"], metrics: ["PRICE"], limit: 0 })],
    ["a limit of 1001", () => seriesRequest({ symbols: ["eth"], metrics: ["PRICE"], limit: 1001 })],
    [
      "an unknown granularity",
      () => seriesRequest({ symbols: ["eth"], metrics: ["PRICE"], granularity: "HOUR" as "DAY" }),
    ],
    ["an unknown flow type", () => flowsRequest({ sourceChains: ["ethereum"], flowType: "sideflow" as "inflow" })],
    ["no source chain", () => flowsRequest({ sourceChains: [], flowType: "inflow" })],
    ["a feed name with a path", () => insightsRequest("../asset/symbols")],
  ])("refuses %s with a BadRequestError naming it", (_name, build) => {
    expect(build).toThrow(BadRequestError);
  });

  // A window's dates are checked where they enter the client (client-window.test.ts); the builders write them as given.
  it.each(["2024-02-29", "2000-02-29", "0050-06-15"])("writes the start %j as the service's startDate", (date) => {
    expect(seriesRequest({ symbols: ["eth"], metrics: ["PRICE"], start: date }).query).toContainEqual([
      "startDate",
      date,
    ]);
  });
});

describe("base URL", () => {
  it.each([
    ["https://api.example.com", "https://api.example.com"],
    ["https://api.example.com/", "https://api.example.com"],
    ["  https://api.example.com//  ", "https://api.example.com"],
    ["http://127.0.0.1:3001", "http://127.0.0.1:3001"],
    ["https://host/v1/", "https://host/v1"],
  ])("%j → %j", (raw, expected) => {
    expect(normalizeBaseUrl(raw)).toBe(expected);
  });

  it("builds the same URL with or without a trailing slash", () => {
    const request = assetSymbolsRequest();
    expect(requestUrl(normalizeBaseUrl("https://h/v1/"), request)).toBe(
      requestUrl(normalizeBaseUrl("https://h/v1"), request),
    );
  });

  it.each([[""], ["   "], ["not a url"], ["ftp://host"], ["https://host/?x=1"]])(
    "refuses %j with a ConfigError",
    (raw) => {
      expect(() => normalizeBaseUrl(raw)).toThrow(ConfigError);
    },
  );

  it.each([
    ["https://user:secret@api.example.com", /user name or password/],
    ["https://user@api.example.com", /user name or password/],
    [
      "http://api.example.com",
      /must start with https:\/\/.*only allowed for a service on this computer.*http:\/\/api\.example\.com/,
    ],
    ["http://10.0.0.5:3001", /must start with https:\/\//],
    ["http://127.evil.example", /must start with https:\/\//],
    ["http://localhost.example.com", /must start with https:\/\//],
  ])("refuses %j, saying why", (raw, why) => {
    expect(() => normalizeBaseUrl(raw)).toThrow(ConfigError);
    expect(() => normalizeBaseUrl(raw)).toThrow(why);
    expect(() => normalizeBaseUrl(raw)).not.toThrow(/secret/);
  });

  it.each([
    ["http://localhost:3001"],
    ["http://127.0.0.1:3001"],
    ["http://127.1.2.3"],
    ["http://[::1]:3001"],
    ["http://sandbox.localhost"],
  ])("accepts plain http on this computer: %j", (raw) => {
    expect(normalizeBaseUrl(raw)).toBe(raw);
  });
});

describe("series URL length", () => {
  it("matches the assembled URL", () => {
    const window = { start: "2024-01-01", end: "2024-02-01", granularity: "DAY" as const };
    const symbols = ["eth", "a b", "eq-coin"];
    const metrics = ["PRICE", "FEES"];
    const length = seriesUrlLength(BASE, "K&Y", window)(listChars(symbols), listChars(metrics));
    expect(length).toBe(requestUrl(BASE, seriesRequest({ ...window, symbols, metrics }), "K&Y").length);
  });
});
