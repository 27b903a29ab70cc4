/**
 * The shared client: one per runtime, everything reaches the service through
 * it. This file owns *which* requests are sent and who receives the answers
 * (batching, chunking, caching, de-duplication, cancellation); executor.ts
 * owns *how* one request is sent (concurrency, retries, timeouts).
 */
import { utcDateOf } from "../core/calendar";
import { planRequests } from "./batch-plan";
import {
  BadRequestError,
  BadResponseError,
  CancelledError,
  ConfigError,
  MarketDataError,
  NotCachedError,
  redact,
} from "./errors";
import { sendWithRetries, type ExecutorDeps, type ResolvedSettings } from "./executor";
import { LruCache } from "./lru-cache";
import {
  assertGranularity,
  assertIsoDate,
  assertMetricName,
  assertSymbol,
  assetSymbolsRequest,
  flowsRequest,
  insightsRequest,
  listChars,
  normalizeBaseUrl,
  seriesRequest,
  seriesUrlLength,
  supportedMetricsRequest,
  type ApiRequest,
} from "./requests";
import {
  mergeFlows,
  parseAssetsResponse,
  parseFlowsResponse,
  parseInsightsResponse,
  parseMetricsResponse,
  parseSeriesResponse,
  type SeriesTable,
} from "./responses";
import { Semaphore } from "./semaphore";
import { mergeParts, splitWindow, type DateWindow } from "./series-windows";
import { globalTimers, type Timers } from "./timers";
import { MAX_RESPONSE_BYTES, type FetchLike } from "./transport";
import type {
  AssetRecord,
  FlowType,
  FlowsResult,
  Granularity,
  InsightCard,
  MetricDescriptor,
  SeriesResult,
} from "../core/domain";
import type {
  CallOptions,
  ClientCounters,
  FlowsRequest,
  MarketDataClient,
  SeriesRequest,
  SettingsSource,
} from "./types";

export interface ClientOptions {
  /** Read before every flush and every catalog call: a new key or base URL applies on the next calculation (and empties the cache). */
  settings: SettingsSource;
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
  /** HTTP requests at once. Default 6, a browser's per-host connection limit: more would only queue inside the browser while their timeouts run. */
  concurrency?: number;
  /** Per-attempt timeout of series and flow requests. Default 30 s. */
  timeoutMs?: number;
  /** Per-attempt timeout of catalogs and insight feeds (up to a minute server-side when cold). Default 120 s. */
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
}

export const CLIENT_DEFAULTS = {
  batchDelayMs: 10,
  batchMaxDelayMs: 50,
  maxSymbolsPerRequest: 50,
  maxMetricsPerRequest: 20,
  maxSeriesPerRequest: 250,
  maxUrlLength: 2000,
  maxPointsPerRequest: 1000,
  concurrency: 6,
  timeoutMs: 30_000,
  slowTimeoutMs: 120_000,
  retries: 4,
  retryBaseMs: 300,
  retryMaxMs: 10_000,
  retryAfterMaxMs: 30_000,
  cacheTtlMs: 5 * 60_000,
  catalogTtlMs: 60 * 60_000,
  cacheMaxBytes: 20 * 1024 * 1024,
  maxResponseBytes: MAX_RESPONSE_BYTES,
  testSymbol: "eth",
} as const;

/** What the client is doing right now: for the pane's diagnostics and for tests that prove nothing is left pending. */
export interface ClientState {
  queued: number;
  inFlight: number;
  cacheEntries: number;
  cacheBytes: number;
  cacheKeys: string[];
}

export interface Client extends MarketDataClient {
  state(): ClientState;
}

type Outcome<T> = { value: T } | { error: unknown };

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

/**
 * One awaited answer: a (symbol, metric, window) series, a catalog, a feed.
 * Every caller asking for it while it is queued or in flight joins its
 * waiters, so the service is asked once (in-flight de-duplication).
 */
interface Load<T> {
  id: string;
  state: "queued" | "dispatching" | "in-flight" | "settled";
  waiters: Set<Waiter<T>>;
  flight?: Flight;
}

interface SeriesLoad extends Load<SeriesResult> {
  symbol: string;
  metric: string;
  window: SeriesWindow;
  windowKey: string;
}

interface SeriesWindow extends DateWindow {
  granularity?: Granularity;
}

/** One HTTP request (with its retries) and the loads it answers; aborted once none of them has a waiter. */
interface Flight {
  controller: AbortController;
  loads: Load<unknown>[];
}

/**
 * A message in place of a series is the service's own text, shown in cells
 * and in the pane; a careless service may quote the request in it, key
 * included. Error bodies are redacted where they are read (transport.ts).
 */
function redactMessages(table: SeriesTable, apiKey: string): void {
  for (const row of table.values()) {
    for (const [metric, result] of row) {
      if (!(result instanceof BadResponseError) && result.kind === "message")
        row.set(metric, { kind: "message", message: redact(result.message, apiKey) });
    }
  }
}

export function createClient(options: ClientOptions): Client {
  return new BatchingClient(options);
}

class BatchingClient implements Client {
  private readonly o: Required<Omit<ClientOptions, "logger" | "fetch" | "now" | "timers" | "random" | "settings">>;
  private readonly readSettingsSource: SettingsSource;
  private readonly fetchFn: FetchLike;
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly cache: LruCache<unknown>;
  private readonly inFlight = new Map<string, Load<unknown>>();
  private readonly stats: ClientCounters = { requests: 0, cacheHits: 0, retries: 0, failures: 0, bytes: 0 };
  private readonly deps: ExecutorDeps;
  private readonly log: (line: string) => void;

  private queue: SeriesLoad[] = [];
  private flushTimer: unknown = undefined;
  private firstQueuedAt = 0;
  private lastQueuedAt = 0;
  private current?: ResolvedSettings;

  constructor(options: ClientOptions) {
    this.o = { ...CLIENT_DEFAULTS, ...definedOnly(options) } as BatchingClient["o"];
    this.readSettingsSource = options.settings;
    this.fetchFn = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? globalTimers;
    const logger = options.logger;
    this.log = logger
      ? (line) => {
          try {
            logger(this.current ? redact(line, this.current.apiKey) : redact(line));
          } catch {
            // A broken logger must not break a request.
          }
        }
      : () => undefined;
    this.cache = new LruCache(this.o.cacheMaxBytes, this.now);
    this.deps = {
      fetch: this.fetchFn,
      timers: this.timers,
      now: this.now,
      random: options.random ?? Math.random,
      semaphore: new Semaphore(this.o.concurrency),
      retry: {
        retries: this.o.retries,
        baseMs: this.o.retryBaseMs,
        maxMs: this.o.retryMaxMs,
        retryAfterMaxMs: this.o.retryAfterMaxMs,
      },
      counters: this.stats,
      log: this.log,
      maxResponseBytes: this.o.maxResponseBytes,
    };
  }

  // ---------------------------------------------------------------- series

  getSeries(req: SeriesRequest, opts: CallOptions = {}): Promise<SeriesResult> {
    let window: SeriesWindow;
    let parts: DateWindow[];
    try {
      assertSymbol(req.symbol);
      assertMetricName(req.metric);
      window = validateWindow(req);
      parts = splitWindow(window, window.granularity, utcDateOf(this.now()), this.o.maxPointsPerRequest);
    } catch (error) {
      return Promise.reject(error);
    }
    if (opts.signal?.aborted) return Promise.reject(new CancelledError());
    const loads = parts.map((part) =>
      this.loadSeries(
        req.symbol,
        req.metric,
        { ...part, ...(window.granularity ? { granularity: window.granularity } : {}) },
        opts,
      ),
    );
    if (loads.length === 1) return loads[0]!;
    return Promise.all(loads).then(mergeParts);
  }

  private loadSeries(symbol: string, metric: string, window: SeriesWindow, opts: CallOptions): Promise<SeriesResult> {
    const windowKey = JSON.stringify([window.startDate ?? "", window.endDate ?? "", window.granularity ?? ""]);
    const id = seriesId(symbol, metric, windowKey);
    if (this.current) {
      const hit = this.cache.get(cacheKey(this.current.baseUrl, id)) as SeriesResult | undefined;
      if (hit) {
        this.stats.cacheHits += 1;
        return Promise.resolve(hit);
      }
    }
    const existing = this.inFlight.get(id) as Load<SeriesResult> | undefined;
    if (existing) {
      this.stats.cacheHits += 1;
      return this.join(existing, opts.signal);
    }
    if (opts.cacheOnly) return Promise.reject(new NotCachedError());
    const load: SeriesLoad = { id, state: "queued", waiters: new Set(), symbol, metric, window, windowKey };
    this.inFlight.set(id, load as Load<unknown>);
    this.queue.push(load);
    const promise = this.join(load, opts.signal);
    this.scheduleFlush();
    return promise;
  }

  /*
   * Scheduling of the batch (the dataloader model, adapted to Excel).
   *
   * dataloader flushes on the next tick because a GraphQL resolver issues
   * all of a level's loads synchronously. Excel does not: a recalculation's
   * custom-function calls reach the shared runtime as separate messages,
   * spread over many macrotasks and often several milliseconds. A same-tick
   * flush would therefore send almost one request per cell. So the batch is a
   * timer window instead:
   *
   * - it opens with the first queued call and closes once no call has
   *   arrived for `batchDelayMs` (10 ms): a burst keeps the window open while
   *   it lasts, and the quiet gap after it costs one short wait — small next
   *   to a network round trip (≥ 50 ms), invisible to a user;
   * - it never stays open longer than `batchMaxDelayMs` (50 ms) after its
   *   first call, so a steady trickle of calls cannot starve the first ones;
   * - calls arriving after the flush started go into the next window, and
   *   calls for a pair already queued or in flight join it instead of
   *   queueing again.
   *
   * The timer is re-armed for the remaining time rather than reset on every
   * call: a recalculation of thousands of cells then costs a handful of
   * timers, not thousands of clearTimeout/setTimeout pairs.
   */
  private scheduleFlush(): void {
    const now = this.now();
    this.lastQueuedAt = now;
    if (this.flushTimer !== undefined) return;
    this.firstQueuedAt = now;
    this.armFlush(this.o.batchDelayMs);
  }

  private armFlush(ms: number): void {
    this.flushTimer = this.timers.setTimeout(() => this.onFlushTimer(), Math.max(0, ms));
  }

  private onFlushTimer(): void {
    this.flushTimer = undefined;
    const now = this.now();
    const quietFor = now - this.lastQueuedAt;
    const openFor = now - this.firstQueuedAt;
    if (quietFor < this.o.batchDelayMs && openFor < this.o.batchMaxDelayMs) {
      this.armFlush(Math.min(this.o.batchDelayMs - quietFor, this.o.batchMaxDelayMs - openFor));
      return;
    }
    void this.flush();
  }

  private async flush(): Promise<void> {
    const batch = this.queue.filter((load) => load.state === "queued");
    this.queue = [];
    if (batch.length === 0) return;
    for (const load of batch) load.state = "dispatching";
    try {
      const settings = await this.readSettings();
      const groups = new Map<string, SeriesLoad[]>();
      for (const load of batch) {
        if (load.state !== "dispatching") continue; // abandoned while the settings were read
        const group = groups.get(load.windowKey);
        if (group) group.push(load);
        else groups.set(load.windowKey, [load]);
      }
      const sends: Promise<void>[] = [];
      for (const loads of groups.values()) {
        const window = loads[0]!.window;
        const urlLength = seriesUrlLength(settings.baseUrl, settings.apiKey, window);
        const plan = planRequests(loads, {
          maxSymbols: this.o.maxSymbolsPerRequest,
          maxMetrics: this.o.maxMetricsPerRequest,
          maxSeries: this.o.maxSeriesPerRequest,
          maxUrlLength: this.o.maxUrlLength,
          urlLength,
          itemChars: (item) => listChars([item]),
        });
        for (const request of plan) {
          sends.push(this.sendSeries(settings, window, request.pairs, request.symbols, request.metrics));
        }
      }
      await Promise.all(sends);
    } catch (error) {
      for (const load of batch) this.settle(load, { error });
    } finally {
      // Every promise settles, always: anything a bug left unanswered fails clearly instead of hanging a cell.
      for (const load of batch) {
        if (load.state !== "settled") {
          this.settle(load, {
            error: new MarketDataError(
              "bad-response",
              "The market-data client lost track of this request; recalculate to retry.",
              true,
            ),
          });
        }
      }
    }
  }

  /**
   * Sends one series request and hands each load its own series. A 400/422
   * on a request carrying several callers is isolated by bisection: the
   * callers are split in two halves (by symbol while there are several, then
   * by metric) and each half is re-sent, so one caller's bad symbol or metric
   * fails only that caller, at a cost of about 2·log2(n) extra requests per
   * bad pair. Every other failure is the whole request's and rejects all its
   * callers with the same error.
   */
  private async sendSeries(
    settings: ResolvedSettings,
    window: SeriesWindow,
    loads: readonly SeriesLoad[],
    symbols: readonly string[],
    metrics: readonly string[],
  ): Promise<void> {
    const live = loads.filter((load) => load.state !== "settled");
    if (live.length === 0) return;
    const flight: Flight = { controller: new AbortController(), loads: live as Load<unknown>[] };
    for (const load of live) {
      load.state = "in-flight";
      load.flight = flight;
    }
    let answered = false;
    try {
      const request = seriesRequest({ symbols, metrics, ...window });
      const { json } = await sendWithRetries(this.deps, request, settings, {
        signal: flight.controller.signal,
        timeoutMs: this.o.timeoutMs,
      });
      answered = true;
      const table = parseSeriesResponse(json, symbols, metrics);
      redactMessages(table, settings.apiKey);
      for (const [symbol, row] of table) {
        for (const [metric, result] of row) {
          if (result instanceof BadResponseError) continue;
          const id = seriesId(symbol, metric, live[0]!.windowKey);
          this.cache.set(cacheKey(settings.baseUrl, id), result, this.o.cacheTtlMs, seriesSize(result));
        }
      }
      for (const load of live) {
        const result = table.get(load.symbol)?.get(load.metric);
        if (result instanceof BadResponseError) this.settle(load, { error: result });
        else this.settle(load, { value: result ?? { kind: "points", points: [] } });
      }
    } catch (error) {
      if (isPerCallerRefusal(error) && symbols.length * metrics.length > 1) {
        const waiting = live.filter((load) => this.stillWanted(load));
        await this.isolate(settings, window, waiting);
        return;
      }
      // The executor counts failed sends; a body that arrived but could not be used is a failure too.
      if (answered) this.stats.failures += 1;
      for (const load of live) this.settle(load, { error });
    }
  }

  private async isolate(settings: ResolvedSettings, window: SeriesWindow, loads: SeriesLoad[]): Promise<void> {
    if (loads.length === 0) return;
    this.log(`isolating a refused request: re-sending ${loads.length} series in halves`);
    const halves = splitInHalves(loads);
    await Promise.all(
      halves.map((half) =>
        this.sendSeries(settings, window, half, unique(half.map((l) => l.symbol)), unique(half.map((l) => l.metric))),
      ),
    );
  }

  private stillWanted(load: Load<unknown>): boolean {
    if (load.waiters.size > 0) return true;
    this.settle(load, { error: new CancelledError() });
    return false;
  }

  // ----------------------------------------------------- catalogs and flows

  async getFlows(req: FlowsRequest, opts: CallOptions = {}): Promise<FlowsResult> {
    const types = unique(req.flowTypes.length ? req.flowTypes : (["netflow"] as FlowType[]));
    const parts = await Promise.all(
      types.map(async (flowType) => {
        const request = flowsRequest({ ...req, flowType });
        const id = JSON.stringify(["flows", request.query]);
        const values = await this.loadSingle(
          id,
          request,
          this.o.cacheTtlMs,
          (json) => parseFlowsResponse(json, flowType),
          opts,
        );
        return [flowType, values] as [FlowType, Record<string, number>];
      }),
    );
    return mergeFlows(parts);
  }

  async getAssets(opts: CallOptions = {}): Promise<AssetRecord[]> {
    return this.loadSingle(
      JSON.stringify(["assets"]),
      assetSymbolsRequest(),
      this.o.catalogTtlMs,
      (json) => {
        const { assets, dropped } = parseAssetsResponse(json);
        if (dropped) this.log(`asset catalog: ${dropped} record(s) without a symbol dropped`);
        return assets;
      },
      opts,
    );
  }

  async getMetrics(symbol: string, opts: CallOptions = {}): Promise<MetricDescriptor[]> {
    const request = supportedMetricsRequest(symbol);
    return this.loadSingle(
      JSON.stringify(["metrics", symbol]),
      request,
      this.o.catalogTtlMs,
      parseMetricsResponse,
      opts,
    );
  }

  async getInsights(feed: string, opts: CallOptions = {}): Promise<InsightCard[]> {
    const name = feed.trim().toLowerCase();
    const request = insightsRequest(name);
    return this.loadSingle(
      JSON.stringify(["insights", name]),
      request,
      this.o.catalogTtlMs,
      parseInsightsResponse,
      opts,
    );
  }

  private async loadSingle<T>(
    id: string,
    request: ApiRequest,
    ttlMs: number,
    parse: (json: unknown) => T,
    opts: CallOptions,
  ): Promise<T> {
    if (opts.signal?.aborted) throw new CancelledError();
    const settings = await this.readSettings();
    const key = cacheKey(settings.baseUrl, id);
    const hit = this.cache.get(key) as T | undefined;
    if (hit !== undefined) {
      this.stats.cacheHits += 1;
      return hit;
    }
    const existing = this.inFlight.get(key) as Load<T> | undefined;
    if (existing) {
      this.stats.cacheHits += 1;
      return this.join(existing, opts.signal);
    }
    if (opts.cacheOnly) throw new NotCachedError();
    const load: Load<T> = { id: key, state: "in-flight", waiters: new Set() };
    const flight: Flight = { controller: new AbortController(), loads: [load as Load<unknown>] };
    load.flight = flight;
    this.inFlight.set(key, load as Load<unknown>);
    const promise = this.join(load, opts.signal);
    const timeoutMs = request.timeoutClass === "slow" ? this.o.slowTimeoutMs : this.o.timeoutMs;
    void (async () => {
      try {
        const { json, bytes } = await sendWithRetries(this.deps, request, settings, {
          signal: flight.controller.signal,
          timeoutMs,
        });
        const value = parse(json);
        // Parsed objects take roughly twice their JSON text in memory.
        this.cache.set(key, value, ttlMs, bytes * 2 + 256);
        this.settle(load, { value });
      } catch (error) {
        this.settle(load, { error });
      }
    })();
    return promise;
  }

  // ------------------------------------------------------------ the rest

  async testConnection(opts: CallOptions = {}): Promise<{ ok: true; ms: number }> {
    if (opts.signal?.aborted) throw new CancelledError();
    const started = this.now();
    const settings = await this.readSettings();
    const symbol = this.o.testSymbol;
    const request = seriesRequest({ symbols: [symbol], metrics: ["PRICE"], limit: 1 });
    const { json } = await sendWithRetries(this.deps, request, settings, {
      timeoutMs: this.o.timeoutMs,
      retries: Math.min(1, this.o.retries),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    parseSeriesResponse(json, [symbol], ["PRICE"]);
    return { ok: true, ms: this.now() - started };
  }

  clear(): void {
    this.cache.clear();
    this.log("cache cleared");
  }

  counters(): ClientCounters {
    return { ...this.stats };
  }

  state(): ClientState {
    return {
      queued: this.queue.filter((l) => l.state === "queued").length,
      inFlight: this.inFlight.size,
      cacheEntries: this.cache.keys().length,
      cacheBytes: this.cache.bytes,
      cacheKeys: this.cache.keys(),
    };
  }

  // ------------------------------------------------------------ plumbing

  /** Reads and checks the settings; a changed key or base URL empties the cache (answers may differ per account). */
  private async readSettings(): Promise<ResolvedSettings> {
    let raw: { apiKey?: string; baseUrl?: string };
    try {
      raw = await this.readSettingsSource();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError(redact(`Could not read the market-data settings: ${reason}`, this.current?.apiKey));
    }
    const baseUrl = normalizeBaseUrl(raw?.baseUrl);
    const apiKey = (raw?.apiKey ?? "").trim();
    if (!apiKey) throw new ConfigError("No API key is set. Enter your market-data API key in the Market Data pane.");
    const previous = this.current;
    this.current = { baseUrl, apiKey };
    if (previous && (previous.baseUrl !== baseUrl || previous.apiKey !== apiKey)) {
      this.cache.clear();
      this.log(`settings changed (${previous.baseUrl !== baseUrl ? "base URL" : "API key"}): cache cleared`);
    }
    return this.current;
  }

  /** Adds a waiter to a load; its signal drops only this waiter, and the request once nobody waits. */
  private join<T>(load: Load<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!signal) {
        load.waiters.add({ resolve, reject });
        return;
      }
      const waiter: Waiter<T> = {
        resolve: (value) => {
          signal.removeEventListener("abort", onAbort);
          resolve(value);
        },
        reject: (error) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        if (!load.waiters.delete(waiter)) return;
        reject(new CancelledError());
        this.abandonIfUnwanted(load);
      };
      load.waiters.add(waiter);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private abandonIfUnwanted<T>(load: Load<T>): void {
    if (load.waiters.size > 0 || load.state === "settled") return;
    if (load.state === "queued" || load.state === "dispatching") {
      this.settle(load, { error: new CancelledError() });
      return;
    }
    const flight = load.flight;
    if (flight && flight.loads.every((l) => l.waiters.size === 0)) {
      for (const l of flight.loads) this.settle(l, { error: new CancelledError() });
      flight.controller.abort();
      this.log(`request abandoned by every caller: aborted`);
    }
  }

  private settle<T>(load: Load<T>, outcome: Outcome<T>): void {
    if (load.state === "settled") return;
    load.state = "settled";
    if (this.inFlight.get(load.id) === (load as Load<unknown>)) this.inFlight.delete(load.id);
    const waiters = [...load.waiters];
    load.waiters.clear();
    for (const waiter of waiters) {
      if ("value" in outcome) waiter.resolve(outcome.value);
      else waiter.reject(outcome.error);
    }
  }
}

function validateWindow(req: SeriesRequest): SeriesWindow {
  const window: SeriesWindow = {};
  if (req.startDate !== undefined) window.startDate = assertIsoDate(req.startDate, "start date");
  if (req.endDate !== undefined) window.endDate = assertIsoDate(req.endDate, "end date");
  if (req.granularity !== undefined) window.granularity = assertGranularity(req.granularity);
  if (window.startDate && window.endDate && window.startDate > window.endDate) {
    throw new BadRequestError(`The start date ${window.startDate} is after the end date ${window.endDate}.`);
  }
  return window;
}

/** A refusal that may concern only some of a batched request's callers (400 Bad Request, 422 Unprocessable). */
function isPerCallerRefusal(error: unknown): boolean {
  return error instanceof BadRequestError && (error.status === 400 || error.status === 422);
}

function splitInHalves(loads: SeriesLoad[]): SeriesLoad[][] {
  const symbols = unique(loads.map((l) => l.symbol));
  if (symbols.length > 1) {
    const left = new Set(symbols.slice(0, Math.ceil(symbols.length / 2)));
    return [loads.filter((l) => left.has(l.symbol)), loads.filter((l) => !left.has(l.symbol))];
  }
  const middle = Math.ceil(loads.length / 2);
  return [loads.slice(0, middle), loads.slice(middle)].filter((half) => half.length > 0);
}

function seriesId(symbol: string, metric: string, windowKey: string): string {
  return `series|${symbol}|${metric}|${windowKey}`;
}

/** Never holds the API key: answers are the same data whatever key fetched them, and keys end up in logs and diagnostics. */
function cacheKey(baseUrl: string, id: string): string {
  return `${baseUrl} ${id}`;
}

function seriesSize(result: SeriesResult): number {
  return result.kind === "points" ? 96 + result.points.length * 48 : 96 + result.message.length * 2;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
