/**
 * The persistent series store's vocabulary (persistent-store.ts is the store):
 * its database name and layout version, the object store names, the defaults,
 * the public contract (PersistentSeriesStore, SeriesId, StoredAnswer,
 * StoreInfo and the options), the record key and the credential-free base
 * address it is built from, what the store knows of a series (SeriesData, its
 * known ranges and points; series-data.ts works on it) and the answers it is
 * given (FetchedRange), and the record shapes kept in IndexedDB and in
 * memory. No state here.
 */
import type { DatedWindow, Granularity } from "../../core/domain";
import type { Timers } from "../http/timers";

/**
 * The schema is versioned (`STORE_DB_VERSION`): a version change drops and
 * recreates every object store, which only costs a refetch.
 */
export const STORE_DB_NAME = "market-data-store";
export const STORE_DB_VERSION = 1;
export const SERIES = "series";
export const ANSWERS = "answers";
export const USAGE = "usage";
/** Series whose writes may wait for IndexedDB to open; beyond, they stay in memory only. */
export const MAX_WAITING_WRITES = 5000;

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
  /** Uses alone (the least-recently-used order, nothing new to keep) are gathered for this long. */
  useWriteDelayMs: 1000,
} as const;

export interface PersistentSeriesStoreOptions {
  /** Default `globalThis.indexedDB`; null or missing → memory only. */
  indexedDB?: IDBFactory | null;
  /** Default STORE_DB_NAME. */
  name?: string;
  maxBytes?: number;
  memoryMaxBytes?: number;
  openWaitMs?: number;
  readWaitMs?: number;
  writeDelayMs?: number;
  useWriteDelayMs?: number;
  timers?: Timers;
  now?: () => number;
  log?: (line: string) => void;
}

/** The options' sizes and waits, defaults filled in. */
export type StoreLimits = Required<
  Pick<
    PersistentSeriesStoreOptions,
    "maxBytes" | "memoryMaxBytes" | "openWaitMs" | "readWaitMs" | "writeDelayMs" | "useWriteDelayMs"
  >
>;

export function storeLimits(options: PersistentSeriesStoreOptions): StoreLimits {
  return {
    maxBytes: options.maxBytes ?? STORE_DEFAULTS.maxBytes,
    memoryMaxBytes: options.memoryMaxBytes ?? STORE_DEFAULTS.memoryMaxBytes,
    openWaitMs: options.openWaitMs ?? STORE_DEFAULTS.openWaitMs,
    readWaitMs: options.readWaitMs ?? STORE_DEFAULTS.readWaitMs,
    writeDelayMs: options.writeDelayMs ?? STORE_DEFAULTS.writeDelayMs,
    useWriteDelayMs: options.useWriteDelayMs ?? STORE_DEFAULTS.useWriteDelayMs,
  };
}

/** One stored reading. `val` is null where the service answered null (never settled). */
export interface StoredPoint {
  date: string;
  val: number | null;
}

/** Days whose every point the store holds as the service answered them at `fetchedAt`. */
export interface KnownRange extends DatedWindow {
  /** Milliseconds since the epoch. */
  fetchedAt: number;
  /** Every day in it had settled when it was fetched, and none was null. */
  settled: boolean;
  /** The service answered these days with this message instead of points (none are stored there). */
  message?: string;
}

/** What the store knows of one series: its known ranges and the points inside them. */
export interface SeriesData {
  /** In date order, disjoint. */
  ranges: KnownRange[];
  /** Ascending, unique; only days inside a range. */
  dates: string[];
  /** `vals[i]` is the value on `dates[i]`. */
  vals: (number | null)[];
}

/** One answer of the service to store: the window asked for and the points it held. */
export interface FetchedRange extends DatedWindow {
  fetchedAt: number;
  /** The last day that had settled when this was fetched (fetch day minus the settling window). */
  settledThrough: string;
  /**
   * Days after `settledThrough` up to this one settle too where the service
   * sent a real value (not null, not 0: its placeholders for a day not final
   * yet) or a message; the first day without one ends it. Default none.
   */
  settledIfValuedThrough?: string;
  /** In date order. Points outside the window are ignored. */
  points: readonly StoredPoint[];
  /** The service answered the window with this message: no points, the days known to have none. */
  message?: string;
}

/** Which series a record holds. The base address is stored without any user:password part. */
export interface SeriesId {
  baseUrl: string;
  symbol: string;
  metric: string;
  granularity: Granularity;
  /** Whose answer it is (settings' `who`, a hash: acceptance.ts); absent for answers anyone may read. */
  who?: string;
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

/** The persistent store itself (IndexedDB, memory only when it cannot be had): what it holds, read and written by key. */
export interface PersistentSeriesStore {
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

/** The record's key: JSON of its parts, so no separator can be ambiguous; whose it is last, when it is someone's. */
export function seriesKey(id: SeriesId): string {
  const base = storeBaseUrl(id.baseUrl);
  return JSON.stringify(
    id.who ? [base, id.symbol, id.metric, id.granularity, id.who] : [base, id.symbol, id.metric, id.granularity],
  );
}

/** A catalog or feed answer's key in the store: the memory cache's key, and whose it is when it is someone's. */
export function answerStoreKey(cacheKey: string, who: string | null | undefined): string {
  return who ? `${cacheKey} ${JSON.stringify(who)}` : cacheKey;
}

/** The last base address `storeBaseUrl` was given, and its answer: every read and write of every cell asks it. */
let lastBaseUrl: string | undefined;
let lastStoreBaseUrl = "";

/** A base address as the store keeps it: without credentials in the authority, if anyone typed them. */
export function storeBaseUrl(baseUrl: string): string {
  if (baseUrl !== lastBaseUrl) {
    lastStoreBaseUrl = withoutCredentials(baseUrl);
    lastBaseUrl = baseUrl;
  }
  return lastStoreBaseUrl;
}

function withoutCredentials(baseUrl: string): string {
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

export interface SeriesRecord extends SeriesData, SeriesId {
  key: string;
  bytes: number;
}

export interface AnswerRecord extends StoredAnswer {
  key: string;
}

export interface UsageRow {
  key: string;
  kind: "series" | "answer";
  bytes: number;
  usedAt: number;
}

export type MemoryEntry =
  | { kind: "series"; id: SeriesId; data: SeriesData; bytes: number }
  | { kind: "answer"; answer: StoredAnswer; bytes: number };

export interface PendingWrite {
  kind: "series" | "answer";
  id?: SeriesId;
  ops: FetchedRange[];
  answer?: AnswerRecord;
}

export interface PendingRead {
  kind: "series" | "answer";
  key: string;
  resolve(value: SeriesData | StoredAnswer | undefined): void;
}

export function seriesBytes(data: SeriesData): number {
  return 160 + data.dates.length * 24 + data.ranges.length * 48;
}

export function isSeriesRecord(value: unknown): value is SeriesRecord {
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

export function errorText(error: unknown): string {
  if (error && typeof error === "object" && "name" in error) {
    const { name, message } = error as { name: unknown; message?: unknown };
    return message ? `${String(name)}: ${String(message)}` : String(name);
  }
  return String(error);
}

export function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
