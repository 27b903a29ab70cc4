/**
 * What a client can be given: its credentials (the settings and the access token), stand-ins for fetch, the
 * clock and timers (tests, the benchmark), and the limits of batching,
 * caching and retrying, with their defaults.
 */
import type { PersistentSeriesStore } from "./store/types";
import type { Timers } from "./http/timers";
import { MAX_RESPONSE_BYTES, type FetchLike } from "./http/transport";
import type { RetryPolicy } from "./http/retry";
import type { AccessTokenSource, ClientCredentials, SettingsSource } from "./types";

/**
 * Where the credentials come from: `credentials` (the add-in's one channel), or its two parts given apart (`settings`,
 * and `accessToken` when a gateway asks for sign-in), as tests and the benchmark do. One of the two is required.
 */
export interface ClientCredentialOptions {
  /**
   * The settings, read before every flush and every catalog call (a new key or base URL applies on the next
   * calculation, and empties the cache), and the access token for a gateway that asks for sign-in (settings'
   * `signedInUsersOnly`), asked before every request to it and once more with `forceRefresh` after a 401.
   */
  credentials?: ClientCredentials;
  /** `credentials.settings` alone; not read when `credentials` is given. */
  settings?: SettingsSource;
  /** `credentials.accessToken` alone; not read when `credentials` is given. Default none. */
  accessToken?: AccessTokenSource;
}

/** The one channel, whichever way the options gave it. */
export function clientCredentials(options: ClientCredentialOptions): ClientCredentials {
  if (options.credentials) return options.credentials;
  if (!options.settings) throw new TypeError("createClient needs `credentials` (or `settings`).");
  return options.accessToken
    ? { settings: options.settings, accessToken: options.accessToken }
    : { settings: options.settings };
}

export interface ClientOptions extends ClientCredentialOptions {
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Milliseconds since the epoch; default `Date.now`. Drives TTLs, Retry-After dates and "today" for open windows. */
  now?: () => number;
  /** Default the global setTimeout/clearTimeout. */
  timers?: Timers;
  /** In [0, 1); default `Math.random`. Only the retry jitter uses it. */
  random?: () => number;
  /** Quiet gap that ends a batch: flush once no new series call arrived for this long. Default 10 ms. */
  batchDelayMs?: number;
  /** Longest a series call waits for its batch to fill, however busy the burst. Default 50 ms. */
  batchMaxDelayMs?: number;
  /** Symbols per series request. Default 50. */
  maxSymbolsPerRequest?: number;
  /** Metrics per series request. Default 20. */
  maxMetricsPerRequest?: number;
  /** Series (symbols × metrics) per request, bounding a response's size on long windows. Default 250. */
  maxSeriesPerRequest?: number;
  /** URL length cap, key included: proxies and servers commonly refuse longer request lines. Default 2000. */
  maxUrlLength?: number;
  /** Points per series the service returns at most; longer windows are split. Default 1000 (the service's cap). */
  maxPointsPerRequest?: number;
  /**
   * Series and flow requests at once (the series lane). Default 4: with the
   * catalog lane's 2, a browser's per-host limit of 6 connections (HTTP/1.1)
   * is never exceeded, so neither lane can queue inside the browser behind
   * the other's stuck requests.
   */
  concurrency?: number;
  /** Catalog and insight-feed requests at once (their own lane). Default 2. */
  catalogConcurrency?: number;
  /**
   * Longest a series, flows or connection-test call waits for its answer,
   * whatever the service does; then a TimeoutError. Default 50 s. (A cell has
   * its own deadline of 55 s around all its calls, before Excel on Mac
   * abandons it at 60 s: src/functions/invoke.ts.)
   */
  callDeadlineMs?: number;
  /** The same for catalogs and insight feeds, whose first call can take a minute server-side (the pane shows progress). Default 130 s. */
  slowCallDeadlineMs?: number;
  /** Per-attempt timeout of series and flow requests. Default 30 s. */
  timeoutMs?: number;
  /**
   * Per-attempt timeout of catalogs and insight feeds (up to a minute server-side when cold). Default 55 s:
   * Excel on Mac abandons a request at 60 s (office-js #1184), so a slow attempt ends with the add-in's own
   * timeout first and is retried (the service keeps preparing the feed meanwhile) rather than waiting 120 s.
   */
  slowTimeoutMs?: number;
  /** Retries after the first attempt, on network errors, timeouts, 5xx, 429 and unreadable JSON. Default 4. */
  retries?: number;
  /** Backoff: the n-th retry waits a random time up to min(retryMaxMs, retryBaseMs × 2^n). Default 300 ms. */
  retryBaseMs?: number;
  /** Default 10 s. */
  retryMaxMs?: number;
  /** A 429's Retry-After is waited (at least) as asked up to this; beyond it the request fails at once. Default 30 s. */
  retryAfterMaxMs?: number;
  /** Series and flows. Default 5 min. */
  cacheTtlMs?: number;
  /** Asset catalog, metric catalogs and insight feeds. Default 1 h (the service refreshes insight feeds hourly). */
  catalogTtlMs?: number;
  /** Approximate memory for cached answers; least recently used go first. Default 20 MB. */
  cacheMaxBytes?: number;
  /** Largest response body read; a longer one is abandoned with a clear error. Default 50 MB. */
  maxResponseBytes?: number;
  /** One line per request, retry and notable event; the API key never appears. */
  logger?: (line: string) => void;
  /** The symbol `testConnection` asks a PRICE for. Default "eth". */
  testSymbol?: string;
  /**
   * The persistent store behind warm workbooks (store/persistent-store.ts; the runtime
   * passes the IndexedDB one). Settled daily days it holds are not fetched
   * again, and catalogs and insight feeds it holds are read offline. Default
   * none: the in-memory cache only.
   */
  store?: PersistentSeriesStore | null;
  /**
   * The newest days the store keeps as unsettled (asked again once their five minutes have passed). Default 2:
   * today, and yesterday unless the service sent a real value for it (its days not final yet are null or 0
   * placeholders, real-service.md; not when fetched in the first two hours of the UTC day, where a clock a little
   * ahead of the service's would take its today for yesterday); a day two days old or more is settled when it is
   * not null. Another value:
   * today and the days before it, that many in all, whatever their values.
   */
  unsettledDays?: number;
  /**
   * The longest trust of stored settled days: after it they are asked again on
   * their next use, so a revision of history (a methodology change, a wrong
   * answer corrected) reaches the workbook without "Reload everything". Each
   * symbol has its recheck days, one in every cycle of this period less a day
   * (a hash of the symbol, store/trust.ts): its settled days fall due
   * then, never later than this period after their fetch and never the day
   * after it, so a workbook's rechecks spread over the days it is opened.
   * Refresh all can recheck sooner (`clear({ recheckHistory: true })`).
   * @default 7 days
   */
  revalidateAfterMs?: number;
}

export const CLIENT_DEFAULTS = {
  batchDelayMs: 10,
  batchMaxDelayMs: 50,
  maxSymbolsPerRequest: 50,
  maxMetricsPerRequest: 20,
  maxSeriesPerRequest: 250,
  maxUrlLength: 2000,
  maxPointsPerRequest: 1000,
  concurrency: 4,
  catalogConcurrency: 2,
  callDeadlineMs: 50_000,
  slowCallDeadlineMs: 130_000,
  timeoutMs: 30_000,
  slowTimeoutMs: 55_000,
  retries: 4,
  retryBaseMs: 300,
  retryMaxMs: 10_000,
  retryAfterMaxMs: 30_000,
  cacheTtlMs: 5 * 60_000,
  catalogTtlMs: 60 * 60_000,
  cacheMaxBytes: 20 * 1024 * 1024,
  maxResponseBytes: MAX_RESPONSE_BYTES,
  testSymbol: "eth",
  unsettledDays: 2,
  revalidateAfterMs: 7 * 86_400_000,
} as const;

/** The executor's retry policy from the client's options. */
export function retryPolicyOf(o: {
  retries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  retryAfterMaxMs: number;
}): RetryPolicy {
  return { retries: o.retries, baseMs: o.retryBaseMs, maxMs: o.retryMaxMs, retryAfterMaxMs: o.retryAfterMaxMs };
}
