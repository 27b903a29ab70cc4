import { BadRequestError, NetworkError } from "../../src/api/errors";
import { errorCell } from "../../src/core/cell";
import { ArgumentError, NoDataError, ResultTooLargeError } from "../../src/core/errors";
import { isoToSerial } from "../../src/core/excel-date";
import { seriesTable } from "../../src/functions/series";
import { FakeClient, fakeContext, fakePoints, fakeValue } from "../support/fake-client";

describe("MD.SERIES orchestration", () => {
  it("asks for every symbol × metric over the window and lays them out symbols outer, metrics inner", async () => {
    const ctx = fakeContext();
    const table = await seriesTable(ctx, {
      symbols: [["ETH"], ["btc"]],
      metrics: "price, fees",
      start: "2024-05-01",
      end: "2024-05-03",
    });
    expect(
      ctx.client.seriesCalls.map((c) => [c.req.symbol, c.req.metric, c.req.start, c.req.end, c.req.granularity]),
    ).toEqual([
      ["eth", "PRICE", "2024-05-01", "2024-05-03", "DAY"],
      ["eth", "FEES", "2024-05-01", "2024-05-03", "DAY"],
      ["btc", "PRICE", "2024-05-01", "2024-05-03", "DAY"],
      ["btc", "FEES", "2024-05-01", "2024-05-03", "DAY"],
    ]);
    const dates = ["2024-05-01", "2024-05-02", "2024-05-03"];
    expect(table).toEqual([
      ["Date", "eth PRICE", "eth FEES", "btc PRICE", "btc FEES"],
      ...dates.map((d) => [
        isoToSerial(d),
        fakeValue("eth", "PRICE", d),
        fakeValue("eth", "FEES", d),
        fakeValue("btc", "PRICE", d),
        fakeValue("btc", "FEES", d),
      ]),
    ]);
  });

  it("sends no dates when none are given, and relative dates resolved against today", async () => {
    const ctx = fakeContext();
    await seriesTable(ctx, { symbols: "eth", metrics: "PRICE", start: null, end: null });
    expect(ctx.client.seriesCalls[0].req).toEqual({ symbol: "eth", metric: "PRICE", granularity: "DAY" });
    await seriesTable(ctx, { symbols: "eth", metrics: "PRICE", start: "-1M", end: "-7D", granularity: "w" });
    expect(ctx.client.seriesCalls[1].req).toEqual({
      symbol: "eth",
      metric: "PRICE",
      granularity: "WEEK",
      // -1M ending 2024-05-03: the month 2024-04-04 … 2024-05-03, both ends included.
      start: "2024-04-04",
      end: "2024-05-03",
    });
  });

  it.each([
    ["TOTAL_REVENUE", "DAY"],
    ["EBITDA, PRICE", null],
    ["NET_INCOME", "M"],
  ])("refuses financials (%s) at granularity %s before any request", async (metrics, granularity) => {
    const ctx = fakeContext();
    await expect(seriesTable(ctx, { symbols: "eq-aapl", metrics, start: "-2Y", granularity })).rejects.toThrow(
      /reported per fiscal quarter.*Use QUARTER/,
    );
    expect(ctx.client.seriesCalls).toHaveLength(0);
  });

  it("reads financials at QUARTER when every metric is one", async () => {
    const ctx = fakeContext();
    const table = await seriesTable(ctx, {
      symbols: "eq-aapl",
      metrics: "TOTAL_REVENUE, NET_INCOME",
      start: "2023-01-01",
      end: "2023-12-31",
    });
    expect(ctx.client.seriesCalls.every((c) => c.req.granularity === "QUARTER")).toBe(true);
    expect(table.slice(1).map((row) => row[0])).toEqual(
      ["2023-03-31", "2023-06-30", "2023-09-30", "2023-12-31"].map(isoToSerial),
    );
  });

  it("refuses bad arguments with ArgumentErrors and sends nothing", async () => {
    const ctx = fakeContext();
    await expect(seriesTable(ctx, { symbols: 42, metrics: "PRICE" })).rejects.toThrow(
      new ArgumentError(
        "symbols",
        "42 is a number, not a symbol. Use a symbol such as eth or eq-aapl, a comma-separated list (eth, btc), or a range of cells.",
      ),
    );
    await expect(seriesTable(ctx, { symbols: "eth", metrics: "PRICE", options: "colour=red" })).rejects.toThrow(
      /^options: "colour" is not an option here/,
    );
    await expect(seriesTable(ctx, { symbols: "eth", metrics: "PRICE", start: "2024-13-01" })).rejects.toThrow(
      /^start: "2024-13-01" is not a date/,
    );
    expect(ctx.client.seriesCalls).toHaveLength(0);
  });

  it("a message series becomes a column of #N/A cells while the others fill", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = (req) =>
      req.symbol === "sol"
        ? { kind: "message", message: "Metric PRICE is not available for sol" }
        : { kind: "points", points: fakePoints(req.symbol, req.metric, req.start!, req.end!) };
    const table = await seriesTable(ctx, {
      symbols: "eth,sol",
      metrics: "PRICE",
      start: "2024-05-01",
      end: "2024-05-02",
    });
    const na = errorCell("#N/A", "sol PRICE: Metric PRICE is not available for sol");
    expect(table).toEqual([
      ["Date", "eth PRICE", "sol PRICE"],
      [isoToSerial("2024-05-01"), fakeValue("eth", "PRICE", "2024-05-01"), na],
      [isoToSerial("2024-05-02"), fakeValue("eth", "PRICE", "2024-05-02"), na],
    ]);
  });

  it("a pair the service refused is that column's error; a connection failure is the formula's", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = (req) => {
      if (req.symbol === "bad") throw new BadRequestError("The market-data service refused the request (HTTP 400).");
      return { kind: "points", points: fakePoints(req.symbol, req.metric, req.start!, req.end!) };
    };
    const table = await seriesTable(ctx, {
      symbols: "eth,bad",
      metrics: "PRICE",
      start: "2024-05-01",
      end: "2024-05-01",
    });
    expect(table[1][2]).toEqual(
      errorCell("#N/A", "bad PRICE: The market-data service refused the request (HTTP 400)."),
    );
    await expect(seriesTable(ctx, { symbols: "bad", metrics: "PRICE", start: "2024-05-01" })).rejects.toThrow(
      BadRequestError,
    );
    ctx.client.failWith = new NetworkError("Could not reach the market-data service.");
    await expect(seriesTable(ctx, { symbols: "eth,btc", metrics: "PRICE", start: "2024-05-01" })).rejects.toThrow(
      NetworkError,
    );
  });

  it("no data at all is NoDataError naming the pairs and the window", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = () => ({ kind: "points", points: [] });
    await expect(
      seriesTable(ctx, { symbols: "eth", metrics: "PRICE", start: "2024-05-01", end: "2024-05-03" }),
    ).rejects.toThrow(new NoDataError("No data for eth PRICE from 2024-05-01 to 2024-05-03."));
  });

  it("refuses a table over Excel's 5 MB before requesting it", async () => {
    const ctx = fakeContext();
    const symbols = Array.from({ length: 600 }, (_, i) => [`s${i}`]);
    await expect(
      seriesTable(ctx, { symbols, metrics: "PRICE, FEES, TVL", start: "2018-01-01", end: "2024-01-01" }),
    ).rejects.toThrow(ResultTooLargeError);
    expect(ctx.client.seriesCalls).toHaveLength(0);
  });

  it("passes Excel's cancellation signal and the preview flag to every request", async () => {
    const signal = new AbortController().signal;
    const ctx = fakeContext(FakeClient.answering(), { signal, cacheOnly: true });
    await seriesTable(ctx, { symbols: "eth,btc", metrics: "PRICE", start: "-3D" });
    expect(ctx.client.seriesCalls.every((c) => c.opts?.signal === signal && c.opts?.cacheOnly === true)).toBe(true);
  });
});
