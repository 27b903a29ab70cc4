/**
 * The shared client: one per runtime, everything reaches the service through
 * it. A facade: it validates a caller's question and hands it to the part
 * that answers it — series to the batcher (series/batcher.ts: the batch
 * window, packing; series/isolation.ts: refused requests), catalogs, feeds and
 * flows to one request each (single-loads.ts) — with the pending-loads
 * registry (pending-loads.ts) joining callers of the same answer, the cache,
 * and the settings read before every request; every call within its deadline
 * (call-deadline.ts). http/executor.ts owns *how* one request is sent (concurrency,
 * retries, timeouts).
 * Beside the in-memory cache, the persistent store (store/read-through.ts) answers
 * the settled parts of daily windows and keeps catalogs for offline reading.
 */
import { utcDateOf } from "../core/calendar";
import type {
  AssetRecord,
  DatedWindow,
  FlowType,
  FlowsResult,
  InsightCard,
  MetricDescriptor,
  SeriesResult,
  SeriesWindow,
} from "../core/domain";
import { CLIENT_DEFAULTS, clientCredentials, type ClientOptions, retryPolicyOf } from "./client-options";
import { aggregationTypes } from "./aggregation-types";
import { withDeadline } from "./call-deadline";
import { sendConnectionTest } from "./connection-test";
import { CancelledError, redact } from "./errors";
import { sendWithRetries, type ExecutorDeps } from "./http/executor";
import { createRequestAuth, PASS_THROUGH_KEY, type RequestAuth } from "./http/request-auth";
import { mayWiden, widenSparseFcf } from "./series/fcf-widening";
import { LruCache } from "./lru-cache";
import { AnswerLog } from "./answer-log";
import { answerKey, PendingLoads } from "./pending-loads";
import {
  assertMetricName,
  assertSymbol,
  assetSymbolsRequest,
  checkedDates,
  flowsRequest,
  insightsRequest,
  supportedMetricsRequest,
  validateWindow,
  type ApiRequest,
} from "./http/requests";
import {
  mergeFlows,
  parseAssetsResponse,
  parseFlowsResponse,
  parseInsightsResponse,
  parseMetricsResponse,
} from "./http/responses";
import { Semaphore } from "./http/semaphore";
import { SeriesBatcher } from "./series/batcher";
import { historyParts, walkBackwards } from "./series/history-walk";
import { SettingsReader } from "./settings-reader";
import { SingleLoads } from "./single-loads";
import { globalTimers, type Timers } from "./http/timers";
import { CredentialAcceptance } from "./store/acceptance";
import { NO_STORE_STATUS, SeriesReadThrough } from "./store/read-through";
import type { ResolvedSettings } from "./http/executor";
import type {
  CallOptions,
  ClearOptions,
  ClientCounters,
  FlowsRequest,
  MarketDataClient,
  SeriesRequest,
  StoreStatus,
} from "./types";

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
    Omit<
      ClientOptions,
      "logger" | "fetch" | "now" | "timers" | "random" | "store" | "credentials" | "settings" | "accessToken"
    >
  >;
  private readonly now: () => number;
  private readonly cache: LruCache<unknown>;
  private readonly pending: PendingLoads;
  private readonly settings: SettingsReader;
  private readonly batcher: SeriesBatcher;
  private readonly stats: ClientCounters = { requests: 0, cacheHits: 0, retries: 0, failures: 0, bytes: 0, dropped: 0 };
  /** Series and flows: the series lane. */
  private readonly deps: ExecutorDeps;
  /** Catalogs and insight feeds: their own lane, so neither kind of request ever waits behind the other. */
  private readonly catalogDeps: ExecutorDeps;
  private readonly timers: Timers;
  private readonly log: (line: string) => void;
  private readonly stored: SeriesReadThrough | null;
  /** Catalogs, insight feeds and flows: one request per answer (single-loads.ts). */
  private readonly singles: SingleLoads;
  private settingsRead?: Promise<ResolvedSettings>;
  /** How requests are authorised: the one seam for the key, the gateway's key and the signed-in user's token. */
  private readonly auth: RequestAuth;
  /** What answered each series pair (answer-log.ts): read by the office layer's call records; no request of its own. */
  readonly answers = new AnswerLog();
  /** When stored answers may go out for who asks (store/acceptance.ts); none without a store. */
  private acceptance?: CredentialAcceptance;

  constructor(options: ClientOptions) {
    const credentials = clientCredentials(options);
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
    this.settings = new SettingsReader(credentials.settings, (what) => {
      this.cache.clear();
      this.log(`settings changed (${what}): cache cleared`);
    });
    this.pending = new PendingLoads(this.log);
    this.auth = createRequestAuth(credentials.accessToken, this.log);
    this.deps = {
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      timers,
      now: this.now,
      random: options.random ?? Math.random,
      semaphore: new Semaphore(this.o.concurrency),
      retry: retryPolicyOf(this.o),
      counters: this.stats,
      log: this.log,
      maxResponseBytes: this.o.maxResponseBytes,
      auth: this.auth,
    };
    if (options.store) this.deps.outcomes = this.acceptance = this.storeGate();
    this.catalogDeps = { ...this.deps, semaphore: new Semaphore(this.o.catalogConcurrency) };
    this.batcher = new SeriesBatcher({
      answers: this.answers,
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
      ? new SeriesReadThrough({
          store: options.store,
          now: this.now,
          settings: () => this.sharedSettings(),
          gate: this.acceptance,
          answers: this.answers,
          fetchWindow: (symbol, metric, window, opts) => this.fetchWindow(symbol, metric, window, opts),
          unsettledDays: this.o.unsettledDays,
          revalidateAfterMs: this.o.revalidateAfterMs,
          recentFreshMs: this.o.cacheTtlMs,
          log: this.log,
          aggregationType: aggregationTypes((symbol, opts) => this.getMetrics(symbol, opts)),
        })
      : null;
    this.singles = new SingleLoads({
      settings: this.settings,
      cache: this.cache,
      pending: this.pending,
      stored: this.stored,
      lanes: { normal: this.deps, slow: this.catalogDeps },
      limits: this.o,
      counters: this.stats,
      now: this.now,
      log: this.log,
    });
  }

  /**
   * The store's gate: stored answers wait for a request under the same credential to be accepted; where the client
   * has gone quiet (no store read, no load but those waiting at the gate) for twice the batch window, the gate sends
   * the connection test's request itself.
   */
  private storeGate(): CredentialAcceptance {
    return new CredentialAcceptance({
      timers: this.timers,
      waitMs: 2 * this.o.batchMaxDelayMs,
      busy: () => (this.stored?.busy() ?? false) || this.pending.size > this.singles.waitingAtGate(),
      probe: async () => {
        const test = { symbol: this.o.testSymbol, timeoutMs: this.o.timeoutMs, retries: Math.min(1, this.o.retries) };
        await sendConnectionTest(this.deps, await this.sharedSettings(), test);
      },
    });
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
    const stored = this.stored;
    if (stored?.handles(req.metric, window)) {
      // The store's plan reads what answers left there: while one is being handed out in slices (series/batcher.ts),
      // the plan waits for it to end, so the calls of one recalculation plan alike and share their requests.
      const between = this.batcher.betweenDeliveries();
      if (between) return between.then(() => stored.get(req.symbol, req.metric, window, opts));
      return stored.get(req.symbol, req.metric, window, opts);
    }
    return this.fetchWindow(req.symbol, req.metric, window, opts);
  }

  /** A checked window in the parts the service answers whole (series/history-walk.ts), read newest part first. */
  private fetchWindow(symbol: string, metric: string, window: SeriesWindow, opts: CallOptions): Promise<SeriesResult> {
    let parts: DatedWindow[] | SeriesResult;
    try {
      parts = historyParts(symbol, window, utcDateOf(this.now()), this.o.maxPointsPerRequest);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!Array.isArray(parts)) return Promise.resolve(parts);
    if (opts.signal?.aborted) return Promise.reject(new CancelledError());
    const granularity = window.granularity;
    // The window built whole rather than spread: one per waiting part, and spread copies get a hidden class each.
    const load = (part: DatedWindow) =>
      this.batcher.load(
        symbol,
        metric,
        granularity ? { start: part.start, end: part.end, granularity } : { start: part.start, end: part.end },
        opts,
      );
    if (parts.length === 1) return load(parts[0]!);
    return walkBackwards(parts, load);
  }

  // ----------------------------------------------------- catalogs and flows

  getFlows(req: FlowsRequest, opts: CallOptions = {}): Promise<FlowsResult> {
    return this.withDeadline("the flows", opts, (o) => this.answerFlows(req, o));
  }

  private async answerFlows(req: FlowsRequest, opts: CallOptions): Promise<FlowsResult> {
    const window = checkedDates(req);
    const types = unique(req.flowTypes.length ? req.flowTypes : (["netflow"] as FlowType[]));
    const parts = await Promise.all(
      types.map(async (flowType) => {
        const request = flowsRequest({ ...req, ...window, flowType });
        const values = await this.singles.load(
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
    return this.catalog(
      "the asset catalog",
      answerKey("assets"),
      assetSymbolsRequest,
      (json) => {
        const { assets, dropped } = parseAssetsResponse(json);
        if (dropped) this.log(`asset catalog: ${dropped} record(s) without a symbol dropped`);
        return assets;
      },
      opts,
    );
  }

  getMetrics(symbol: string, opts: CallOptions = {}): Promise<MetricDescriptor[]> {
    const request = () => supportedMetricsRequest(symbol);
    return this.catalog(
      `the metric catalog of ${symbol}`,
      answerKey("metrics", symbol),
      request,
      parseMetricsResponse,
      opts,
    );
  }

  getInsights(feed: string, opts: CallOptions = {}): Promise<InsightCard[]> {
    const name = feed.trim().toLowerCase();
    const what = `the insight feed ${name}; a feed can take a minute the first time`;
    return this.catalog(what, answerKey("insights", name), () => insightsRequest(name), parseInsightsResponse, opts);
  }

  /** A catalog or insight feed: one request, kept in the store, under the slow deadline; built once the call runs. */
  private catalog<T>(
    what: string,
    key: string,
    request: () => ApiRequest,
    parse: (json: unknown) => T,
    opts: CallOptions,
  ): Promise<T> {
    const run = (o: CallOptions) => this.singles.load(key, request(), this.o.catalogTtlMs, parse, o, "persist");
    return this.withDeadline(what, opts, run, true);
  }

  /** The call's deadline (call-deadline.ts): the slow one for catalogs and feeds, unless the caller gives one. */
  private withDeadline<T>(
    what: string,
    opts: CallOptions,
    run: (opts: CallOptions) => Promise<T>,
    slow = false,
  ): Promise<T> {
    const ms = opts.deadlineMs ?? (slow ? this.o.slowCallDeadlineMs : this.o.callDeadlineMs);
    return withDeadline(this.timers, ms, what, opts, async (o) => {
      await this.requireSignIn();
      return run(o);
    });
  }

  /** A call the credentials do not admit (request-auth.ts `admits`) fails with the sign-in message, unanswered. */
  private async requireSignIn(): Promise<void> {
    // The settings as last read (every request reads them again before it is sent); the first call reads them.
    const settings = this.settings.last() ?? (await this.sharedSettings());
    const refused = await this.auth.refusal(settings.auth ?? PASS_THROUGH_KEY);
    if (refused) throw refused;
  }

  // ------------------------------------------------------------ the rest

  testConnection(opts: CallOptions = {}): Promise<{ ok: true; ms: number }> {
    return this.withDeadline("the connection test", opts, (o) => this.connectionTest(o));
  }

  private async connectionTest(opts: CallOptions): Promise<{ ok: true; ms: number }> {
    if (opts.signal?.aborted) throw new CancelledError();
    const started = this.now();
    const settings = await this.settings.read();
    const test = { symbol: this.o.testSymbol, timeoutMs: this.o.timeoutMs, retries: Math.min(1, this.o.retries) };
    await sendConnectionTest(this.deps, settings, test, opts);
    return { ok: true, ms: this.now() - started };
  }

  clear(options: ClearOptions = {}): void {
    this.cache.clear();
    this.acceptance?.forgetRefusals();
    this.stored?.refresh(options.recheckHistory === true);
    this.log(options.recheckHistory ? "cache cleared; stored history to be rechecked" : "cache cleared");
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

  /** One settings read shared by every caller asking while it runs (the store's read-through asks per call). */
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

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
