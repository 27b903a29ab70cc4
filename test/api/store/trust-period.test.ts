/**
 * The trust period's spread (store/trust-period.ts): bounded by the option,
 * never below half of it, the same for a series every time, and spread over
 * the second half of the period across a workbook's series.
 */
import { trustPeriodMs } from "../../../src/api/store/trust-period";
import { seriesKey } from "../../../src/api/store/types";

const DAY = 86_400_000;
const keys = Array.from({ length: 1000 }, (_, i) =>
  seriesKey({ baseUrl: "https://md.example.test/api", symbol: `sbx${i}`, metric: "PRICE", granularity: "DAY" }),
);

describe("trustPeriodMs", () => {
  it("is within [half the period, the period) for every series, and the same every time", () => {
    for (const key of keys) {
      const ms = trustPeriodMs(key, 7 * DAY);
      expect(ms).toBeGreaterThanOrEqual(3.5 * DAY);
      expect(ms).toBeLessThan(7 * DAY);
      expect(trustPeriodMs(key, 7 * DAY)).toBe(ms);
    }
  });

  it("spreads a workbook's series over the second half of the period: no half day holds more than a fifth", () => {
    const buckets = new Array<number>(7).fill(0);
    for (const key of keys) buckets[Math.floor((trustPeriodMs(key, 7 * DAY) - 3.5 * DAY) / (DAY / 2))]! += 1;
    for (const count of buckets) {
      expect(count).toBeGreaterThan(keys.length / 7 / 2);
      expect(count).toBeLessThan(keys.length / 5);
    }
  });
});
