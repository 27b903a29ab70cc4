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
import { settledTrustEnd } from "../../src/api/store/trust-period";
import type { DataPoint } from "../../src/core/domain";
import { addDays } from "../../src/core/calendar";
import { FakeClock } from "../support/fake-clock";
import { useSandbox } from "../support/sandbox";
import { drive, points, useStoreRuntimes } from "../support/store-runtimes";
import { TEST_TODAY } from "../support/today";

const DAY = 86_400_000;
const MINUTE = 60_000;
const NOON = Date.parse(`${TEST_TODAY}T12:00:00Z`);
const REQ = { symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-03-31" };

// The sandbox's data runs past every day the fake clock reaches; every window has explicit dates.
const sandbox = useSandbox({ today: addDays(TEST_TODAY, 30), insightFirstCallDelayMs: 0 });
beforeEach(() => sandbox.reset());

const runtime = useStoreRuntimes(sandbox);

function seriesRequests(): number {
  return sandbox.requestLog().filter((entry) => entry.path.startsWith("/data/api/")).length;
}

const doubled = (original: DataPoint[]) => original.map((p) => ({ ...p, val: p.val === null ? null : p.val * 2 }));

describe("a settled day is trusted until its symbol's recheck day, then asked again", () => {
  /** When the settled days fetched at NOON fall due. */
  const trustEnd = () => settledTrustEnd(sandbox.url, "eth", NOON, CLIENT_DEFAULTS.revalidateAfterMs);

  it("the default trust is at most 7 days, and this series' ends after the day following the fetch", () => {
    expect(CLIENT_DEFAULTS.revalidateAfterMs).toBe(7 * DAY);
    expect(trustEnd() - NOON).toBeLessThanOrEqual(7 * DAY);
    expect(trustEnd() - NOON).toBeGreaterThan(1.5 * DAY);
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
