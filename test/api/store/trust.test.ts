/**
 * The store's trust policy (store/trust.ts), as tables: when a day settles,
 * how long what is stored is trusted, when settled days are due for recheck,
 * how long a stored answer stays fresh. Then the trust of settled days: never longer than the
 * period, never over before the day after the fetch has passed, due on the
 * symbol's own recheck days whatever the fetch time, the same every time,
 * and spread evenly over the days of the cycle across a workbook's symbols.
 */
import {
  dueForRecheck,
  recheckSlot,
  settledEndOf,
  settledTrustEnd,
  settledTrustEndOf,
  settlesAsSent,
  StoreTrust,
  trusted,
  type TrustMoment,
} from "../../../src/api/store/trust";
import type { FetchedRange, KnownRange } from "../../../src/api/store/types";

const DAY = 86_400_000;
const BASE = "https://md.example.test/api";
const keys = Array.from({ length: 1200 }, (_, i) => `sbx${i}`);
const T0 = Date.parse("2025-06-15T12:00:00Z");
/** Fetch times over two weeks, at odd hours. */
const fetches = Array.from({ length: 60 }, (_, i) => T0 + i * 0.23 * DAY + ((i * 7919) % 3600) * 1000);

describe("settledTrustEnd", () => {
  it("is after the day following the fetch and at most the period after it, for every symbol and fetch time", () => {
    for (const key of keys.slice(0, 300)) {
      for (const at of fetches) {
        const end = settledTrustEnd(BASE, key, at, 7 * DAY);
        expect(end - at).toBeLessThanOrEqual(7 * DAY);
        expect(end).toBeGreaterThanOrEqual((Math.floor(at / DAY) + 2) * DAY);
        expect(end % DAY).toBe(0);
        expect(settledTrustEnd(BASE, key, at, 7 * DAY)).toBe(end);
      }
    }
  });

  it("one symbol's rule (settledTrustEndOf) gives the same ends, in any order of fetch times, for long and short periods", () => {
    const shuffled = [...fetches, ...[...fetches].reverse(), fetches[3]!, fetches[3]! + 1, fetches[40]!];
    for (const maxMs of [7 * DAY, 2 * DAY, DAY, 3_600_000]) {
      for (const key of keys.slice(0, 50)) {
        const rule = settledTrustEndOf(BASE, key, maxMs);
        for (const at of shuffled) expect(rule(at)).toBe(settledTrustEnd(BASE, key, at, maxMs));
      }
    }
  });

  it("falls on the symbol's recheck day of its 6-day cycle, whenever the days were fetched", () => {
    for (const key of keys.slice(0, 300)) {
      const slot = recheckSlot(BASE, key, 7 * DAY);
      for (const at of fetches) expect((settledTrustEnd(BASE, key, at, 7 * DAY) / DAY) % 6).toBe(slot);
    }
  });

  it("spreads a workbook fetched at once evenly over days 2 to 7 after it: each day a sixth, within a fifth of it", () => {
    const perDay = new Map<number, number>();
    for (const key of keys) {
      const day = (settledTrustEnd(BASE, key, T0, 7 * DAY) - Math.floor(T0 / DAY) * DAY) / DAY;
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    expect([...perDay.keys()].sort()).toEqual([2, 3, 4, 5, 6, 7]);
    for (const count of perDay.values()) {
      expect(count).toBeGreaterThan((keys.length / 6) * 0.8);
      expect(count).toBeLessThan((keys.length / 6) * 1.2);
    }
  });

  it("a recheck fetched on its day is trusted until the same symbol's next recheck day, a cycle later", () => {
    for (const key of keys.slice(0, 100)) {
      const first = settledTrustEnd(BASE, key, T0, 7 * DAY);
      expect(settledTrustEnd(BASE, key, first + 9 * 3_600_000, 7 * DAY)).toBe(first + 6 * DAY);
    }
  });

  it("a period under two days is a grid of the period: at most the period after the fetch, never before it", () => {
    for (const key of keys.slice(0, 200)) {
      for (const at of fetches) {
        const end = settledTrustEnd(BASE, key, at, 3_600_000);
        expect(end).toBeGreaterThan(at);
        expect(end - at).toBeLessThanOrEqual(3_600_000);
      }
    }
  });
});

const HOUR = 3_600_000;
const MINUTE = 60_000;
const NOON = Date.parse("2025-06-15T12:00:00Z");
const policy = (unsettledDays = 2) =>
  new StoreTrust({ unsettledDays, revalidateAfterMs: 7 * DAY, recentFreshMs: 5 * MINUTE });

describe("the trust policy: when a day settles", () => {
  it.each<[string, string, number, string, string | undefined]>([
    ["midday, two unsettled days", "2025-06-15T12:00:00Z", 2, "2025-06-13", "2025-06-14"],
    ["just before 02:00 UTC", "2025-06-15T01:59:59Z", 2, "2025-06-13", undefined],
    ["at 02:00 UTC", "2025-06-15T02:00:00Z", 2, "2025-06-13", "2025-06-14"],
    ["three unsettled days", "2025-06-15T12:00:00Z", 3, "2025-06-12", undefined],
    ["seven unsettled days", "2025-06-15T12:00:00Z", 7, "2025-06-08", undefined],
    ["midnight UTC", "2025-06-15T00:00:00Z", 2, "2025-06-13", undefined],
  ])(
    "%s: fetched at %s with %d, settled through %s, yesterday settles if valued: %s",
    (_, at, days, through, ifValued) => {
      const trust = policy(days);
      const ms = Date.parse(at);
      expect(trust.settledThrough(ms)).toBe(through);
      expect(trust.settlesIfValuedThrough(ms)).toBe(ifValued);
      expect(trust.today(ms)).toBe(at.slice(0, 10));
    },
  );

  const fetched = (extra: Partial<FetchedRange>): FetchedRange => ({
    start: "2025-06-01",
    end: "2025-06-15",
    fetchedAt: NOON,
    settledThrough: "2025-06-13",
    points: [],
    ...extra,
  });
  it.each<[string, FetchedRange, string]>([
    ["nothing settles after settledThrough", fetched({}), "2025-06-13"],
    [
      "yesterday with a real value",
      fetched({ settledIfValuedThrough: "2025-06-14", points: [{ date: "2025-06-14", val: 5 }] }),
      "2025-06-14",
    ],
    [
      "yesterday with a 0 placeholder",
      fetched({ settledIfValuedThrough: "2025-06-14", points: [{ date: "2025-06-14", val: 0 }] }),
      "2025-06-13",
    ],
    [
      "yesterday null",
      fetched({ settledIfValuedThrough: "2025-06-14", points: [{ date: "2025-06-14", val: null }] }),
      "2025-06-13",
    ],
    [
      "yesterday missing",
      fetched({ settledIfValuedThrough: "2025-06-14", points: [{ date: "2025-06-15", val: 3 }] }),
      "2025-06-13",
    ],
    [
      "yesterday inside a message",
      fetched({ settledIfValuedThrough: "2025-06-14", message: "unsupported" }),
      "2025-06-14",
    ],
    ["a bound not after settledThrough", fetched({ settledIfValuedThrough: "2025-06-12" }), "2025-06-13"],
  ])("%s: settled through %s", (_, range, end) => {
    expect(settledEndOf(range)).toBe(end);
  });

  it.each<[number | null, boolean]>([
    [null, false],
    [0, true],
    [42.5, true],
  ])("a value %p inside the settled days settles: %p", (val, settles) => {
    expect(settlesAsSent(val)).toBe(settles);
  });
});

describe("the trust policy: how long what is stored is trusted, and when settled days are due", () => {
  const at = (extra: Partial<TrustMoment> = {}): TrustMoment => ({
    now: NOON,
    revalidateAfterMs: 7 * DAY,
    recentFreshMs: 5 * MINUTE,
    staleBefore: 0,
    ...extra,
  });
  const range = (fetchedAt: number, settled: boolean, message?: string): KnownRange => ({
    start: "2025-06-01",
    end: "2025-06-10",
    fetchedAt,
    settled,
    ...(message === undefined ? {} : { message }),
  });
  it.each<[string, KnownRange, TrustMoment, boolean, boolean]>([
    ["settled, a day old", range(NOON - DAY, true), at(), true, false],
    ["settled, just under the period old", range(NOON - 7 * DAY + 1, true), at(), true, false],
    ["settled, the period old", range(NOON - 7 * DAY, true), at(), false, true],
    [
      "settled, past its symbol's trust end",
      range(NOON - 2 * HOUR, true),
      at({ trustEnd: (f) => f + HOUR }),
      false,
      true,
    ],
    [
      "settled, before its symbol's trust end",
      range(NOON - 2 * HOUR, true),
      at({ trustEnd: (f) => f + 3 * HOUR }),
      true,
      false,
    ],
    [
      "settled, fetched before a refresh told to recheck history",
      range(NOON - HOUR, true),
      at({ settledStaleBefore: NOON - MINUTE }),
      false,
      true,
    ],
    [
      "settled, fetched before a refresh (history not asked)",
      range(NOON - HOUR, true),
      at({ staleBefore: NOON - MINUTE }),
      true,
      false,
    ],
    ["settled, fetched in the future", range(NOON + MINUTE, true), at(), false, false],
    ["settled message, a day old", range(NOON - DAY, true, "unsupported"), at(), true, false],
    ["settled message, the period old", range(NOON - 7 * DAY, true, "unsupported"), at(), false, true],
    ["unsettled, a minute old", range(NOON - MINUTE, false), at(), true, false],
    ["unsettled, five minutes old", range(NOON - 5 * MINUTE, false), at(), false, false],
    [
      "unsettled, fetched before a refresh",
      range(NOON - MINUTE, false),
      at({ staleBefore: NOON - 30_000 }),
      false,
      false,
    ],
    ["unsettled, fetched in the future", range(NOON + MINUTE, false), at(), false, false],
    ["unsettled message, the same UTC day", range(NOON - 6 * HOUR, false, "unsupported"), at(), true, false],
    ["unsettled message, the UTC day before", range(NOON - 13 * HOUR, false, "unsupported"), at(), false, false],
  ])("%s", (_, known, moment, isTrusted, isDue) => {
    expect(trusted(known, moment)).toBe(isTrusted);
    expect(dueForRecheck(known, moment)).toBe(isDue);
  });

  it.each<[string, boolean | null, number, number]>([
    ["no refresh", null, 0, 0],
    ["a refresh", false, NOON, 0],
    ["a refresh told to recheck history", true, NOON, NOON],
  ])("%s: what the store trusts a symbol's days by", (_, recheckHistory, staleBefore, settledStaleBefore) => {
    const trust = policy();
    if (recheckHistory !== null) trust.refresh(NOON, recheckHistory);
    const moment = trust.at(BASE, "eth", NOON + HOUR);
    expect(moment).toMatchObject({
      now: NOON + HOUR,
      revalidateAfterMs: 7 * DAY,
      recentFreshMs: 5 * MINUTE,
      staleBefore,
      settledStaleBefore,
    });
    expect(moment.trustEnd!(NOON)).toBe(settledTrustEnd(BASE, "eth", NOON, 7 * DAY));
  });

  it.each<[string, number, number, boolean, number]>([
    ["fresh", NOON - 10 * MINUTE, HOUR, false, 50 * MINUTE],
    ["older than its freshness", NOON - 2 * HOUR, HOUR, false, 0],
    ["fetched in the future", NOON + MINUTE, HOUR, false, 0],
    ["fetched before a refresh", NOON - 10 * MINUTE, HOUR, true, 0],
  ])("a stored answer %s: fresh for its freshness less its age", (_, fetchedAt, ttlMs, refreshed, freshFor) => {
    const trust = policy();
    if (refreshed) trust.refresh(NOON - MINUTE, false);
    expect(trust.answerFreshFor({ value: null, fetchedAt, bytes: 0 }, ttlMs, NOON)).toBe(freshFor);
  });
});
