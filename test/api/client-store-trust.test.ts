/**
 * Corrections reach the workbook (DESIGN "Only sound data…"): a settled day
 * in the store is trusted for a bounded time (until its symbol's recheck day,
 * at most the period after the fetch), then asked again on its next use; Refresh all can be told to recheck history. The
 * client runs on a fake clock (test/support/fake-clock.ts) against the
 * sandbox over real HTTP, whose `setRevision` revises history as a
 * methodology change (or a wrong answer corrected) would.
 */
import { IDBFactory } from "fake-indexeddb";
import { CLIENT_DEFAULTS } from "../../src/api/client-options";
import { settledTrustEnd } from "../../src/api/store/trust";
import type { DataPoint } from "../../src/core/domain";
import { FakeClock } from "../support/fake-clock";
import { drive, points, useStoreWorld } from "../support/store-runtimes";
import { TEST_TODAY } from "../support/today";

const DAY = 86_400_000;
const MINUTE = 60_000;
const NOON = Date.parse(`${TEST_TODAY}T12:00:00Z`);
const REQ = { symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-03-31" };

const { sandbox, runtime, seriesRequests } = useStoreWorld();

const doubled = (original: DataPoint[]) => original.map((p) => ({ ...p, val: p.val === null ? null : p.val * 2 }));

describe("a settled day is trusted until its symbol's recheck day, then asked again", () => {
  /** When the settled days fetched at NOON fall due. */
  const trustEnd = () => settledTrustEnd(sandbox.url, "eth", NOON, CLIENT_DEFAULTS.revalidateAfterMs);

  it("the default trust is at most 7 days, and this series' ends after the day following the fetch", () => {
    expect(CLIENT_DEFAULTS.revalidateAfterMs).toBe(7 * DAY);
    expect(trustEnd() - NOON).toBeLessThanOrEqual(7 * DAY);
    expect(trustEnd() - NOON).toBeGreaterThanOrEqual(1.5 * DAY);
  });

  it("a wrong settled value is corrected on the first use after the trust period, without Reload everything", async () => {
    const factory = new IDBFactory();
    const clock = new FakeClock(NOON);
    const first = runtime(factory, clock);
    const original = points(await drive(clock, first.client.getSeries(REQ)));
    expect(seriesRequests()).toBe(1);
    await first.store.flush();

    // The service corrects its history (every value doubles); the store still holds the old answer.
    sandbox.reset(); // counters only from here; reset also restores revision 0
    sandbox.setRevision(1);
    clock.time = trustEnd() - MINUTE;
    const within = runtime(factory, clock);
    expect(points(await drive(clock, within.client.getSeries(REQ)))).toEqual(original);
    expect(seriesRequests()).toBe(0);

    // Two minutes later, the recheck day has begun: the next use asks again and shows the correction.
    await clock.advance(2 * MINUTE);
    within.client.clear(); // a new calculation: not the five-minute in-memory cache
    const corrected = points(await drive(clock, within.client.getSeries(REQ)));
    expect(corrected).toEqual(doubled(original));
    expect(seriesRequests()).toBe(1);
    await within.store.flush();

    // The correction is what the store keeps: reopened, the workbook shows it without a request.
    sandbox.reset();
    sandbox.setRevision(1);
    await clock.advance(MINUTE);
    const reopened = runtime(factory, clock);
    expect(points(await drive(clock, reopened.client.getSeries(REQ)))).toEqual(corrected);
    expect(seriesRequests()).toBe(0);
  });
});

describe("the rechecks of a workbook fetched at once spread over the days it is opened", () => {
  it("none the next day; each symbol once in days 2 to 7, on its recheck day, and again a cycle later", async () => {
    const factory = new IDBFactory();
    const clock = new FakeClock(NOON);
    const first = runtime(factory, clock);
    const symbols = (await drive(clock, first.client.getAssets()))
      .map((asset) => asset.symbol)
      .filter((symbol) => /^[a-z0-9]+$/.test(symbol))
      .slice(0, 36);
    expect(symbols).toHaveLength(36);
    const requests = () => symbols.map((symbol) => ({ ...REQ, symbol }));
    await drive(clock, Promise.all(requests().map((req) => first.client.getSeries(req))));
    await first.store.flush();

    // One reopen a day at noon: which symbols' stored history is asked again that day.
    const askedOn = new Map<number, string[]>();
    for (let day = 1; day <= 8; day++) {
      sandbox.reset();
      clock.time = NOON + day * DAY;
      const r = runtime(factory, clock);
      await drive(clock, Promise.all(requests().map((req) => r.client.getSeries(req))));
      await r.store.flush();
      const asked = sandbox
        .requestLog()
        .filter((entry) => entry.path.startsWith("/data/api/"))
        .flatMap((entry) => (new URLSearchParams(entry.query).get("symbols") ?? "").split(","));
      askedOn.set(day, [...new Set(asked)].sort());
    }

    expect(askedOn.get(1)).toEqual([]);
    const dueDay = (symbol: string) =>
      (settledTrustEnd(sandbox.url, symbol, NOON, CLIENT_DEFAULTS.revalidateAfterMs) - NOON) / DAY + 0.5;
    for (let day = 2; day <= 7; day++) {
      expect(askedOn.get(day)).toEqual(symbols.filter((symbol) => dueDay(symbol) === day).sort());
    }
    // Each symbol exactly once over days 2 to 7 (never trusted past 7 days), and spread: no day carries half of them.
    const week = [2, 3, 4, 5, 6, 7].flatMap((day) => askedOn.get(day)!);
    expect(week.sort()).toEqual([...symbols].sort());
    for (let day = 2; day <= 7; day++) expect(askedOn.get(day)!.length).toBeLessThan(symbols.length / 2);
    expect([2, 3, 4, 5, 6, 7].filter((day) => askedOn.get(day)!.length > 0).length).toBeGreaterThanOrEqual(4);
    // Rechecked on day 2, trusted until the same recheck day of the next cycle: day 8.
    expect(askedOn.get(8)).toEqual(askedOn.get(2));
  });
});

describe("Refresh all told to recheck history", () => {
  it("asks again for the settled days of the series used after it, once; an ordinary refresh does not", async () => {
    const clock = new FakeClock(NOON);
    const r = runtime(new IDBFactory(), clock);
    const original = points(await drive(clock, r.client.getSeries(REQ)));
    sandbox.setRevision(1);

    await clock.advance(MINUTE);
    r.client.clear(); // an ordinary refresh: settled days stay
    expect(points(await drive(clock, r.client.getSeries(REQ)))).toEqual(original);
    expect(seriesRequests()).toBe(1);

    r.client.clear({ recheckHistory: true });
    expect(points(await drive(clock, r.client.getSeries(REQ)))).toEqual(doubled(original));
    expect(seriesRequests()).toBe(2);

    // Rechecked once: the next calculation is answered from the store again.
    r.client.clear();
    expect(points(await drive(clock, r.client.getSeries(REQ)))).toEqual(doubled(original));
    expect(seriesRequests()).toBe(2);
  });
});
