/**
 * The persistent store behind warm workbooks (DESIGN "Persistent cache"):
 * series points per (base address, symbol, metric, granularity) with the
 * date ranges known and when they were fetched, plus catalog and insight-feed
 * answers for offline reading. It lives in IndexedDB in the add-in's webview
 * (OfficeRuntime.storage holds 10 MB and is for settings) and never holds the
 * API key: answers are the same whatever key fetched them.
 *
 * It is a cache, so it may fail in any way without failing a cell:
 * - IndexedDB missing (a private window, an old webview), refusing to open,
 *   or failing later → memory only for the rest of the session, with the
 *   reason kept for the pane;
 * - slow to open → a read waits a bounded time once, then answers from memory
 *   (a miss) while the open completes in the background;
 * - full (over the size cap, or the browser's quota) → least recently used
 *   series go first.
 *
 * Reads and writes are batched: a recalculation of a thousand cells costs a
 * few transactions, not a thousand. Every record kept in memory (the session's
 * working set, capped too) is answered without touching IndexedDB again.
 *
 * The schema is versioned (`STORE_DB_VERSION`): a version change drops and
 * recreates every object store, which only costs a refetch.
 */
import type { Granularity } from "../core/domain";
import { mergeFetched, type FetchedRange, type SeriesData } from "./store-plan";
import { globalTimers, type Timers } from "./timers";

export const STORE_DB_NAME = "market-data-store";
export const STORE_DB_VERSION = 1;
const SERIES = "series";
const ANSWERS = "answers";
const USAGE = "usage";
/** Series whose writes may wait for IndexedDB to open; beyond, they stay in memory only. */
const MAX_WAITING_WRITES = 5000;

export const STORE_DEFAULTS = {
  /** The IndexedDB size cap; least recently used series go first beyond it. */
  maxBytes: 200 * 1024 * 1024,
  /** The session's working set kept in memory (all of the store when IndexedDB is unavailable). */
  memoryMaxBytes: 32 * 1024 * 1024,
  /**
   * How long reads wait for IndexedDB to open, once per session; then memory
   * only until it has. Opening takes milliseconds on a healthy machine; on a
   * loaded one it can take hundreds, and giving up means fetching the whole
   * workbook again, so the wait is generous, but bounded.
   */
  openWaitMs: 1000,
  /** How long one read waits for IndexedDB before counting as a miss. */
  readWaitMs: 1000,
  /** Writes are gathered for this long into one transaction. */
  writeDelayMs: 50,
} as const;

export interface SeriesStoreOptions {
  /** Default `globalThis.indexedDB`; null or missing → memory only. */
  indexedDB?: IDBFactory | null;
  /** Default STORE_DB_NAME. */
  name?: string;
  maxBytes?: number;
  memoryMaxBytes?: number;
  openWaitMs?: number;
  readWaitMs?: number;
  writeDelayMs?: number;
  timers?: Timers;
  now?: () => number;
  log?: (line: string) => void;
}

/** Which series a record holds. The base address is stored without any user:password part. */
export interface SeriesId {
  baseUrl: string;
  symbol: string;
  metric: string;
  granularity: Granularity;
}

export interface StoredAnswer {
  value: unknown;
  fetchedAt: number;
  /** The answer's size as received, bytes. */
  bytes: number;
}

export interface StoreInfo {
  /** "opening": IndexedDB not open yet (reads answer from memory meanwhile). */
  backend: "indexeddb" | "opening" | "memory";
  /** Why the store is memory only, when it is. */
  reason?: string;
  /** Series held (in IndexedDB, or in memory when memory only). */
  series: number;
  bytes: number;
  maxBytes: number;
}

export interface SeriesStore {
  read(id: SeriesId): Promise<SeriesData | undefined>;
  /** Records an answer; persisted in the background. Never throws. */
  write(id: SeriesId, fetched: FetchedRange): void;
  readAnswer(key: string): Promise<StoredAnswer | undefined>;
  writeAnswer(key: string, value: unknown, fetchedAt: number, bytes: number): void;
  /** Empties memory and IndexedDB. Never rejects. */
  clear(): Promise<void>;
  info(): StoreInfo;
  /** Resolves once every write made so far is persisted (or given up). */
  flush(): Promise<void>;
  /** Closes the database; the store is memory only afterwards. */
  close(): void;
}

/** The record's key: JSON of its parts, so no separator can be ambiguous. */
export function seriesKey(id: SeriesId): string {
  return JSON.stringify([storeBaseUrl(id.baseUrl), id.symbol, id.metric, id.granularity]);
}

/** A base address as the store keeps it: without credentials in the authority, if anyone typed them. */
export function storeBaseUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (!url.username && !url.password) return baseUrl;
    url.username = "";
    url.password = "";
    return url.toString().replace(/\/+$/, "");
  } catch {
    return baseUrl;
  }
}

interface SeriesRecord extends SeriesData, SeriesId {
  key: string;
  bytes: number;
}

interface AnswerRecord extends StoredAnswer {
  key: string;
}

interface UsageRow {
  key: string;
  kind: "series" | "answer";
  bytes: number;
  usedAt: number;
}

type MemoryEntry =
  | { kind: "series"; id: SeriesId; data: SeriesData; bytes: number }
  | { kind: "answer"; answer: StoredAnswer; bytes: number };

interface PendingWrite {
  kind: "series" | "answer";
  id?: SeriesId;
  ops: FetchedRange[];
  answer?: AnswerRecord;
}

interface PendingRead {
  kind: "series" | "answer";
  key: string;
  resolve(value: SeriesData | StoredAnswer | undefined): void;
}

export function seriesBytes(data: SeriesData): number {
  return 160 + data.dates.length * 24 + data.ranges.length * 48;
}

function isSeriesRecord(value: unknown): value is SeriesRecord {
  const r = value as SeriesRecord | undefined;
  return (
    typeof r === "object" &&
    r !== null &&
    Array.isArray(r.ranges) &&
    Array.isArray(r.dates) &&
    Array.isArray(r.vals) &&
    r.dates.length === r.vals.length
  );
}

function errorText(error: unknown): string {
  if (error && typeof error === "object" && "name" in error) {
    const { name, message } = error as { name: unknown; message?: unknown };
    return message ? `${String(name)}: ${String(message)}` : String(name);
  }
  return String(error);
}

export function openSeriesStore(options: SeriesStoreOptions = {}): SeriesStore {
  return new IndexedDbSeriesStore(options);
}

class IndexedDbSeriesStore implements SeriesStore {
  private readonly factory: IDBFactory | null;
  private readonly name: string;
  private readonly o: {
    maxBytes: number;
    memoryMaxBytes: number;
    openWaitMs: number;
    readWaitMs: number;
    writeDelayMs: number;
  };
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly log: (line: string) => void;

  private db: IDBDatabase | null = null;
  private opening: Promise<IDBDatabase | null> | null = null;
  /** Resolves when the one bounded wait for the open has passed (or the open ended). */
  private openWait: Promise<void> | null = null;
  private memoryOnly: string | null = null;

  private readonly memory = new Map<string, MemoryEntry>();
  private memoryBytes = 0;
  private dbBytes = 0;
  private dbSeries = 0;

  private pendingReads: PendingRead[] = [];
  private readTimer: unknown = undefined;
  private pendingWrites = new Map<string, PendingWrite>();
  private touched = new Set<string>();
  private writeTimer: unknown = undefined;
  private writing: Promise<void> = Promise.resolve();
  private failedWrites = 0;
  private generation = 0;
  private clearOnOpen = false;
  private readonly waits = new Set<() => void>();
  private rebuilt = false;
  private writesWaitForOpen = false;

  constructor(options: SeriesStoreOptions) {
    const factory =
      options.indexedDB === undefined
        ? ((globalThis as { indexedDB?: IDBFactory }).indexedDB ?? null)
        : options.indexedDB;
    this.factory = factory;
    this.name = options.name ?? STORE_DB_NAME;
    this.o = {
      maxBytes: options.maxBytes ?? STORE_DEFAULTS.maxBytes,
      memoryMaxBytes: options.memoryMaxBytes ?? STORE_DEFAULTS.memoryMaxBytes,
      openWaitMs: options.openWaitMs ?? STORE_DEFAULTS.openWaitMs,
      readWaitMs: options.readWaitMs ?? STORE_DEFAULTS.readWaitMs,
      writeDelayMs: options.writeDelayMs ?? STORE_DEFAULTS.writeDelayMs,
    };
    this.timers = options.timers ?? globalTimers;
    this.now = options.now ?? Date.now;
    const log = options.log;
    this.log = (line) => {
      try {
        log?.(`stored data: ${line}`);
      } catch {
        // A broken logger must not break the store.
      }
    };
    if (!factory) this.memoryOnly = "IndexedDB is not available here";
  }

  // ------------------------------------------------------------ reading

  read(id: SeriesId): Promise<SeriesData | undefined> {
    const key = seriesKey(id);
    const entry = this.memoryGet(key);
    if (entry?.kind === "series") return Promise.resolve(entry.data);
    return this.readThrough("series", key) as Promise<SeriesData | undefined>;
  }

  readAnswer(key: string): Promise<StoredAnswer | undefined> {
    const entry = this.memoryGet(key);
    if (entry?.kind === "answer") return Promise.resolve(entry.answer);
    return this.readThrough("answer", key) as Promise<StoredAnswer | undefined>;
  }

  private readThrough(kind: "series" | "answer", key: string): Promise<SeriesData | StoredAnswer | undefined> {
    if (this.memoryOnly) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.pendingReads.push({ kind, key, resolve });
      if (this.readTimer === undefined) this.readTimer = this.timers.setTimeout(() => void this.runReads(), 0);
    });
  }

  private async runReads(): Promise<void> {
    this.readTimer = undefined;
    const batch = this.pendingReads;
    this.pendingReads = [];
    if (batch.length === 0) return;
    let answered = false;
    const answer = (found: Map<string, SeriesData | StoredAnswer>) => {
      if (answered) return;
      answered = true;
      for (const read of batch) read.resolve(found.get(read.key));
    };
    const deadline = this.timers.setTimeout(() => {
      if (!answered) this.log(`a read took over ${this.o.readWaitMs} ms; answered from the network instead`);
      answer(new Map());
    }, this.o.readWaitMs);
    try {
      const db = await this.openBounded();
      if (!db) return answer(new Map());
      const found = await this.getRecords(db, batch);
      answer(found);
    } catch (error) {
      this.toMemoryOnly(`reading failed (${errorText(error)})`);
      answer(new Map());
    } finally {
      this.timers.clearTimeout(deadline);
    }
  }

  private getRecords(db: IDBDatabase, batch: PendingRead[]): Promise<Map<string, SeriesData | StoredAnswer>> {
    return new Promise((resolve, reject) => {
      const found = new Map<string, SeriesData | StoredAnswer>();
      const generation = this.generation;
      const tx = db.transaction([SERIES, ANSWERS], "readonly");
      const series = tx.objectStore(SERIES);
      const answers = tx.objectStore(ANSWERS);
      const seen = new Set<string>();
      for (const read of batch) {
        if (seen.has(read.key)) continue;
        seen.add(read.key);
        const request = (read.kind === "series" ? series : answers).get(read.key);
        request.onsuccess = () => {
          const value: unknown = request.result;
          if (read.kind === "series" && isSeriesRecord(value)) {
            const data: SeriesData = { ranges: value.ranges, dates: value.dates, vals: value.vals };
            found.set(read.key, data);
            if (generation === this.generation && !this.memory.has(read.key)) {
              const id = {
                baseUrl: value.baseUrl,
                symbol: value.symbol,
                metric: value.metric,
                granularity: value.granularity,
              };
              this.memorySet(read.key, { kind: "series", id, data, bytes: seriesBytes(data) });
            }
          } else if (read.kind === "answer" && value && typeof value === "object" && "fetchedAt" in value) {
            const record = value as AnswerRecord;
            const stored = { value: record.value, fetchedAt: record.fetchedAt, bytes: record.bytes };
            found.set(read.key, stored);
            if (generation === this.generation && !this.memory.has(read.key))
              this.memorySet(read.key, { kind: "answer", answer: stored, bytes: record.bytes });
          }
        };
        this.touch(read.key);
      }
      tx.oncomplete = () => resolve(found);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error("read transaction aborted"));
    });
  }

  // ------------------------------------------------------------ writing

  write(id: SeriesId, fetched: FetchedRange): void {
    try {
      const key = seriesKey(id);
      const entry = this.memoryGet(key);
      const data = mergeFetched(entry?.kind === "series" ? entry.data : undefined, fetched);
      this.memorySet(key, {
        kind: "series",
        id: { ...id, baseUrl: storeBaseUrl(id.baseUrl) },
        data,
        bytes: seriesBytes(data),
      });
      if (this.memoryOnly) return;
      const pending = this.pendingWrites.get(key) ?? {
        kind: "series" as const,
        id: { ...id, baseUrl: storeBaseUrl(id.baseUrl) },
        ops: [],
      };
      pending.ops.push(fetched);
      this.pendingWrites.set(key, pending);
      this.scheduleWrites();
    } catch (error) {
      this.log(`could not record an answer (${errorText(error)})`);
    }
  }

  writeAnswer(key: string, value: unknown, fetchedAt: number, bytes: number): void {
    const answer = { value, fetchedAt, bytes };
    this.memorySet(key, { kind: "answer", answer, bytes });
    if (this.memoryOnly) return;
    this.pendingWrites.set(key, { kind: "answer", ops: [], answer: { key, value, fetchedAt, bytes } });
    this.scheduleWrites();
  }

  /** Remembers a use, for the least-recently-used order kept in IndexedDB. */
  private touch(key: string): void {
    if (this.memoryOnly) return;
    this.touched.add(key);
    this.scheduleWrites();
  }

  private scheduleWrites(): void {
    if (this.writeTimer !== undefined) return;
    this.writeTimer = this.timers.setTimeout(() => {
      this.writeTimer = undefined;
      this.writing = this.writing.then(() => this.runWrites());
    }, this.o.writeDelayMs);
  }

  async flush(): Promise<void> {
    const waiting = () => this.pendingWrites.size > 0 || this.touched.size > 0;
    // Writes wait in memory until IndexedDB opens; a flush waits for that too, a bounded time.
    if (!this.db && !this.memoryOnly && waiting()) await this.within(this.open(), this.o.readWaitMs, () => null);
    if (this.writeTimer !== undefined) {
      this.timers.clearTimeout(this.writeTimer);
      this.writeTimer = undefined;
    }
    if (this.db && waiting()) this.writing = this.writing.then(() => this.runWrites());
    await this.writing;
  }

  private async runWrites(): Promise<void> {
    const batch = this.pendingWrites;
    const touched = this.touched;
    this.pendingWrites = new Map();
    this.touched = new Set();
    if ((batch.size === 0 && touched.size === 0) || this.memoryOnly) return;
    try {
      const db = this.db;
      if (!db) {
        // Not open yet: written once it is (the answers are in memory meanwhile).
        this.requeue(batch, touched);
        if (!this.writesWaitForOpen) {
          this.writesWaitForOpen = true;
          void this.open().then((opened) => {
            this.writesWaitForOpen = false;
            if (opened) this.scheduleWrites();
          });
        }
        return;
      }
      try {
        await this.putRecords(db, batch, touched);
      } catch (error) {
        if (!isQuotaError(error)) throw error;
        // The browser's quota, below our cap: make room and try once more.
        this.log(`the browser refused more space (${errorText(error)}); evicting`);
        await this.evict(db, Math.floor(this.dbBytes / 2));
        await this.putRecords(db, batch, touched);
      }
      this.failedWrites = 0;
      if (this.dbBytes > this.o.maxBytes) await this.evict(db, Math.floor(this.o.maxBytes * 0.9));
    } catch (error) {
      this.failedWrites += 1;
      this.log(`writing failed (${errorText(error)})`);
      if (this.failedWrites >= 2) this.toMemoryOnly(`writing failed twice (${errorText(error)})`);
    }
  }

  /** Puts a batch back in front of whatever was written since. */
  private requeue(batch: Map<string, PendingWrite>, touched: Set<string>): void {
    if (batch.size + this.pendingWrites.size > MAX_WAITING_WRITES) {
      this.log(`IndexedDB is still not open: ${batch.size} answer(s) kept in memory only`);
      return;
    }
    for (const [key, newer] of this.pendingWrites) {
      const older = batch.get(key);
      if (older && newer.kind === "series") batch.set(key, { ...newer, ops: [...older.ops, ...newer.ops] });
      else batch.set(key, newer);
    }
    this.pendingWrites = batch;
    for (const key of touched) this.touched.add(key);
  }

  private putRecords(db: IDBDatabase, batch: Map<string, PendingWrite>, touched: Set<string>): Promise<void> {
    return new Promise((resolve, reject) => {
      const generation = this.generation;
      const tx = db.transaction([SERIES, ANSWERS, USAGE], "readwrite");
      const series = tx.objectStore(SERIES);
      const answers = tx.objectStore(ANSWERS);
      const usage = tx.objectStore(USAGE);
      const now = this.now();
      let bytesDelta = 0;
      let seriesDelta = 0;
      for (const [key, pending] of batch) {
        const oldUsage = usage.get(key);
        oldUsage.onsuccess = () => {
          const old = oldUsage.result as UsageRow | undefined;
          if (pending.kind === "answer" && pending.answer) {
            answers.put(pending.answer);
            usage.put({ key, kind: "answer", bytes: pending.answer.bytes, usedAt: now } satisfies UsageRow);
            bytesDelta += pending.answer.bytes - (old?.bytes ?? 0);
            return;
          }
          const current = series.get(key);
          current.onsuccess = () => {
            let data: SeriesData | undefined = isSeriesRecord(current.result) ? current.result : undefined;
            for (const op of pending.ops) data = mergeFetched(data, op);
            if (!data || !pending.id) return;
            const bytes = seriesBytes(data);
            const record: SeriesRecord = {
              key,
              ...pending.id,
              ranges: data.ranges,
              dates: data.dates,
              vals: data.vals,
              bytes,
            };
            series.put(record);
            usage.put({ key, kind: "series", bytes, usedAt: now } satisfies UsageRow);
            bytesDelta += bytes - (old?.bytes ?? 0);
            if (!old) seriesDelta += 1;
          };
        };
      }
      for (const key of touched) {
        if (batch.has(key)) continue;
        const row = usage.get(key);
        row.onsuccess = () => {
          const old = row.result as UsageRow | undefined;
          if (old) usage.put({ ...old, usedAt: now });
        };
      }
      tx.oncomplete = () => {
        if (generation === this.generation) {
          this.dbBytes += bytesDelta;
          this.dbSeries += seriesDelta;
        }
        resolve();
      };
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error("write transaction aborted"));
    });
  }

  /** Deletes least recently used records until at most `target` bytes remain. */
  private evict(db: IDBDatabase, target: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const tx = db.transaction([SERIES, ANSWERS, USAGE], "readwrite");
      const usage = tx.objectStore(USAGE);
      const all = usage.getAll();
      let bytes = 0;
      let count = 0;
      all.onsuccess = () => {
        const rows = (all.result as UsageRow[]).sort((a, b) => a.usedAt - b.usedAt);
        bytes = rows.reduce((sum, row) => sum + row.bytes, 0);
        count = rows.filter((row) => row.kind === "series").length;
        let evicted = 0;
        for (const row of rows) {
          if (bytes <= target) break;
          tx.objectStore(row.kind === "series" ? SERIES : ANSWERS).delete(row.key);
          usage.delete(row.key);
          bytes -= row.bytes;
          if (row.kind === "series") count -= 1;
          evicted += 1;
        }
        if (evicted > 0) this.log(`evicted ${evicted} least recently used record(s) to stay under ${formatMb(target)}`);
      };
      tx.oncomplete = () => {
        this.dbBytes = bytes;
        this.dbSeries = count;
        resolve();
      };
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error("eviction aborted"));
    });
  }

  // ------------------------------------------------------------ clearing

  async clear(): Promise<void> {
    this.generation += 1;
    this.memory.clear();
    this.memoryBytes = 0;
    this.pendingWrites.clear();
    this.touched.clear();
    if (this.memoryOnly) return;
    // Cleared as soon as it opens, before anything is read from it, if it is not open yet.
    this.clearOnOpen = true;
    try {
      await this.writing;
      const db = this.db;
      if (!db || !this.clearOnOpen) return;
      await clearAll(db);
      this.clearOnOpen = false;
      this.dbBytes = 0;
      this.dbSeries = 0;
      this.log("cleared");
    } catch (error) {
      this.toMemoryOnly(`clearing failed (${errorText(error)})`);
    }
  }

  // ------------------------------------------------------------ opening

  /**
   * The database, once open. Reads wait for the open a bounded time, once
   * per session (`openWaitMs`); after that they go on without it until it has
   * opened. Writes made meanwhile wait in memory; a clear is done on opening.
   */
  private async openBounded(): Promise<IDBDatabase | null> {
    if (this.db) return this.db;
    if (this.memoryOnly) return null;
    const opening = this.open();
    this.openWait ??= this.within(opening, this.o.openWaitMs, () => {
      if (!this.db && !this.memoryOnly)
        this.log(`IndexedDB took over ${this.o.openWaitMs} ms to open; answering from memory meanwhile`);
      return null;
    }).then(() => undefined);
    await this.openWait;
    return this.db;
  }

  /** `promise`, or `late()` once `ms` have passed (or the store is closed), whichever comes first. */
  private within<T>(promise: Promise<T>, ms: number, late: () => T): Promise<T> {
    return new Promise<T>((resolve) => {
      const giveUp = () => {
        this.waits.delete(giveUp);
        this.timers.clearTimeout(timer);
        resolve(late());
      };
      const timer = this.timers.setTimeout(giveUp, ms);
      this.waits.add(giveUp);
      void promise.then((value) => {
        this.waits.delete(giveUp);
        this.timers.clearTimeout(timer);
        resolve(value);
      });
    });
  }

  private open(): Promise<IDBDatabase | null> {
    this.opening ??= new Promise<IDBDatabase | null>((resolve) => {
      const fail = (why: string) => {
        this.toMemoryOnly(why);
        resolve(null);
      };
      let request: IDBOpenDBRequest;
      try {
        request = this.factory!.open(this.name, STORE_DB_VERSION);
      } catch (error) {
        fail(`IndexedDB refused to open (${errorText(error)})`);
        return;
      }
      request.onupgradeneeded = () => {
        const db = request.result;
        // Any older layout is dropped: this is a cache, a refetch rebuilds it.
        for (const name of Array.from(db.objectStoreNames)) db.deleteObjectStore(name);
        db.createObjectStore(SERIES, { keyPath: "key" });
        db.createObjectStore(ANSWERS, { keyPath: "key" });
        db.createObjectStore(USAGE, { keyPath: "key" }).createIndex("usedAt", "usedAt");
      };
      request.onblocked = () => this.log("waiting for another window of the add-in to release an older store");
      request.onerror = () => {
        const error = request.error;
        fail(
          error?.name === "VersionError"
            ? "a newer version of the add-in keeps its stored data in another layout"
            : `IndexedDB could not be opened (${errorText(error)})`,
        );
      };
      request.onsuccess = () => {
        const db = request.result;
        if (!hasLayout(db)) {
          // Same version, other layout (a database left by something else under this name): start over, once.
          db.close();
          if (this.rebuilt) return fail("IndexedDB holds a store of another layout");
          this.rebuilt = true;
          this.log("rebuilding a store of another layout");
          const deletion = this.factory!.deleteDatabase(this.name);
          deletion.onsuccess = () => {
            this.opening = null;
            void this.open().then(resolve);
          };
          deletion.onerror = () => fail(`IndexedDB could not be rebuilt (${errorText(deletion.error)})`);
          return;
        }
        db.onversionchange = () => {
          db.close();
          this.toMemoryOnly("a newer version of the add-in took over the store");
        };
        db.onclose = () => this.toMemoryOnly("the browser closed the store");
        const cleared = this.clearOnOpen ? clearAll(db).then(() => void (this.clearOnOpen = false)) : Promise.resolve();
        cleared
          .then(() => this.measure(db))
          .then(
            () => {
              if (this.memoryOnly) {
                db.close();
                resolve(null);
                return;
              }
              this.db = db;
              this.log(`opened: ${this.dbSeries} series, ${formatMb(this.dbBytes)}`);
              resolve(db);
            },
            (error: unknown) => {
              db.close();
              fail(`IndexedDB could not be read (${errorText(error)})`);
            },
          );
      };
    });
    return this.opening;
  }

  private measure(db: IDBDatabase): Promise<void> {
    return new Promise((resolve, reject) => {
      const tx = db.transaction(USAGE, "readonly");
      const all = tx.objectStore(USAGE).getAll();
      all.onsuccess = () => {
        const rows = all.result as UsageRow[];
        this.dbBytes = rows.reduce((sum, row) => sum + (row.bytes || 0), 0);
        this.dbSeries = rows.filter((row) => row.kind === "series").length;
      };
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error ?? new Error("aborted"));
    });
  }

  private toMemoryOnly(reason: string): void {
    if (this.memoryOnly) return;
    this.memoryOnly = reason;
    this.log(`memory only from now on: ${reason}`);
    const db = this.db;
    this.db = null;
    this.pendingWrites.clear();
    try {
      db?.close();
    } catch {
      // Already closed.
    }
  }

  close(): void {
    this.toMemoryOnly("closed");
    for (const giveUp of [...this.waits]) giveUp();
    if (this.writeTimer !== undefined) this.timers.clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
  }

  // ------------------------------------------------------------ memory

  private memoryGet(key: string): MemoryEntry | undefined {
    const entry = this.memory.get(key);
    if (!entry) return undefined;
    this.memory.delete(key);
    this.memory.set(key, entry);
    this.touch(key);
    return entry;
  }

  private memorySet(key: string, entry: MemoryEntry): void {
    const old = this.memory.get(key);
    if (old) {
      this.memory.delete(key);
      this.memoryBytes -= old.bytes;
    }
    if (entry.bytes > this.o.memoryMaxBytes) return;
    this.memory.set(key, entry);
    this.memoryBytes += entry.bytes;
    for (const [oldest, value] of this.memory) {
      if (this.memoryBytes <= this.o.memoryMaxBytes) break;
      this.memory.delete(oldest);
      this.memoryBytes -= value.bytes;
    }
  }

  info(): StoreInfo {
    if (this.memoryOnly || !this.db) {
      let series = 0;
      for (const entry of this.memory.values()) if (entry.kind === "series") series += 1;
      const reason = this.memoryOnly ?? undefined;
      return {
        backend: this.memoryOnly ? "memory" : "opening",
        ...(reason ? { reason } : {}),
        series,
        bytes: this.memoryBytes,
        maxBytes: this.o.memoryMaxBytes,
      };
    }
    return { backend: "indexeddb", series: this.dbSeries, bytes: this.dbBytes, maxBytes: this.o.maxBytes };
  }
}

function hasLayout(db: IDBDatabase): boolean {
  const names = db.objectStoreNames;
  return names.contains(SERIES) && names.contains(ANSWERS) && names.contains(USAGE);
}

function clearAll(db: IDBDatabase): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const tx = db.transaction([SERIES, ANSWERS, USAGE], "readwrite");
    for (const name of [SERIES, ANSWERS, USAGE]) tx.objectStore(name).clear();
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("clear aborted"));
  });
}

function isQuotaError(error: unknown): boolean {
  return !!error && typeof error === "object" && (error as { name?: unknown }).name === "QuotaExceededError";
}

function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
