import type { Reading } from "../../src/core/domain";
import {
  aggregateBetween,
  computeStat,
  defaultStat,
  lowerBound,
  parseStat,
  rollingAggregates,
} from "../../src/core/agg-stat";
import { parseAggWindow, parsePrefixedMetric, prefixAggregation, windowStart } from "../../src/core/agg-window";
import { addDays } from "../../src/core/calendar";
import { isErrorCell } from "../../src/core/cell";
import { ArgumentError } from "../../src/core/errors";

describe("MD.AGG windows", () => {
  it.each([
    ["7D", "2024-05-10", "2024-05-04"],
    ["30d", "2024-05-10", "2024-04-11"],
    ["90D", "2024-05-10", "2024-02-11"],
    ["-7D", "2024-05-10", "2024-05-04"],
    ["-2W", "2024-05-10", "2024-04-27"],
    ["-1M", "2024-03-31", "2024-03-01"],
    ["-6M", "2024-08-31", "2024-03-01"],
    ["-1Q", "2024-05-10", "2024-02-11"],
    ["-1Y", "2024-05-10", "2023-05-11"],
    ["LTM", "2024-05-10", "2023-05-11"],
    ["ltm", "2024-02-29", "2023-03-01"],
    ["MTD", "2024-05-10", "2024-05-01"],
    ["QTD", "2024-05-10", "2024-04-01"],
    ["YTD", "2024-05-10", "2024-01-01"],
    ["mtd", "2024-05-01", "2024-05-01"],
  ])("%s ending %s starts %s", (text, end, start) => {
    expect(windowStart(parseAggWindow(text), end)).toBe(start);
  });

  it("a trailing N-day window holds N days", () => {
    for (const n of [1, 7, 30, 365]) {
      const start = windowStart(parseAggWindow(`${n}D`), "2024-05-10");
      expect(addDays(start, n - 1)).toBe("2024-05-10");
    }
  });

  it.each([
    [null, "window: is required. Use 7D, 30D, 90D, MTD, QTD, YTD, LTM, or -ND, -NW, -NM, -NQ, -NY (e.g. -6M)."],
    [30, 'window: 30 is a number; write a window with its unit, e.g. "30D".'],
    ["0D", 'window: "0D" is not a window.'],
    ["WTD", 'window: "WTD" is not a window.'],
    ["30 days", 'window: "30 days" is not a window.'],
  ])("refuses %j", (value, message) => {
    expect(() => parseAggWindow(value)).toThrow(message);
  });

  it.each([
    ["L7_FEES", "FEES", "7D"],
    ["L30_FEES", "FEES", "30D"],
    ["L90_DAU", "DAU", "90D"],
    ["CM_FEES", "FEES", "MTD"],
    ["CQ_REVENUE", "REVENUE", "QTD"],
    ["LTM_TOTAL_REVENUE", "TOTAL_REVENUE", "LTM"],
    ["YTD_NET_INCOME", "NET_INCOME", "YTD"],
  ])("prefix %s sums %s over %s", (metric, base, window) => {
    const parsed = parsePrefixedMetric(metric);
    expect(parsed?.base).toBe(base);
    expect(parsed?.window.label).toBe(window);
  });

  it.each(["FEES", "L7_", "L14_FEES", "PRICE", "LTMX_FEES"])("%s is not prefixed", (metric) => {
    expect(parsePrefixedMetric(metric)).toBeNull();
  });
});

describe("a window prefix follows its metric's aggregation_type", () => {
  it.each<[string, string | undefined, "SUM" | "AVERAGE"]>([
    ["L30_FEES", "SUM", "SUM"],
    ["L30_DAU", "AVERAGE", "AVERAGE"],
    ["L7_DAU", "average", "AVERAGE"],
    ["LTM_TOTAL_REVENUE", "SUM", "SUM"],
    // The catalog cannot tell (unread, or a metric it does not describe): the Artemis meaning, a sum.
    ["L30_SOMETHING", undefined, "SUM"],
    ["L30_SOMETHING", "", "SUM"],
  ])("%s with aggregation_type %j is a %s", (metric, type, expected) => {
    expect(prefixAggregation(parsePrefixedMetric(metric)!, type, { symbol: "eth", metric, argument: "metric" })).toBe(
      expected,
    );
  });

  it.each([
    ["L30_TVL", "TVL", "30D"],
    ["L30_PRICE", "PRICE", "30D"],
    ["L7_MC", "MC", "7D"],
    ["YTD_TVL", "TVL", "YTD"],
  ])("%s, a prefix on a level (LAST), is refused naming MD.AGG's average and last", (metric, base, window) => {
    const run = () =>
      prefixAggregation(parsePrefixedMetric(metric)!, "LAST", { symbol: "eth", metric, argument: "metrics" });
    expect(run).toThrow(ArgumentError);
    expect(run).toThrow(
      `metrics: ${metric} would add up daily levels of ${base}, whose aggregation_type is LAST. ` +
        `Use MD.AGG("eth", "${base}", "${window}", "AVG") for its average over ${window}, ` +
        `or MD.AGG("eth", "${base}", "${window}", "LAST") for its last value.`,
    );
  });
});

describe("MD.AGG stats", () => {
  const values = [4, -2, 10, 6];
  it.each([
    ["SUM", 4 - 2 + 10 + 6],
    ["AVG", (4 - 2 + 10 + 6) / 4],
    ["MIN", -2],
    ["MAX", 10],
    ["FIRST", 4],
    ["LAST", 6],
    ["CHANGE", 6 - 4],
    ["PCT_CHANGE", (6 - 4) / 4],
  ] as const)("%s", (stat, expected) => {
    expect(computeStat(stat, values)).toBeCloseTo(expected, 12);
  });

  it("PCT_CHANGE divides by |first| and gives #DIV/0! from zero", () => {
    expect(computeStat("PCT_CHANGE", [-100, -50])).toBeCloseTo(0.5, 12);
    const zero = computeStat("PCT_CHANGE", [0, 5]);
    expect(isErrorCell(zero) && zero.error).toBe("#DIV/0!");
  });

  it("MIN/MAX over many values do not overflow the stack", () => {
    const many = Array.from({ length: 200_000 }, (_, i) => Math.sin(i));
    let max = -Infinity;
    let min = Infinity;
    for (const v of many) {
      max = v > max ? v : max;
      min = v < min ? v : min;
    }
    expect(computeStat("MAX", many)).toBe(max);
    expect(computeStat("MIN", many)).toBe(min);
  });

  it.each([
    ["sum", "SUM"],
    [" Average ", "AVG"],
    ["pct_change", "PCT_CHANGE"],
    [null, undefined],
    ["", undefined],
  ])("parseStat(%j) = %s", (value, expected) => {
    expect(parseStat(value)).toBe(expected);
  });

  it("refuses an unknown stat, listing the accepted ones", () => {
    expect(() => parseStat("MEDIAN")).toThrow(
      'stat: "MEDIAN" is not accepted. Use SUM, AVG, MIN, MAX, FIRST, LAST, CHANGE or PCT_CHANGE.',
    );
  });

  it.each([
    ["SUM", "SUM"],
    ["sum", "SUM"],
    ["LAST", "LAST"],
    ["AVERAGE", "LAST"],
  ])("aggregation type %s defaults to %s", (type, stat) => {
    expect(defaultStat(type)).toBe(stat);
  });
});

describe("rolling sums (prefixed metrics)", () => {
  const daily: Reading[] = Array.from({ length: 60 }, (_, i) => ({ date: addDays("2024-03-01", i), val: i + 1 }));

  it("each date sums its own trailing window", () => {
    const window = parseAggWindow("7D");
    const rolled = rollingAggregates(daily, window, "2024-04-01", "2024-04-29", "SUM");
    expect(rolled.map((p) => p.date)).toEqual(
      daily.filter((p) => p.date >= "2024-04-01" && p.date <= "2024-04-29").map((p) => p.date),
    );
    for (const point of rolled) {
      const start = windowStart(window, point.date);
      const expected = daily.filter((p) => p.date >= start && p.date <= point.date).reduce((s, p) => s + p.val, 0);
      expect(point.val).toBe(expected);
    }
  });

  it("calendar to-date windows restart at the period's start", () => {
    const rolled = rollingAggregates(daily, parseAggWindow("MTD"), "2024-03-30", "2024-04-02", "SUM");
    const march30 = daily
      .filter((p) => p.date >= "2024-03-01" && p.date <= "2024-03-30")
      .reduce((s, p) => s + p.val, 0);
    const april2 = daily.filter((p) => p.date >= "2024-04-01" && p.date <= "2024-04-02").reduce((s, p) => s + p.val, 0);
    expect(rolled[0]).toEqual({ date: "2024-03-30", val: march30 });
    expect(rolled[rolled.length - 1]).toEqual({ date: "2024-04-02", val: april2 });
  });

  it("for an AVERAGE metric each date averages its own trailing window's days with data (a null is no day)", () => {
    const gappy: Reading[] = daily.map((p, i) => (i % 5 === 0 ? { date: p.date, val: null as unknown as number } : p));
    const window = parseAggWindow("7D");
    const rolled = rollingAggregates(gappy, window, "2024-04-01", "2024-04-29", "AVERAGE");
    expect(rolled.length).toBeGreaterThan(20);
    for (const point of rolled) {
      const start = windowStart(window, point.date);
      const inside = gappy.filter((p) => p.date >= start && p.date <= point.date && p.val !== null);
      expect(point.val).toBeCloseTo(inside.reduce((s, p) => s + p.val, 0) / inside.length, 9);
    }
  });

  it.each<[string, "SUM" | "AVERAGE", number | undefined]>([
    ["a sum", "SUM", 3 + 4 + 6],
    ["an average of the days with data", "AVERAGE", (3 + 4 + 6) / 3],
  ])("aggregateBetween: %s", (_what, aggregation, expected) => {
    const points = [
      { date: "2024-01-01", val: 1 },
      { date: "2024-01-02", val: 3 },
      { date: "2024-01-03", val: 4 },
      { date: "2024-01-04", val: null },
      { date: "2024-01-05", val: 6 },
      { date: "2024-01-06", val: 9 },
    ];
    expect(aggregateBetween(points, "2024-01-02", "2024-01-05", aggregation)).toBe(expected);
    expect(aggregateBetween(points, "2024-02-01", "2024-02-05", aggregation)).toBeUndefined();
  });

  it("lowerBound finds the first date on or after", () => {
    expect(lowerBound(daily, "2024-03-01")).toBe(0);
    expect(lowerBound(daily, "2024-02-01")).toBe(0);
    expect(lowerBound(daily, "2024-03-05")).toBe(4);
    expect(lowerBound(daily, "2025-01-01")).toBe(60);
  });
});
