/**
 * A reopened workbook on a busy computer: three CPU-bound processes run
 * beside the test (test/support/busy-cpu.ts), and the reopened runtime's
 * IndexedDB answers its reads late, in proportion to what they read, while
 * the runtime's own thread stays free (test/support/slow-idb.ts: IndexedDB
 * runs in the browser's own process and threads, so a loaded machine delays
 * its answers without delaying the page's timers). A read whose IndexedDB is
 * still answering is waited for: no series request for the stored settled
 * days. A store that answers nothing still ends: the cells come from the
 * network.
 */
import { createClient, type Client } from "../../src/api/client";
import { openSeriesStore } from "../../src/api/store/persistent-store";
import type { PersistentSeriesStore } from "../../src/api/store/types";
import type { SeriesRequest } from "../../src/api/types";
import type { SeriesResult } from "../../src/core/domain";
import { DEMO_API_KEY } from "../../sandbox/server";
import { useBusyCpu } from "../support/busy-cpu";
import { freshIndexedDb } from "../support/fake-idb";
import { seriesRequestCount, useSandbox } from "../support/sandbox";
import { slowReads } from "../support/slow-idb";

const D = "2025-06-15";
const NOON = Date.parse(`${D}T12:00:00Z`);
const MINUTE = 60_000;

const sandbox = useSandbox({ port: 0, today: D, insightFirstCallDelayMs: 0 });
beforeEach(() => sandbox.reset());
useBusyCpu(3);

const SYMBOLS = ["btc", "eth", "sol", "bnb", "trx", "arb", "op", "avax", "sui", "apt"];
const SYMBOLS_2 = ["near", "ton", "uni", "aave", "link", "mkr", "ldo", "crv", "gmx", "jup"];
const METRICS = ["PRICE", "FEES", "DAU"];
/** A year of daily history, settled long ago, for 20 symbols × 3 metrics: 60 series. */
const WORKBOOK: SeriesRequest[] = [...SYMBOLS, ...SYMBOLS_2].flatMap((symbol) =>
  METRICS.map((metric) => ({ symbol, metric, start: "2024-01-01", end: "2024-12-31" })),
);
/**
 * IndexedDB on the busy computer: 4 ms per kilobyte read, so reading the
 * workbook's 60 series (a year each, about 7 KB as JSON) in one request takes
 * about 1.8 s, over the store's 1 s read wait, while IndexedDB answers all
 * along.
 */
const BUSY = { msPerRequest: 5, msPerKb: 4 };

const stores: PersistentSeriesStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) {
    await store.flush();
    store.close();
  }
});

function runtime(factory: IDBFactory, nowMs: number, logs: string[] = []): Client {
  const started = Date.now();
  const store = openSeriesStore({ indexedDB: factory, writeDelayMs: 1, log: (line) => logs.push(line) });
  stores.push(store);
  return createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    store,
    now: () => nowMs + (Date.now() - started),
  });
}

const calculate = (client: Client): Promise<SeriesResult[]> => Promise.all(WORKBOOK.map((r) => client.getSeries(r)));
const seriesRequests = () => seriesRequestCount(sandbox);

/** The workbook calculated cold on a quiet computer, its store closed: what a reopen finds. */
async function stored(): Promise<{ factory: IDBFactory; answers: SeriesResult[] }> {
  const factory = freshIndexedDb();
  const answers = await calculate(runtime(factory, NOON));
  expect(seriesRequests()).toBeGreaterThan(0);
  for (const store of stores.splice(0)) {
    await store.flush();
    store.close();
  }
  sandbox.reset();
  return { factory, answers };
}

describe("a reopened workbook beside three CPU-bound processes", () => {
  it("reads its store while IndexedDB answers slowly: no series request for the stored settled days", async () => {
    const { factory, answers } = await stored();
    const logs: string[] = [];
    const reopened = runtime(slowReads(factory, BUSY), NOON + MINUTE, logs);
    expect(await calculate(reopened)).toEqual(answers);
    expect(seriesRequests()).toBe(0);
    expect(logs.filter((line) => /answered nothing/.test(line))).toEqual([]);
  }, 30_000);

  it("a store that never answers a read still ends: the cells come from the network", async () => {
    const { factory, answers } = await stored();
    const logs: string[] = [];
    const reopened = runtime(slowReads(factory, { msPerRequest: Infinity, msPerKb: 0 }), NOON + MINUTE, logs);
    expect(await calculate(reopened)).toEqual(answers);
    expect(seriesRequests()).toBeGreaterThan(0);
    expect(logs.join("\n")).toMatch(/answered nothing for over 1000 ms/);
  }, 30_000);
});
