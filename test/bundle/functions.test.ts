/**
 * The built dist/functions.js, loaded with the Office stand-ins and called by
 * id as Excel calls it, against the sandbox over real HTTP. Expectations come
 * from the sandbox's raw answers (test/support/raw-sandbox.ts), not from the add-in's code.
 */
import { DEMO_API_KEY } from "../../sandbox/server";
import { cellValue, isExcelError, type LoadedBundle } from "../../harness/bundle";
import { isoDaysAgo, rawGet, rawPoints, rawSeries, requestsTo, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

// "today" is the sandbox's real date, as for the add-in: TODAY and default as_of agree.
// Grown with filler tokens: the 300-cell and 5 MB cases need hundreds of symbols.
const world = useBundle({ quiet: true, insightFirstCallDelayMs: 10, assetCount: 2000 });
const { sandbox, bundle } = world;

function load(storage: Record<string, string> = {}): LoadedBundle {
  return world.load({ storage });
}

function expectError(value: unknown, code: string, message?: RegExp): void {
  expect(isExcelError(value)).toBe(true);
  const error = value as { code: string; message: string };
  expect(error.code).toBe(code);
  if (message) expect(error.message).toMatch(message);
}

describe("MD.SERIES", () => {
  it("spills a date column and one column per symbol × metric, matching the service", async () => {
    const table = (await bundle.call("SERIES", ["eth, BTC", "price,fees", "2024-01-01", "2024-01-31"])) as unknown[][];
    const raw = await rawSeries(sandbox, ["eth", "btc"], ["PRICE", "FEES"], {
      startDate: "2024-01-01",
      endDate: "2024-01-31",
      granularity: "DAY",
    });
    const dates = (raw.eth.PRICE as { date: string }[]).map((p) => p.date);
    expect(table[0]).toEqual(["Date", "eth PRICE", "eth FEES", "btc PRICE", "btc FEES"]);
    expect(table).toHaveLength(1 + 31);
    table.slice(1).forEach((row, i) => {
      const valueOn = (symbol: string, metric: string) =>
        (raw[symbol][metric] as { date: string; val: number }[]).find((p) => p.date === dates[i])?.val;
      expect(row).toEqual([
        serial(dates[i]),
        valueOn("eth", "PRICE"),
        valueOn("eth", "FEES"),
        valueOn("btc", "PRICE"),
        valueOn("btc", "FEES"),
      ]);
    });
  });

  it("accepts Excel date serials, ranges and options text", async () => {
    const table = (await bundle.call("SERIES", [
      [["eth"], [null], ["ETH"]],
      [["PRICE"]],
      serial("2024-03-01"),
      serial("2024-03-10"),
      "D",
      "order=desc; last=3; headers=false",
    ])) as unknown[][];
    const raw = await rawPoints(sandbox, "eth", "PRICE", { startDate: "2024-03-01", endDate: "2024-03-10" });
    expect(table).toEqual(
      raw
        .slice(-3)
        .reverse()
        .map((p) => [serial(p.date), p.val]),
    );
  });

  it("transposes, and takes options as a two-column range", async () => {
    const table = (await bundle.call("SERIES", [
      "eth",
      "PRICE",
      "2024-03-01",
      "2024-03-03",
      null,
      [
        ["transpose", true],
        ["dates", "yes"],
      ],
    ])) as unknown[][];
    const raw = await rawPoints(sandbox, "eth", "PRICE", { startDate: "2024-03-01", endDate: "2024-03-03" });
    expect(table).toEqual([
      ["Date", ...raw.map((p) => serial(p.date))],
      ["eth PRICE", ...raw.map((p) => p.val)],
    ]);
  });

  it("a pair the service answers with a message becomes #N/A cells carrying it; the other columns fill", async () => {
    const table = (await bundle.call("SERIES", ["eth,base", "PRICE", "2024-02-01", "2024-02-03"])) as unknown[][];
    const raw = await rawSeries(sandbox, ["base"], ["PRICE"], { startDate: "2024-02-01", endDate: "2024-02-03" });
    expect(typeof raw.base.PRICE).toBe("string");
    expect(table.slice(1).map((row) => typeof row[1])).toEqual(["number", "number", "number"]);
    for (const row of table.slice(1))
      expectError(row[2], "#N/A", new RegExp(`base PRICE: ${raw.base.PRICE as string}`));
  });

  it("a window longer than 1,000 points comes back whole (the client splits and joins it)", async () => {
    const table = (await bundle.call("SERIES", ["eth", "PRICE", "2020-01-01", "2023-12-31"])) as unknown[][];
    const first = await rawPoints(sandbox, "eth", "PRICE", { startDate: "2020-01-01", endDate: "2020-01-05" });
    const last = await rawPoints(sandbox, "eth", "PRICE", { startDate: "2023-12-27", endDate: "2023-12-31" });
    const days = (Date.UTC(2023, 11, 31) - Date.UTC(2020, 0, 1)) / 86_400_000 + 1;
    expect(days).toBeGreaterThan(1000);
    expect(table).toHaveLength(1 + days);
    expect(table.slice(1, 6)).toEqual(first.map((p) => [serial(p.date), p.val]));
    expect(table.slice(-5)).toEqual(last.map((p) => [serial(p.date), p.val]));
    expect(new Set(table.slice(1).map((row) => row[0])).size).toBe(days);
  });

  it("refuses a financial at DAY before sending anything", async () => {
    const before = requestsTo(sandbox, "/data/api/");
    const value = await cellValue(bundle, "SERIES", ["eq-aapl", "TOTAL_REVENUE", "2023-01-01", "2023-12-31", "DAY"]);
    expectError(value, "#VALUE!", /TOTAL_REVENUE is reported per fiscal quarter.*Use QUARTER/);
    expect(requestsTo(sandbox, "/data/api/")).toBe(before);
  });

  it("reads financials at QUARTER by default, on the company's fiscal period ends", async () => {
    const table = (await bundle.call("SERIES", [
      "eq-aapl",
      "TOTAL_REVENUE,NET_INCOME",
      "2022-01-01",
      "2023-12-31",
    ])) as unknown[][];
    const raw = await rawSeries(sandbox, ["eq-aapl"], ["TOTAL_REVENUE", "NET_INCOME"], {
      startDate: "2022-01-01",
      endDate: "2023-12-31",
      granularity: "QUARTER",
    });
    const revenue = raw["eq-aapl"].TOTAL_REVENUE as { date: string; val: number }[];
    expect(revenue.length).toBeGreaterThanOrEqual(7);
    expect(table.slice(1).map((row) => row[0])).toEqual(revenue.map((p) => serial(p.date)));
    expect(table.slice(1).map((row) => row[1])).toEqual(revenue.map((p) => p.val));
  });

  it("shows an FCF ratio over a short window although the service answers it sparse there", async () => {
    // Mid-quarter window: no fiscal period end inside, so the raw answer is empty or partial.
    const window = { startDate: "2024-04-08", endDate: "2024-05-17" };
    const short = await rawPoints(sandbox, "eq-coin", "FCF_YIELD", window);
    const wide = (await rawPoints(sandbox, "eq-coin", "FCF_YIELD", { ...window, startDate: "2023-04-08" })).filter(
      (p) => p.date >= window.startDate,
    );
    expect(short.length).toBeLessThan(wide.length);
    const table = (await bundle.call("SERIES", [
      "eq-coin",
      "FCF_YIELD",
      window.startDate,
      window.endDate,
    ])) as unknown[][];
    expect(table.slice(1)).toEqual(wide.map((p) => [serial(p.date), p.val]));
  });

  it("refuses a result over Excel's 5 MB with advice, before downloading it", async () => {
    const assets = await rawGet<{ assets: { symbol: string }[] }>(sandbox, "/asset/symbols/");
    const symbols = assets.assets
      .slice(0, 300)
      .map((a) => a.symbol)
      .join(",");
    const before = requestsTo(sandbox, "/data/api/");
    const value = await cellValue(bundle, "SERIES", [symbols, "FEES,DAU,TXNS", "2018-01-01", "2024-01-01"]);
    expectError(value, "#VALUE!", /over Excel's 5 MB limit.*coarser granularity \(WEEK or MONTH\), a shorter window/);
    expect(requestsTo(sandbox, "/data/api/")).toBe(before);
  });

  it("bad arguments are #VALUE! naming the argument and the accepted forms", async () => {
    expectError(
      await cellValue(bundle, "SERIES", ["eth", "PRICE", "2024-13-01"]),
      "#VALUE!",
      /^start: "2024-13-01" is not a date\. Use an Excel date, YYYY-MM-DD, TODAY, or -30D\/-12W\/-6M\/-2Q\/-1Y\.$/,
    );
    expectError(await cellValue(bundle, "SERIES", [42, "PRICE"]), "#VALUE!", /^symbols: 42 is a number, not a symbol/);
    expectError(
      await cellValue(bundle, "SERIES", ["eth", "PRICE", null, null, "HOURLY"]),
      "#VALUE!",
      /^granularity: "HOURLY" is not accepted\. Use DAY, WEEK/,
    );
    expectError(
      await cellValue(bundle, "SERIES", ["eth", "PRICE", null, null, null, "fill=zero"]),
      "#VALUE!",
      /^options: fill="zero" is not accepted\. Use fill=blank, fill=prev or fill=na\.$/,
    );
  });
});

describe("MD.LATEST", () => {
  it("returns the service's last value on or before as_of", async () => {
    const raw = await rawPoints(sandbox, "eth", "PRICE", { startDate: "2024-02-01", endDate: "2024-02-29" });
    expect(await bundle.call("LATEST", ["ETH", "price", "2024-02-29"])).toBe(raw[raw.length - 1].val);
    const today = await rawPoints(sandbox, "btc", "TVL", { startDate: isoDaysAgo(10), endDate: isoDaysAgo(0) });
    expect(await bundle.call("LATEST", ["btc", "TVL"])).toBe(today[today.length - 1].val);
  });

  it("an Artemis prefix sums the base metric over its window (L30_FEES)", async () => {
    const raw = await rawPoints(sandbox, "sol", "FEES", { startDate: "2024-03-02", endDate: "2024-03-31" });
    expect(raw).toHaveLength(30);
    const sum = raw.reduce((total, p) => total + p.val, 0);
    expect(await bundle.call("LATEST", ["sol", "L30_FEES", "2024-03-31"])).toBeCloseTo(sum, 6);
  });

  it("a message series is #N/A with the service's words", async () => {
    expectError(await cellValue(bundle, "LATEST", ["base", "PRICE"]), "#N/A", /base PRICE: .+/);
  });

  it("300 cells reach the sandbox in a handful of requests", async () => {
    const fresh = load();
    const assets = await rawGet<{ assets: { symbol: string }[] }>(sandbox, "/asset/symbols/");
    const symbols = assets.assets
      .filter((a) => !a.symbol.startsWith("eq-"))
      .slice(0, 100)
      .map((a) => a.symbol);
    const metrics = ["FEES", "DAU", "TXNS"];
    const before = requestsTo(sandbox, "/data/api/");
    const cells = await Promise.all(
      symbols.flatMap((symbol) => metrics.map((metric) => cellValue(fresh, "LATEST", [symbol, metric]))),
    );
    const requests = requestsTo(sandbox, "/data/api/") - before;
    console.log(`300 MD.LATEST cells (100 symbols × 3 metrics) → ${requests} HTTP requests to the sandbox`);
    expect(requests).toBeLessThanOrEqual(6);

    const raw = await rawSeries(sandbox, symbols, metrics, {
      startDate: isoDaysAgo(30),
      endDate: isoDaysAgo(0),
      granularity: "DAY",
    });
    let numbers = 0;
    symbols.forEach((symbol, s) =>
      metrics.forEach((metric, m) => {
        const cell = cells[s * metrics.length + m];
        const answer = raw[symbol][metric];
        if (Array.isArray(answer)) {
          expect(cell).toBe(answer[answer.length - 1].val);
          numbers++;
        } else {
          expectError(cell, "#N/A", /.+/);
        }
      }),
    );
    expect(numbers).toBeGreaterThan(200);
  });
});

describe("MD.AGG", () => {
  it("SUM is the default for a flow metric, from the metric catalog", async () => {
    const raw = await rawPoints(sandbox, "eth", "FEES", { startDate: "2024-03-02", endDate: "2024-03-31" });
    const sum = raw.reduce((total, p) => total + p.val, 0);
    expect(await bundle.call("AGG", ["eth", "FEES", "30D", null, "2024-03-31"])).toBeCloseTo(sum, 6);
  });

  it("LAST is the default for a level; explicit stats work over calendar windows", async () => {
    const raw = await rawPoints(sandbox, "eth", "TVL", { startDate: "2024-01-01", endDate: "2024-03-31" });
    expect(await bundle.call("AGG", ["eth", "TVL", "QTD", null, "2024-03-31"])).toBe(raw[raw.length - 1].val);
    expect(await bundle.call("AGG", ["eth", "TVL", "YTD", "MAX", "2024-03-31"])).toBe(
      Math.max(...raw.map((p) => p.val)),
    );
    const change = (raw[raw.length - 1].val - raw[0].val) / Math.abs(raw[0].val);
    expect(await bundle.call("AGG", ["eth", "TVL", "YTD", "pct_change", "2024-03-31"])).toBeCloseTo(change, 12);
  });

  it("LTM of a financial sums its last four fiscal quarters", async () => {
    const raw = await rawPoints(sandbox, "eq-msft", "NET_INCOME", {
      startDate: "2023-01-01",
      endDate: "2023-12-31",
      granularity: "QUARTER",
    });
    expect(raw).toHaveLength(4);
    expect(await bundle.call("AGG", ["eq-msft", "NET_INCOME", "LTM", null, "2023-12-31"])).toBeCloseTo(
      raw.reduce((t, p) => t + p.val, 0),
      6,
    );
  });

  it("refuses an unknown window", async () => {
    expectError(
      await cellValue(bundle, "AGG", ["eth", "FEES", "fortnight"]),
      "#VALUE!",
      /^window: "fortnight" is not a window/,
    );
  });
});

describe("MD.FLOWS", () => {
  it("one column per flow type, largest first by the first", async () => {
    const params = {
      sourceChains: "ethereum,solana,arbitrum",
      startDate: "2024-01-01",
      endDate: "2024-03-31",
      breakdown: "chains",
    };
    const inflow = await rawGet<{ inflow: Record<string, number> }>(sandbox, "/flows/top/", {
      ...params,
      flowType: "inflow",
    });
    const outflow = await rawGet<{ outflow: Record<string, number> }>(sandbox, "/flows/top/", {
      ...params,
      flowType: "outflow",
    });
    const table = (await bundle.call("FLOWS", [
      "ethereum, solana, arbitrum",
      "2024-01-01",
      "2024-03-31",
      null,
      "INFLOW,OUTFLOW",
    ])) as unknown[][];
    const chains = Object.keys(inflow.inflow).sort((a, b) => inflow.inflow[b] - inflow.inflow[a] || a.localeCompare(b));
    expect(table).toEqual([
      ["Chain", "Inflow (USD)", "Outflow (USD)"],
      ...chains.map((c) => [c, inflow.inflow[c], outflow.outflow[c] ?? ""]),
    ]);
  });
});

describe("catalogs and insights", () => {
  it("MD.ASSETS filters the asset catalog by text and type", async () => {
    const raw = await rawGet<{
      assets: { platform_id: string; symbol: string; title: string; aggregator_id: string | null; color: string }[];
    }>(sandbox, "/asset/symbols/");
    const equities = raw.assets.filter((a) => a.symbol.startsWith("eq-"));
    const table = (await bundle.call("ASSETS", [null, "EQUITY"])) as unknown[][];
    expect(table[0]).toEqual(["platform_id", "symbol", "title", "aggregator_id", "color", "kind"]);
    expect(table.slice(1)).toEqual(
      equities.map((a) => [a.platform_id, a.symbol, a.title, a.aggregator_id ?? "", a.color, "equity"]),
    );
    const usd = (await bundle.call("ASSETS", ["usd"])) as unknown[][];
    expect(usd.slice(1).map((row) => row[0])).toEqual(
      raw.assets
        .filter((a) => `${a.platform_id} ${a.symbol} ${a.title}`.toLowerCase().includes("usd"))
        .map((a) => a.platform_id),
    );
  });

  it("MD.METRICS lists a symbol's metrics with their descriptors", async () => {
    const raw = await rawGet<{
      metrics: Record<
        string,
        { label: string; unit: string; aggregation_type: string; source: string; description: string }
      >[];
    }>(sandbox, "/supported-metrics/", { symbol: "eq-aapl" });
    const table = (await bundle.call("METRICS", ["EQ-AAPL"])) as unknown[][];
    expect(table[0]).toEqual(["Metric", "Label", "Unit", "Aggregation", "Source", "Description"]);
    expect(table.slice(1)).toEqual(
      raw.metrics.map((entry) => {
        const [name, d] = Object.entries(entry)[0];
        return [name, d.label, d.unit, d.aggregation_type, d.source, d.description];
      }),
    );
  });

  it("MD.INSIGHTS shows streak cards, filtered by flag", async () => {
    const raw = await rawGet<{
      rows: { ENTITY_ID: string; FLAG: string; START_VALUE: number; END_VALUE: number; PERIOD_END_DATE: string }[];
    }>(sandbox, "/insights/decline-streaks/");
    const table = (await bundle.call("INSIGHTS", ["DECLINE-STREAKS", null, "weekly"])) as unknown[][];
    const weekly = raw.rows.filter((r) => r.FLAG.includes("weekly"));
    expect(weekly.length).toBeGreaterThan(0);
    expect(table[0]).toEqual([
      "Entity",
      "Metric",
      "Flag",
      "Duration",
      "Start date",
      "End date",
      "Start value",
      "End value",
      "Change %",
    ]);
    expect(table.slice(1).map((row) => [row[0], row[2], row[5], row[8]])).toEqual(
      weekly.map((r) => [
        r.ENTITY_ID,
        r.FLAG,
        serial(r.PERIOD_END_DATE),
        (r.END_VALUE - r.START_VALUE) / Math.abs(r.START_VALUE),
      ]),
    );
  });
});

describe("MD.SUPPLY", () => {
  it("breaks supply into buckets, with other locked from the identity", async () => {
    const metrics = [
      "STABLECOIN_SUPPLY_TOTAL",
      "STABLECOIN_SUPPLY_BRIDGED",
      "STABLECOIN_SUPPLY_PREMINT",
      "STABLECOIN_SUPPLY_PEG_STABILITY",
      "STABLECOIN_SUPPLY_CIRCULATING",
    ];
    const raw = await rawSeries(sandbox, ["usdc"], metrics, { startDate: "2024-01-01", endDate: "2024-01-07" });
    const [total, bridged, premint, peg, circulating] = metrics.map(
      (m) => raw.usdc[m] as { date: string; val: number }[],
    );
    const table = (await bundle.call("SUPPLY", ["USDC", "2024-01-01", "2024-01-07"])) as unknown[][];
    expect(table[0]).toEqual(["Date", "Total", "Bridged", "Premint", "Peg stability", "Other locked", "Circulating"]);
    total.forEach((point, i) => {
      const other = point.val - circulating[i].val - bridged[i].val - premint[i].val - peg[i].val;
      expect(table[i + 1]).toEqual([
        serial(point.date),
        point.val,
        bridged[i].val,
        premint[i].val,
        peg[i].val,
        other,
        circulating[i].val,
      ]);
    });
    expect(table.slice(1).some((row) => (row[5] as number) > 0)).toBe(true);
  });
});

describe("rules at the Office edge", () => {
  it("value preview never sends a request: #N/A until the formula is entered, then the cached value", async () => {
    const fresh = load();
    const before = requestsTo(sandbox, "/data/api/");
    expectError(
      await cellValue(fresh, "LATEST", ["arb", "FEES", "2024-02-29"], { isInValuePreview: true }),
      "#N/A",
      /^Preview: press Enter to load\.$/,
    );
    expectError(
      await cellValue(fresh, "SERIES", ["arb", "FEES", "-7D"], { isInValuePreview: true }),
      "#N/A",
      /Preview/,
    );
    expect(requestsTo(sandbox, "/data/api/")).toBe(before);
    const entered = await fresh.call("LATEST", ["arb", "FEES", "2024-02-29"]);
    const sent = requestsTo(sandbox, "/data/api/");
    expect(await fresh.call("LATEST", ["arb", "FEES", "2024-02-29"], { isInValuePreview: true })).toBe(entered);
    expect(requestsTo(sandbox, "/data/api/")).toBe(sent);
  });

  it("a rejected key is #N/A saying so, without the key", async () => {
    const wrong = load({ "md.apiKey": "not-the-key-4711" });
    const value = await cellValue(wrong, "LATEST", ["eth", "PRICE"]);
    expectError(value, "#N/A", /rejected the API key/);
    expect((value as Error).message).not.toContain("not-the-key-4711");
  });

  it("a key changed in OfficeRuntime.storage applies on the next calculation, without reloading", async () => {
    const runtime = load();
    expect(typeof (await runtime.call("LATEST", ["eth", "PRICE", "2023-03-31"]))).toBe("number");
    runtime.storage.set("md.apiKey", "revoked-key-0815");
    expectError(await cellValue(runtime, "LATEST", ["eth", "PRICE", "2023-04-30"]), "#N/A", /rejected the API key/);
    runtime.storage.set("md.apiKey", DEMO_API_KEY);
    expect(typeof (await runtime.call("LATEST", ["eth", "PRICE", "2023-05-31"]))).toBe("number");
  });

  it("an unreachable service is #N/A saying so", async () => {
    const offline = load({ "md.baseUrl": "http://127.0.0.1:9" });
    expectError(
      await cellValue(offline, "SERIES", ["eth", "PRICE", "-7D"]),
      "#N/A",
      /Could not reach the market-data service/,
    );
  }, 60_000);

  it("a rate limit is #N/A saying so", async () => {
    sandbox.setFaults({ rateLimitRate: 1, retryAfterSeconds: 3600 });
    try {
      expectError(
        await cellValue(load(), "LATEST", ["eth", "FEES", "2023-06-30"]),
        "#N/A",
        /Rate limited.*Wait a moment, then use Refresh all \(Data tab ▸ Market Data\) or re-enter the formula\./,
      );
    } finally {
      sandbox.setFaults({ rateLimitRate: 0 });
    }
  });

  it("Excel's cancellation settles the cell at once", async () => {
    sandbox.setLatency(2000);
    try {
      const cancel = new AbortController();
      const pending = cellValue(load(), "LATEST", ["eth", "DAU", "2022-06-30"], { cancel: cancel.signal });
      setTimeout(() => cancel.abort(), 50);
      const started = Date.now();
      expectError(await pending, "#N/A", /cancelled/);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      sandbox.setLatency(0);
    }
  });
});
