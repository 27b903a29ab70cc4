import { RateLimitError } from "../../src/api/errors";
import { computeStat } from "../../src/core/agg-stat";
import { addDays, shiftDate, startOfMonth } from "../../src/core/calendar";
import { isErrorCell } from "../../src/core/cell";
import { ArgumentError, NoDataError } from "../../src/core/errors";
import { isoToSerial } from "../../src/core/excel-date";
import { aggregateValue } from "../../src/functions/agg";
import { LATEST_LOOKBACKS, latestValue } from "../../src/functions/latest";
import { descriptor, FakeClient, fakeContext, fakePoints, fakeValue, TODAY } from "../support/fake-client";

/** Independent sum of the fake's daily values over [from, to]. */
function sumOf(symbol: string, metric: string, from: string, to: string): number {
  let total = 0;
  for (let d = from; d <= to; d = addDays(d, 1)) total += fakeValue(symbol, metric, d);
  return total;
}

describe("MD.LATEST", () => {
  it("reads the last value on or before as_of (default today)", async () => {
    const ctx = fakeContext();
    expect(await latestValue(ctx, { symbol: "ETH", metric: "price", asOf: null })).toBe(
      fakeValue("eth", "PRICE", TODAY),
    );
    expect(await latestValue(ctx, { symbol: "eth", metric: "PRICE", asOf: isoToSerial("2024-01-15") })).toBe(
      fakeValue("eth", "PRICE", "2024-01-15"),
    );
    expect(await latestValue(ctx, { symbol: "eth", metric: "PRICE", asOf: "-1M" })).toBe(
      fakeValue("eth", "PRICE", "2024-04-10"),
    );
  });

  it("every cell with the same as_of asks for the same window, so the client can batch them", async () => {
    const ctx = fakeContext();
    await Promise.all(
      ["eth", "btc", "sol", "arb"].flatMap((symbol) =>
        ["PRICE", "FEES"].map((metric) => latestValue(ctx, { symbol, metric })),
      ),
    );
    const windows = new Set(ctx.client.seriesCalls.map((c) => `${c.req.start}..${c.req.end}/${c.req.granularity}`));
    expect([...windows]).toEqual([`${shiftDate(TODAY, -LATEST_LOOKBACKS.DAY[0].count, "D")}..${TODAY}/DAY`]);
  });

  it("looks further back only when the first window is empty", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = (req) => ({
      kind: "points",
      points: fakePoints(req.symbol, req.metric, req.start!, req.end!, "DAY", "2023-12-31"),
    });
    expect(await latestValue(ctx, { symbol: "old", metric: "TVL" })).toBe(fakeValue("old", "TVL", "2023-12-31"));
    expect(ctx.client.seriesCalls.map((c) => c.req.start)).toEqual(["2024-04-10", "2022-05-10"]);
  });

  it("financials are read quarterly over a longer first window", async () => {
    const ctx = fakeContext();
    expect(await latestValue(ctx, { symbol: "eq-aapl", metric: "NET_INCOME" })).toBe(
      fakeValue("eq-aapl", "NET_INCOME", "2024-03-31"),
    );
    expect(ctx.client.seriesCalls[0].req).toEqual({
      symbol: "eq-aapl",
      metric: "NET_INCOME",
      granularity: "QUARTER",
      start: "2023-02-10",
      end: TODAY,
    });
  });

  it("no value anywhere, or a message, is #N/A material (NoDataError)", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = () => ({ kind: "points", points: [] });
    await expect(latestValue(ctx, { symbol: "eth", metric: "PRICE" })).rejects.toThrow(
      new NoDataError("No eth PRICE value on or before 2024-05-10 (searched from 2022-05-10)."),
    );
    ctx.client.answerSeries = () => ({ kind: "message", message: "Metric FOO is not available for eth" });
    await expect(latestValue(ctx, { symbol: "eth", metric: "FOO" })).rejects.toThrow(
      new NoDataError("eth FOO: Metric FOO is not available for eth"),
    );
  });

  it.each([
    ["L7_FEES", () => sumOf("eth", "FEES", addDays(TODAY, -6), TODAY)],
    ["L30_FEES", () => sumOf("eth", "FEES", addDays(TODAY, -29), TODAY)],
    ["CM_FEES", () => sumOf("eth", "FEES", startOfMonth(TODAY), TODAY)],
    ["YTD_FEES", () => sumOf("eth", "FEES", "2024-01-01", TODAY)],
    ["LTM_FEES", () => sumOf("eth", "FEES", "2023-05-11", TODAY)],
  ])("%s is the base metric summed over its window", async (metric, expected) => {
    expect(await latestValue(fakeContext(), { symbol: "eth", metric })).toBe(expected());
  });

  it("a prefixed metric's window ends on the latest reading, fetching further back when that reading is old", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = (req) => ({
      kind: "points",
      points: fakePoints(req.symbol, req.metric, req.start!, req.end!, "DAY", "2024-04-20"),
    });
    expect(await latestValue(ctx, { symbol: "eth", metric: "L30_FEES" })).toBe(
      sumOf("eth", "FEES", addDays("2024-04-20", -29), "2024-04-20"),
    );
    expect(ctx.client.seriesCalls).toHaveLength(2);
  });

  it("LTM of a financial sums its last four quarters", async () => {
    const ctx = fakeContext();
    const expected = ["2023-06-30", "2023-09-30", "2023-12-31", "2024-03-31"].reduce(
      (s, d) => s + fakeValue("eq-aapl", "TOTAL_REVENUE", d),
      0,
    );
    expect(await latestValue(ctx, { symbol: "eq-aapl", metric: "LTM_TOTAL_REVENUE" })).toBe(expected);
    expect(ctx.client.seriesCalls.every((c) => c.req.granularity === "QUARTER")).toBe(true);
  });

  it("errors from the client pass through unchanged", async () => {
    const ctx = fakeContext();
    ctx.client.failWith = new RateLimitError("Rate limited by the market-data service (HTTP 429).");
    await expect(latestValue(ctx, { symbol: "eth", metric: "PRICE" })).rejects.toBeInstanceOf(RateLimitError);
  });
});

describe("MD.AGG", () => {
  const withCatalog = () => {
    const client = FakeClient.answering();
    const catalog = [descriptor("FEES", "SUM"), descriptor("PRICE", "LAST"), descriptor("DAU", "AVERAGE")];
    client.metrics.answer((symbol) => (symbol === "eth" ? catalog : []));
    return fakeContext(client);
  };
  const daily = (metric: string, from: string, to: string) => fakePoints("eth", metric, from, to).map((p) => p.val);

  // as_of omitted: the window ends on the latest data (today, in the fake); one request reaches 7 days further
  // back than the window ending today, so that a window ending on an unsettled-days-earlier date fits in it.
  it.each([
    ["FEES", "30D", null, "SUM", addDays(TODAY, -29), "2024-04-04"],
    ["PRICE", "30D", null, "LAST", addDays(TODAY, -29), "2024-04-04"],
    ["DAU", "MTD", null, "LAST", "2024-05-01", "2024-05-01"],
    ["PRICE", "-3M", "avg", "AVG", "2024-02-11", "2024-02-04"],
    ["FEES", "QTD", "max", "MAX", "2024-04-01", "2024-04-01"],
    ["PRICE", "YTD", "PCT_CHANGE", "PCT_CHANGE", "2024-01-01", "2024-01-01"],
    ["PRICE", "LTM", "CHANGE", "CHANGE", "2023-05-11", "2023-05-04"],
  ] as const)(
    "%s over %s, stat %s → %s from %s (fetched from %s)",
    async (metric, window, stat, used, from, fetched) => {
      const ctx = withCatalog();
      const value = await aggregateValue(ctx, { symbol: "eth", metric, window, stat });
      expect(value).toBeCloseTo(computeStat(used, daily(metric, from, TODAY)) as number, 6);
      expect(ctx.client.seriesCalls.map((call) => call.req)).toEqual([
        { symbol: "eth", metric, granularity: "DAY", start: fetched, end: TODAY },
      ]);
    },
  );

  it("an explicit as_of asks for the calendar window, and only for it", async () => {
    const ctx = withCatalog();
    const value = await aggregateValue(ctx, { symbol: "eth", metric: "FEES", window: "7D", asOf: "2024-05-01" });
    expect(value).toBeCloseTo(computeStat("SUM", daily("FEES", "2024-04-25", "2024-05-01")) as number, 6);
    expect(ctx.client.seriesCalls.map((call) => call.req)).toEqual([
      { symbol: "eth", metric: "FEES", granularity: "DAY", start: "2024-04-25", end: "2024-05-01" },
    ]);
  });

  it("asks the catalog only when no stat is given", async () => {
    const ctx = withCatalog();
    await aggregateValue(ctx, { symbol: "eth", metric: "FEES", window: "7D", stat: "SUM" });
    expect(ctx.client.otherCalls).toHaveLength(0);
    await aggregateValue(ctx, { symbol: "eth", metric: "FEES", window: "7D" });
    expect(ctx.client.otherCalls.map((c) => c.method)).toEqual(["getMetrics"]);
  });

  it("falls back to built-in knowledge for documented metrics, and asks for a stat otherwise", async () => {
    const ctx = fakeContext();
    const sum = await aggregateValue(ctx, { symbol: "usdc", metric: "STABLECOIN_TRANSFER_VOLUME", window: "7D" });
    expect(sum).toBe(sumOf("usdc", "STABLECOIN_TRANSFER_VOLUME", addDays(TODAY, -6), TODAY));
    await expect(aggregateValue(ctx, { symbol: "eth", metric: "MYSTERY", window: "7D" })).rejects.toThrow(
      new ArgumentError(
        "stat",
        "the metric catalog does not describe MYSTERY for eth, so there is no default. Use SUM, AVG, MIN, MAX, FIRST, LAST, CHANGE or PCT_CHANGE.",
      ),
    );
  });

  it("a prefixed metric is a rolling sum: its LAST is the plain sum, its AVG averages the sums", async () => {
    const ctx = withCatalog();
    expect(await aggregateValue(ctx, { symbol: "eth", metric: "L7_FEES", window: "30D" })).toBe(
      sumOf("eth", "FEES", addDays(TODAY, -6), TODAY),
    );
    const rolling: number[] = [];
    for (let d = addDays(TODAY, -29); d <= TODAY; d = addDays(d, 1))
      rolling.push(sumOf("eth", "FEES", addDays(d, -6), d));
    expect(await aggregateValue(ctx, { symbol: "eth", metric: "L7_FEES", window: "30D", stat: "AVG" })).toBeCloseTo(
      computeStat("AVG", rolling) as number,
      6,
    );
  });

  it("a window with no data is NoDataError; PCT_CHANGE from zero is a #DIV/0! cell", async () => {
    const ctx = withCatalog();
    ctx.client.answerSeries = () => ({ kind: "points", points: [] });
    await expect(aggregateValue(ctx, { symbol: "eth", metric: "FEES", window: "7D", stat: "SUM" })).rejects.toThrow(
      new NoDataError("No eth FEES value on or before 2024-05-10 (searched from 2022-05-10)."),
    );
    await expect(
      aggregateValue(ctx, { symbol: "eth", metric: "FEES", window: "7D", stat: "SUM", asOf: "2024-05-10" }),
    ).rejects.toThrow(new NoDataError("No eth FEES data in the 7D window 2024-05-04 to 2024-05-10."));
    ctx.client.answerSeries = (req) => ({
      kind: "points",
      points: [
        { date: req.start!, val: 0 },
        { date: req.end!, val: 5 },
      ],
    });
    const cell = await aggregateValue(ctx, {
      symbol: "eth",
      metric: "FEES",
      window: "7D",
      stat: "PCT_CHANGE",
      asOf: "2024-05-10",
    });
    expect(isErrorCell(cell) && cell.error).toBe("#DIV/0!");
  });

  it.each([
    [{ window: null }, /^window: is required/],
    [{ window: "7" }, /^window: "7" is not a window/],
    [{ window: "7D", stat: "median" }, /^stat: "median" is not accepted/],
    [{ window: "7D", asOf: "soon" }, /^as_of: "soon" is not a date/],
  ])("refuses %j before any request", async (args, message) => {
    const ctx = withCatalog();
    await expect(aggregateValue(ctx, { symbol: "eth", metric: "FEES", ...args } as never)).rejects.toThrow(message);
    expect(ctx.client.seriesCalls).toHaveLength(0);
  });
});
