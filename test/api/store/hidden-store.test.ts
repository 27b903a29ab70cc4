/**
 * A reopened workbook in a hidden runtime: Excel's shared runtime is a hidden
 * page whenever the task pane is closed, and its timers wake at most once a
 * second (test/support/throttled-timers.ts). A workbook whose settled days are
 * stored answers its cells from the store: the store's reads must start
 * without waiting for the next wake-up, so its cells settle before it, as
 * they would with the pane open, and without a series request. (Chromium
 * spares a 0 ms timer set outside a timer chain, not one in a chain of five
 * or more: the model throttles every timer, the store's next-task reads too.)
 */
import { createClient, type Client } from "../../../src/api/client";
import type { Timers } from "../../../src/api/http/timers";
import { openSeriesStore } from "../../../src/api/store/persistent-store";
import type { PersistentSeriesStore } from "../../../src/api/store/types";
import type { SeriesRequest } from "../../../src/api/types";
import type { SeriesResult } from "../../../src/core/domain";
import { DEMO_API_KEY } from "../../../sandbox/server";
import { FakeClock, settle } from "../../support/fake-clock";
import { freshIndexedDb } from "../../support/fake-idb";
import { seriesRequestCount, useSandbox } from "../../support/sandbox";
import { drive } from "../../support/store-runtimes";
import { throttledTimers, WAKE_UP_MS } from "../../support/throttled-timers";

const D = "2025-06-15";
const NOON = Date.parse(`${D}T12:00:00Z`);
const MINUTE = 60_000;

const sandbox = useSandbox({ port: 0, today: D, insightFirstCallDelayMs: 0 });
beforeEach(() => sandbox.reset());

/** A year of daily history, settled long ago: 4 symbols × 3 metrics. */
const WORKBOOK: SeriesRequest[] = ["btc", "eth", "sol", "arb"].flatMap((symbol) =>
  ["PRICE", "FEES", "DAU"].map((metric) => ({ symbol, metric, start: "2024-01-01", end: "2024-12-31" })),
);

const stores: PersistentSeriesStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) {
    await store.flush();
    store.close();
  }
});

function runtime(factory: IDBFactory, clock: FakeClock, timers: Timers): Client {
  const store = openSeriesStore({ indexedDB: factory, writeDelayMs: 1, timers, now: clock.now });
  stores.push(store);
  return createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    store,
    now: clock.now,
    timers,
  });
}

const calculate = (client: Client): Promise<SeriesResult[]> => Promise.all(WORKBOOK.map((r) => client.getSeries(r)));
const seriesRequests = () => seriesRequestCount(sandbox);

describe("a reopened workbook in a hidden runtime (timers woken once a second)", () => {
  it("answers its cells from the store before the first wake-up", async () => {
    // The workbook calculated with the pane open, its store closed: what a reopen finds.
    const factory = freshIndexedDb();
    const first = new FakeClock(NOON);
    const answers = await drive(first, calculate(runtime(factory, first, first)));
    expect(seriesRequests()).toBeGreaterThan(0);
    for (const store of stores.splice(0)) {
      await store.flush();
      store.close();
    }
    sandbox.reset();

    // Reopened a minute later with the pane closed, the cells arriving a millisecond after a wake-up.
    const clock = new FakeClock(NOON + MINUTE + 1);
    const start = clock.now();
    let settledAt = NaN;
    const cells = calculate(runtime(factory, clock, throttledTimers(clock))).then((results) => {
      settledAt = clock.now();
      return results;
    });
    // The event loop runs on (message tasks, promise chains, IndexedDB's events) without any timer firing; then,
    // if the cells still wait, the next wake-ups come (bounded: a cell left waiting fails the test, never hangs it).
    for (let turn = 0; turn < 400 && Number.isNaN(settledAt); turn++) await settle(1);
    for (let wakeUp = 0; wakeUp < 5 && Number.isNaN(settledAt); wakeUp++) await clock.advance(WAKE_UP_MS);
    expect(await cells).toEqual(answers);
    expect(seriesRequests()).toBe(0);
    expect(settledAt - start).toBeLessThan(WAKE_UP_MS);
  });
});
