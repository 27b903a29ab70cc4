import { aggregate, type AggregationType } from "../../sandbox/aggregate";
import {
  type Granularity,
  isoOfDay,
  lastWeekdayOfMonth,
  parseIsoDay,
  periodEnd,
  periodStart,
  weekdayOf,
} from "../../sandbox/dates";
import { addDays, expectSameSeries, periodLabel, rollUp, utc } from "../support/sandbox";

const GRANULARITIES: Granularity[] = ["DAY", "WEEK", "MONTH", "QUARTER", "YEAR"];
const TYPES: AggregationType[] = ["SUM", "LAST", "AVERAGE"];

describe("sandbox calendar", () => {
  it.each([
    ["2024-02-29", true],
    ["2023-02-29", false],
    ["2024-13-01", false],
    ["2024-6-1", false],
    ["yesterday", false],
  ])("parseIsoDay(%s) accepts only real YYYY-MM-DD dates → %s", (text, valid) => {
    const day = parseIsoDay(text);
    expect(day !== null).toBe(valid);
    if (day !== null) expect(isoOfDay(day)).toBe(text);
  });

  it.each([
    "2023-12-31",
    "2024-01-01",
    "2024-02-29",
    "2024-03-31",
    "2024-04-01",
    "2024-06-30",
    "2024-07-07",
    "2024-12-30",
  ])("periodStart and periodEnd of %s agree with a Date-based calendar at every granularity", (text) => {
    const day = parseIsoDay(text)!;
    for (const granularity of GRANULARITIES) {
      const start = isoOfDay(periodStart(day, granularity));
      expect(start).toBe(periodLabel(text, granularity));
      // The period ends the day before the next period starts.
      const end = isoOfDay(periodEnd(day, granularity));
      expect(periodLabel(end, granularity)).toBe(start);
      expect(periodLabel(addDays(end, 1), granularity)).not.toBe(start);
    }
  });

  it.each([
    [2024, 9, 6],
    [2024, 1, 0],
    [2023, 12, 6],
    [2024, 2, 4],
  ])(
    "lastWeekdayOfMonth(%i, %i, weekday %i) is that weekday, in that month, with none later",
    (year, month, weekday) => {
      const day = lastWeekdayOfMonth(year, month, weekday);
      const date = utc(isoOfDay(day));
      expect(date.getUTCDay()).toBe(weekday);
      expect(weekdayOf(day)).toBe(weekday);
      expect(date.getUTCMonth() + 1).toBe(month);
      expect(utc(addDays(isoOfDay(day), 7)).getUTCMonth() + 1).not.toBe(month);
    },
  );
});

describe("aggregate", () => {
  // 200 crafted days across a year boundary, with uneven values so SUM, LAST and AVERAGE differ.
  const first = parseIsoDay("2023-11-15")!;
  const points = Array.from({ length: 200 }, (_, i) => ({ day: first + i, val: ((i * 37) % 101) + 0.25 * i }));
  const wire = points.map((point) => ({ date: isoOfDay(point.day), val: point.val }));

  it.each(GRANULARITIES.flatMap((granularity) => TYPES.map((type) => [granularity, type] as const)))(
    "%s by %s matches a hand roll-up labelled by period start",
    (granularity, type) => {
      const rolled = aggregate(points, granularity, type).map((point) => ({
        date: isoOfDay(point.day),
        val: point.val,
      }));
      expectSameSeries(rolled, rollUp(wire, granularity, type));
    },
  );

  it("skips gaps instead of inventing points (weekday-only input stays weekday-only at DAY)", () => {
    const weekdays = points.filter((point) => weekdayOf(point.day) !== 0 && weekdayOf(point.day) !== 6);
    expect(aggregate(weekdays, "DAY", "LAST")).toEqual(weekdays);
    const weeks = aggregate(weekdays, "WEEK", "AVERAGE");
    for (const week of weeks) expect(weekdayOf(week.day)).toBe(1);
  });

  it("answers nothing for no points", () => {
    expect(aggregate([], "MONTH", "SUM")).toEqual([]);
  });
});
