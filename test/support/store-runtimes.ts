/**
 * Runtimes over the persistent store on a fake clock, against a sandbox world:
 * each is a client over a store on the IndexedDB factory it is given (a fresh
 * one is a new computer, the same one a reopened workbook), with the clock's
 * time and timers. The stores a test opened are flushed and closed after it.
 */
import { createClient, type Client } from "../../src/api/client";
import { openSeriesStore } from "../../src/api/store/persistent-store";
import type { PersistentSeriesStore } from "../../src/api/store/types";
import type { DataPoint, SeriesResult } from "../../src/core/domain";
import { DEMO_API_KEY } from "../../sandbox/server";
import { addDays } from "../../src/core/calendar";
import type { FakeClock } from "./fake-clock";
import { seriesRequestCount, useSandbox } from "./sandbox";
import { TEST_TODAY } from "./today";

export type StoreRuntime = (factory: IDBFactory, clock: FakeClock) => { client: Client; store: PersistentSeriesStore };

/** Registers the afterEach that closes the stores; call at the top of a suite or describe block. */
export function useStoreRuntimes(sandbox: { url: string }): StoreRuntime {
  const stores: PersistentSeriesStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) {
      await store.flush();
      store.close();
    }
  });
  return (factory, clock) => {
    const store = openSeriesStore({ indexedDB: factory, writeDelayMs: 1 });
    stores.push(store);
    const client = createClient({
      settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
      store,
      now: clock.now,
      timers: clock,
    });
    return { client, store };
  };
}

/** Awaits a call while the fake clock moves on in small steps (the batch window is timed by it). */
export async function drive<T>(clock: FakeClock, promise: Promise<T>): Promise<T> {
  let done = false;
  const watched = promise.finally(() => {
    done = true;
  });
  for (let i = 0; i < 2000 && !done; i++) await clock.advance(5);
  return watched;
}

/** A series answer's points; a message fails the test with its text. */
export function points(result: SeriesResult): DataPoint[] {
  if (result.kind !== "points") throw new Error(`a message: ${result.message}`);
  return result.points;
}

/**
 * The store suites' world: a sandbox whose data runs past every day the fake clock reaches (every window has
 * explicit dates), reset before each test, the runtimes over it, and its count of series requests.
 */
export function useStoreWorld() {
  const sandbox = useSandbox({ today: addDays(TEST_TODAY, 30), insightFirstCallDelayMs: 0 });
  beforeEach(() => sandbox.reset());
  const runtime = useStoreRuntimes(sandbox);
  return { sandbox, runtime, seriesRequests: () => seriesRequestCount(sandbox) };
}
