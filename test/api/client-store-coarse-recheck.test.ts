/**
 * The cheap recheck of stored settled days (src/api/store/coarse-recheck.ts):
 * once a series' trust has run out (its symbol's recheck day), its settled days are compared
 * month by month with the service's monthly roll-up; the months that agree
 * are trusted again without a daily download, and only a month that differs
 * is fetched day by day. FEES is a SUM metric in the sandbox's catalog; PRICE
 * (LAST) is rechecked day by day (test/api/client-store-trust.test.ts).
 */
import { IDBFactory } from "fake-indexeddb";
import type { Client } from "../../src/api/client";
import { CLIENT_DEFAULTS } from "../../src/api/client-options";
import { settledTrustEnd } from "../../src/api/store/trust";
import type { PersistentSeriesStore } from "../../src/api/store/types";
import type { DataPoint } from "../../src/core/domain";
import { addDays } from "../../src/core/calendar";
import { FakeClock } from "../support/fake-clock";
import { useSandbox } from "../support/sandbox";
import { drive, points, useStoreRuntimes } from "../support/store-runtimes";
import { TEST_TODAY } from "../support/today";

const MINUTE = 60_000;
const NOON = Date.parse(`${TEST_TODAY}T12:00:00Z`);
const REQ = { symbol: "eth", metric: "FEES", start: "2024-01-01", end: "2024-06-30" };
const REVISED = "2024-03-14";

const sandbox = useSandbox({ today: addDays(TEST_TODAY, 30), insightFirstCallDelayMs: 0 });
beforeEach(() => sandbox.reset());

const runtime = useStoreRuntimes(sandbox);

/** The series requests the sandbox received since the last reset: granularity and window. */
function seriesRequests(): string[] {
  return sandbox
    .requestLog()
    .filter((entry) => entry.path.startsWith("/data/api/"))
    .map((entry) => {
      const q = new URLSearchParams(entry.query);
      return `${q.get("granularity") ?? "DAY"} ${q.get("startDate")}…${q.get("endDate")}`;
    });
}

/** When the settled days fetched at NOON fall due (eth's recheck day). */
const trustEnd = () => settledTrustEnd(sandbox.url, "eth", NOON, CLIENT_DEFAULTS.revalidateAfterMs);

/** Fetches REQ cold, then moves the clock past the trust period and opens a new runtime on the same store. */
async function afterTrustPeriod(): Promise<{
  original: DataPoint[];
  clock: FakeClock;
  client: Client;
  store: PersistentSeriesStore;
}> {
  const factory = new IDBFactory();
  const clock = new FakeClock(NOON);
  const first = runtime(factory, clock);
  const original = points(await drive(clock, first.client.getSeries(REQ)));
  await first.store.flush();
  sandbox.reset();
  clock.time = trustEnd() + MINUTE;
  return { original, clock, ...runtime(factory, clock) };
}

describe("settled days due for recheck are compared month by month", () => {
  it("unchanged history: one monthly request, no daily download, and the days are trusted again", async () => {
    const { original, clock, client, store } = await afterTrustPeriod();
    expect(points(await drive(clock, client.getSeries(REQ)))).toEqual(original);
    expect(seriesRequests()).toEqual([`MONTH ${REQ.start}…${REQ.end}`]);
    await store.flush();

    // Re-confirmed: a new calculation just after is answered from the store.
    sandbox.reset();
    await clock.advance(MINUTE);
    client.clear();
    expect(points(await drive(clock, client.getSeries(REQ)))).toEqual(original);
    expect(seriesRequests()).toEqual([]);
  });

  it("a correction of one day only: that month alone is fetched daily, and the value is corrected", async () => {
    const { original, clock, client, store } = await afterTrustPeriod();
    sandbox.setReviseDay({ date: REVISED, by: 0.25 });
    const corrected = points(await drive(clock, client.getSeries(REQ)));
    expect(corrected).toEqual(
      original.map((p) => (p.date === REVISED && p.val !== null ? { ...p, val: p.val * 1.25 } : p)),
    );
    expect(seriesRequests()).toEqual([`MONTH ${REQ.start}…${REQ.end}`, "DAY 2024-03-01…2024-03-31"]);
    await store.flush();

    // The store keeps the correction: reopened, no request.
    sandbox.reset();
    sandbox.setReviseDay({ date: REVISED, by: 0.25 });
    await clock.advance(MINUTE);
    const reopened = runtime(new IDBFactory(), clock); // a different machine: fetches cold, for comparison
    expect(points(await drive(clock, reopened.client.getSeries(REQ)))).toEqual(corrected);
    sandbox.reset();
    client.clear();
    expect(points(await drive(clock, client.getSeries(REQ)))).toEqual(corrected);
    expect(seriesRequests()).toEqual([]);
  });

  it("history revised throughout (setRevision): every month differs and the whole window is fetched daily", async () => {
    const { original, clock, client } = await afterTrustPeriod();
    sandbox.setRevision(1);
    const corrected = points(await drive(clock, client.getSeries(REQ)));
    expect(corrected).toEqual(original.map((p) => ({ ...p, val: p.val === null ? null : p.val * 2 })));
    expect(seriesRequests()).toEqual([`MONTH ${REQ.start}…${REQ.end}`, `DAY ${REQ.start}…${REQ.end}`]);
  });

  it("Refresh all told to recheck history takes the same path", async () => {
    const clock = new FakeClock(NOON);
    const r = runtime(new IDBFactory(), clock);
    const original = points(await drive(clock, r.client.getSeries(REQ)));
    sandbox.reset();
    sandbox.setReviseDay({ date: REVISED, by: 0.25 });
    await clock.advance(MINUTE);
    r.client.clear({ recheckHistory: true });
    const corrected = points(await drive(clock, r.client.getSeries(REQ)));
    expect(corrected.find((p) => p.date === REVISED)!.val).toBeCloseTo(
      original.find((p) => p.date === REVISED)!.val! * 1.25,
      6,
    );
    expect(seriesRequests()).toEqual([`MONTH ${REQ.start}…${REQ.end}`, "DAY 2024-03-01…2024-03-31"]);
  });
});

describe("settled days the service answered with a message", () => {
  it("are rechecked by one coarse request on their symbol's recheck day: the same message re-confirms them", async () => {
    const said = { symbol: "defi", metric: "PRICE", start: "2024-01-01", end: "2024-06-30" };
    const factory = new IDBFactory();
    const clock = new FakeClock(NOON);
    const first = runtime(factory, clock);
    const message = await drive(clock, first.client.getSeries(said));
    expect(message).toMatchObject({ kind: "message" });
    await first.store.flush();

    sandbox.reset();
    clock.time = settledTrustEnd(sandbox.url, "defi", NOON, CLIENT_DEFAULTS.revalidateAfterMs) - MINUTE;
    const before = runtime(factory, clock);
    expect(await drive(clock, before.client.getSeries(said))).toEqual(message);
    expect(seriesRequests()).toEqual([]);

    await clock.advance(2 * MINUTE);
    const due = runtime(factory, clock);
    expect(await drive(clock, due.client.getSeries(said))).toEqual(message);
    expect(seriesRequests()).toEqual([`MONTH ${said.start}…${said.end}`]);
    await due.store.flush();

    // Re-confirmed: trusted again until the next recheck day.
    sandbox.reset();
    await clock.advance(MINUTE);
    due.client.clear();
    expect(await drive(clock, due.client.getSeries(said))).toEqual(message);
    expect(seriesRequests()).toEqual([]);
  });
});

describe("the aggregation type of a rechecked metric", () => {
  const catalogRequests = () => sandbox.requestLog().filter((entry) => !entry.path.startsWith("/data/api/")).length;
  const reqs = ["eth", "sol", "btc"].map((symbol) => ({ ...REQ, symbol }));

  it("is asked of the metric catalog once per metric, not once per rechecked symbol", async () => {
    const factory = new IDBFactory();
    const clock = new FakeClock(NOON);
    const first = runtime(factory, clock);
    await drive(clock, Promise.all(reqs.map((r) => first.client.getSeries(r))));
    await first.store.flush();
    sandbox.reset();
    clock.time = NOON + CLIENT_DEFAULTS.revalidateAfterMs + MINUTE; // every symbol's trust has run out
    const later = runtime(factory, clock);
    await drive(clock, Promise.all(reqs.map((r) => later.client.getSeries(r))));
    expect(seriesRequests()).toEqual([`MONTH ${REQ.start}…${REQ.end}`]);
    expect(catalogRequests()).toBe(1);
  });

  it("comes from the built-in list without a catalog request where the list knows the metric (PRICE: LAST)", async () => {
    const factory = new IDBFactory();
    const clock = new FakeClock(NOON);
    const first = runtime(factory, clock);
    const price = reqs.map((r) => ({ ...r, metric: "PRICE" }));
    await drive(clock, Promise.all(price.map((r) => first.client.getSeries(r))));
    await first.store.flush();
    sandbox.reset();
    clock.time = NOON + CLIENT_DEFAULTS.revalidateAfterMs + MINUTE;
    const later = runtime(factory, clock);
    await drive(clock, Promise.all(price.map((r) => later.client.getSeries(r))));
    expect(seriesRequests()).toEqual([`DAY ${REQ.start}…${REQ.end}`]);
    expect(catalogRequests()).toBe(0);
  });
});
