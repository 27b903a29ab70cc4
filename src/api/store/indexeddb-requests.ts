/**
 * The persistent series store's IndexedDB requests (persistent-store.ts is the
 * store and keeps all state): opening (creating, checking and, once,
 * rebuilding the layout), one batched read, one batched write, least-recently-used eviction, measuring, and
 * clearing. Each takes the open database and reports through the callbacks it
 * is given, at the same moment of the transaction the store used to update
 * itself, so the store decides what a result means (a cleared store, say).
 */
import { mergeFetched, type SeriesData } from "./window-plan";
import {
  ANSWERS,
  errorText,
  formatMb,
  isSeriesRecord,
  seriesBytes,
  SERIES,
  STORE_DB_VERSION,
  USAGE,
  type AnswerRecord,
  type MemoryEntry,
  type PendingRead,
  type PendingWrite,
  type SeriesRecord,
  type StoredAnswer,
  type UsageRow,
} from "./types";

/** Drops any older layout and creates this one: this is a cache, a refetch rebuilds it. */
function createLayout(db: IDBDatabase): void {
  for (const name of Array.from(db.objectStoreNames)) db.deleteObjectStore(name);
  db.createObjectStore(SERIES, { keyPath: "key" });
  db.createObjectStore(ANSWERS, { keyPath: "key" });
  db.createObjectStore(USAGE, { keyPath: "key" }).createIndex("usedAt", "usedAt");
}

function hasLayout(db: IDBDatabase): boolean {
  const names = db.objectStoreNames;
  return names.contains(SERIES) && names.contains(ANSWERS) && names.contains(USAGE);
}

export interface GetRecordsHooks {
  /** A record found, as the memory working set keeps it. */
  found(key: string, entry: MemoryEntry): void;
  /** A key asked of IndexedDB (once per key of the batch). */
  requested(key: string): void;
}

/** Reads a batch in one transaction: the records found, by key. */
export function getRecords(
  db: IDBDatabase,
  batch: PendingRead[],
  hooks: GetRecordsHooks,
): Promise<Map<string, SeriesData | StoredAnswer>> {
  return new Promise((resolve, reject) => {
    const found = new Map<string, SeriesData | StoredAnswer>();
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
          const id = {
            baseUrl: value.baseUrl,
            symbol: value.symbol,
            metric: value.metric,
            granularity: value.granularity,
          };
          hooks.found(read.key, { kind: "series", id, data, bytes: seriesBytes(data) });
        } else if (read.kind === "answer" && value && typeof value === "object" && "fetchedAt" in value) {
          const record = value as AnswerRecord;
          const stored = { value: record.value, fetchedAt: record.fetchedAt, bytes: record.bytes };
          found.set(read.key, stored);
          hooks.found(read.key, { kind: "answer", answer: stored, bytes: record.bytes });
        }
      };
      hooks.requested(read.key);
    }
    tx.oncomplete = () => resolve(found);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("read transaction aborted"));
  });
}

/**
 * Writes a batch in one transaction, merging series into what is stored, and
 * marks `touched` keys used `now()`. `completed` gets the change in bytes and
 * in series held once the transaction has committed.
 */
export function putRecords(
  db: IDBDatabase,
  batch: Map<string, PendingWrite>,
  touched: Set<string>,
  now: () => number,
  completed: (bytesDelta: number, seriesDelta: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction([SERIES, ANSWERS, USAGE], "readwrite");
    const series = tx.objectStore(SERIES);
    const answers = tx.objectStore(ANSWERS);
    const usage = tx.objectStore(USAGE);
    const usedAt = now();
    let bytesDelta = 0;
    let seriesDelta = 0;
    for (const [key, pending] of batch) {
      const oldUsage = usage.get(key);
      oldUsage.onsuccess = () => {
        const old = oldUsage.result as UsageRow | undefined;
        if (pending.kind === "answer" && pending.answer) {
          answers.put(pending.answer);
          usage.put({ key, kind: "answer", bytes: pending.answer.bytes, usedAt } satisfies UsageRow);
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
          usage.put({ key, kind: "series", bytes, usedAt } satisfies UsageRow);
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
        if (old) usage.put({ ...old, usedAt });
      };
    }
    tx.oncomplete = () => {
      completed(bytesDelta, seriesDelta);
      resolve();
    };
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("write transaction aborted"));
  });
}

/**
 * Deletes least recently used records until at most `target` bytes remain.
 * `completed` gets the bytes and series left once the transaction has committed.
 */
export function evict(
  db: IDBDatabase,
  target: number,
  log: (line: string) => void,
  completed: (bytes: number, series: number) => void,
): Promise<void> {
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
      if (evicted > 0) log(`evicted ${evicted} least recently used record(s) to stay under ${formatMb(target)}`);
    };
    tx.oncomplete = () => {
      completed(bytes, count);
      resolve();
    };
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("eviction aborted"));
  });
}

/** Adds up what the store holds; `measured` gets the bytes and series as soon as they are read. */
export function measure(db: IDBDatabase, measured: (bytes: number, series: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(USAGE, "readonly");
    const all = tx.objectStore(USAGE).getAll();
    all.onsuccess = () => {
      const rows = all.result as UsageRow[];
      measured(
        rows.reduce((sum, row) => sum + (row.bytes || 0), 0),
        rows.filter((row) => row.kind === "series").length,
      );
    };
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("aborted"));
  });
}

export function clearAll(db: IDBDatabase): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const tx = db.transaction([SERIES, ANSWERS, USAGE], "readwrite");
    for (const name of [SERIES, ANSWERS, USAGE]) tx.objectStore(name).clear();
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("clear aborted"));
  });
}

export function isQuotaError(error: unknown): boolean {
  return !!error && typeof error === "object" && (error as { name?: unknown }).name === "QuotaExceededError";
}

export interface OpenHooks {
  log(line: string): void;
  /** Gives up on IndexedDB for `why`; the open then resolves with null. */
  fail(why: string): void;
  /** Whether a database of another layout may be deleted and opened afresh (once per session). */
  rebuildOnce(): boolean;
  /** Opens afresh after the deletion. */
  reopen(): Promise<IDBDatabase | null>;
  /** The database opened with this layout: `resolve` with it once ready, or `fail`. */
  opened(db: IDBDatabase, resolve: (db: IDBDatabase | null) => void, fail: (why: string) => void): void;
}

/** Opens the database at STORE_DB_VERSION, creating the layout on an upgrade; null when that fails. */
export function openDatabase(factory: IDBFactory, name: string, hooks: OpenHooks): Promise<IDBDatabase | null> {
  return new Promise<IDBDatabase | null>((resolve) => {
    const fail = (why: string) => {
      hooks.fail(why);
      resolve(null);
    };
    let request: IDBOpenDBRequest;
    try {
      request = factory.open(name, STORE_DB_VERSION);
    } catch (error) {
      fail(`IndexedDB refused to open (${errorText(error)})`);
      return;
    }
    // Any older layout is dropped: this is a cache, a refetch rebuilds it.
    request.onupgradeneeded = () => createLayout(request.result);
    request.onblocked = () => hooks.log("waiting for another window of the add-in to release an older store");
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
        if (!hooks.rebuildOnce()) return fail("IndexedDB holds a store of another layout");
        hooks.log("rebuilding a store of another layout");
        const deletion = factory.deleteDatabase(name);
        deletion.onsuccess = () => void hooks.reopen().then(resolve);
        deletion.onerror = () => fail(`IndexedDB could not be rebuilt (${errorText(deletion.error)})`);
        return;
      }
      hooks.opened(db, resolve, fail);
    };
  });
}
