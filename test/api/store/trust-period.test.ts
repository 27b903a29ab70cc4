/**
 * The trust period's spread (store/trust-period.ts): bounded by the option,
 * never below half of it, the same for a series every time, and spread over
 * the second half of the period across a workbook's series.
 */
import { trustPeriodMs } from "../../../src/api/store/trust-period";

const DAY = 86_400_000;
const BASE = "https://md.example.test/api";
const keys = Array.from({ length: 1000 }, (_, i) => `sbx${i}`);

describe("trustPeriodMs", () => {
  it("is within [half the period, the period) for every symbol, and the same every time", () => {
    for (const key of keys) {
      const ms = trustPeriodMs(BASE, key, 7 * DAY);
      expect(ms).toBeGreaterThanOrEqual(3.5 * DAY);
      expect(ms).toBeLessThan(7 * DAY);
      expect(trustPeriodMs(BASE, key, 7 * DAY)).toBe(ms);
    }
  });

  it("spreads a workbook's symbols over the second half of the period: no half day holds more than a fifth", () => {
    const buckets = new Array<number>(7).fill(0);
    for (const key of keys) buckets[Math.floor((trustPeriodMs(BASE, key, 7 * DAY) - 3.5 * DAY) / (DAY / 2))]! += 1;
    for (const count of buckets) {
      expect(count).toBeGreaterThan(keys.length / 7 / 2);
      expect(count).toBeLessThan(keys.length / 5);
    }
  });
});
