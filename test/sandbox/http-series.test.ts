/** `/data/api/<METRICS>/` over real HTTP: symbol forms, granularity, the data rules, and parameter errors. */
import {
  addDays,
  expectSameSeries,
  getJson,
  isWeekday,
  type Point,
  rollUp,
  series,
  type SeriesBody,
  TODAY,
  useSandbox,
  SANDBOX_SUITE,
} from "../support/sandbox";

// Grown with filler tokens, so the sbx… symbol forms exist.
const sandbox = useSandbox({ ...SANDBOX_SUITE, seed: 11, assetCount: 2000 });

type ErrorBody = { error: { status: number; message: string } };

describe("symbol forms", () => {
  it.each([
    ["eth", "PRICE"],
    ["ethereum", "FEES"],
    ["eq-coin", "PRICE"],
    ["coinbase", "MC"],
    ["usdc-eth", "STABLECOIN_SUPPLY_CIRCULATING"],
    ["usdt-tron", "STABLECOIN_DAU"],
    ["defi-uni", "FEES"],
    ["uni-arb", "VOLUME"],
    ["defi-eth", "TVL"],
    ["defi-usdc-sol", "STABLECOIN_TRANSFER_VOLUME"],
    ["lending", "REVENUE"],
    ["sbx00150", "DAU"],
    ["sandbox_token_00150", "PRICE"],
  ])("%s × %s answers a series keyed by the symbol as requested", async (symbol, metric) => {
    const points = await series(sandbox, symbol, metric, { startDate: "2024-06-01" });
    expect(points.length).toBeGreaterThan(0);
    // Equities trade on weekdays; TODAY is a Sunday.
    const lastDay =
      symbol === "eq-coin" || symbol === "coinbase" ? [0, -1, -2].map((d) => addDays(TODAY, d)).find(isWeekday) : TODAY;
    expect(points[points.length - 1].date).toBe(lastDay);
    expect(points.every((p) => typeof p.val === "number" && Number.isFinite(p.val))).toBe(true);
  });

  it("answers every requested symbol × metric, a message string in place of an unsupported pair", async () => {
    const reply = await getJson<SeriesBody>(sandbox, "/data/api/PRICE,FEES,TOTAL_REVENUE/", {
      symbols: "eth,eq-aapl,nosuch",
      startDate: "2024-06-20",
      granularity: "QUARTER",
    });
    expect(reply.status).toBe(200);
    const symbols = reply.body.data.symbols;
    expect(Object.keys(symbols)).toEqual(["eth", "eq-aapl", "nosuch"]);
    expect(Array.isArray(symbols.eth.PRICE)).toBe(true);
    expect(Array.isArray(symbols.eth.FEES)).toBe(true);
    expect(symbols.eth.TOTAL_REVENUE).toBe("Metric TOTAL_REVENUE is not available for eth");
    expect(symbols["eq-aapl"].FEES).toBe("Metric FEES is not available for eq-aapl");
    expect(Array.isArray(symbols["eq-aapl"].PRICE)).toBe(true);
    expect(Array.isArray(symbols["eq-aapl"].TOTAL_REVENUE)).toBe(true);
    for (const metric of ["PRICE", "FEES", "TOTAL_REVENUE"])
      expect(symbols.nosuch[metric]).toBe("Symbol nosuch is not in the asset catalog");
  });

  it("keys the same data under each spelling requested", async () => {
    const reply = await getJson<SeriesBody>(sandbox, "/data/api/PRICE/", {
      symbols: "eth,ethereum,ETH",
      startDate: "2024-06-01",
    });
    const { eth, ethereum, ETH } = reply.body.data.symbols;
    expect(ethereum.PRICE).toEqual(eth.PRICE);
    expect(ETH.PRICE).toEqual(eth.PRICE);
  });

  it("accepts URL-encoded commas in the path and the query", async () => {
    const response = await fetch(
      `${sandbox.url}/data/api/PRICE%2CFEES/?symbols=eth%2Csol&startDate=2024-06-29&APIKey=md-sandbox-demo`,
    );
    const body = (await response.json()) as SeriesBody;
    expect(Object.keys(body.data.symbols.sol)).toEqual(["PRICE", "FEES"]);
  });
});

describe("granularity rolls up by the metric's aggregation type", () => {
  it.each([
    ["eth", "FEES", "SUM"],
    ["eth", "TVL", "LAST"],
    ["eth", "DAU", "AVERAGE"],
    ["eq-hood", "PRICE", "LAST"],
    ["eq-hood", "VOLUME", "SUM"],
    ["usdc-sol", "STABLECOIN_SUPPLY_TOTAL", "LAST"],
  ] as const)("%s %s (%s): WEEK, MONTH, QUARTER and YEAR equal a hand roll-up of DAY", async (symbol, metric, type) => {
    const window = { startDate: "2022-03-15", endDate: "2024-05-20" };
    const daily: Point[] = [];
    // 2022-03-15 … 2024-05-20 is more than 1,000 days: fetch it in two windows.
    daily.push(...(await series(sandbox, symbol, metric, { startDate: window.startDate, endDate: "2023-03-31" })));
    daily.push(...(await series(sandbox, symbol, metric, { startDate: "2023-04-01", endDate: window.endDate })));
    for (const granularity of ["WEEK", "MONTH", "QUARTER", "YEAR"]) {
      expectSameSeries(
        await series(sandbox, symbol, metric, { ...window, granularity }),
        rollUp(daily, granularity, type),
      );
    }
  });

  it("accepts granularity in any case", async () => {
    expect(await series(sandbox, "sol", "FEES", { startDate: "2024-01-01", granularity: "month" })).toEqual(
      await series(sandbox, "sol", "FEES", { startDate: "2024-01-01", granularity: "MONTH" }),
    );
  });
});

describe("stablecoin supply identity over HTTP", () => {
  it.each(["DAY", "WEEK", "MONTH", "QUARTER", "YEAR"])(
    "holds exactly at %s for several symbol forms",
    async (granularity) => {
      const metrics = [
        "STABLECOIN_SUPPLY_TOTAL",
        "STABLECOIN_SUPPLY_BRIDGED",
        "STABLECOIN_SUPPLY_PREMINT",
        "STABLECOIN_SUPPLY_PEG_STABILITY",
        "STABLECOIN_SUPPLY_CIRCULATING",
        "STABLECOIN_SUPPLY",
      ];
      const reply = await getJson<SeriesBody>(sandbox, `/data/api/${metrics.join(",")}/`, {
        symbols: "usdt,usdc-eth,dai-arb,eth,defi-usdc",
        startDate: "2021-01-01",
        granularity,
      });
      for (const bySymbol of Object.values(reply.body.data.symbols)) {
        const [total, bridged, premint, peg, circulating, legacy] = metrics.map((m) => bySymbol[m] as Point[]);
        expect(total.length).toBeGreaterThan(0);
        const otherLocked = total.map(
          (p, i) => p.val - bridged[i].val - premint[i].val - peg[i].val - circulating[i].val,
        );
        expect(otherLocked.filter((v) => !(Number.isInteger(v) && v > 0))).toEqual([]);
        expect(legacy).toEqual(circulating);
      }
    },
  );
});

describe("equity rules over HTTP", () => {
  it("PRICE is on trading days only", async () => {
    const points = await series(sandbox, "eq-mstr", "PRICE", { startDate: "2024-03-01", endDate: "2024-04-30" });
    expect(points.every((p) => isWeekday(p.date))).toBe(true);
    expect(points.length).toBe(Array.from({ length: 61 }, (_, i) => addDays("2024-03-01", i)).filter(isWeekday).length);
  });

  it.each([
    ["DAY", "DAY"],
    ["WEEK", "WEEK"],
    ["MONTH", "MONTH"],
    ["YEAR", "YEAR"],
    ["(omitted)", null],
  ])("financials with granularity %s are refused with a 400 that says to use QUARTER", async (_label, granularity) => {
    const reply = await getJson<ErrorBody>(sandbox, "/data/api/TOTAL_REVENUE,NET_INCOME/", {
      symbols: "eq-aapl",
      granularity,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.status).toBe(400);
    expect(reply.body.error.message).toContain("QUARTER");
    expect(reply.body.error.message).toContain("TOTAL_REVENUE");
  });

  it("financials at QUARTER are dated on fiscal period ends, late-month for Apple", async () => {
    const reply = await getJson<SeriesBody>(
      sandbox,
      "/data/api/TOTAL_REVENUE,NET_INCOME,EBITDA,OPERATING_INCOME,FREE_CASH_FLOW,BASIC_EPS,DILUTED_EPS/",
      { symbols: "eq-aapl,eq-coin", startDate: "2022-01-01", granularity: "QUARTER" },
    );
    const apple = reply.body.data.symbols["eq-aapl"];
    const coin = reply.body.data.symbols["eq-coin"];
    const appleDates = (apple.TOTAL_REVENUE as Point[]).map((p) => p.date);
    for (const metric of Object.keys(apple)) expect((apple[metric] as Point[]).map((p) => p.date)).toEqual(appleDates);
    // Apple closes quarters on the last Saturday of Mar/Jun/Sep/Dec; Coinbase on calendar quarter ends.
    expect(appleDates.every((date) => new Date(`${date}T00:00:00Z`).getUTCDay() === 6)).toBe(true);
    expect((coin.TOTAL_REVENUE as Point[]).map((p) => p.date.slice(5))).toEqual(
      (coin.TOTAL_REVENUE as Point[]).map(
        (p) => ({ "03": "03-31", "06": "06-30", "09": "09-30", "12": "12-31" })[p.date.slice(5, 7)],
      ),
    );
  });

  it("an FCF-derived ratio is empty in a window with no fiscal period end and filled in a wider one", async () => {
    const short = await series(sandbox, "eq-coin", "FCF_YIELD", { startDate: "2024-04-02", endDate: "2024-06-20" });
    expect(short).toEqual([]);
    const wide = await series(sandbox, "eq-coin", "FCF_YIELD", { startDate: "2024-01-01", endDate: "2024-06-20" });
    const sliced = wide.filter((p) => p.date >= "2024-04-02");
    expect(sliced.length).toBeGreaterThan(50);
    // The other ratios stay daily in the short window.
    const evRevenue = await series(sandbox, "eq-coin", "ENTERPRISE_VALUE_DIVIDE_TOTAL_REVENUE", {
      startDate: "2024-04-02",
      endDate: "2024-06-20",
    });
    expect(evRevenue.map((p) => p.date)).toEqual(sliced.map((p) => p.date));
  });
});

describe("windows and limit", () => {
  it("caps a series at the most recent 1,000 points", async () => {
    const points = await series(sandbox, "btc", "PRICE", { startDate: "2018-01-01" });
    expect(points).toHaveLength(1000);
    expect(points[999].date).toBe(TODAY);
  });

  it.each(["1", "17", "1000"])("limit=%s keeps the most recent points", async (limit) => {
    const all = await series(sandbox, "op", "TXNS", { startDate: "2023-01-01" });
    expect(await series(sandbox, "op", "TXNS", { startDate: "2023-01-01", limit })).toEqual(all.slice(-Number(limit)));
  });

  it.each(["0", "1001", "-5", "2.5", "ten", ""])("limit=%j is refused with 400", async (limit) => {
    const reply = await getJson<ErrorBody>(sandbox, "/data/api/PRICE/", { symbols: "eth", limit });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: { status: 400, message: expect.stringContaining("limit must be a whole number from 1 to 1000") },
    });
  });

  it.each([
    [{ startDate: "2024-02-30" }, "startDate"],
    [{ endDate: "06/01/2024" }, "endDate"],
    [{ startDate: "2024-06-10", endDate: "2024-06-01" }, "after endDate"],
    [{ granularity: "HOUR" }, "granularity must be one of"],
    [{ symbols: "" }, "symbols is required"],
    [{ symbols: null }, "symbols is required"],
  ])("%j is refused with 400 naming the cause", async (params, cause) => {
    const reply = await getJson<ErrorBody>(sandbox, "/data/api/PRICE/", { symbols: "eth", ...params });
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toContain(cause);
  });

  it("refuses a path that names no metric", async () => {
    const reply = await getJson<ErrorBody>(sandbox, "/data/api/,/", { symbols: "eth" });
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toContain("at least one metric");
  });
});
