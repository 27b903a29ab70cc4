import fc from "fast-check";
import { addDays, utcDateOf } from "../../../src/core/calendar";
import { messageOver, mergeFetched } from "../../../src/api/store/series-data";
import type { FetchedRange, SeriesData, StoredPoint } from "../../../src/api/store/types";
import { heldWhole, planWindow, type PlanOptions } from "../../../src/api/store/window-plan";

const DAY = 86_400_000;
const T0 = Date.parse("2025-06-15T12:00:00Z");
const SETTLE_DAYS = 3;

/** Daily points for every day of [start, end], val = day of month (or the override). */
function days(start: string, end: string, override: Record<string, number | null> = {}): StoredPoint[] {
  const out: StoredPoint[] = [];
  for (let d = start; d <= end; d = addDays(d, 1))
    out.push({ date: d, val: d in override ? override[d]! : Number(d.slice(8)) });
  return out;
}

function fetched(start: string, end: string, at: number, points = days(start, end)): FetchedRange {
  return { start, end, fetchedAt: at, settledThrough: addDays(utcDateOf(at), -SETTLE_DAYS), points };
}

function opts(now: number, extra: Partial<PlanOptions> = {}): PlanOptions {
  return { now, revalidateAfterMs: 30 * DAY, recentFreshMs: 5 * 60_000, staleBefore: 0, ...extra };
}

describe("mergeFetched: what the store knows after an answer", () => {
  it("days older than the settling window are settled, the newest three are not", () => {
    const data = mergeFetched(undefined, fetched("2025-06-01", "2025-06-15", T0));
    expect(data.ranges).toEqual([
      { start: "2025-06-01", end: "2025-06-12", fetchedAt: T0, settled: true },
      { start: "2025-06-13", end: "2025-06-15", fetchedAt: T0, settled: false },
    ]);
    expect(data.dates).toHaveLength(15);
    expect(data.vals[0]).toBe(1);
  });

  it("a null is never settled, however old: its day stays unsettled between settled stretches", () => {
    const points = days("2025-05-01", "2025-05-10", { "2025-05-04": null });
    const data = mergeFetched(undefined, fetched("2025-05-01", "2025-05-10", T0, points));
    expect(data.ranges.map((r) => [r.start, r.end, r.settled])).toEqual([
      ["2025-05-01", "2025-05-03", true],
      ["2025-05-04", "2025-05-04", false],
      ["2025-05-05", "2025-05-10", true],
    ]);
    // Kept for offline reading, as null.
    expect(data.vals[data.dates.indexOf("2025-05-04")]).toBeNull();
  });

  it("a newer answer replaces the days it covers and keeps the rest", () => {
    let data = mergeFetched(undefined, fetched("2025-06-01", "2025-06-15", T0));
    const nextDay = T0 + DAY;
    data = mergeFetched(
      data,
      fetched("2025-06-13", "2025-06-16", nextDay, days("2025-06-13", "2025-06-16", { "2025-06-13": 99 })),
    );
    expect(data.ranges).toEqual([
      // 06-13 settled as of the next day; it keeps its own fetch time (its own trust period), beside the older stretch.
      { start: "2025-06-01", end: "2025-06-12", fetchedAt: T0, settled: true },
      { start: "2025-06-13", end: "2025-06-13", fetchedAt: nextDay, settled: true },
      { start: "2025-06-14", end: "2025-06-16", fetchedAt: nextDay, settled: false },
    ]);
    expect(data.dates.slice(-4)).toEqual(["2025-06-13", "2025-06-14", "2025-06-15", "2025-06-16"]);
    expect(data.vals[data.dates.indexOf("2025-06-13")]).toBe(99);
  });

  it("days without a point inside a fetched window are known to have none", () => {
    const data = mergeFetched(undefined, fetched("2025-05-01", "2025-05-10", T0, [{ date: "2025-05-05", val: 5 }]));
    expect(data.ranges[0]).toMatchObject({ start: "2025-05-01", end: "2025-05-10", settled: true });
    const plan = planWindow(data, { start: "2025-05-01", end: "2025-05-10" }, opts(T0));
    expect(plan.fetch).toEqual([]);
    expect(plan.stored).toEqual([{ date: "2025-05-05", val: 5 }]);
  });

  it("ignores points outside the window asked for and sorts what it keeps", () => {
    const points = [
      { date: "2025-05-03", val: 3 },
      { date: "2025-05-01", val: 1 },
      { date: "2025-04-30", val: 0 },
    ];
    const data = mergeFetched(undefined, fetched("2025-05-01", "2025-05-03", T0, points));
    expect(data.dates).toEqual(["2025-05-01", "2025-05-03"]);
  });
});

describe("mergeFetched: yesterday and messages (two unsettled days)", () => {
  /** As the client records an answer fetched at `at`: settled two days back, yesterday where it holds a real value. */
  function recorded(start: string, end: string, at: number, points: StoredPoint[], message?: string): FetchedRange {
    const day = utcDateOf(at);
    return {
      start,
      end,
      fetchedAt: at,
      settledThrough: addDays(day, -2),
      settledIfValuedThrough: addDays(day, -1),
      points,
      ...(message === undefined ? {} : { message }),
    };
  }

  it("yesterday with a real value is settled; today never is", () => {
    const data = mergeFetched(undefined, recorded("2025-06-01", "2025-06-15", T0, days("2025-06-01", "2025-06-15")));
    expect(data.ranges.map((r) => [r.start, r.end, r.settled])).toEqual([
      ["2025-06-01", "2025-06-14", true],
      ["2025-06-15", "2025-06-15", false],
    ]);
  });

  it("yesterday as a placeholder (null or 0), or without a point, stays unsettled", () => {
    for (const placeholder of [{ "2025-06-14": null }, { "2025-06-14": 0 }]) {
      const points = days("2025-06-01", "2025-06-15", placeholder);
      const data = mergeFetched(undefined, recorded("2025-06-01", "2025-06-15", T0, points));
      expect(data.ranges.map((r) => [r.start, r.end, r.settled])).toEqual([
        ["2025-06-01", "2025-06-13", true],
        ["2025-06-14", "2025-06-15", false],
      ]);
    }
    const missing = days("2025-06-01", "2025-06-13");
    const data = mergeFetched(undefined, recorded("2025-06-01", "2025-06-15", T0, missing));
    expect(data.ranges.map((r) => [r.start, r.end, r.settled])).toEqual([
      ["2025-06-01", "2025-06-13", true],
      ["2025-06-14", "2025-06-15", false],
    ]);
  });

  it("a message is known like points: settled through yesterday, today unsettled, both carrying the message", () => {
    const data = mergeFetched(undefined, recorded("2025-05-17", "2025-06-15", T0, [], "Metric not available."));
    expect(data.ranges).toEqual([
      { start: "2025-05-17", end: "2025-06-14", fetchedAt: T0, settled: true, message: "Metric not available." },
      { start: "2025-06-15", end: "2025-06-15", fetchedAt: T0, settled: false, message: "Metric not available." },
    ]);
    expect(messageOver(data, { start: "2025-05-20", end: "2025-06-15" })).toBe("Metric not available.");
  });

  it("a message's unsettled day holds for the rest of its UTC day; the next day asks only it and the new day", () => {
    const data = mergeFetched(undefined, recorded("2025-05-17", "2025-06-15", T0, [], "Metric not available."));
    const window = { start: "2025-05-17", end: "2025-06-15" };
    const later = planWindow(data, window, opts(T0 + 11 * 3_600_000));
    expect(later).toMatchObject({ fetch: [], messages: ["Metric not available."], plainServed: false });
    const next = planWindow(data, { start: "2025-05-18", end: "2025-06-16" }, opts(T0 + DAY));
    expect(next.fetch).toEqual([{ start: "2025-06-15", end: "2025-06-16" }]);
    expect(next.messages).toEqual(["Metric not available."]);
  });

  it("a message beside points: no single message over the window", () => {
    let data = mergeFetched(undefined, recorded("2025-05-01", "2025-05-31", T0, days("2025-05-01", "2025-05-31")));
    data = mergeFetched(data, recorded("2025-06-01", "2025-06-15", T0, [], "No data."));
    expect(messageOver(data, { start: "2025-05-01", end: "2025-06-15" })).toBeUndefined();
    expect(messageOver(data, { start: "2025-06-01", end: "2025-06-15" })).toBe("No data.");
  });
});

describe("planWindow: what is answered from the store and what is fetched", () => {
  const year = mergeFetched(undefined, fetched("2024-06-15", "2025-06-15", T0));

  it("an empty store fetches the whole window", () => {
    const plan = planWindow(undefined, { start: "2025-01-01", end: "2025-06-15" }, opts(T0));
    expect(plan).toEqual({
      stored: [],
      fetch: [{ start: "2025-01-01", end: "2025-06-15" }],
      fallback: null,
      messages: [],
      plainServed: false,
    });
  });

  it("the same day, within the freshness of the unsettled days: nothing is fetched", () => {
    const plan = planWindow(year, { start: "2024-06-15", end: "2025-06-15" }, opts(T0 + 60_000));
    expect(plan.fetch).toEqual([]);
    expect(plan.stored).toHaveLength(366);
  });

  it("later the same day: only the unsettled days", () => {
    const plan = planWindow(year, { start: "2024-06-15", end: "2025-06-15" }, opts(T0 + 3_600_000));
    expect(plan.fetch).toEqual([{ start: "2025-06-13", end: "2025-06-15" }]);
    expect(plan.stored[plan.stored.length - 1]!.date).toBe("2025-06-12");
  });

  it("after a refresh (staleBefore): the unsettled days again, the settled ones not", () => {
    const plan = planWindow(
      year,
      { start: "2025-06-01", end: "2025-06-15" },
      opts(T0 + 1000, { staleBefore: T0 + 500 }),
    );
    expect(plan.fetch).toEqual([{ start: "2025-06-13", end: "2025-06-15" }]);
  });

  it("the next day: the unsettled days and the new one", () => {
    const plan = planWindow(year, { start: "2024-06-16", end: "2025-06-16" }, opts(T0 + DAY));
    expect(plan.fetch).toEqual([{ start: "2025-06-13", end: "2025-06-16" }]);
    expect(plan.stored).toHaveLength(362);
  });

  it("a window reaching further back fetches the head and the tail", () => {
    const plan = planWindow(year, { start: "2024-01-01", end: "2025-06-16" }, opts(T0 + DAY));
    expect(plan.fetch).toEqual([
      { start: "2024-01-01", end: "2024-06-14" },
      { start: "2025-06-13", end: "2025-06-16" },
    ]);
  });

  it("settled days older than the revalidation age are fetched again", () => {
    const plan = planWindow(year, { start: "2025-01-01", end: "2025-03-01" }, opts(T0 + 31 * DAY));
    expect(plan.fetch).toEqual([{ start: "2025-01-01", end: "2025-03-01" }]);
    expect(plan.stored).toEqual([]);
  });

  it("never more fetches than asked: the closest are joined", () => {
    const points = days("2025-05-01", "2025-05-31", { "2025-05-05": null, "2025-05-07": null, "2025-05-20": null });
    const data = mergeFetched(undefined, fetched("2025-05-01", "2025-05-31", T0, points));
    const plan = planWindow(data, { start: "2025-05-01", end: "2025-05-31" }, opts(T0 + DAY));
    expect(plan.fetch).toEqual([
      { start: "2025-05-05", end: "2025-05-07" },
      { start: "2025-05-20", end: "2025-05-20" },
    ]);
    expect(plan.stored.map((p) => p.date)).not.toContain("2025-05-06");
  });

  it("offline fallback: everything held, dated by the stalest part shown", () => {
    const plan = planWindow(year, { start: "2025-06-01", end: "2025-06-16" }, opts(T0 + DAY));
    expect(plan.fallback?.fetchedAt).toBe(T0);
    expect(plan.fallback?.points.map((p) => p.date)).toEqual(days("2025-06-01", "2025-06-15").map((p) => p.date));
  });

  it("no offline fallback when the store lacks a day before what it holds", () => {
    const plan = planWindow(year, { start: "2024-01-01", end: "2025-06-16" }, opts(T0 + DAY));
    expect(plan.fallback).toBeNull();
    const outside = planWindow(year, { start: "2026-01-01", end: "2026-02-01" }, opts(T0 + DAY));
    expect(outside.fallback).toBeNull();
  });

  it("property: stored and fetched days never overlap and together cover the window", () => {
    const dayIndex = fc.integer({ min: 0, max: 120 });
    const day = (i: number) => addDays("2025-01-01", i);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(dayIndex, dayIndex, fc.integer({ min: 0, max: 60 }), fc.boolean()), { maxLength: 6 }),
        dayIndex,
        dayIndex,
        fc.integer({ min: 0, max: 60 }),
        (answers, a, b, nowDays) => {
          let data: SeriesData | undefined;
          for (const [x, y, atDays, withNull] of answers) {
            const [s, e] = [day(Math.min(x, y)), day(Math.max(x, y))];
            const at = Date.parse("2025-01-01T12:00:00Z") + atDays * DAY;
            const points = days(s, e, withNull ? { [s]: null } : {});
            data = mergeFetched(data, fetched(s, e, at, points));
          }
          const window = { start: day(Math.min(a, b)), end: day(Math.max(a, b)) };
          const now = Date.parse("2025-01-01T12:00:00Z") + nowDays * DAY;
          const plan = planWindow(data, window, opts(now, { maxFetches: 99 }));
          const fetchedDays = new Set<string>();
          for (const f of plan.fetch) for (let d = f.start; d <= f.end; d = addDays(d, 1)) fetchedDays.add(d);
          for (const p of plan.stored) expect(fetchedDays.has(p.date)).toBe(false);
          // Every day of the window is fetched, or known to the store and fresh (its point, if any, is served).
          const served = new Set(plan.stored.map((p) => p.date));
          for (let d = window.start; d <= window.end; d = addDays(d, 1)) {
            const known = data?.dates.includes(d) ?? false;
            if (!fetchedDays.has(d) && known) expect(served.has(d)).toBe(true);
          }
          // Ranges stay ordered and disjoint.
          const ranges = data?.ranges ?? [];
          for (let i = 1; i < ranges.length; i++) expect(ranges[i - 1]!.end < ranges[i]!.start).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("property: the store answers a window whole exactly when the plan fetches nothing and serves no message, with the plan's points", () => {
    const dayIndex = fc.integer({ min: 0, max: 120 });
    const day = (i: number) => addDays("2025-01-01", i);
    let answeredWhole = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(dayIndex, dayIndex, fc.integer({ min: 0, max: 60 }), fc.boolean(), fc.boolean()), {
          maxLength: 6,
        }),
        dayIndex,
        fc.integer({ min: -1, max: 10 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 3 }),
        (answers, a, length, nowDays, staleDays) => {
          let data: SeriesData | undefined;
          for (const [x, y, atDays, withNull, message] of answers) {
            const [s, e] = [day(Math.min(x, y)), day(Math.max(x, y))];
            const at = Date.parse("2025-01-01T12:00:00Z") + atDays * DAY;
            const points = message ? [] : days(s, e, withNull ? { [s]: null } : {});
            data = mergeFetched(data, { ...fetched(s, e, at, points), ...(message ? { message: "No data" } : {}) });
          }
          if (!data) return;
          // Short windows, most of them inside one answer; an empty one (end before start) among them.
          const window = { start: day(a), end: day(a + length) };
          const now = Date.parse("2025-01-01T12:00:00Z") + nowDays * DAY;
          const options = opts(now, { staleBefore: now - staleDays * DAY, recentFreshMs: 2 * DAY });
          const plan = planWindow(data, window, options);
          const whole = heldWhole(data, window, options);
          // An empty window is left to the plan (nothing to fetch, no points: the same answer).
          const empty = window.start > window.end;
          expect(whole).toBe(!empty && plan.fetch.length === 0 && plan.messages.length === 0);
          if (whole) {
            answeredWhole += 1;
            const inWindow = data.dates.flatMap((date, i) =>
              date >= window.start && date <= window.end ? [{ date, val: data!.vals[i] }] : [],
            );
            expect(plan.stored).toEqual(inWindow);
          }
        },
      ),
      { numRuns: 1000 },
    );
    // The property saw both answers.
    expect(answeredWhole).toBeGreaterThan(0);
  });
});
