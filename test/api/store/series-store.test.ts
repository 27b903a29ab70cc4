/**
 * The persistent series store over fake-indexeddb (an in-memory implementation
 * of the IndexedDB API): persistence across instances, the versioned layout,
 * the size cap with least-recently-used eviction, and the memory-only fallback
 * whenever IndexedDB is missing, slow or failing.
 */
import { addDays } from "../../../src/core/calendar";
import { openSeriesStore } from "../../../src/api/store/persistent-store";
import { READ_PAGE } from "../../../src/api/store/indexeddb-requests";
import { READ_WAIT_MAX_STEPS } from "../../../src/api/store/read-deadline";
import {
  seriesKey,
  STORE_DB_NAME,
  STORE_DB_VERSION,
  type SeriesId,
  type PersistentSeriesStore,
  type PersistentSeriesStoreOptions,
  type FetchedRange,
  type StoredPoint,
  STORE_DEFAULTS,
} from "../../../src/api/store/types";
import { FakeClock, settle } from "../../support/fake-clock";
import { drive } from "../../support/store-runtimes";
import { dumpStore, failing } from "../../support/failing-idb";
import { freshIndexedDb } from "../../support/fake-idb";
import { IDBObjectStore } from "fake-indexeddb";

const BASE = "https://md.example.test/api";
const AT = Date.parse("2025-06-15T12:00:00Z");

function id(symbol: string, metric = "PRICE"): SeriesId {
  return { baseUrl: BASE, symbol, metric, granularity: "DAY" };
}

function answer(start: string, end: string, at = AT): FetchedRange {
  const points: StoredPoint[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) points.push({ date: d, val: Number(d.slice(8)) });
  return { start, end, fetchedAt: at, settledThrough: "2025-06-12", points };
}

const stores: PersistentSeriesStore[] = [];
function open(options: PersistentSeriesStoreOptions): PersistentSeriesStore {
  const store = openSeriesStore({ writeDelayMs: 1, ...options });
  stores.push(store);
  return store;
}
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
});

/** Every value held in a fake IndexedDB, as JSON text (to look for what must never be stored). */

/** Requests asked of IndexedDB while `during` runs: IDBObjectStore.get by object store, and getAll as "<store> (all)". */
async function countGets(during: () => Promise<void>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const { get, getAll } = IDBObjectStore.prototype;
  IDBObjectStore.prototype.get = function (this: IDBObjectStore, ...args: Parameters<typeof get>) {
    counts[this.name] = (counts[this.name] ?? 0) + 1;
    return get.apply(this, args);
  };
  IDBObjectStore.prototype.getAll = function (this: IDBObjectStore, ...args: Parameters<typeof getAll>) {
    counts[`${this.name} (all)`] = (counts[`${this.name} (all)`] ?? 0) + 1;
    return getAll.apply(this, args);
  };
  try {
    await during();
  } finally {
    Object.assign(IDBObjectStore.prototype, { get, getAll });
  }
  return counts;
}

/** Puts into IndexedDB, by store name, while `during` runs. */
async function countPuts(during: (puts: Record<string, number>) => Promise<void>): Promise<Record<string, number>> {
  const puts: Record<string, number> = {};
  const { put } = IDBObjectStore.prototype;
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
    puts[this.name] = (puts[this.name] ?? 0) + 1;
    return put.apply(this, args);
  };
  try {
    await during(puts);
  } finally {
    Object.assign(IDBObjectStore.prototype, { put });
  }
  return puts;
}

/** Lets IndexedDB's events run until `done` holds (bounded: a write that never comes fails the test, never hangs it). */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 500 && !done(); turn += 1) await settle(1);
}

describe("series store over IndexedDB", () => {
  it("reads each key it holds once however many callers ask, never a key it does not hold, and keeps usage without reading it", async () => {
    const factory = freshIndexedDb();
    const first = open({ indexedDB: factory, now: () => AT });
    const symbols = ["eth", "btc", "sol"];
    const cold = await countGets(async () => {
      expect(await first.read(id("eth"))).toBeUndefined();
      for (const symbol of symbols) first.write(id(symbol), answer("2025-06-01", "2025-06-15"));
      await first.flush();
    });
    // Opened empty (the open reads the usage rows): no read for the miss; the write reads the series it merges into, never the usage row.
    expect(cold).toEqual({ "usage (all)": 1, series: symbols.length });
    first.close();

    const later = AT + 3_600_000;
    const second = open({ indexedDB: factory, now: () => later });
    let reads: (number | undefined)[] = [];
    const warm = await countGets(async () => {
      // Ten cells per series, asked at once, and a series never stored.
      const asked = [...symbols.flatMap((s) => Array.from({ length: 10 }, () => id(s))), id("doge")];
      reads = (await Promise.all(asked.map((x) => second.read(x)))).map((data) => data?.dates.length);
      await second.flush();
    });
    expect(reads).toEqual([...Array.from({ length: 30 }, () => 15), undefined]);
    expect(warm).toEqual({ "usage (all)": 1, series: symbols.length });
    second.close();
    // The uses were recorded all the same: each series' usage row says it was used now, its size unchanged.
    const dumped = JSON.parse(await dumpStore(factory)) as { key?: string; usedAt?: number; bytes?: number }[][];
    const usage = dumped.flat().filter((row) => row.usedAt !== undefined);
    const records = dumped.flat().filter((row) => row.usedAt === undefined && row.bytes !== undefined);
    expect(usage.map((row) => row.usedAt)).toEqual(symbols.map(() => later));
    expect(usage.map((row) => row.bytes).sort()).toEqual(records.map((row) => row.bytes).sort());
  });

  it("writes a use alone down a second later, not amid a recalculation's reads; an answer to keep takes the uses with it", async () => {
    const factory = freshIndexedDb();
    const first = open({ indexedDB: factory });
    for (const symbol of ["btc", "eth"]) first.write(id(symbol), answer("2025-06-01", "2025-06-15"));
    await first.flush();
    first.close();

    const clock = new FakeClock(AT + 3_600_000);
    const second = open({
      indexedDB: factory,
      timers: clock,
      now: clock.now,
      writeDelayMs: STORE_DEFAULTS.writeDelayMs,
    });
    const puts = await countPuts(async (counted) => {
      // The store's reads start on the runtime's timers (a 0 ms wait): the clock moves them on.
      expect(await drive(clock, second.read(id("btc")))).toBeDefined();
      // Past the answers' delay: the use waits (a recalculation's cells read on meanwhile).
      await clock.advance(STORE_DEFAULTS.writeDelayMs + 10);
      await settle(20);
      expect(counted).toEqual({});
      await clock.advance(STORE_DEFAULTS.useWriteDelayMs);
      await until(() => (counted.usage ?? 0) > 0);
      expect(counted).toEqual({ usage: 1 });

      // A use, then an answer to keep: written together after the answers' delay.
      expect(await drive(clock, second.read(id("eth")))).toBeDefined();
      second.write(id("sol"), answer("2025-06-01", "2025-06-15"));
      await clock.advance(STORE_DEFAULTS.writeDelayMs);
      await until(() => (counted.series ?? 0) > 0 && (counted.usage ?? 0) >= 3);
    });
    expect(puts).toEqual({ usage: 3, series: 1 });
  });

  it("a reopened workbook asking for most of what is stored at once: one request a page of records, not one a key", async () => {
    const factory = freshIndexedDb();
    const first = open({ indexedDB: factory });
    const symbols = Array.from({ length: 40 }, (_, i) => `tok${i}`);
    for (const symbol of symbols) first.write(id(symbol), answer("2025-06-01", "2025-06-15"));
    await first.flush();
    first.close();

    const second = open({ indexedDB: factory });
    const asked = symbols.slice(0, 30).map((s) => id(s));
    let lengths: (number | undefined)[] = [];
    const counts = await countGets(async () => {
      lengths = (await Promise.all(asked.map((x) => second.read(x)))).map((data) => data?.dates.length);
    });
    expect(lengths).toEqual(asked.map(() => 15));
    // The open's one read of the usage rows, and the 40 series stored a page of READ_PAGE at a time (each page an
    // answer the read's wait sees: read-deadline.ts).
    expect(counts).toEqual({ "usage (all)": 1, "series (all)": Math.ceil(symbols.length / READ_PAGE) });
    // A few more of them later: key by key.
    const third = open({ indexedDB: factory });
    const few = await countGets(async () => {
      expect((await third.read(id("tok39")))?.dates).toHaveLength(15);
    });
    expect(few).toEqual({ "usage (all)": 1, series: 1 });
  });

  it("keeps what a first session stored for a second one, key by (base address, symbol, metric, granularity)", async () => {
    const factory = freshIndexedDb();
    const first = open({ indexedDB: factory });
    expect(await first.read(id("eth"))).toBeUndefined();
    first.write(id("eth"), answer("2025-06-01", "2025-06-15"));
    first.write(id("eth", "FEES"), answer("2025-06-10", "2025-06-15"));
    first.write({ ...id("eth"), baseUrl: "https://other.example/api" }, answer("2025-01-01", "2025-01-02"));
    await first.flush();
    expect(first.info()).toMatchObject({ backend: "indexeddb", series: 3 });
    first.close();

    const second = open({ indexedDB: factory });
    const eth = await second.read(id("eth"));
    expect(eth?.dates).toHaveLength(15);
    expect(eth?.ranges.map((r) => [r.start, r.end, r.settled])).toEqual([
      ["2025-06-01", "2025-06-12", true],
      ["2025-06-13", "2025-06-15", false],
    ]);
    expect((await second.read(id("eth", "FEES")))?.dates).toHaveLength(6);
    expect((await second.read({ ...id("eth"), baseUrl: "https://other.example/api" }))?.dates).toHaveLength(2);
    expect(await second.read(id("btc"))).toBeUndefined();
    expect(second.info()).toMatchObject({ backend: "indexeddb", series: 3 });
  });

  it("a read's wait counts only the steps the thread was free for, and still ends", async () => {
    const factory = freshIndexedDb();
    const first = open({ indexedDB: factory });
    first.write(id("eth"), answer("2025-06-01", "2025-06-15"));
    first.write(id("btc"), answer("2025-06-01", "2025-06-15"));
    first.write(id("sol"), answer("2025-06-01", "2025-06-15"));
    first.write(id("ada"), answer("2025-06-01", "2025-06-15"));
    await first.flush();
    first.close();

    // Timers fired by hand, and a clock moved by hand: a step's timer firing late is the thread busy meanwhile.
    const due: { run: () => void; ms: number }[] = [];
    const timers = {
      setTimeout: (run: () => void, ms: number) => {
        const timer = { run, ms };
        due.push(timer);
        return timer;
      },
      clearTimeout: (timer: unknown) => {
        const i = due.indexOf(timer as (typeof due)[number]);
        if (i >= 0) due.splice(i, 1);
      },
    };
    let clock = AT;
    const store = open({ indexedDB: factory, timers, now: () => clock, readWaitMs: 1000, openWaitMs: 1000 });
    /** Fires the timers due after `ms` (each once, in order); the clock moves by `late` for each. */
    const fire = (ms: number, late: number) => {
      for (const timer of due.filter((t) => t.ms === ms)) {
        timers.clearTimeout(timer);
        clock += late;
        timer.run();
      }
    };
    const settle = async <T>(read: Promise<T>): Promise<T> => {
      // The store batches reads on a zero-delay timer; its IndexedDB work runs on the event loop.
      while (due.some((t) => t.ms === 0)) fire(0, 0);
      return read;
    };

    // Opened by a first read.
    expect((await settle(store.read(id("eth"))))?.dates).toHaveLength(15);

    // The thread busy for seconds at every step of the wait: the read is still waited for and answered.
    const busy = store.read(id("btc"));
    fire(0, 0);
    for (let step = 0; step < 20; step++) fire(100, 5_000);
    expect((await busy)?.dates).toHaveLength(15);

    // A thread free all along: the wait ends after its ten steps, answered "not stored" (the network's turn).
    const free = store.read(id("sol"));
    fire(0, 0);
    for (let step = 0; step < 10; step++) fire(100, 100);
    expect(await free).toBeUndefined();

    // Busy forever: the wait still ends, after its READ_WAIT_MAX_STEPS steps counted or not.
    const stuck = store.read(id("ada"));
    fire(0, 0);
    for (let step = 0; step < READ_WAIT_MAX_STEPS; step++) fire(100, 5_000);
    expect(await stuck).toBeUndefined();
  });

  it("merges a later answer into the stored record rather than replacing it", async () => {
    const factory = freshIndexedDb();
    const first = open({ indexedDB: factory });
    first.write(id("eth"), answer("2025-06-01", "2025-06-15"));
    await first.flush();
    first.close();
    // Another session that never read the record adds the next day.
    const second = open({ indexedDB: factory });
    second.write(id("eth"), answer("2025-06-13", "2025-06-16", AT + 86_400_000));
    await second.flush();
    second.close();
    const third = open({ indexedDB: factory });
    const data = await third.read(id("eth"));
    expect(data?.dates[0]).toBe("2025-06-01");
    expect(data?.dates[data.dates.length - 1]).toBe("2025-06-16");
  });

  it("keeps catalog answers for offline reading", async () => {
    const factory = freshIndexedDb();
    const first = open({ indexedDB: factory });
    first.writeAnswer(`${BASE} ["assets"]`, [{ symbol: "eth" }], AT, 100);
    await first.flush();
    first.close();
    const second = open({ indexedDB: factory });
    expect(await second.readAnswer(`${BASE} ["assets"]`)).toEqual({
      value: [{ symbol: "eth" }],
      fetchedAt: AT,
      bytes: 100,
    });
    expect(await second.readAnswer(`${BASE} ["metrics","eth"]`)).toBeUndefined();
  });

  it("record keys never carry credentials typed into the base address", async () => {
    const factory = freshIndexedDb();
    const store = open({ indexedDB: factory });
    store.write(
      { ...id("eth"), baseUrl: "https://user:s3cr3t-pass@md.example.test/api" },
      answer("2025-06-01", "2025-06-02"),
    );
    await store.flush();
    const text = await dumpStore(factory);
    expect(text).toContain("md.example.test/api");
    expect(text).not.toContain("s3cr3t-pass");
    expect(seriesKey({ ...id("eth"), baseUrl: "https://user:s3cr3t-pass@md.example.test/api" })).toBe(
      seriesKey(id("eth")),
    );
  });

  it("clear() empties memory and IndexedDB", async () => {
    const factory = freshIndexedDb();
    const store = open({ indexedDB: factory });
    store.write(id("eth"), answer("2025-06-01", "2025-06-15"));
    store.writeAnswer("k", 1, AT, 10);
    await store.flush();
    await store.clear();
    expect(await store.read(id("eth"))).toBeUndefined();
    expect(store.info()).toMatchObject({ backend: "indexeddb", series: 0, bytes: 0 });
    store.close();
    const again = open({ indexedDB: factory });
    expect(await again.read(id("eth"))).toBeUndefined();
    expect(await again.readAnswer("k")).toBeUndefined();
  });

  it("over the size cap, the least recently used series go first", async () => {
    const factory = freshIndexedDb();
    let now = AT;
    const tick = () => (now += 1000);
    // One 31-day record is about 1 KB; the cap holds about three.
    const store = open({ indexedDB: factory, maxBytes: 3500, now: () => now });
    for (const symbol of ["a", "b", "c"]) {
      tick();
      store.write(id(symbol), answer("2025-05-01", "2025-05-31"));
      await store.flush();
    }
    tick();
    await store.read(id("a")); // a is used again: b is now the least recently used
    await store.flush();
    tick();
    store.write(id("d"), answer("2025-05-01", "2025-05-31"));
    await store.flush();
    expect(store.info().bytes).toBeLessThanOrEqual(3500);
    store.close();

    const later = open({ indexedDB: factory });
    expect(await later.read(id("b"))).toBeUndefined();
    expect(await later.read(id("a"))).toBeDefined();
    expect(await later.read(id("d"))).toBeDefined();
  });

  it("drops a store of another layout and starts over", async () => {
    const factory = freshIndexedDb();
    await new Promise<void>((resolve) => {
      const request = factory.open(STORE_DB_NAME, STORE_DB_VERSION);
      request.onupgradeneeded = () => request.result.createObjectStore("legacy");
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
    });
    const store = open({ indexedDB: factory });
    store.write(id("eth"), answer("2025-06-01", "2025-06-02"));
    await store.flush();
    expect(store.info().backend).toBe("indexeddb");
    store.close();
    expect((await open({ indexedDB: factory }).read(id("eth")))?.dates).toHaveLength(2);
  });

  it("a store written by a newer version of the add-in leaves this one memory only, saying why", async () => {
    const factory = freshIndexedDb();
    await new Promise<void>((resolve) => {
      const request = factory.open(STORE_DB_NAME, STORE_DB_VERSION + 1);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
    });
    const store = open({ indexedDB: factory });
    expect(await store.read(id("eth"))).toBeUndefined();
    expect(store.info()).toMatchObject({ backend: "memory", reason: expect.stringMatching(/newer version/) });
    store.write(id("eth"), answer("2025-06-01", "2025-06-02"));
    expect((await store.read(id("eth")))?.dates).toHaveLength(2);
  });
});

describe("series store: memory only where IndexedDB is missing or fails, never an error", () => {
  it("without IndexedDB it keeps the session's answers in memory", async () => {
    const store = open({ indexedDB: null });
    expect(store.info()).toMatchObject({ backend: "memory", reason: "IndexedDB is not available here" });
    store.write(id("eth"), answer("2025-06-01", "2025-06-15"));
    expect((await store.read(id("eth")))?.dates).toHaveLength(15);
    await expect(store.flush()).resolves.toBeUndefined();
    await expect(store.clear()).resolves.toBeUndefined();
    expect(await store.read(id("eth"))).toBeUndefined();
  });

  it("memory only is capped too: least recently used first", async () => {
    const store = open({ indexedDB: null, memoryMaxBytes: 2500 });
    store.write(id("a"), answer("2025-05-01", "2025-05-31"));
    store.write(id("b"), answer("2025-05-01", "2025-05-31"));
    await store.read(id("a"));
    store.write(id("c"), answer("2025-05-01", "2025-05-31"));
    expect(await store.read(id("b"))).toBeUndefined();
    expect(await store.read(id("a"))).toBeDefined();
    expect(store.info().bytes).toBeLessThanOrEqual(2500);
  });

  it("IndexedDB refusing to open (a private window): memory only", async () => {
    const store = open({ indexedDB: failing(freshIndexedDb(), { open: "throw" }) });
    expect(await store.read(id("eth"))).toBeUndefined();
    expect(store.info()).toMatchObject({
      backend: "memory",
      reason: expect.stringMatching(/refused to open.*SecurityError/),
    });
  });

  it("IndexedDB that never opens: the first read waits the bounded time once, later ones not at all", async () => {
    const store = open({ indexedDB: failing(freshIndexedDb(), { open: "hang" }), openWaitMs: 100 });
    const started = performance.now();
    expect(await store.read(id("eth"))).toBeUndefined();
    const first = performance.now() - started;
    expect(first).toBeGreaterThanOrEqual(90);
    expect(first).toBeLessThan(1000);
    const again = performance.now();
    expect(await store.read(id("btc"))).toBeUndefined();
    expect(performance.now() - again).toBeLessThan(90);
    // Answers still land in memory meanwhile.
    store.write(id("eth"), answer("2025-06-01", "2025-06-02"));
    expect((await store.read(id("eth")))?.dates).toHaveLength(2);
    expect(store.info().backend).toBe("opening");
  });

  it("the browser's quota once: evicts and writes again", async () => {
    const factory = freshIndexedDb();
    const store = open({ indexedDB: failing(factory, { writes: "quota-once" }) });
    store.write(id("eth"), answer("2025-06-01", "2025-06-02"));
    await store.flush();
    expect(store.info().backend).toBe("indexeddb");
    store.close();
    expect((await open({ indexedDB: factory }).read(id("eth")))?.dates).toHaveLength(2);
  });

  it("writes that keep failing: memory only after the second failure, answers kept in memory", async () => {
    const logs: string[] = [];
    const store = open({ indexedDB: failing(freshIndexedDb(), { writes: "error" }), log: (l) => logs.push(l) });
    store.write(id("eth"), answer("2025-06-01", "2025-06-02"));
    await store.flush();
    store.write(id("btc"), answer("2025-06-01", "2025-06-03"));
    await store.flush();
    expect(store.info()).toMatchObject({ backend: "memory", reason: expect.stringMatching(/writing failed twice/) });
    expect((await store.read(id("eth")))?.dates).toHaveLength(2);
    expect((await store.read(id("btc")))?.dates).toHaveLength(3);
    expect(logs.join("\n")).toMatch(/InvalidStateError/);
  });

  it("reads that fail: a miss, then memory only", async () => {
    // A series IndexedDB holds: a key it does not hold is answered without a read.
    const factory = freshIndexedDb();
    const writer = open({ indexedDB: factory });
    writer.write(id("eth"), answer("2025-06-01", "2025-06-02"));
    await writer.flush();
    writer.close();
    const store = open({ indexedDB: failing(factory, { reads: true }) });
    expect(await store.read(id("eth"))).toBeUndefined();
    expect(store.info()).toMatchObject({ backend: "memory", reason: expect.stringMatching(/reading failed/) });
  });
});
