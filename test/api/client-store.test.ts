/**
 * Warm workbooks: the client over real HTTP against the sandbox, with the
 * persistent store on fake-indexeddb. A "runtime" is a client instance over
 * a store instance; two runtimes over the same IndexedDB factory are a
 * workbook closed and opened again. The clock is the client's `now` option;
 * the sandbox's own today is the latest day any test reaches, and every
 * window carries explicit dates, so the sandbox answers the same whatever the
 * client's clock says.
 */
import { createClient, type Client, type ClientOptions } from "../../src/api/client";
import { NetworkError } from "../../src/api/errors";
import { openSeriesStore } from "../../src/api/store/persistent-store";
import type { PersistentSeriesStore, PersistentSeriesStoreOptions } from "../../src/api/store/types";
import type { SeriesRequest } from "../../src/api/types";
import { addDays } from "../../src/core/calendar";
import type { SeriesResult } from "../../src/core/domain";
import { DEMO_API_KEY } from "../../sandbox/server";
import { dumpStore, failing } from "../support/failing-idb";
import { useSandbox } from "../support/sandbox";
import { freshIndexedDb } from "../support/fake-idb";

const DAY = 86_400_000;
const MINUTE = 60_000;
/** Noon UTC on the first day; the sandbox's data runs to the day after. */
const D = "2025-06-15";
const NOON = Date.parse(`${D}T12:00:00Z`);

const sandbox = useSandbox({ port: 0, today: addDays(D, 1), insightFirstCallDelayMs: 0 });
beforeEach(() => sandbox.reset());

interface Runtime {
  client: Client;
  store: PersistentSeriesStore;
  logs: string[];
  /** Ends the session: every write persisted, the database closed. */
  close(): Promise<void>;
}

const open: Runtime[] = [];
afterEach(async () => {
  for (const runtime of open.splice(0)) await runtime.close();
});

function runtime(
  factory: IDBFactory | null,
  nowMs: number,
  options: Partial<ClientOptions> = {},
  storeOptions: Partial<PersistentSeriesStoreOptions> = {},
): Runtime {
  const logs: string[] = [];
  // The client's clock runs (its batch window is timed by it), starting at `nowMs`.
  const started = Date.now();
  const now = () => nowMs + (Date.now() - started);
  const store = openSeriesStore({ indexedDB: factory, writeDelayMs: 1, ...storeOptions });
  const client = createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    store,
    now,
    retries: 1,
    retryBaseMs: 1,
    retryMaxMs: 5,
    logger: (line) => logs.push(line),
    ...options,
  });
  const r: Runtime = {
    client,
    store,
    logs,
    async close() {
      await store.flush();
      store.close();
    },
  };
  open.push(r);
  return r;
}

/** Series requests the sandbox received since the last reset, as [symbols, startDate, endDate]. */
function seriesRequests(): [string, string | null, string | null][] {
  return sandbox
    .requestLog()
    .filter((entry) => entry.path.startsWith("/data/api/"))
    .map((entry) => {
      const q = new URLSearchParams(entry.query);
      return [q.get("symbols") ?? "", q.get("startDate"), q.get("endDate")];
    });
}

/** The same window straight from the service: a client with no store. */
async function cold(req: SeriesRequest): Promise<SeriesResult> {
  const client = createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }) });
  return client.getSeries(req);
}

function points(result: SeriesResult) {
  if (result.kind !== "points") throw new Error(`a message: ${result.message}`);
  return result.points;
}

const SYMBOLS = ["eth", "btc", "sol"];
const METRICS = ["PRICE", "FEES"];
/** A comps sheet: MD.LATEST's 30-day windows to today, and a year of daily history settled long ago. */
function workbook(today: string): SeriesRequest[] {
  return SYMBOLS.flatMap((symbol) =>
    METRICS.flatMap((metric) => [
      { symbol, metric, start: addDays(today, -30), end: today },
      { symbol, metric, start: "2024-01-01", end: "2024-12-31" },
    ]),
  );
}

async function calculate(client: Client, requests: SeriesRequest[]): Promise<SeriesResult[]> {
  return Promise.all(requests.map((req) => client.getSeries(req)));
}

describe("warm workbooks: a second runtime over the same store", () => {
  it("sends no series request for settled data, and none at all within the unsettled days' freshness", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    const answers = await calculate(first.client, workbook(D));
    expect(seriesRequests().length).toBeGreaterThan(0);
    await first.close();

    sandbox.reset();
    const soon = runtime(factory, NOON + MINUTE);
    expect(await calculate(soon.client, workbook(D))).toEqual(answers);
    expect(seriesRequests()).toEqual([]);
    expect(soon.client.storage()).toMatchObject({ backend: "indexeddb", hits: workbook(D).length });
    expect(soon.client.storage().bytesSaved).toBeGreaterThan(0);
    await soon.close();

    // Later the same day: only today, in one batched request for every pair (yesterday came with real values).
    sandbox.reset();
    const later = runtime(factory, NOON + 3 * 3_600_000);
    expect(await calculate(later.client, workbook(D))).toEqual(answers);
    expect(seriesRequests()).toEqual([["eth,btc,sol", D, D]]);
  });

  it("a simulated next day fetches only the new days (and the ones still unsettled)", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    await calculate(first.client, workbook(D));
    await first.close();

    sandbox.reset();
    const next = addDays(D, 1);
    const second = runtime(factory, NOON + DAY);
    const answers = await calculate(second.client, workbook(next));
    // Settled as of yesterday: everything up to D − 1 (D − 1 had a real value). Fetched: D and the new day.
    expect(seriesRequests()).toEqual([["eth,btc,sol", D, next]]);
    const points = sandbox.requestLog().reduce((sum, entry) => sum + entry.points, 0);
    expect(points).toBe(SYMBOLS.length * METRICS.length * 2);
    // The answers are the service's own.
    const reference = await Promise.all(workbook(next).map(cold));
    expect(answers).toEqual(reference);
  });

  it("fetched in the first two hours of the UTC day, yesterday stays unsettled (a clock ahead of the service's)", async () => {
    const factory = freshIndexedDb();
    const early = Date.parse(`${D}T00:30:00Z`);
    const first = runtime(factory, early);
    await calculate(first.client, workbook(D));
    await first.close();

    sandbox.reset();
    const later = runtime(factory, early + 3 * 3_600_000);
    await calculate(later.client, workbook(D));
    expect(seriesRequests()).toEqual([["eth,btc,sol", addDays(D, -1), D]]);
    await later.close();

    // Fetched again at 03:30, yesterday settled: the next check asks today alone.
    sandbox.reset();
    const afternoon = runtime(factory, early + 12 * 3_600_000);
    await calculate(afternoon.client, workbook(D));
    expect(seriesRequests()).toEqual([["eth,btc,sol", D, D]]);
  });

  it("the settling window is configurable: with seven unsettled days, the next day fetches the newest eight", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON, { unsettledDays: 7 });
    await calculate(first.client, workbook(D));
    await first.close();

    sandbox.reset();
    const next = addDays(D, 1);
    const second = runtime(factory, NOON + DAY, { unsettledDays: 7 });
    const answers = await calculate(second.client, workbook(next));
    // Settled as of yesterday: everything up to D − 7. Fetched: D − 6 … the new day.
    expect(seriesRequests()).toEqual([["eth,btc,sol", addDays(D, -6), next]]);
    expect(answers).toEqual(await Promise.all(workbook(next).map(cold)));
  });

  it("a window reaching further back than the store fetches only the missing head", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    await first.client.getSeries({ symbol: "eth", metric: "PRICE", start: "2024-06-01", end: "2024-12-31" });
    await first.close();
    sandbox.reset();
    const second = runtime(factory, NOON + MINUTE);
    const req = { symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-12-31" };
    expect(await second.client.getSeries(req)).toEqual(await cold(req));
    expect(seriesRequests().slice(0, 1)).toEqual([["eth", "2024-01-01", "2024-05-31"]]);
  });

  it("settled data older than the revalidation age is fetched again", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    await first.client.getSeries({ symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-12-31" });
    await first.close();
    sandbox.reset();
    const second = runtime(factory, NOON + 31 * DAY);
    await second.client.getSeries({ symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-12-31" });
    expect(seriesRequests()).toEqual([["eth", "2024-01-01", "2024-12-31"]]);
  });

  it("a refresh (clear) asks again for the unsettled days, not the settled ones", async () => {
    const r = runtime(freshIndexedDb(), NOON);
    await calculate(r.client, workbook(D));
    sandbox.reset();
    r.client.clear();
    await calculate(r.client, workbook(D));
    expect(seriesRequests()).toEqual([["eth,btc,sol", D, D]]);
  });

  it("weekly series, the free-cash-flow ratios and windows without a start are fetched as before", async () => {
    const factory = freshIndexedDb();
    const requests: SeriesRequest[] = [
      { symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-12-31", granularity: "WEEK" },
      { symbol: "eq-aapl", metric: "FCF_YIELD", start: "2024-01-01", end: "2024-12-31" },
      { symbol: "sol", metric: "PRICE", end: "2024-12-31" },
    ];
    const first = runtime(factory, NOON);
    await calculate(first.client, requests);
    await first.close();
    sandbox.reset();
    const second = runtime(factory, NOON + MINUTE);
    await calculate(second.client, requests);
    expect(seriesRequests().length).toBeGreaterThanOrEqual(3);
    expect(second.client.storage().hits).toBe(0);
  });
});

describe("a pair the service answers with a message", () => {
  const req = { symbol: "defi", metric: "PRICE", start: "2025-05-01", end: "2025-05-31" };

  it("is remembered in the store: answered with it again that day and the next, for a window of settled days", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    const said = await first.client.getSeries(req);
    expect(said).toMatchObject({ kind: "message", message: expect.stringMatching(/not available/) });
    await first.close();

    sandbox.reset();
    const later = runtime(factory, NOON + 5 * 3_600_000);
    expect(await later.client.getSeries(req)).toEqual(said);
    await later.close();
    const nextDay = runtime(factory, NOON + DAY);
    expect(await nextDay.client.getSeries(req)).toEqual(said);
    expect(seriesRequests()).toEqual([]);
  });

  it("a window ending today: the next day asks only the days not settled and the new day, never the whole window", async () => {
    const factory = freshIndexedDb();
    const lookup = (today: string) => [
      { symbol: "defi", metric: "PRICE", start: addDays(today, -29), end: today },
      { symbol: "eth", metric: "PRICE", start: addDays(today, -29), end: today },
    ];
    const first = runtime(factory, NOON);
    const [said] = await calculate(first.client, lookup(D));
    expect(said).toMatchObject({ kind: "message" });
    await first.close();

    // Three hours later: today's point of eth is asked again, the message is not (it holds for its day).
    sandbox.reset();
    const later = runtime(factory, NOON + 3 * 3_600_000);
    expect((await calculate(later.client, lookup(D)))[0]).toEqual(said);
    expect(seriesRequests()).toEqual([["eth", D, D]]);
    await later.close();

    // The next day: the window moved by a day; each pair asks D and the new day only, never its whole window.
    sandbox.reset();
    const next = addDays(D, 1);
    const second = runtime(factory, NOON + DAY);
    const answers = await calculate(second.client, lookup(next));
    expect(seriesRequests()).toEqual([["defi,eth", D, next]]);
    expect(answers).toEqual(await Promise.all(lookup(next).map(cold)));
  });

  it("is asked again whole once the pair has data in the days asked (the stored message may be out of date)", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    const window = { symbol: "eth", metric: "PRICE", start: addDays(D, -9), end: D };
    await first.client.getSeries(window);
    await first.close();
    // What a message stored for eth would look like, had the service said one yesterday.
    const store = openSeriesStore({ indexedDB: factory, writeDelayMs: 1 });
    store.write(
      { baseUrl: sandbox.url, symbol: "eth", metric: "PRICE", granularity: "DAY" },
      {
        ...window,
        fetchedAt: NOON,
        settledThrough: addDays(D, -2),
        settledIfValuedThrough: addDays(D, -1),
        points: [],
        message: "Metric not available.",
      },
    );
    await store.flush();
    store.close();

    sandbox.reset();
    const next = addDays(D, 1);
    const second = runtime(factory, NOON + DAY);
    const moved = { ...window, start: addDays(next, -9), end: next };
    const answer = await second.client.getSeries(moved);
    expect(seriesRequests()).toEqual([
      ["eth", D, next],
      ["eth", addDays(next, -9), next],
    ]);
    expect(answer).toEqual(await cold(moved));
  });
});

describe("Reload everything: a revised history", () => {
  it("is kept from the store on reopen, and picked up once the stored data is dropped", async () => {
    const factory = freshIndexedDb();
    const req = { symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-03-31" };
    const first = runtime(factory, NOON);
    const original = points(await first.client.getSeries(req));
    await first.close();

    sandbox.setRevision(1); // a methodology change doubles every value, history included
    const second = runtime(factory, NOON + MINUTE);
    expect(points(await second.client.getSeries(req))).toEqual(original);
    second.client.clear(); // an ordinary refresh keeps settled days
    expect(points(await second.client.getSeries(req))).toEqual(original);

    await second.client.clearStored(); // Reload everything
    const revised = points(await second.client.getSeries(req));
    expect(revised.map((p) => p.val)).toEqual(original.map((p) => (p.val === null ? null : p.val * 2)));
    await second.close();

    // The revision is what the next session finds.
    const third = runtime(factory, NOON + 2 * MINUTE);
    expect(points(await third.client.getSeries(req))).toEqual(revised);
  });
});

describe("a full or failing store never fails a cell", () => {
  const reqs = () => workbook(D);

  it.each<[string, () => { factory: IDBFactory | null; store?: Partial<PersistentSeriesStoreOptions> }]>([
    ["no IndexedDB at all", () => ({ factory: null })],
    ["a store too small for one series", () => ({ factory: freshIndexedDb(), store: { maxBytes: 100 } })],
    [
      "a store at the browser's quota on every write",
      () => ({ factory: failing(freshIndexedDb(), { writes: "quota" }) }),
    ],
    ["a store whose writes fail", () => ({ factory: failing(freshIndexedDb(), { writes: "error" }) })],
    ["a store whose reads fail", () => ({ factory: failing(freshIndexedDb(), { reads: true }) })],
    ["a store that refuses to open", () => ({ factory: failing(freshIndexedDb(), { open: "throw" }) })],
    [
      "a store that never opens",
      () => ({ factory: failing(freshIndexedDb(), { open: "hang" }), store: { openWaitMs: 20 } }),
    ],
  ])("%s", async (_name, make) => {
    const { factory, store } = make();
    const reference = await Promise.all(reqs().map(cold));
    sandbox.reset();
    const r = runtime(factory, NOON, {}, store);
    expect(await calculate(r.client, reqs())).toEqual(reference);
    // Recalculated in the same session: still right, whatever the store kept.
    expect(await calculate(r.client, reqs())).toEqual(reference);
    await r.close();
    const again = runtime(factory, NOON + MINUTE, {}, store);
    expect(await calculate(again.client, reqs())).toEqual(reference);
  });
});

describe("offline: the service cannot be reached", () => {
  it("cells whose data is in the store still calculate, and the client says from when", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    const answers = await calculate(first.client, workbook(D));
    const assets = await first.client.getAssets();
    await first.close();

    sandbox.setFaults({ dropRate: 1 });
    const next = runtime(factory, NOON + DAY);
    expect(next.client.storage().offlineSince).toBeNull();
    // The next day's windows: the new day was never fetched, the rest is shown as stored.
    const shown = await calculate(next.client, workbook(addDays(D, 1)));
    workbook(addDays(D, 1)).forEach((req, i) => {
      const stored = points(answers[i]!).filter((p) => p.date >= req.start!);
      expect(points(shown[i]!)).toEqual(stored);
    });
    expect(next.client.storage().offlineSince).toBe(D);
    expect(next.logs.join("\n")).toMatch(/service unreachable: .* answered from data stored/);
    // Catalogs too, past their hour.
    expect(await next.client.getAssets()).toEqual(assets);

    // A window the store never held fails as before.
    await expect(
      next.client.getSeries({ symbol: "eth", metric: "PRICE", start: "2020-01-01", end: "2020-02-01" }),
    ).rejects.toBeInstanceOf(NetworkError);

    // A refresh once the service is back: current data, the notice gone.
    sandbox.setFaults({ dropRate: 0 });
    next.client.clear();
    expect(next.client.storage().offlineSince).toBeNull();
    expect(await calculate(next.client, workbook(addDays(D, 1)))).toEqual(
      await Promise.all(workbook(addDays(D, 1)).map(cold)),
    );
    expect(next.client.storage().offlineSince).toBeNull();
  });
});

describe("catalogs and insight feeds keep their one-hour freshness across runtimes", () => {
  it("are answered from the store within the hour and fetched again after it", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    const assets = await first.client.getAssets();
    const feed = await first.client.getInsights("streaks");
    await first.close();

    sandbox.reset();
    const soon = runtime(factory, NOON + 30 * MINUTE);
    expect(await soon.client.getAssets()).toEqual(assets);
    expect(await soon.client.getInsights("streaks")).toEqual(feed);
    expect(sandbox.requestLog()).toEqual([]);
    await soon.close();

    const late = runtime(factory, NOON + 61 * MINUTE);
    await late.client.getAssets();
    expect(sandbox.requestLog().map((e) => e.path)).toEqual(["/asset/symbols/"]);
  });

  it("a refresh fetches them again even within the hour", async () => {
    const r = runtime(freshIndexedDb(), NOON);
    await r.client.getAssets();
    r.client.clear();
    sandbox.reset();
    await r.client.getAssets();
    expect(sandbox.requestLog()).toHaveLength(1);
  });
});

describe("value preview answers from the store", () => {
  it("a stored window is previewed without a request, even one whose unsettled days are stale", async () => {
    const factory = freshIndexedDb();
    const first = runtime(factory, NOON);
    const answers = await calculate(first.client, workbook(D));
    const assets = await first.client.getAssets();
    await first.close();

    sandbox.reset();
    const next = runtime(factory, NOON + 3 * 3_600_000);
    const previews = await Promise.all(workbook(D).map((req) => next.client.getSeries(req, { cacheOnly: true })));
    expect(previews).toEqual(answers);
    expect(await next.client.getAssets({ cacheOnly: true })).toEqual(assets);
    expect(sandbox.requestLog()).toEqual([]);
    await expect(
      next.client.getSeries(
        { symbol: "eth", metric: "PRICE", start: "2020-01-01", end: "2020-02-01" },
        { cacheOnly: true },
      ),
    ).rejects.toMatchObject({ kind: "not-cached" });
  });
});

describe("what the store holds", () => {
  it("never the API key, whatever was fetched", async () => {
    const factory = freshIndexedDb();
    const r = runtime(factory, NOON);
    await calculate(r.client, workbook(D));
    await r.client.getAssets();
    await r.client.getInsights("streaks");
    await r.close();
    const text = await dumpStore(factory);
    expect(text.length).toBeGreaterThan(10_000);
    expect(text).toContain(sandbox.url);
    expect(text).not.toContain(DEMO_API_KEY);
    expect(text.toLowerCase()).not.toContain("apikey");
  });
});
