/**
 * The persistent series store's IndexedDB requests (persistent-store.ts is the
 * store and keeps all state): opening (creating, checking and, once,
 * rebuilding the layout), one batched read, one batched write, least-recently-used eviction, measuring, and
 * clearing. Each takes the open database and reports through the callbacks it
 * is given, at the same moment of the transaction the store used to update
 * itself, so the store decides what a result means (a cleared store, say).
 */
import { mergeFetched } from "./series-data";
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
  type SeriesId,
  type StoredAnswer,
  type UsageRow,
  type SeriesData,
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

/**
 * Records read by one request of a whole read: a read of many records is
 * asked in pages, each page an answer the store's wait sees (read-deadline.ts),
 * so a slow IndexedDB that is still answering is told from a stuck one.
 */
export const READ_PAGE = 16;
/** Usage rows (a few dozen bytes each) read by one request when the store is measured. */
export const USAGE_PAGE = 1000;

/**
 * Reads every record of `store` (keyed by "key", as each of the store's
 * object stores is) in pages of `size`, each after the previous one's
 * answer, handing each page to `page`. Where the host has no IDBKeyRange (no
 * page can start after a key) it is one request.
 */
function getAllPaged(
  store: IDBObjectStore,
  size: number,
  page: (values: { key?: unknown }[]) => void,
  answered: () => void,
): void {
  const Range = (globalThis as { IDBKeyRange?: typeof IDBKeyRange }).IDBKeyRange;
  const next = (after: IDBValidKey | undefined) => {
    const request = !Range
      ? store.getAll()
      : store.getAll(after === undefined ? undefined : Range.lowerBound(after, true), size);
    request.onsuccess = () => {
      answered();
      const values = request.result as { key?: unknown }[];
      page(values);
      const lastKey = values[values.length - 1]?.key;
      if (Range && values.length === size && typeof lastKey === "string") next(lastKey);
    };
  };
  next(undefined);
}

export interface GetRecordsHooks {
  /** A record found, as the memory working set keeps it. */
  found(key: string, entry: MemoryEntry): void;
  /** A key asked of IndexedDB (once per key of the batch). */
  requested(key: string): void;
  /** IndexedDB answered one of the read's requests: it is making progress. */
  answered(): void;
}

/**
 * Reads a batch in one transaction: the records found, by key. The kinds in
 * `whole` are read with one request for all their records (a workbook
 * reopened asks for most of what it stored at once: a page of READ_PAGE
 * records a request instead of a request a key, each of which waits its turn
 * on a busy thread) and the batch's keys picked from them; the others key by
 * key.
 */
export function getRecords(
  db: IDBDatabase,
  batch: PendingRead[],
  hooks: GetRecordsHooks,
  whole: ReadonlySet<PendingRead["kind"]> = new Set(),
): Promise<Map<string, SeriesData | StoredAnswer>> {
  return new Promise((resolve, reject) => {
    const found = new Map<string, SeriesData | StoredAnswer>();
    const tx = db.transaction([SERIES, ANSWERS], "readonly");
    const stores = { series: tx.objectStore(SERIES), answer: tx.objectStore(ANSWERS) };
    const take = (kind: PendingRead["kind"], key: string, value: unknown) => {
      if (kind === "series" && isSeriesRecord(value)) {
        const data: SeriesData = { ranges: value.ranges, dates: value.dates, vals: value.vals };
        found.set(key, data);
        const id: SeriesId = {
          baseUrl: value.baseUrl,
          symbol: value.symbol,
          metric: value.metric,
          granularity: value.granularity,
        };
        if (value.who) id.who = value.who;
        hooks.found(key, { kind: "series", id, data, bytes: seriesBytes(data) });
      } else if (kind === "answer" && value && typeof value === "object" && "fetchedAt" in value) {
        const record = value as AnswerRecord;
        const stored = { value: record.value, fetchedAt: record.fetchedAt, bytes: record.bytes };
        found.set(key, stored);
        hooks.found(key, { kind: "answer", answer: stored, bytes: record.bytes });
      }
    };
    const asked = { series: new Set<string>(), answer: new Set<string>() };
    for (const read of batch) {
      if (asked[read.kind].has(read.key)) continue;
      asked[read.kind].add(read.key);
      hooks.requested(read.key);
      if (whole.has(read.kind)) continue;
      const request = stores[read.kind].get(read.key);
      request.onsuccess = () => {
        hooks.answered();
        take(read.kind, read.key, request.result);
      };
    }
    for (const kind of whole) {
      if (asked[kind].size === 0) continue;
      const page = (values: { key?: unknown }[]) => {
        for (const value of values) {
          if (typeof value?.key === "string" && asked[kind].has(value.key)) take(kind, value.key, value);
        }
      };
      getAllPaged(stores[kind], READ_PAGE, page, hooks.answered);
    }
    tx.oncomplete = () => resolve(found);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("read transaction aborted"));
  });
}

/** What the store knows IndexedDB holds under a key: its kind and bytes, as its usage row says. */
export type HeldRecord = Pick<UsageRow, "kind" | "bytes">;

/**
 * Writes a batch in one transaction, merging series into what is stored, and
 * marks `touched` keys used `now()`. `held` is what the store knows IndexedDB
 * holds (its usage rows, read once when it opened): the usage rows are
 * written from it without reading them again, and a touched key it does not
 * hold is skipped. `completed` gets the change in bytes and in series held,
 * and what each written key now holds, once the transaction has committed.
 */
export function putRecords(
  db: IDBDatabase,
  batch: Map<string, PendingWrite>,
  touched: Set<string>,
  now: () => number,
  held: (key: string) => HeldRecord | undefined,
  completed: (bytesDelta: number, seriesDelta: number, written: Map<string, HeldRecord>) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction([SERIES, ANSWERS, USAGE], "readwrite");
    const series = tx.objectStore(SERIES);
    const answers = tx.objectStore(ANSWERS);
    const usage = tx.objectStore(USAGE);
    const usedAt = now();
    const written = new Map<string, HeldRecord>();
    let bytesDelta = 0;
    let seriesDelta = 0;
    for (const [key, pending] of batch) {
      if (pending.kind === "answer" && pending.answer) {
        const bytes = pending.answer.bytes;
        answers.put(pending.answer);
        usage.put({ key, kind: "answer", bytes, usedAt } satisfies UsageRow);
        bytesDelta += bytes - (held(key)?.bytes ?? 0);
        written.set(key, { kind: "answer", bytes });
        continue;
      }
      // The stored series is read to merge into: another window of the add-in may have written it since.
      const current = series.get(key);
      current.onsuccess = () => {
        const old = isSeriesRecord(current.result) ? current.result : undefined;
        let data: SeriesData | undefined = old;
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
        written.set(key, { kind: "series", bytes });
      };
    }
    for (const key of touched) {
      if (batch.has(key)) continue;
      const row = held(key);
      if (row) usage.put({ key, kind: row.kind, bytes: row.bytes, usedAt } satisfies UsageRow);
    }
    tx.oncomplete = () => {
      completed(bytesDelta, seriesDelta, written);
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
  completed: (rows: UsageRow[]) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction([SERIES, ANSWERS, USAGE], "readwrite");
    const usage = tx.objectStore(USAGE);
    const all = usage.getAll();
    let kept: UsageRow[] = [];
    all.onsuccess = () => {
      const rows = (all.result as UsageRow[]).sort((a, b) => a.usedAt - b.usedAt);
      let bytes = rows.reduce((sum, row) => sum + row.bytes, 0);
      let evicted = 0;
      for (const row of rows) {
        if (bytes <= target) break;
        tx.objectStore(row.kind === "series" ? SERIES : ANSWERS).delete(row.key);
        usage.delete(row.key);
        bytes -= row.bytes;
        evicted += 1;
      }
      kept = rows.slice(evicted);
      if (evicted > 0) log(`evicted ${evicted} least recently used record(s) to stay under ${formatMb(target)}`);
    };
    tx.oncomplete = () => {
      completed(kept);
      resolve();
    };
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error("eviction aborted"));
  });
}

/**
 * Reads what the store holds (its usage rows, USAGE_PAGE a request, each an
 * answer for `answered`); `measured` gets them all once they are read.
 */
export function measure(
  db: IDBDatabase,
  measured: (rows: UsageRow[]) => void,
  answered: () => void = () => undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(USAGE, "readonly");
    const rows: UsageRow[] = [];
    getAllPaged(tx.objectStore(USAGE), USAGE_PAGE, (page) => rows.push(...(page as UsageRow[])), answered);
    tx.oncomplete = () => {
      measured(rows);
      resolve();
    };
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
