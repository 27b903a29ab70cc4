/**
 * The data rules of the interface, checked on the sandbox's generators
 * directly (the HTTP tests check the same rules over the wire).
 */
import { AssetCatalog } from "../../sandbox/asset-catalog";
import { COMPANIES, isCalendarAligned } from "../../sandbox/companies";
import { DATA_START_DAY, type Granularity, isoOfDay, parseIsoDay } from "../../sandbox/dates";
import { fiscalQuarters } from "../../sandbox/fiscal-calendar";
import { FINANCIAL_METRICS } from "../../sandbox/metric-catalog";
import { type DataContext, type SeriesAnswer, seriesFor, type WirePoint } from "../../sandbox/series";
import { addDays, expectSameSeries, isWeekday, rollUp, TODAY, utc } from "../support/sandbox";

const ctx: DataContext = { seed: 7, today: parseIsoDay(TODAY)!, catalog: new AssetCatalog(7, 300) };
const GRANULARITIES: Granularity[] = ["DAY", "WEEK", "MONTH", "QUARTER", "YEAR"];

function points(answer: SeriesAnswer): WirePoint[] {
  if (typeof answer === "string") throw new Error(`expected a series, got the message "${answer}"`);
  return answer;
}

function query(start: string, end: string, granularity: Granularity = "DAY", limit = 1000) {
  return { startDay: parseIsoDay(start)!, endDay: parseIsoDay(end)!, granularity, limit };
}

function get(
  symbol: string,
  metric: string,
  start: string,
  end: string,
  granularity: Granularity = "DAY",
  limit = 1000,
) {
  return points(seriesFor(ctx, symbol, metric, query(start, end, granularity, limit)));
}

describe("stablecoin supply identity", () => {
  const SUPPLY = [
    "STABLECOIN_SUPPLY_TOTAL",
    "STABLECOIN_SUPPLY_BRIDGED",
    "STABLECOIN_SUPPLY_PREMINT",
    "STABLECOIN_SUPPLY_PEG_STABILITY",
    "STABLECOIN_SUPPLY_CIRCULATING",
    "STABLECOIN_SUPPLY",
  ];
  const cases = [
    "usdt",
    "usdc",
    "dai",
    "usdc-eth",
    "ethereum-usd_coin",
    "defi-usdc",
    "defi-usdt-sol",
    "eth",
    "tron",
  ].flatMap((symbol) => GRANULARITIES.map((granularity) => [symbol, granularity] as const));

  it.each(cases)(
    "%s at %s: circulating = total − (bridged + premint + peg stability + other locked), other locked > 0",
    (symbol, granularity) => {
      const [total, bridged, premint, peg, circulating, legacy] = SUPPLY.map((metric) =>
        get(symbol, metric, "2019-03-10", TODAY, granularity),
      );
      expect(total.length).toBeGreaterThan(0);
      for (const series of [bridged, premint, peg, circulating, legacy])
        expect(series.map((p) => p.date)).toEqual(total.map((p) => p.date));
      const otherLocked = total.map(
        (point, i) => point.val - bridged[i].val - premint[i].val - peg[i].val - circulating[i].val,
      );
      // Whole dollars everywhere, so the subtraction is exact and other locked is never zero.
      expect(total.every((point) => Number.isInteger(point.val))).toBe(true);
      expect(otherLocked.filter((value) => !(Number.isInteger(value) && value > 0))).toEqual([]);
      expect(legacy).toEqual(circulating);
    },
  );
});

describe("equity fiscal calendars", () => {
  it("includes companies with late-month quarter ends and calendar-aligned ones", () => {
    expect(COMPANIES.some((company) => company.fiscal.kind === "last-weekday")).toBe(true);
    expect(COMPANIES.some(isCalendarAligned)).toBe(true);
  });

  it.each(COMPANIES.map((company) => [company.ticker, company] as const))(
    "eq-%s financials are dated on the company's fiscal quarter ends",
    (ticker, company) => {
      const revenue = get(`eq-${ticker}`, "TOTAL_REVENUE", "2018-01-01", TODAY, "QUARTER");
      const months = company.fiscal.months;
      // Roughly four a year from 2018 to mid-2024.
      expect(revenue.length).toBeGreaterThanOrEqual(25);
      expect(revenue.length).toBeLessThanOrEqual(27);
      const fiscal = company.fiscal;
      const offRule = revenue.filter(({ date }) => {
        const day = utc(date);
        if (!months.includes(day.getUTCMonth() + 1)) return true;
        if (fiscal.kind === "month-end") return !addDays(date, 1).endsWith("-01");
        // The last such weekday: a week later is already next month.
        return day.getUTCDay() !== fiscal.weekday || utc(addDays(date, 7)).getUTCMonth() === day.getUTCMonth();
      });
      expect(offRule).toEqual([]);
      // Consecutive quarter ends are 12 to 14 weeks apart.
      const gaps = revenue
        .slice(1)
        .map((point, i) => (utc(point.date).getTime() - utc(revenue[i].date).getTime()) / 86_400_000);
      expect(gaps.filter((gap) => gap < 84 || gap > 98)).toEqual([]);
    },
  );

  it("late-month companies end some quarters on days that are not month ends", () => {
    const apple = get("eq-aapl", "NET_INCOME", "2018-01-01", TODAY, "QUARTER");
    expect(apple.some(({ date }) => !addDays(date, 1).endsWith("-01"))).toBe(true);
  });

  it.each(FINANCIAL_METRICS.map((metric) => [metric]))(
    "%s has one point per fiscal quarter end, the same dates as TOTAL_REVENUE",
    (metric) => {
      const revenue = get("eq-nvda", "TOTAL_REVENUE", "2020-01-01", TODAY, "QUARTER");
      expect(get("eq-nvda", metric, "2020-01-01", TODAY, "QUARTER").map((p) => p.date)).toEqual(
        revenue.map((p) => p.date),
      );
    },
  );
});

describe("free-cash-flow ratio sparsity", () => {
  const FCF = ["ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW", "MARKET_CAP_DIVIDE_FREE_CASH_FLOW", "FCF_YIELD"];
  // Windows with and without a fiscal period end, for a late-month and a calendar-aligned company.
  const windows: Array<[string, string, string]> = [
    ["eq-aapl", "2024-04-01", "2024-06-20"], // no quarter end (Apple's falls on 2024-06-29)
    ["eq-aapl", "2024-04-01", "2024-06-30"],
    ["eq-aapl", "2023-11-01", "2024-02-15"],
    ["eq-coin", "2024-04-02", "2024-06-29"], // no quarter end (Jun 30 is outside)
    ["eq-coin", "2024-02-10", "2024-05-10"],
    ["eq-orcl", "2022-06-01", "2023-01-31"],
  ];

  it.each(FCF.flatMap((metric) => windows.map(([symbol, start, end]) => [metric, symbol, start, end] as const)))(
    "%s of %s in %s … %s: trading days from the first fiscal period end inside the window on",
    (metric, symbol, start, end) => {
      const quarterEnds = get(symbol, "TOTAL_REVENUE", start, end, "QUARTER").map((p) => p.date);
      const ratio = get(symbol, metric, start, end);
      // A dense ratio over the same window shows which days the ratio could have.
      const everyTradingDay = get(symbol, "ENTERPRISE_VALUE_DIVIDE_TOTAL_REVENUE", start, end).map((p) => p.date);
      expect(everyTradingDay.every(isWeekday)).toBe(true);
      const expected = quarterEnds.length === 0 ? [] : everyTradingDay.filter((date) => date >= quarterEnds[0]);
      expect(ratio.map((p) => p.date)).toEqual(expected);
    },
  );

  it("the values that are present do not depend on the window", () => {
    const wide = get("eq-aapl", "FCF_YIELD", "2023-01-01", TODAY);
    const narrow = get("eq-aapl", "FCF_YIELD", "2024-03-01", TODAY);
    const byDate = new Map(wide.map((p) => [p.date, p.val]));
    expect(narrow.length).toBeGreaterThan(0);
    expect(narrow).toEqual(narrow.map((p) => ({ date: p.date, val: byDate.get(p.date) })));
  });
});

describe("aggregation per metric type", () => {
  it.each([
    ["eth", "FEES", "SUM"],
    ["eth", "TXNS", "SUM"],
    ["eth", "TVL", "LAST"],
    ["eth", "PRICE", "LAST"],
    ["eth", "DAU", "AVERAGE"],
    ["usdc", "STABLECOIN_DAU", "AVERAGE"],
    ["usdc-eth", "STABLECOIN_TRANSFER_VOLUME", "SUM"],
    ["eq-msft", "PRICE", "LAST"],
    ["eq-msft", "VOLUME", "SUM"],
    ["eq-aapl", "EARNINGS_YIELD", "LAST"],
    ["sbx00042", "FEES", "SUM"],
  ] as const)("%s %s rolls up by %s at every granularity", (symbol, metric, type) => {
    const daily = get(symbol, metric, "2021-11-17", "2024-02-10");
    for (const granularity of ["WEEK", "MONTH", "QUARTER", "YEAR"] as const) {
      expectSameSeries(get(symbol, metric, "2021-11-17", "2024-02-10", granularity), rollUp(daily, granularity, type));
    }
  });
});

describe("windows, limit and the 1,000-point cap", () => {
  it.each([
    ["eth", "FEES"],
    ["eq-tsla", "PRICE"],
    ["usdt", "STABLECOIN_SUPPLY_TOTAL"],
  ])("a value of %s %s depends on neither the window nor today", (symbol, metric) => {
    const a = get(symbol, metric, "2022-01-01", "2022-03-31");
    const b = get(symbol, metric, "2021-06-01", "2022-12-31");
    const later = points(
      seriesFor({ ...ctx, today: parseIsoDay("2025-01-01")! }, symbol, metric, query("2022-01-01", "2022-03-31")),
    );
    const byDate = new Map(b.map((p) => [p.date, p.val]));
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(a.map((p) => ({ date: p.date, val: byDate.get(p.date) })));
    expect(later).toEqual(a);
  });

  it.each([1, 7, 250, 1000])("limit %i keeps the most recent points of the window", (limit) => {
    for (const granularity of ["DAY", "WEEK"] as const) {
      const all = get("sol", "DAU", "2018-01-01", TODAY, granularity, 1000);
      expect(get("sol", "DAU", "2018-01-01", TODAY, granularity, limit)).toEqual(all.slice(-limit));
    }
  });

  it("a window longer than 1,000 points answers the most recent 1,000, ending today", () => {
    const daily = get("eth", "FEES", "2018-01-01", TODAY);
    expect(daily).toHaveLength(1000);
    expect(daily[daily.length - 1].date).toBe(TODAY);
    expect(daily[0].date).toBe(addDays(TODAY, -999));
  });

  it("trimming long windows changes no value (equity trading days, weekly and monthly)", () => {
    for (const granularity of ["DAY", "WEEK", "MONTH"] as const) {
      const short = get("eq-jpm", "PRICE", "2018-01-01", TODAY, granularity, 30);
      const full = get("eq-jpm", "PRICE", "2018-01-01", TODAY, granularity, 1000);
      expect(short).toEqual(full.slice(-30));
    }
  });

  it("clips windows to 2018-01-01 … today and answers an empty series outside them", () => {
    expect(get("eth", "PRICE", "2017-12-20", "2018-01-03").map((p) => p.date)).toEqual([
      "2018-01-01",
      "2018-01-02",
      "2018-01-03",
    ]);
    expect(get("eth", "PRICE", "2024-06-29", "2024-07-05").map((p) => p.date)).toEqual(["2024-06-29", TODAY]);
    expect(get("eth", "PRICE", "2015-01-01", "2017-01-01")).toEqual([]);
    expect(isoOfDay(DATA_START_DAY)).toBe("2018-01-01");
  });

  it("equity prices exist on weekdays only; crypto prices every day", () => {
    const equity = get("eq-coin", "PRICE", "2024-01-01", "2024-01-31");
    expect(equity.every((p) => isWeekday(p.date))).toBe(true);
    expect(equity).toHaveLength(23);
    expect(get("btc", "PRICE", "2024-01-01", "2024-01-31")).toHaveLength(31);
  });
});

describe("symbols and message strings", () => {
  it.each([
    ["eq-aapl", "FEES", "Metric FEES is not available for eq-aapl"],
    ["eth", "TOTAL_REVENUE", "Metric TOTAL_REVENUE is not available for eth"],
    ["base", "PRICE", "Metric PRICE is not available for base"],
    ["nosuchcoin", "PRICE", "Symbol nosuchcoin is not in the asset catalog"],
    ["eth-sol", "FEES", "Symbol eth-sol is not in the asset catalog"],
    ["eq-aapl-eth", "PRICE", "Symbol eq-aapl-eth is not in the asset catalog"],
  ])("%s × %s answers a message", (symbol, metric, message) => {
    expect(seriesFor(ctx, symbol, metric, query("2024-01-01", TODAY))).toBe(message);
  });

  it.each([
    ["eth", "ethereum"],
    ["usdc", "usd_coin"],
    ["usdc-eth", "usd_coin-ethereum"],
    ["usdc-eth", "eth-usdc"],
    ["eq-aapl", "apple"],
    ["sbx00007", "sandbox_token_00007"],
    ["ETH", "eth"],
  ])("%s and %s are the same series", (a, b) => {
    const metric = a.startsWith("usdc") ? "STABLECOIN_SUPPLY" : "PRICE";
    expect(get(a, metric, "2024-05-01", TODAY)).toEqual(get(b, metric, "2024-05-01", TODAY));
  });

  it("every financial needs a fiscal calendar: quarter ends before the data start are not served", () => {
    const quarters = fiscalQuarters(COMPANIES[0]);
    const served = get(`eq-${COMPANIES[0].ticker}`, "TOTAL_REVENUE", "2017-01-01", "2018-12-31", "QUARTER");
    expect(served.map((p) => p.date)).toEqual(
      quarters
        .filter((q) => q.end >= DATA_START_DAY && q.end <= parseIsoDay("2018-12-31")!)
        .map((q) => isoOfDay(q.end)),
    );
  });
});
