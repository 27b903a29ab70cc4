/**
 * The window rule: as_of omitted, a window ends on the pair's latest day with
 * data; as_of given, it is the calendar window ending on as_of. One request
 * (the window ending today, with a margin for the unsettled days) must hold
 * the window that ends on the latest data.
 */
import { parseAggWindow, windowStart } from "../../src/core/agg-window";
import { addDays } from "../../src/core/calendar";
import type { DataPoint } from "../../src/core/domain";
import {
  anchorMarginDays,
  coverageText,
  fetchRange,
  latestDataDate,
  pointsIn,
  windowCoverage,
  windowEndOf,
  windowSpan,
} from "../../src/core/window-span";

const TODAY = "2026-11-24";

/** Daily points from `from` to `to`, each `val`, except the dates listed as null. */
function days(from: string, to: string, nulls: readonly string[] = []): DataPoint[] {
  const points: DataPoint[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) points.push({ date: d, val: nulls.includes(d) ? null : 1 });
  return points;
}

describe("the window rule", () => {
  it.each([
    // window, as_of, latest data date → first and last day, how the end was chosen
    ["30D", undefined, "2026-11-22", "2026-10-24", "2026-11-22", "latest-data"],
    ["30D", undefined, "2026-11-24", "2026-10-26", "2026-11-24", "latest-data"],
    ["7D", undefined, "2026-11-22", "2026-11-16", "2026-11-22", "latest-data"],
    ["MTD", undefined, "2026-11-22", "2026-11-01", "2026-11-22", "latest-data"],
    ["MTD", undefined, "2026-10-31", "2026-10-01", "2026-10-31", "latest-data"],
    ["LTM", undefined, "2026-11-22", "2025-11-23", "2026-11-22", "latest-data"],
    ["30D", "2026-11-24", "2026-11-22", "2026-10-26", "2026-11-24", "as-of"],
    ["30D", "2026-06-30", "2026-11-22", "2026-06-01", "2026-06-30", "as-of"],
    ["QTD", "2026-11-24", undefined, "2026-10-01", "2026-11-24", "as-of"],
  ] as const)("%s, as_of %s, latest data %s: %s to %s (%s)", (window, asOf, latest, start, end, endsOn) => {
    const span = windowSpan(parseAggWindow(window), windowEndOf(asOf, TODAY), latest);
    expect(span).toEqual({ start, end, endsOn });
  });

  it("as_of omitted and no data to end on: no window", () => {
    expect(windowSpan(parseAggWindow("30D"), windowEndOf(undefined, TODAY), undefined)).toBeNull();
  });

  it.each([
    // window, as_of, granularity → the one request's range
    ["30D", undefined, "DAY", "2026-10-19", TODAY],
    ["7D", undefined, "DAY", "2026-11-11", TODAY],
    ["MTD", undefined, "DAY", "2026-11-01", TODAY],
    ["LTM", undefined, "QUARTER", "2025-07-28", TODAY],
    ["30D", "2026-06-30", "DAY", "2026-06-01", "2026-06-30"],
    ["30D", "2026-11-24", "DAY", "2026-10-26", TODAY],
  ] as const)("%s, as_of %s, %s: fetched from %s to %s", (window, asOf, granularity, from, to) => {
    expect(fetchRange(parseAggWindow(window), windowEndOf(asOf, TODAY), granularity)).toEqual({ from, to });
  });

  it.each(["7D", "30D", "90D", "MTD", "QTD", "YTD", "LTM", "-6M", "-2Q"])(
    "%s: the window ending on any day of the margin lies inside the one request",
    (text) => {
      const window = parseAggWindow(text);
      const range = fetchRange(window, windowEndOf(undefined, TODAY), "DAY");
      for (let back = 0; back <= anchorMarginDays("DAY"); back++) {
        const span = windowSpan(window, windowEndOf(undefined, TODAY), addDays(TODAY, -back))!;
        expect(span.start >= range.from && span.end <= range.to).toBe(true);
      }
    },
  );

  it("reach widens the request for a computation that needs days before the window (a rolling L30_ sum)", () => {
    const window = parseAggWindow("30D");
    const reach = (start: string) => windowStart(parseAggWindow("30D"), start);
    expect(fetchRange(window, windowEndOf(undefined, TODAY), "DAY", reach)).toEqual({
      from: "2026-09-20",
      to: TODAY,
    });
  });

  it.each([
    ["the newest two days unsettled", days("2026-11-01", TODAY, ["2026-11-23", TODAY]), TODAY, "2026-11-22"],
    ["an unsettled day inside", days("2026-11-01", "2026-11-20", ["2026-11-19"]), TODAY, "2026-11-20"],
    ["only dates after the lookup day", days("2026-11-25", "2026-11-26"), TODAY, undefined],
    [
      "all null",
      days("2026-11-20", TODAY, ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23", TODAY]),
      TODAY,
      undefined,
    ],
    ["no points", [], TODAY, undefined],
  ] as const)("the latest date with data: %s", (_, points, date, expected) => {
    expect(latestDataDate(points, date)).toBe(expected);
  });

  it.each([
    [
      "every day",
      days("2026-10-20", TODAY),
      "2026-10-26",
      TODAY,
      { days: 30, daysWithData: 30 },
      "2026-10-26 to 2026-11-24",
    ],
    [
      "the calendar window ending today, two days unsettled",
      days("2026-10-20", TODAY, ["2026-11-23", TODAY]),
      "2026-10-26",
      TODAY,
      { days: 30, daysWithData: 28 },
      "2026-10-26 to 2026-11-24; 28 of 30 days have data",
    ],
    [
      "a day missing from the answer",
      days("2026-11-20", "2026-11-22").filter((p) => p.date !== "2026-11-21"),
      "2026-11-20",
      "2026-11-22",
      { days: 3, daysWithData: 2 },
      "2026-11-20 to 2026-11-22; 2 of 3 days have data",
    ],
    [
      "one day",
      days(TODAY, TODAY, [TODAY]),
      TODAY,
      TODAY,
      { days: 1, daysWithData: 0 },
      "2026-11-24; 0 of 1 day has data",
    ],
  ] as const)("coverage: %s", (_, points, start, end, coverage, text) => {
    const span = { start, end, endsOn: "as-of" as const };
    expect(windowCoverage(points, span)).toEqual(coverage);
    expect(coverageText(span, windowCoverage(points, span))).toBe(text);
    expect(pointsIn(points, span).every((p) => p.date >= start && p.date <= end)).toBe(true);
  });

  it("a window of quarters has no day count to tell", () => {
    expect(coverageText({ start: "2025-11-23", end: "2026-11-22", endsOn: "latest-data" }, null)).toBe(
      "2025-11-23 to 2026-11-22",
    );
  });
});
