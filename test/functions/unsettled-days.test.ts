/**
 * Nulls and the unsettled newest days, through the functions' logic (fake
 * client): a null is a blank cell and never a 0; MD.LATEST and MD.AGG use the
 * last real value; a 0 placeholder on an unsettled day is treated as a null.
 * The same over real HTTP against the realistic sandbox: test/bundle/real-service.test.ts.
 */
import { addDays } from "../../src/core/calendar";
import type { DataPoint } from "../../src/core/domain";
import { isoToSerial } from "../../src/core/excel-date";
import { UNSETTLED_DAYS, withoutPlaceholders } from "../../src/core/readings";
import { aggregateValue, formattedAggregateValue } from "../../src/functions/agg";
import { formattedLatestValue, latestValue } from "../../src/functions/latest";
import { DATE_FORMAT } from "../../src/core/number-format";
import { seriesTable } from "../../src/functions/series";
import { fakeContext, fakePoints, fakeValue, TODAY } from "../support/fake-client";

/** The fake's daily points, with the newest day null and the one before it `yesterday` (a 0 placeholder or null). */
function unsettled(points: DataPoint[], yesterday: 0 | null): DataPoint[] {
  return points.map((p) =>
    p.date === TODAY
      ? { date: p.date, val: null }
      : p.date === addDays(TODAY, -1)
        ? { date: p.date, val: yesterday }
        : p,
  );
}

function contextWith(yesterday: 0 | null) {
  const ctx = fakeContext();
  ctx.client.answerSeries = (req) => ({
    kind: "points",
    points: unsettled(fakePoints(req.symbol, req.metric, req.start!, req.end ?? TODAY, req.granularity), yesterday),
  });
  return ctx;
}

describe("null values and unsettled days", () => {
  it.each([0, null] as const)("MD.LATEST reads the last real value (yesterday %s, today null)", async (yesterday) => {
    const ctx = contextWith(yesterday);
    expect(await latestValue(ctx, { symbol: "eth", metric: "PRICE" })).toBe(
      fakeValue("eth", "PRICE", addDays(TODAY, -2)),
    );
  });

  it.each([0, null] as const)(
    "MD.AGG skips nulls and placeholders: AVG, MIN and LAST over the 7D ending on the latest data (yesterday %s)",
    async (yesterday) => {
      const ctx = contextWith(yesterday);
      // as_of omitted: the window ends on the latest day with data, two days ago, and holds 7 days of data.
      const real = Array.from({ length: 7 }, (_, i) => fakeValue("eth", "PRICE", addDays(TODAY, -8 + i)));
      expect(await aggregateValue(ctx, { symbol: "eth", metric: "PRICE", window: "7D", stat: "AVG" })).toBeCloseTo(
        real.reduce((a, b) => a + b, 0) / real.length,
        9,
      );
      expect(await aggregateValue(ctx, { symbol: "eth", metric: "PRICE", window: "7D", stat: "MIN" })).toBe(
        Math.min(...real),
      );
      expect(await aggregateValue(ctx, { symbol: "eth", metric: "PRICE", window: "7D", stat: "LAST" })).toBe(real[6]);
    },
  );

  it.each([0, null] as const)(
    "MD.SERIES shows a blank, never a 0, for the unsettled days (yesterday %s)",
    async (yesterday) => {
      const ctx = contextWith(yesterday);
      const table = await seriesTable(ctx, { symbols: "eth", metrics: "PRICE", start: "-4D" });
      expect(table.slice(-3)).toEqual([
        [isoToSerial(addDays(TODAY, -2)), fakeValue("eth", "PRICE", addDays(TODAY, -2))],
        [isoToSerial(addDays(TODAY, -1)), ""],
        [isoToSerial(TODAY), ""],
      ]);
    },
  );

  it("with fill=prev a null date carries the previous value, like a missing date", async () => {
    const ctx = contextWith(null);
    const table = await seriesTable(ctx, { symbols: "eth", metrics: "PRICE", start: "-3D", options: "fill=prev" });
    const carried = fakeValue("eth", "PRICE", addDays(TODAY, -2));
    expect(table.slice(1).map((row) => row[1])).toEqual([carried, carried, carried]);
  });

  it("a series whose only readings are null is no data", async () => {
    const ctx = fakeContext();
    ctx.client.answerSeries = () => ({ kind: "points", points: [{ date: TODAY, val: null }] });
    await expect(latestValue(ctx, { symbol: "eth", metric: "PRICE" })).rejects.toThrow(/No eth PRICE value/);
  });
});

describe("withoutPlaceholders", () => {
  const day = (n: number) => addDays(TODAY, -n);

  it(`treats a 0 within the last ${UNSETTLED_DAYS} days as a placeholder only when the last settled reading is not 0`, () => {
    const points = [
      { date: day(4), val: 7 },
      { date: day(3), val: 0 }, // settled: a real 0
      { date: day(2), val: 0 },
      { date: day(1), val: 0 },
      { date: day(0), val: null },
    ];
    expect(withoutPlaceholders(points, TODAY)).toEqual([
      { date: day(4), val: 7 },
      { date: day(3), val: 0 },
      { date: day(2), val: 0 },
      { date: day(1), val: 0 },
      { date: day(0), val: null },
    ]);
    const afterValue = [{ date: day(3), val: 7 }, ...points.slice(2)];
    expect(withoutPlaceholders(afterValue, TODAY)).toEqual([
      { date: day(3), val: 7 },
      { date: day(2), val: null },
      { date: day(1), val: null },
      { date: day(0), val: null },
    ]);
  });

  it("keeps a series that really is 0 (a premint supply), and returns an untouched series as is", () => {
    const zeros = [0, 1, 2, 3, 4].map((n) => ({ date: day(4 - n), val: 0 }));
    expect(withoutPlaceholders(zeros, TODAY)).toBe(zeros);
    const settled = [{ date: day(10), val: 1 }];
    expect(withoutPlaceholders(settled, TODAY)).toBe(settled);
  });
});

describe("what a value is dated on, with the newest two days unsettled", () => {
  const sum = (from: number, to: number) => {
    let total = 0;
    for (let d = from; d <= to; d++) total += fakeValue("eth", "FEES", addDays(TODAY, -d));
    return total;
  };

  it.each([0, null] as const)(
    "as_of omitted: 30 days of data ending two days ago (yesterday %s)",
    async (yesterday) => {
      const ctx = contextWith(yesterday);
      const agg = await formattedAggregateValue(ctx, { symbol: "eth", metric: "FEES", window: "30D", stat: "SUM" });
      expect(agg.value).toBeCloseTo(sum(2, 31), 6);
      expect(agg.note).toBe(`Over ${addDays(TODAY, -31)} to ${addDays(TODAY, -2)}`);
      const l30 = await formattedLatestValue(ctx, { symbol: "eth", metric: "L30_FEES" });
      expect(l30.value).toBeCloseTo(sum(2, 31), 6);
      expect(l30.note).toBe(`Sum over ${addDays(TODAY, -31)} to ${addDays(TODAY, -2)}`);
      expect(await formattedLatestValue(ctx, { symbol: "eth", metric: "PRICE", options: "show=date" })).toEqual({
        value: isoToSerial(addDays(TODAY, -2)),
        format: DATE_FORMAT,
        note: `Dated ${addDays(TODAY, -2)}`,
      });
    },
  );

  it.each([0, null] as const)(
    "as_of today: the calendar window, and the days it misses (yesterday %s)",
    async (yesterday) => {
      const ctx = contextWith(yesterday);
      const args = { symbol: "eth", metric: "FEES", window: "30D", stat: "SUM", asOf: "TODAY" };
      const agg = await formattedAggregateValue(ctx, args);
      expect(agg.value).toBeCloseTo(sum(2, 29), 6);
      expect(agg.note).toBe(`Over ${addDays(TODAY, -29)} to ${TODAY}; 28 of 30 days have data`);
      expect((await formattedAggregateValue(ctx, { ...args, options: "show=days" })).value).toBe(28);
      expect((await formattedAggregateValue(ctx, { ...args, options: "show=start" })).value).toBe(
        isoToSerial(addDays(TODAY, -29)),
      );
    },
  );
});
