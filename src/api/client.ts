/**
 * The shared client: one per runtime, everything reaches the service through
 * it. A facade: it validates a caller's question and hands it to the part
 * that answers it — series to the batcher (series-batcher.ts: the batch
 * window, packing, isolation), catalogs, feeds and flows to one request each —
 * with the pending-loads registry (pending-loads.ts) joining callers of the
 * same answer, the cache, and the settings read before every request.
 * executor.ts owns *how* one request is sent (concurrency, retries, timeouts).
 * Beside the in-memory cache, the persistent store (stored-series.ts) answers
 * the settled parts of daily windows and keeps catalogs for offline reading.
 */
import { addDays, utcDateOf } from "../core/calendar";
import type { AssetRecord, FlowType, FlowsResult, InsightCard, MetricDescriptor, SeriesResult } from "../core/domain";
import { CLIENT_DEFAULTS, type ClientOptions } from "./client-options";
import { BadRequestError, CancelledError, NotCachedError, redact, TimeoutError } from "./errors";
import { sendWithRetries, type ExecutorDeps } from "./executor";
import { mayWiden, widenSparseFcf } from "./fcf-widening";
import { LruCache } from "./lru-cache";
import { answerKey, cacheKey, PendingLoads, type Load } from "./pending-loads";
import {
  assertGranularity,
  assertIsoDate,
  assertMetricName,
  assertSymbol,
  assetSymbolsRequest,
  flowsRequest,
  insightsRequest,
  seriesRequest,
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
} from "./responses";
import { Semaphore } from "./semaphore";
import { SeriesBatcher, type SeriesWindow } from "./series-batcher";
import { HISTORY_FLOOR, walkBackwards, type DatedWindow } from "./history-walk";
import { splitWindow } from "./series-windows";
import { SettingsReader } from "./settings-reader";
import { globalTimers, type Timers } from "./timers";
import { NO_STORE_STATUS, StoredSeries } from "./stored-series";
import type { ResolvedSettings } from "./executor";
import type { CallOptions, ClientCounters, FlowsRequest, MarketDataClient, SeriesRequest, StoreStatus } from "./types";

export { CLIENT_DEFAULTS, type ClientOptions } from "./client-options";

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

export function createClient(options: ClientOptions): Client {
  return new BatchingClient(options);
}

class BatchingClient implements Client {
  private readonly o: Required<
    Omit<ClientOptions, "logger" | "fetch" | "now" | "timers" | "random" | "settings" | "store">
  >;
  private readonly now: () => number;
  private readonly cache: LruCache<unknown>;
  private readonly pending: PendingLoads;
  private readonly settings: SettingsReader;
  private readonly batcher: SeriesBatcher;
  private readonly stats: ClientCounters = { requests: 0, cacheHits: 0, retries: 0, failures: 0, bytes: 0 };
  /** Series and flows: the series lane. */
  private readonly deps: ExecutorDeps;
  /** Catalogs and insight feeds: their own lane, so neither kind of request ever waits behind the other. */
  private readonly catalogDeps: ExecutorDeps;
  private readonly timers: Timers;
  private readonly log: (line: string) => void;
  private readonly stored: StoredSeries | null;
  private settingsRead?: Promise<ResolvedSettings>;

  constructor(options: ClientOptions) {
    this.o = { ...CLIENT_DEFAULTS, ...definedOnly(options) } as BatchingClient["o"];
    this.now = options.now ?? Date.now;
    const timers = options.timers ?? globalTimers;
    this.timers = timers;
    const logger = options.logger;
    this.log = logger
      ? (line) => {
          const current = this.settings.last();
          try {
            logger(current ? redact(line, current.apiKey) : redact(line));
          } catch {
            // A broken logger must not break a request.
          }
        }
      : () => undefined;
    this.cache = new LruCache(this.o.cacheMaxBytes, this.now);
    this.settings = new SettingsReader(options.settings, (what) => {
      this.cache.clear();
      this.log(`settings changed (${what}): cache cleared`);
    });
    this.pending = new PendingLoads(this.log);
    this.deps = {
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      timers,
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
    this.catalogDeps = { ...this.deps, semaphore: new Semaphore(this.o.catalogConcurrency) };
    this.batcher = new SeriesBatcher({
      pending: this.pending,
      settings: this.settings,
      cache: this.cache,
      send: (request, settings, signal, options) =>
        sendWithRetries(this.deps, request, settings, {
          signal,
          timeoutMs: this.o.timeoutMs,
          ...(options.serverErrorRetries === undefined ? {} : { serverErrorRetries: options.serverErrorRetries }),
        }),
      timers,
      now: this.now,
      counters: this.stats,
      log: this.log,
      limits: this.o,
    });
    this.stored = options.store
      ? new StoredSeries({
          store: options.store,
          now: this.now,
          baseUrl: async () => (await this.sharedSettings()).baseUrl,
          fetchWindow: (symbol, metric, window, opts) => this.fetchWindow(symbol, metric, window, opts),
          unsettledDays: this.o.unsettledDays,
          revalidateAfterMs: this.o.revalidateAfterMs,
          recentFreshMs: this.o.cacheTtlMs,
          messageFreshMs: this.o.catalogTtlMs,
          log: this.log,
        })
      : null;
  }

  // ---------------------------------------------------------------- series

  getSeries(req: SeriesRequest, opts: CallOptions = {}): Promise<SeriesResult> {
    return this.withDeadline(`${req.symbol} ${req.metric}`, opts, (o) => this.answerSeries(req, o));
  }

  private answerSeries(req: SeriesRequest, opts: CallOptions): Promise<SeriesResult> {
    const first = this.readSeries(req, opts);
    if (!mayWiden(req)) return first;
    return first.then((result) =>
      widenSparseFcf(req, result, utcDateOf(this.now()), opts.keepWidened === true, (wider) =>
        this.readSeries(wider, opts),
      ),
    );
  }

  /**
   * One caller's series as the service answers it: validated; the store
   * answers what it holds settled and the rest is fetched, or all of it is.
   */
  private readSeries(req: SeriesRequest, opts: CallOptions): Promise<SeriesResult> {
    let window: SeriesWindow;
    try {
      assertSymbol(req.symbol);
      assertMetricName(req.metric);
      window = validateWindow(req);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.stored?.handles(req.metric, window)) return this.stored.get(req.symbol, req.metric, window, opts);
    return this.fetchWindow(req.symbol, req.metric, window, opts);
  }

  /**
   * A checked window, with explicit dates (an omitted start is the whole
   * history, an omitted end today: the service answers a request without
   * dates with bare latest numbers), split into parts the service answers
   * whole, each loaded by the batcher, read newest part first until the data
   * ends (history-walk.ts).
   */
  private fetchWindow(symbol: string, metric: string, window: SeriesWindow, opts: CallOptions): Promise<SeriesResult> {
    let parts: DatedWindow[];
    try {
      const today = utcDateOf(this.now());
      const endDate = window.endDate ?? today;
      const startDate = window.startDate ?? (endDate < HISTORY_FLOOR ? endDate : HISTORY_FLOOR);
      parts = splitWindow({ startDate, endDate }, window.granularity, today, this.o.maxPointsPerRequest).map(
        (part) => ({ startDate: part.startDate ?? startDate, endDate: part.endDate ?? endDate }),
      );
    } catch (error) {
      return Promise.reject(error);
    }
    if (opts.signal?.aborted) return Promise.reject(new CancelledError());
    const granularity = window.granularity ? { granularity: window.granularity } : {};
    const load = (part: DatedWindow) => this.batcher.load(symbol, metric, { ...part, ...granularity }, opts);
    if (parts.length === 1) return load(parts[0]!);
    return walkBackwards(parts, load);
  }

  // ----------------------------------------------------- catalogs and flows

  getFlows(req: FlowsRequest, opts: CallOptions = {}): Promise<FlowsResult> {
    return this.withDeadline("the flows", opts, (o) => this.answerFlows(req, o));
  }

  private async answerFlows(req: FlowsRequest, opts: CallOptions): Promise<FlowsResult> {
    const types = unique(req.flowTypes.length ? req.flowTypes : (["netflow"] as FlowType[]));
    const parts = await Promise.all(
      types.map(async (flowType) => {
        const request = flowsRequest({ ...req, flowType });
        const values = await this.loadSingle(
          answerKey("flows", request.query),
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

  getAssets(opts: CallOptions = {}): Promise<AssetRecord[]> {
    return this.withDeadline("the asset catalog", opts, (o) => this.answerAssets(o), true);
  }

  private answerAssets(opts: CallOptions): Promise<AssetRecord[]> {
    return this.loadSingle(
      answerKey("assets"),
      assetSymbolsRequest(),
      this.o.catalogTtlMs,
      (json) => {
        const { assets, dropped } = parseAssetsResponse(json);
        if (dropped) this.log(`asset catalog: ${dropped} record(s) without a symbol dropped`);
        return assets;
      },
      opts,
      "persist",
    );
  }

  getMetrics(symbol: string, opts: CallOptions = {}): Promise<MetricDescriptor[]> {
    return this.withDeadline(
      `the metric catalog of ${symbol}`,
      opts,
      (o) => {
        const request = supportedMetricsRequest(symbol);
        return this.loadSingle(
          answerKey("metrics", symbol),
          request,
          this.o.catalogTtlMs,
          parseMetricsResponse,
          o,
          "persist",
        );
      },
      true,
    );
  }

  getInsights(feed: string, opts: CallOptions = {}): Promise<InsightCard[]> {
    const name = feed.trim().toLowerCase();
    const what = `the insight feed ${name}; a feed can take a minute the first time`;
    return this.withDeadline(
      what,
      opts,
      (o) => {
        const request = insightsRequest(name);
        return this.loadSingle(
          answerKey("insights", name),
          request,
          this.o.catalogTtlMs,
          parseInsightsResponse,
          o,
          "persist",
        );
      },
      true,
    );
  }

  /**
   * Every call settles within its deadline (DESIGN: Excel on Mac abandons a
   * request at 60 s), whatever the service does: a body that never ends, a
   * retry chain, a queue behind stuck requests. At the deadline the caller is
   * answered with a TimeoutError and dropped from the loads it waits for; a
   * request nobody waits for any more is aborted, its body read included.
   */
  private withDeadline<T>(
    what: string,
    opts: CallOptions,
    run: (opts: CallOptions) => Promise<T>,
    slow = false,
  ): Promise<T> {
    const ms = opts.deadlineMs ?? (slow ? this.o.slowCallDeadlineMs : this.o.callDeadlineMs);
    if (!(ms > 0 && Number.isFinite(ms))) return run(opts);
    const outer = opts.signal;
    if (outer?.aborted) return Promise.reject(new CancelledError());
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort();
    outer?.addEventListener("abort", onOuterAbort, { once: true });
    return new Promise<T>((resolve, reject) => {
      let expired = false;
      const timer = this.timers.setTimeout(() => {
        expired = true;
        reject(new TimeoutError(`No answer from the market-data service within ${Math.round(ms / 1000)} s (${what}).`));
        controller.abort();
      }, ms);
      const done = () => {
        this.timers.clearTimeout(timer);
        outer?.removeEventListener("abort", onOuterAbort);
      };
      run({ ...opts, signal: controller.signal }).then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          if (!expired) reject(error);
        },
      );
    });
  }

  /**
   * One answer of one request: from the cache, by joining the same answer
   * pending under the same settings, or sent. An answer that arrives after the
   * key or base URL changed belongs to the old settings: it is neither cached
   * nor shown (a refusal of the old key included), and its callers ask again
   * under the new ones, joining a request already sent with them.
   */
  private async loadSingle<T>(
    key: string,
    request: ApiRequest,
    ttlMs: number,
    parse: (json: unknown) => T,
    opts: CallOptions,
    persist?: "persist",
  ): Promise<T> {
    for (;;) {
      try {
        return await this.loadSingleOnce(key, request, ttlMs, parse, opts, persist);
      } catch (error) {
        if (error !== SETTINGS_CHANGED) throw error;
      }
    }
  }

  private async loadSingleOnce<T>(
    key: string,
    request: ApiRequest,
    ttlMs: number,
    parse: (json: unknown) => T,
    opts: CallOptions,
    persist?: "persist",
  ): Promise<T> {
    if (opts.signal?.aborted) throw new CancelledError();
    const settings = await this.settings.read();
    const cached = cacheKey(settings.baseUrl, key);
    // Catalogs and insight feeds persist: read offline, and fresh from the store on reopen.
    const stored = persist ? this.stored : null;
    const hit = this.cache.get(cached) as T | undefined;
    if (hit !== undefined) {
      this.stats.cacheHits += 1;
      return hit;
    }
    // Loads are told apart by the settings that sent them: a caller under a new key never joins the old key's request.
    const service = `${settings.generation ?? 0} ${settings.baseUrl}`;
    const existing = this.pending.find<T>(key, service);
    if (existing) {
      this.stats.cacheHits += 1;
      return this.pending.join(existing, opts.signal);
    }
    if (opts.cacheOnly) {
      // Value preview may answer from the store.
      const kept = await stored?.readAnswer(cached);
      if (kept) return kept.value as T;
      throw new NotCachedError();
    }
    const load: Load<T> = { key, state: "in-flight", waiters: new Set(), service };
    this.pending.add(load);
    const signal = this.pending.fly([load as Load<unknown>]);
    const promise = this.pending.join(load, opts.signal);
    const slow = request.timeoutClass === "slow";
    const timeoutMs = slow ? this.o.slowTimeoutMs : this.o.timeoutMs;
    const lane = slow ? this.catalogDeps : this.deps;
    void (async () => {
      // Catalogs and insight feeds: fresh from the store on reopen, and read from it offline.
      const kept = await stored?.readAnswer(cached);
      const freshFor = kept ? stored!.freshFor(kept, ttlMs) : 0;
      if (kept && freshFor > 0) {
        this.stats.cacheHits += 1;
        this.cache.set(cached, kept.value, freshFor, kept.bytes * 2 + 256);
        this.pending.settle(load, { value: kept.value as T });
        return;
      }
      let outcome: { value: T } | { error: unknown };
      let bytes = 0;
      let offline = false;
      const fetchedAt = this.now();
      try {
        const answer = await sendWithRetries(lane, request, settings, { signal, timeoutMs });
        bytes = answer.bytes;
        outcome = { value: parse(answer.json) };
      } catch (error) {
        const stale = stored?.offlineAnswer(kept, error);
        offline = stale !== undefined;
        outcome = stale ? { value: stale.value as T } : { error };
      }
      if (!("error" in outcome && outcome.error instanceof CancelledError)) {
        try {
          if (await this.settings.changedSince(settings)) {
            this.log(`settings changed while a request was out: its answer is dropped and asked again`);
            outcome = { error: SETTINGS_CHANGED };
          }
        } catch (settingsError) {
          outcome = { error: settingsError };
        }
      }
      if ("value" in outcome && !offline) {
        // Parsed objects take roughly twice their JSON text in memory.
        this.cache.set(cached, outcome.value, ttlMs, bytes * 2 + 256);
        stored?.keepAnswer(cached, outcome.value, fetchedAt, bytes);
      }
      this.pending.settle(load, outcome);
    })();
    return promise;
  }

  // ------------------------------------------------------------ the rest

  testConnection(opts: CallOptions = {}): Promise<{ ok: true; ms: number }> {
    return this.withDeadline("the connection test", opts, (o) => this.connectionTest(o));
  }

  private async connectionTest(opts: CallOptions): Promise<{ ok: true; ms: number }> {
    if (opts.signal?.aborted) throw new CancelledError();
    const started = this.now();
    const settings = await this.settings.read();
    const symbol = this.o.testSymbol;
    // Explicit dates: the service answers a request without them with bare numbers, not a series.
    const today = utcDateOf(this.now());
    const request = seriesRequest({
      symbols: [symbol],
      metrics: ["PRICE"],
      startDate: addDays(today, -30),
      endDate: today,
      limit: 1,
    });
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
    this.stored?.refresh();
    this.log("cache cleared");
  }

  async clearStored(): Promise<void> {
    this.cache.clear();
    await this.stored?.clear();
    this.log("cache and stored data cleared");
  }

  counters(): ClientCounters {
    return { ...this.stats };
  }

  storage(): StoreStatus {
    return this.stored?.status() ?? { ...NO_STORE_STATUS };
  }

  /** One settings read shared by every caller asking while it runs (the stored-series path asks per call). */
  private sharedSettings(): Promise<ResolvedSettings> {
    this.settingsRead ??= this.settings.read().finally(() => {
      this.settingsRead = undefined;
    });
    return this.settingsRead;
  }

  state(): ClientState {
    return {
      queued: this.batcher.queued(),
      inFlight: this.pending.size,
      cacheEntries: this.cache.keys().length,
      cacheBytes: this.cache.bytes,
      cacheKeys: this.cache.keys(),
    };
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

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * What a load settles with when its answer came under a key or base URL that
 * has changed since: its callers ask again. A plain object, not an Error
 * subclass, so the module stays free of side effects and the pane's bundles,
 * which import api/ only for its helpers, do not take in the client.
 */
const SETTINGS_CHANGED = { settingsChanged: true } as const;
