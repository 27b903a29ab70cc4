/**
 * Every answer shape the real service is reported to send (real-service.md),
 * and the strict reading of numbers, dates and service-keyed maps, at the
 * parser. The same shapes over real HTTP from the sandbox's realistic mode are
 * in client-real-service.test.ts and test/bundle/real-service.test.ts.
 */
import { BadResponseError } from "../../../src/api/errors";
import { parseAssetsResponse, parseFlowsResponse, parseSeriesResponse } from "../../../src/api/http/responses";

const wrap = (symbols: unknown) => ({ data: { symbols } });
const pair = (body: unknown, symbol = "eth", metric = "PRICE") =>
  parseSeriesResponse(body, [symbol], [metric]).get(symbol)!.get(metric);

describe("answer shapes", () => {
  it.each([
    "Metric not available for asset.",
    "Metric not found.",
    "Market data not available for asset.",
    "Latest data not available for this asset.",
  ])("a sentence in place of a series is that pair's message, kept verbatim: %s", (sentence) => {
    expect(pair(wrap({ eth: { PRICE: sentence } }))).toEqual({ kind: "message", message: sentence });
  });

  it.each([
    ["a sentence", "Latest data not available for this asset."],
    ["null", null],
  ])("data.symbols as %s is no data for every pair, not a malformed response", (_name, symbols) => {
    const table = parseSeriesResponse(wrap(symbols), ["eth", "btc"], ["PRICE", "FEES"]);
    for (const symbol of ["eth", "btc"])
      for (const metric of ["PRICE", "FEES"])
        expect(table.get(symbol)!.get(metric)).toEqual({ kind: "points", points: [] });
  });

  it("a bare number in place of a series is a message naming it (an undated value is not a series)", () => {
    expect(pair(wrap({ eth: { PRICE: 2254.15 } }))).toEqual({
      kind: "message",
      message: "The service answered one undated value (2254.15) instead of a series.",
    });
  });

  it("null in place of a series is an empty series", () => {
    expect(pair(wrap({ eth: { PRICE: null } }))).toEqual({ kind: "points", points: [] });
  });

  it("val: null and an absent val are dates without a value, never 0", () => {
    expect(
      pair(
        wrap({
          eth: {
            PRICE: [{ date: "2024-06-28", val: 5 }, { date: "2024-06-29", val: null }, { date: "2024-06-30" }],
          },
        }),
      ),
    ).toEqual({
      kind: "points",
      points: [
        { date: "2024-06-28", val: 5 },
        { date: "2024-06-29", val: null },
        { date: "2024-06-30", val: null },
      ],
    });
  });

  it("keys are matched case-insensitively: symbols lower case, metrics as spelled in the request", () => {
    const body = wrap({ eth: { Price: [{ date: "2024-06-28", val: 5 }] }, BTC: { price: [] } });
    const table = parseSeriesResponse(body, ["eth", "btc"], ["PRICE"]);
    expect(table.get("eth")!.get("PRICE")).toEqual({ kind: "points", points: [{ date: "2024-06-28", val: 5 }] });
    expect(table.get("btc")!.get("PRICE")).toEqual({ kind: "points", points: [] });
  });

  it("catalog records with artemis_id / coingecko_id, upper-case and null symbols", () => {
    const { assets, dropped } = parseAssetsResponse({
      assets: [
        { artemis_id: "ethereum", symbol: "ETH", title: "Ethereum", coingecko_id: "ethereum", color: "#fff" },
        { artemis_id: "sandbox_token_00050", symbol: null, title: "Fifty", coingecko_id: null, color: "#000" },
        { platform_id: "solana", symbol: "sol", title: "Solana", aggregator_id: "solana", color: "#111" },
        { symbol: null, title: "Nothing to call it by" },
      ],
    });
    expect(assets).toEqual([
      { platform_id: "ethereum", symbol: "eth", aggregator_id: "ethereum", title: "Ethereum", color: "#fff" },
      {
        platform_id: "sandbox_token_00050",
        symbol: "sandbox_token_00050",
        aggregator_id: null,
        title: "Fifty",
        color: "#000",
      },
      { platform_id: "solana", symbol: "sol", aggregator_id: "solana", title: "Solana", color: "#111" },
    ]);
    expect(dropped).toBe(1);
  });
});

describe("strict parsing", () => {
  it.each([
    ["hexadecimal text", "0x1F"],
    ["numeric text", "31"],
    ["exponent text", "1e3"],
    ["a boolean", true],
    ["an object", { v: 1 }],
  ])("a value that is %s is not a number: that pair fails, the others stand", (_name, val) => {
    const table = parseSeriesResponse(
      wrap({ eth: { PRICE: [{ date: "2024-06-28", val }], FEES: [{ date: "2024-06-28", val: 2 }] } }),
      ["eth"],
      ["PRICE", "FEES"],
    );
    const bad = table.get("eth")!.get("PRICE");
    expect(bad).toBeInstanceOf(BadResponseError);
    expect((bad as Error).message).toMatch(/value of eth\/PRICE on 2024-06-28 is .*not a number/);
    expect(table.get("eth")!.get("FEES")).toEqual({ kind: "points", points: [{ date: "2024-06-28", val: 2 }] });
  });

  it("a number beyond a double (1e999 parses to Infinity) is not a number", () => {
    const body = JSON.parse('{"data":{"symbols":{"eth":{"PRICE":[{"date":"2024-06-28","val":1e999}]}}}}');
    expect(pair(body)).toBeInstanceOf(BadResponseError);
  });

  it.each([
    ["a timestamp", "2024-06-28T00:00:00Z"],
    ["trailing text", "2024-06-28garbage"],
    ["a short form", "2024-6-28"],
    ["slashes", "2024/06/28"],
    ["a number", 20240628],
  ])("a date that is %s is not YYYY-MM-DD", (_name, date) => {
    const result = pair(wrap({ eth: { PRICE: [{ date, val: 1 }] } }));
    expect(result).toBeInstanceOf(BadResponseError);
    expect((result as Error).message).toMatch(/not YYYY-MM-DD/);
  });

  it("a date shaped right but not on the calendar is refused as such", () => {
    const result = pair(wrap({ eth: { PRICE: [{ date: "2024-02-30", val: 1 }] } }));
    expect((result as Error).message).toMatch(/2024-02-30, which is not a calendar day/);
  });

  it("service-keyed maps are safe for __proto__ and constructor", () => {
    const flows = parseFlowsResponse(
      JSON.parse('{"netflow":{"__proto__":5,"constructor":7,"toString":1,"ethereum":2}}'),
      "netflow",
    );
    expect(Object.keys(flows)).toEqual(["__proto__", "constructor", "toString", "ethereum"]);
    expect(flows["__proto__"]).toBe(5);
    expect(flows.constructor).toBe(7);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const series = parseSeriesResponse(
      JSON.parse(
        '{"data":{"symbols":{"__proto__":{"PRICE":[{"date":"2024-06-28","val":1}]},"eth":{"constructor":"x"}}}}',
      ),
      ["__proto__", "eth"],
      ["PRICE", "CONSTRUCTOR"],
    );
    expect(series.get("__proto__")!.get("PRICE")).toEqual({ kind: "points", points: [{ date: "2024-06-28", val: 1 }] });
    expect(series.get("eth")!.get("CONSTRUCTOR")).toEqual({ kind: "message", message: "x" });
    expect(series.get("eth")!.get("PRICE")).toEqual({ kind: "points", points: [] });
  });

  it("a flow amount in text or null: text is refused, null is a chain without a number", () => {
    expect(() => parseFlowsResponse({ netflow: { ethereum: "5" } }, "netflow")).toThrow(/not a number/);
    expect(parseFlowsResponse({ netflow: { ethereum: null, solana: 1 } }, "netflow")).toEqual({ solana: 1 });
  });
});

describe("sound points: checked against the window, in order, each date once", () => {
  const parse = (series: unknown[], window?: Parameters<typeof parseSeriesResponse>[3]) => {
    const dropped: unknown[] = [];
    const result = parseSeriesResponse(wrap({ eth: { PRICE: series } }), ["eth"], ["PRICE"], window, (...args) =>
      dropped.push(args),
    )
      .get("eth")!
      .get("PRICE");
    return { result, dropped };
  };

  it.each([
    [
      "DAY: only the window's days",
      { start: "2024-06-10", end: "2024-06-12" },
      ["2024-06-09", "2024-06-10", "2024-06-12", "2024-06-13"],
      ["2024-06-10", "2024-06-12"],
    ],
    [
      "MONTH: the row of the month holding the start, dated on its first day, is inside",
      { start: "2024-06-15", end: "2024-08-20", granularity: "MONTH" as const },
      ["2024-05-01", "2024-06-01", "2024-07-01", "2024-08-01", "2024-09-01"],
      ["2024-06-01", "2024-07-01", "2024-08-01"],
    ],
    [
      "QUARTER: fiscal quarter ends inside the window are inside",
      { start: "2024-01-01", end: "2024-12-31", granularity: "QUARTER" as const },
      ["2023-12-30", "2024-03-30", "2024-06-29", "2024-09-28", "2024-12-28", "2025-03-29"],
      ["2024-03-30", "2024-06-29", "2024-09-28", "2024-12-28"],
    ],
  ])("%s", (_name, window, sent, kept) => {
    const { result, dropped } = parse(
      sent.map((date) => ({ date, val: 1 })),
      window,
    );
    expect(result).toEqual({ kind: "points", points: kept.map((date) => ({ date, val: 1 })) });
    expect(dropped).toEqual([["eth", "PRICE", { "outside the window": sent.length - kept.length }]]);
  });

  it("a date sent more than once: the last one sent wins, also when the answer is out of order", () => {
    const { result, dropped } = parse([
      { date: "2024-06-12", val: 3 },
      { date: "2024-06-10", val: 1 },
      { date: "2024-06-12", val: 30 },
      { date: "2024-06-11", val: 2 },
      { date: "2024-06-10", val: null },
    ]);
    expect(result).toEqual({
      kind: "points",
      points: [
        { date: "2024-06-10", val: null },
        { date: "2024-06-11", val: 2 },
        { date: "2024-06-12", val: 30 },
      ],
    });
    expect(dropped).toEqual([["eth", "PRICE", { "a date sent again": 2 }]]);
  });

  it("bad points are dropped and counted by reason; the sound ones stay", () => {
    const body = JSON.parse(
      '[{"date":"2024-06-10","val":1},{"date":"2024-06-11","val":"NaN"},{"date":"2024-06-12","val":1e999},' +
        '{"date":"2024-06-13T00:00:00Z","val":4},5,{"date":"2024-06-14","val":"Infinity"},{"date":"2024-06-15","val":6}]',
    ) as unknown[];
    const { result, dropped } = parse(body);
    expect(result).toEqual({
      kind: "points",
      points: [
        { date: "2024-06-10", val: 1 },
        { date: "2024-06-15", val: 6 },
      ],
    });
    expect(dropped).toEqual([["eth", "PRICE", { "not a number": 3, "not a date": 1, "not a point": 1 }]]);
  });

  it("when every point is dropped the pair fails, naming the first problem; the points are counted", () => {
    const { result, dropped } = parse(
      [
        { date: "2024-06-10", val: "NaN" },
        { date: "2099-01-01", val: 1 },
      ],
      { start: "2024-06-01", end: "2024-06-30" },
    );
    expect(result).toBeInstanceOf(BadResponseError);
    expect((result as Error).message).toBe(
      'The market-data service sent a malformed response: the value of eth/PRICE on 2024-06-10 is the text "NaN", not a number.',
    );
    expect(dropped).toEqual([["eth", "PRICE", { "not a number": 1, "outside the window": 1 }]]);
  });

  it("an empty series is no data, not a failure", () => {
    expect(parse([], { start: "2024-06-10", end: "2024-06-12" }).result).toEqual({ kind: "points", points: [] });
  });
});
