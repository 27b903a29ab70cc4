import { BadRequestError } from "../../src/api/errors";
import type { InsightCard } from "../../src/core/domain";
import type { SeriesRequest } from "../../src/api/types";
import { errorCell } from "../../src/core/cell";
import { NoDataError } from "../../src/core/errors";
import { isoToSerial } from "../../src/core/excel-date";
import { NetworkError } from "../../src/api/errors";
import { assetsTable, KIND_WAIT_MS, metricsTable } from "../../src/functions/catalogs";
import { flowsTable } from "../../src/functions/flows";
import { CLIENT_DEFAULTS } from "../../src/api/client";
import { INSIGHTS_CELL_DEADLINE_MS, insightsTable } from "../../src/functions/insights";
import { supplyTable } from "../../src/functions/supply";
import { descriptor, fakeContext, fakePoints } from "../support/fake-client";

describe("MD.FLOWS orchestration", () => {
  it("asks for the chains, window and flow types, and shapes the answer", async () => {
    const ctx = fakeContext();
    ctx.client.flows.answer(() => ({ inflow: { ethereum: 5, solana: 9 }, outflow: { ethereum: 1, solana: 2 } }));
    const table = await flowsTable(ctx, {
      sourceChains: "Ethereum, solana",
      start: "-7D",
      end: null,
      flowType: "inflow,outflow",
      options: "headers=false",
    });
    expect(ctx.client.otherCalls[0].args[0]).toEqual({
      sourceChains: ["ethereum", "solana"],
      flowTypes: ["inflow", "outflow"],
      // -7D ending today (2024-05-10): seven days, 2024-05-04 … 2024-05-10.
      start: "2024-05-04",
    });
    expect(table).toEqual([
      ["solana", 9, 2],
      ["ethereum", 5, 1],
    ]);
  });

  it("refuses a granularity before asking anything: the totals have no time axis", async () => {
    const ctx = fakeContext();
    ctx.client.flows.answer(() => ({ netflow: { ethereum: 1 } }));
    await expect(flowsTable(ctx, { sourceChains: "ethereum", granularity: "m" })).rejects.toThrow(
      /^granularity: "m" changes nothing: MD\.FLOWS gives one total per chain over the whole window\. Leave granularity empty/,
    );
    expect(ctx.client.otherCalls).toEqual([]);
    await flowsTable(ctx, { sourceChains: "ethereum", granularity: "" });
    expect(ctx.client.otherCalls[0].args[0]).toEqual({ sourceChains: ["ethereum"], flowTypes: ["netflow"] });
  });

  it("names source_chains in its argument errors", async () => {
    await expect(flowsTable(fakeContext(), { sourceChains: null })).rejects.toThrow(/^source_chains: no symbol given/);
  });
});

describe("MD.ASSETS and MD.METRICS orchestration", () => {
  it("filters the catalog by search and type", async () => {
    const ctx = fakeContext();
    ctx.client.assets.answer(() => [
      { platform_id: "ethereum", symbol: "eth", title: "Ethereum", aggregator_id: "ethereum", color: "#111111" },
      { platform_id: "eq-aapl", symbol: "eq-aapl", title: "Apple", aggregator_id: null, color: "#222222" },
    ]);
    expect(await assetsTable(ctx, { search: null, type: "equity" })).toEqual([
      ["platform_id", "symbol", "title", "aggregator_id", "color", "kind"],
      ["eq-aapl", "eq-aapl", "Apple", "", "#222222", "equity"],
    ]);
    // Equities need no probe: their kind is their prefix.
    expect(ctx.client.seriesCalls).toEqual([]);
    await expect(assetsTable(ctx, { search: "nothing", type: null })).rejects.toThrow(NoDataError);
  });

  it("derives a crypto asset's kind from the metrics offered, probing them in one burst for one day", async () => {
    const ctx = fakeContext();
    ctx.client.assets.answer(() => [
      { platform_id: "ethereum", symbol: "eth", title: "Ethereum", aggregator_id: "ethereum", color: "#111111" },
      { platform_id: "usd_coin", symbol: "usdc", title: "USD Coin", aggregator_id: null, color: "#333333" },
      { platform_id: "uniswap", symbol: "uni", title: "Uniswap", aggregator_id: null, color: "#444444" },
      { platform_id: "defi", symbol: "defi", title: "DeFi", aggregator_id: null, color: "#555555" },
      { platform_id: "eq-aapl", symbol: "eq-aapl", title: "Apple", aggregator_id: null, color: "#222222" },
    ]);
    const offers: Record<string, string[]> = {
      eth: ["DEX_VOLUMES", "STABLECOIN_SUPPLY_TOTAL", "PRICE"],
      usdc: ["STABLECOIN_SUPPLY_TOTAL", "PRICE"],
      uni: ["VOLUME", "PRICE"],
      defi: [],
    };
    ctx.client.answerSeries = (req) =>
      offers[req.symbol]?.includes(req.metric)
        ? { kind: "points", points: [] }
        : { kind: "message", message: `Metric ${req.metric} is not available for ${req.symbol}` };
    const table = await assetsTable(ctx, { search: null, type: null });
    expect(table.map((row) => [row[1], row[5]])).toEqual([
      ["symbol", "kind"],
      ["eth", "chain"],
      ["usdc", "stablecoin"],
      ["uni", "token"],
      ["defi", "category"],
      ["eq-aapl", "equity"],
    ]);
    expect(new Set(ctx.client.seriesCalls.map((c) => `${c.req.start}..${c.req.end}`))).toEqual(
      new Set(["2024-05-09..2024-05-09"]),
    );
    expect((await assetsTable(ctx, { search: null, type: "chains" })).map((row) => row[1])).toEqual(["symbol", "eth"]);
  });

  it("lists a symbol's metrics, asking the catalog for that symbol", async () => {
    const ctx = fakeContext();
    const catalog = [descriptor("PRICE", "LAST"), descriptor("TOTAL_REVENUE", "SUM")];
    ctx.client.metrics.answer((symbol) => (symbol === "eq-aapl" ? catalog : []));
    const table = await metricsTable(ctx, { symbol: "EQ-AAPL", search: "revenue" });
    expect(ctx.client.otherCalls[0].args).toEqual(["eq-aapl"]);
    expect(table.map((row) => row[0])).toEqual(["Metric", "TOTAL_REVENUE"]);
  });
});

describe("MD.ASSETS never waits on series for its kind column", () => {
  const catalog = [
    { platform_id: "ethereum", symbol: "eth", title: "Ethereum", aggregator_id: "ethereum", color: "#111111" },
    { platform_id: "usd_coin", symbol: "usdc", title: "USD Coin", aggregator_id: null, color: "#333333" },
    { platform_id: "eq-aapl", symbol: "eq-aapl", title: "Apple", aggregator_id: null, color: "#222222" },
  ];
  const kinds = (table: unknown[][]) => table.slice(1).map((row) => [row[1], row[5]]);

  it("series that never answer: the catalog answers after KIND_WAIT_MS with the kinds blank, but a kind filter waits", async () => {
    jest.useFakeTimers();
    try {
      const ctx = fakeContext();
      ctx.client.assets.answer(() => catalog);
      ctx.client.answerSeries = () => new Promise(() => undefined);
      const table = assetsTable(ctx, { search: null, type: null });
      const filtered = assetsTable(ctx, { search: null, type: "CHAIN" });
      let filteredSettled = false;
      filtered.then(
        () => (filteredSettled = true),
        () => (filteredSettled = true),
      );
      await jest.advanceTimersByTimeAsync(KIND_WAIT_MS);
      expect(kinds(await table)).toEqual([
        ["eth", ""],
        ["usdc", ""],
        ["eq-aapl", "equity"],
      ]);
      expect(filteredSettled).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it("series that fail (network): blank kinds, and only a kind filter fails the formula", async () => {
    const ctx = fakeContext();
    ctx.client.assets.answer(() => catalog);
    ctx.client.answerSeries = (req) => {
      if (req.symbol === "eth") throw new NetworkError("The market-data service could not be reached.");
      return req.metric === "STABLECOIN_SUPPLY_TOTAL"
        ? { kind: "points", points: [] }
        : { kind: "message", message: "no" };
    };
    expect(kinds(await assetsTable(ctx, { search: null, type: "ALL" }))).toEqual([
      ["eth", ""],
      ["usdc", "stablecoin"],
      ["eq-aapl", "equity"],
    ]);
    await expect(assetsTable(ctx, { search: null, type: "STABLECOIN" })).rejects.toThrow(NetworkError);
  });
});

describe("MD.INSIGHTS orchestration", () => {
  it("maps the feed name to its path segment and filters the cards", async () => {
    const ctx = fakeContext();
    const card = {
      ENTITY_ID: "eth",
      METRIC_NAME: "FEES",
      FLAG: "decline_streak_weekly",
      DURATION: 3,
      START_VALUE: 10,
      END_VALUE: 5,
      PERIOD_START_DATE: "2024-04-01",
      PERIOD_END_DATE: "2024-04-22",
    } as InsightCard;
    const cards = [card, { ...card, ENTITY_ID: "sol", FLAG: "decline_streak_monthly" }];
    ctx.client.insights.answer((feed) => (feed === "decline-streaks" ? cards : []));
    const table = await insightsTable(ctx, { feed: "DECLINE-STREAKS", search: null, flag: "weekly" });
    expect(ctx.client.otherCalls[0].args).toEqual(["decline-streaks"]);
    expect(table.slice(1)).toEqual([
      ["eth", "FEES", "decline_streak_weekly", 3, isoToSerial("2024-04-01"), isoToSerial("2024-04-22"), 10, 5, -0.5],
    ]);
  });
});

describe("MD.INSIGHTS under Excel on Mac's 60 s request limit", () => {
  it("a feed the service is still preparing settles the cell with #N/A and keeps loading for the next refresh", async () => {
    const ctx = fakeContext();
    const load = new Promise<InsightCard[]>(() => undefined);
    const asked: unknown[][] = [];
    ctx.client.getInsights = (...args: unknown[]) => {
      asked.push(args);
      return load;
    };
    const started = Date.now();
    const cell = insightsTable(ctx, { feed: "streaks" }, 40);
    await expect(cell).rejects.toThrow(NoDataError);
    await expect(cell).rejects.toThrow(
      /still preparing the streaks insight feed.*in a minute, use Refresh all \(Data tab ▸ Market Data\) or re-enter the formula/,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    // Not abandoned: the cell asked once with its own call options (no signal of its deadline's making), so
    // the cell giving up cancels nothing; the client keeps the load for the next refresh.
    expect(asked).toEqual([["streaks", ctx.call]]);
    expect(asked[0][1]).toBe(ctx.call);
  });

  it("stays within the design's 60 s, the client's attempt within Mac's limit", () => {
    expect(INSIGHTS_CELL_DEADLINE_MS).toBeLessThan(60_000);
    expect(CLIENT_DEFAULTS.slowTimeoutMs).toBeLessThan(60_000);
  });
});

describe("MD.SUPPLY orchestration", () => {
  const PARTS = [
    "STABLECOIN_SUPPLY_TOTAL",
    "STABLECOIN_SUPPLY_BRIDGED",
    "STABLECOIN_SUPPLY_PREMINT",
    "STABLECOIN_SUPPLY_PEG_STABILITY",
    "STABLECOIN_SUPPLY_CIRCULATING",
  ];

  it("asks for the five supply series at once and derives other locked", async () => {
    const ctx = fakeContext();
    const table = await supplyTable(ctx, { symbol: "USDC", start: "2024-05-01", end: "2024-05-02", granularity: null });
    expect(ctx.client.seriesCalls.map((c) => c.req.metric)).toEqual(PARTS);
    expect(ctx.client.seriesCalls.every((c) => c.req.symbol === "usdc" && c.req.granularity === "DAY")).toBe(true);
    const [total, bridged, premint, peg, circulating] = PARTS.map(
      (metric) => fakePoints("usdc", metric, "2024-05-01", "2024-05-01")[0].val,
    );
    expect(table[1]).toEqual([
      isoToSerial("2024-05-01"),
      total,
      bridged,
      premint,
      peg,
      total - circulating - bridged - premint - peg,
      circulating,
    ]);
  });

  it("falls back to the legacy circulating name when the preferred one is refused", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = (req: SeriesRequest) =>
      req.metric === "STABLECOIN_SUPPLY_CIRCULATING"
        ? { kind: "message", message: "not available" }
        : { kind: "points", points: fakePoints(req.symbol, req.metric, req.start!, req.end!) };
    const table = await supplyTable(ctx, { symbol: "dai", start: "2024-05-01", end: "2024-05-01" });
    expect(ctx.client.seriesCalls.map((c) => c.req.metric).slice(-1)).toEqual(["STABLECOIN_SUPPLY"]);
    expect(table[1][6]).toBe(fakePoints("dai", "STABLECOIN_SUPPLY", "2024-05-01", "2024-05-01")[0].val);
  });

  it("a bucket the service refuses is #N/A in its column and in other locked", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = (req: SeriesRequest) => {
      if (req.metric === "STABLECOIN_SUPPLY_PREMINT")
        throw new BadRequestError("Unknown metric STABLECOIN_SUPPLY_PREMINT (HTTP 400).");
      return { kind: "points", points: fakePoints(req.symbol, req.metric, req.start!, req.end!) };
    };
    const row = (await supplyTable(ctx, { symbol: "dai", start: "2024-05-01", end: "2024-05-01" }))[1];
    const na = errorCell("#N/A", "Premint: Unknown metric STABLECOIN_SUPPLY_PREMINT (HTTP 400).");
    expect([row[3], row[5]]).toEqual([na, na]);
  });

  it("takes one symbol", async () => {
    await expect(supplyTable(fakeContext(), { symbol: "usdc,dai" })).rejects.toThrow(
      "symbol: takes one symbol, got 2 (usdc, dai).",
    );
  });
});
