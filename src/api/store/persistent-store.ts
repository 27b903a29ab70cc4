/**
 * The persistent store behind warm workbooks (DESIGN "Persistent cache"):
 * series points per (base address, symbol, metric, granularity) with the
 * date ranges known and when they were fetched, plus catalog and insight-feed
 * answers for offline reading. It lives in IndexedDB in the add-in's webview
 * (OfficeRuntime.storage holds 10 MB and is for settings) and never holds the
 * API key or a token. Each record's key carries whose answer it is (the
 * id's `who`: a hash of the account or key, acceptance.ts), so one person's
 * answers are never another's.
 *
 * It is a cache, so it may fail in any way without failing a cell:
 * - IndexedDB missing (a private window, an old webview), refusing to open,
 *   or failing later → memory only for the rest of the session, with the
 *   reason kept for the pane;
 * - slow to open → a read waits a bounded time once, then answers from memory
 *   (a miss) while the open completes in the background;
 * - slow to answer → a read waits while IndexedDB is still answering (a busy
 *   computer), and gives up for the network once it answers nothing for the
 *   read wait (stuck), within a bound (read-deadline.ts);
 * - full (over the size cap, or the browser's quota) → least recently used
 *   series go first.
 *
 * Reads and writes are batched: a recalculation of a thousand cells costs a
 * few transactions, not a thousand. Every record kept in memory (the session's
 * working set, capped too) is answered without touching IndexedDB again. The
 * usage rows read when the store opens (to measure it) also say which keys
 * IndexedDB holds: a key it does not hold is answered "not stored" without a
 * read, a key is read at most once at a time, and the least-recently-used
 * bookkeeping writes usage rows without reading them first. A record another
 * window of the add-in stores after this one opened is then not seen until
 * the next open: it is fetched again, as a miss always was.
 */
import { mergeFetched } from "./series-data";
import { globalTimers, nextTask, within, type Timers } from "../http/timers";
import { IndexedDbConnection } from "./indexeddb-connection";
import { clearAll, evict, getRecords, type HeldRecord, isQuotaError, measure, putRecords } from "./indexeddb-requests";
import {
  errorText,
  seriesBytes,
  seriesKey,
  storeBaseUrl,
  STORE_DB_NAME,
  storeLimits,
  type MemoryEntry,
  type PendingRead,
  type PendingWrite,
  type SeriesId,
  type PersistentSeriesStore,
  type PersistentSeriesStoreOptions,
  type StoredAnswer,
  type StoreInfo,
  type StoreLimits,
  type UsageRow,
  type FetchedRange,
  type SeriesData,
} from "./types";
import { MemoryWorkingSet } from "./memory-working-set";
import { readDeadline } from "./read-deadline";
import { WriteQueue } from "./write-queue";

/** A batch asking for at least this many keys of a kind, and half of what is held of it, reads them with one request. */
const WHOLE_READ_MIN_KEYS = 16;

export function openSeriesStore(options: PersistentSeriesStoreOptions = {}): PersistentSeriesStore {
  return new IndexedDbSeriesStore(options);
}

class IndexedDbSeriesStore implements PersistentSeriesStore {
  private readonly o: StoreLimits;
  private readonly timers: Timers;
  private readonly now: () => number;
  private readonly log: (line: string) => void;

  private readonly connection: IndexedDbConnection;

  private readonly memory: MemoryWorkingSet;
  private dbBytes = 0;
  private dbSeries = 0;

  private pendingReads: PendingRead[] = [];
  /** A task is due to read pendingReads: the reads asked in one task go in one batch. */
  private readsDue = false;
  /** Reads asked of IndexedDB and not answered yet, by kind and key: a second caller shares the first's. */
  private readonly inFlight = new Map<string, Promise<SeriesData | StoredAnswer | undefined>>();
  /** What IndexedDB holds, by key (its usage rows, read on opening and kept up to date since); empty until open. */
  private held = new Map<string, HeldRecord>();
  private readonly queue = new WriteQueue();
  private writeTimer: unknown = undefined;
  /** Whether the timer set is the answers' (writeDelayMs), not only the uses' (useWriteDelayMs). */
  private writeSoon = false;
  private writing: Promise<void> = Promise.resolve();
  private failedWrites = 0;
  private generation = 0;
  private clearOnOpen = false;
  private readonly waits = new Set<() => void>();
  private writesWaitForOpen = false;
  /** IndexedDB's answers so far (the open, each read request): the waits judge it stuck by them (read-deadline.ts). */
  private answers = 0;
  private readonly answered = (): void => void (this.answers += 1);
  private readonly answersSoFar = (): number => this.answers;

  constructor(options: PersistentSeriesStoreOptions) {
    const factory =
      options.indexedDB === undefined
        ? ((globalThis as { indexedDB?: IDBFactory }).indexedDB ?? null)
        : options.indexedDB;
    this.o = storeLimits(options);
    this.memory = new MemoryWorkingSet(this.o.memoryMaxBytes);
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
    this.connection = new IndexedDbConnection({
      factory,
      name: options.name ?? STORE_DB_NAME,
      timers: this.timers,
      now: this.now,
      answers: this.answersSoFar,
      answered: this.answered,
      waits: this.waits,
      openWaitMs: this.o.openWaitMs,
      log: this.log,
      prepare: (db) => {
        const cleared = this.clearOnOpen ? clearAll(db).then(() => void (this.clearOnOpen = false)) : Promise.resolve();
        return cleared.then(() => measure(db, this.counted, this.answered));
      },
      held: () => ({ series: this.dbSeries, bytes: this.dbBytes }),
      lost: () => this.queue.clear(false),
    });
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
    if (this.connection.memoryOnly) return Promise.resolve(undefined);
    // Open, IndexedDB is known not to hold it: no read.
    if (this.connection.db && !this.held.has(key)) return Promise.resolve(undefined);
    const flightKey = `${kind} ${key}`;
    const inFlight = this.inFlight.get(flightKey);
    if (inFlight) return inFlight;
    const read = new Promise<SeriesData | StoredAnswer | undefined>((resolve) => {
      this.pendingReads.push({
        kind,
        key,
        resolve: (value) => {
          this.inFlight.delete(flightKey);
          resolve(value);
        },
      });
      // The next task, not a timer, where timers are throttled (a hidden runtime: the pane closed; http/timers.ts).
      if (!this.readsDue) {
        this.readsDue = true;
        nextTask(this.timers, () => void this.runReads());
      }
    });
    this.inFlight.set(flightKey, read);
    return read;
  }

  private async runReads(): Promise<void> {
    this.readsDue = false;
    const batch = this.pendingReads;
    this.pendingReads = [];
    if (batch.length === 0) return;
    let answered = false;
    const answer = (found: Map<string, SeriesData | StoredAnswer>) => {
      if (answered) return;
      answered = true;
      for (const read of batch) read.resolve(found.get(read.key));
    };
    const deadline = readDeadline(this.timers, this.now, this.o.readWaitMs, this.answersSoFar, () => {
      if (!answered)
        this.log(
          `IndexedDB answered nothing for over ${this.o.readWaitMs} ms; a read answered from the network instead`,
        );
      answer(new Map());
    });
    try {
      const db = await this.connection.openBounded();
      if (!db) return answer(new Map());
      const generation = this.generation;
      // Only the keys IndexedDB holds are read; the others are answered "not stored".
      const held = batch.filter((read) => this.held.has(read.key));
      const found =
        held.length === 0
          ? new Map<string, SeriesData | StoredAnswer>()
          : await getRecords(
              db,
              held,
              {
                found: (key, entry) => {
                  if (generation === this.generation && !this.memory.has(key)) this.memory.set(key, entry);
                },
                requested: (key) => this.touch(key),
                answered: this.answered,
              },
              this.readWhole(held),
            );
      answer(found);
    } catch (error) {
      this.connection.toMemoryOnly(`reading failed (${errorText(error)})`);
      answer(new Map());
    } finally {
      deadline.cancel();
    }
  }

  /**
   * The kinds a batch asks for most of (at least half of what IndexedDB holds
   * of them, and more than a few): read with one request for all their records.
   */
  private readWhole(batch: PendingRead[]): Set<PendingRead["kind"]> {
    const asked = { series: new Set<string>(), answer: new Set<string>() };
    for (const read of batch) asked[read.kind].add(read.key);
    const held = { series: 0, answer: 0 };
    for (const record of this.held.values()) held[record.kind] += 1;
    const whole = new Set<PendingRead["kind"]>();
    for (const kind of ["series", "answer"] as const) {
      if (asked[kind].size >= WHOLE_READ_MIN_KEYS && asked[kind].size * 2 >= held[kind]) whole.add(kind);
    }
    return whole;
  }

  // ------------------------------------------------------------ writing

  write(id: SeriesId, fetched: FetchedRange): void {
    try {
      const key = seriesKey(id);
      const entry = this.memoryGet(key);
      const data = mergeFetched(entry?.kind === "series" ? entry.data : undefined, fetched);
      // One copy of the id as stored, for the working set and the queue alike (neither changes it).
      const stored: SeriesId = {
        baseUrl: storeBaseUrl(id.baseUrl),
        symbol: id.symbol,
        metric: id.metric,
        granularity: id.granularity,
      };
      if (id.who) stored.who = id.who;
      this.memory.set(key, { kind: "series", id: stored, data, bytes: seriesBytes(data) });
      if (this.connection.memoryOnly) return;
      this.queue.addSeries(key, stored, fetched);
      this.scheduleWrites();
    } catch (error) {
      this.log(`could not record an answer (${errorText(error)})`);
    }
  }

  writeAnswer(key: string, value: unknown, fetchedAt: number, bytes: number): void {
    const answer = { value, fetchedAt, bytes };
    this.memory.set(key, { kind: "answer", answer, bytes });
    if (this.connection.memoryOnly) return;
    this.queue.addAnswer({ key, value, fetchedAt, bytes });
    this.scheduleWrites();
  }

  /** Remembers a use, for the least-recently-used order kept in IndexedDB. */
  private touch(key: string): void {
    if (this.connection.memoryOnly) return;
    this.queue.touch(key);
    this.scheduleWrites(false);
  }

  /**
   * Writes what waits, after writeDelayMs for answers; uses alone (the least-recently-used order) wait
   * useWriteDelayMs, so that a recalculation's reads do not pay for writing down their own use while its cells
   * wait: its bursts of reads end well within it.
   */
  private scheduleWrites(soon = true): void {
    if (this.writeTimer !== undefined) {
      if (this.writeSoon || !soon) return;
      this.timers.clearTimeout(this.writeTimer);
    }
    this.writeSoon = soon;
    this.writeTimer = this.timers.setTimeout(
      () => {
        this.writeTimer = undefined;
        this.writing = this.writing.then(() => this.runWrites());
      },
      soon ? this.o.writeDelayMs : this.o.useWriteDelayMs,
    );
  }

  async flush(): Promise<void> {
    const waiting = () => this.queue.waiting();
    // Writes wait in memory until IndexedDB opens; a flush waits for that too, a bounded time.
    if (!this.connection.db && !this.connection.memoryOnly && waiting())
      await within(this.timers, this.waits, this.connection.open(), this.o.readWaitMs, () => null);
    if (this.writeTimer !== undefined) {
      this.timers.clearTimeout(this.writeTimer);
      this.writeTimer = undefined;
    }
    if (this.connection.db && waiting()) this.writing = this.writing.then(() => this.runWrites());
    await this.writing;
  }

  private async runWrites(): Promise<void> {
    const { batch, touched } = this.queue.take();
    if ((batch.size === 0 && touched.size === 0) || this.connection.memoryOnly) return;
    try {
      const db = this.connection.db;
      if (!db) {
        // Not open yet: written once it is (the answers are in memory meanwhile).
        if (!this.queue.requeue(batch, touched))
          this.log(`IndexedDB is still not open: ${batch.size} answer(s) kept in memory only`);
        if (!this.writesWaitForOpen) {
          this.writesWaitForOpen = true;
          void this.connection.open().then((opened) => {
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
      if (this.failedWrites >= 2) this.connection.toMemoryOnly(`writing failed twice (${errorText(error)})`);
    }
  }

  private putRecords(db: IDBDatabase, batch: Map<string, PendingWrite>, touched: Set<string>): Promise<void> {
    const generation = this.generation;
    return putRecords(
      db,
      batch,
      touched,
      () => this.now(),
      (key) => this.held.get(key),
      (bytesDelta, seriesDelta, written) => {
        if (generation !== this.generation) return;
        this.dbBytes += bytesDelta;
        this.dbSeries += seriesDelta;
        for (const [key, record] of written) this.held.set(key, record);
      },
    );
  }

  /** Deletes least recently used records until at most `target` bytes remain. */
  private evict(db: IDBDatabase, target: number): Promise<void> {
    return evict(db, target, this.log, this.counted);
  }

  /** Takes what IndexedDB holds, as eviction or measuring read it (its usage rows). */
  private readonly counted = (rows: UsageRow[]): void => {
    const held = new Map<string, HeldRecord>();
    let bytes = 0;
    let series = 0;
    for (const row of rows) {
      held.set(row.key, { kind: row.kind, bytes: row.bytes || 0 });
      bytes += row.bytes || 0;
      if (row.kind === "series") series += 1;
    }
    this.held = held;
    this.dbBytes = bytes;
    this.dbSeries = series;
  };

  // ------------------------------------------------------------ clearing

  async clear(): Promise<void> {
    this.generation += 1;
    this.memory.clear();
    this.queue.clear(true);
    if (this.connection.memoryOnly) return;
    // Cleared as soon as it opens, before anything is read from it, if it is not open yet.
    this.clearOnOpen = true;
    try {
      await this.writing;
      const db = this.connection.db;
      if (!db || !this.clearOnOpen) return;
      await clearAll(db);
      this.clearOnOpen = false;
      this.counted([]);
      this.log("cleared");
    } catch (error) {
      this.connection.toMemoryOnly(`clearing failed (${errorText(error)})`);
    }
  }

  close(): void {
    this.connection.toMemoryOnly("closed");
    for (const giveUp of [...this.waits]) giveUp();
    if (this.writeTimer !== undefined) this.timers.clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
  }

  // ------------------------------------------------------------ memory

  private memoryGet(key: string): MemoryEntry | undefined {
    const entry = this.memory.get(key);
    if (entry) this.touch(key);
    return entry;
  }

  info(): StoreInfo {
    if (this.connection.memoryOnly || !this.connection.db) {
      const reason = this.connection.memoryOnly ?? undefined;
      return {
        backend: this.connection.memoryOnly ? "memory" : "opening",
        ...(reason ? { reason } : {}),
        series: this.memory.seriesCount(),
        bytes: this.memory.bytes,
        maxBytes: this.o.memoryMaxBytes,
      };
    }
    return { backend: "indexeddb", series: this.dbSeries, bytes: this.dbBytes, maxBytes: this.o.maxBytes };
  }
}
