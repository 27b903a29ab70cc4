/**
 * The trust of settled days (store/trust-period.ts): never longer than the
 * period, never over before the day after the fetch has passed, due on the
 * symbol's own recheck days whatever the fetch time, the same every time,
 * and spread evenly over the days of the cycle across a workbook's symbols.
 */
import { recheckSlot, settledTrustEnd, settledTrustEndOf } from "../../../src/api/store/trust-period";

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
