/**
 * The series batcher: *when* a batch goes (the batch window) and *what* it
 * does (group the queued parts by window, pack them into requests, send, hand
 * each caller its own series, isolate a refused caller). It receives what it
 * works with — the pending-loads registry, the settings reader, the cache and
 * a send function — and reaches into nothing else; how one request is sent
 * (concurrency, retries, timeouts) is the send function's business.
 */
import type { Granularity, SeriesResult } from "../core/domain";
import { planRequests } from "./batch-plan";
import {
  BadRequestError,
  BadResponseError,
  CancelledError,
  MarketDataError,
  NotCachedError,
  redact,
  ServerError,
  UnservedSymbolError,
} from "./errors";
import type { ResolvedSettings } from "./executor";
import { answerKey, cacheKey, type Load, type Outcome, type PendingLoads } from "./pending-loads";
import { listChars, requestUrl, seriesRequest, seriesUrlLength, type ApiRequest } from "./requests";
import { parseSeriesResponse, type SeriesTable } from "./responses";
import type { DateWindow } from "./series-windows";
import type { Timers } from "./timers";
import type { CallOptions, ClientCounters } from "./types";

/** One part of a caller's window, as sent: the dates and the granularity. */
export interface SeriesWindow extends DateWindow {
  granularity?: Granularity;
}

/** The cache as the batcher uses it. */
export interface AnswerCache {
  get(key: string): unknown;
  set(key: string, value: unknown, ttlMs: number, bytes: number): void;
}

export interface SeriesBatcherDeps {
  pending: PendingLoads;
  settings: {
    /** Reads the settings now (before every flush). */
    read(): Promise<ResolvedSettings>;
    /** The settings last read, without reading: where a new call looks in the cache. */
    last(): ResolvedSettings | undefined;
    /** Reads again: the new settings when the key or base URL changed since `used`, else undefined. */
    changedSince(used: ResolvedSettings): Promise<ResolvedSettings | undefined>;
  };
  cache: AnswerCache;
  /** Sends one series request with the client's retries and timeout; `signal` aborts it; `serverErrorRetries` caps the retries of a 5xx. */
  send(
    request: ApiRequest,
    settings: ResolvedSettings,
    signal: AbortSignal,
    options: { serverErrorRetries?: number | undefined },
  ): Promise<{ json: unknown }>;
  timers: Timers;
  now: () => number;
  /** The client's counters: the batcher counts cache hits and answers that arrived unusable. */
  counters: ClientCounters;
  log: (line: string) => void;
  limits: {
    batchDelayMs: number;
    batchMaxDelayMs: number;
    maxSymbolsPerRequest: number;
    maxMetricsPerRequest: number;
    maxSeriesPerRequest: number;
    maxUrlLength: number;
    cacheTtlMs: number;
  };
}

interface SeriesLoad extends Load<SeriesResult> {
  symbol: string;
  metric: string;
  window: SeriesWindow;
  /** Loads with the same window key can share a request. */
  windowKey: string;
  /** Held back once by a flush the time cap forced: the next flush sends it whatever happens. */
  heldBack?: boolean;
  /** The flush that dispatched it last: only that flush may declare it lost. */
  flush?: number;
}

export class SeriesBatcher {
  private queue: SeriesLoad[] = [];
  private flushes = 0;
  /** Symbols the service was seen to fail every request for, per base URL, until a time. */
  private readonly unserved = new Map<string, number>();
  /** What URL lengths each service was seen to refuse (413/414/431) and accept. */
  private readonly urlLimits = new Map<string, UrlLimit>();
  private flushTimer: unknown = undefined;
  private firstQueuedAt = 0;
  private lastQueuedAt = 0;

  constructor(private readonly deps: SeriesBatcherDeps) {}

  /** Parts waiting for their batch. */
  queued(): number {
    return this.queue.filter((l) => l.state === "queued").length;
  }

  /** One (symbol, metric, window) part: from the cache, by joining a pending load, or queued for the next batch. */
  load(symbol: string, metric: string, window: SeriesWindow, opts: CallOptions): Promise<SeriesResult> {
    const { pending, counters } = this.deps;
    const windowKey = JSON.stringify([window.startDate ?? "", window.endDate ?? "", window.granularity ?? ""]);
    const key = seriesKey(symbol, metric, window);
    const settings = this.deps.settings.last();
    if (settings) {
      const hit = this.deps.cache.get(cacheKey(settings.baseUrl, key)) as SeriesResult | undefined;
      if (hit) {
        counters.cacheHits += 1;
        return Promise.resolve(hit);
      }
    }
    const existing = pending.find<SeriesResult>(key);
    if (existing) {
      counters.cacheHits += 1;
      return pending.join(existing, opts.signal);
    }
    if (opts.cacheOnly) return Promise.reject(new NotCachedError());
    const load: SeriesLoad = { key, state: "queued", waiters: new Set(), symbol, metric, window, windowKey };
    pending.add(load);
    this.queue.push(load);
    const promise = pending.join(load, opts.signal);
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
   *   queueing again;
   * - when the cap forces a flush while calls are still arriving, each window
   *   group's last, partly filled request is held back for the next window
   *   (once: a held-back call goes with the next flush whatever happens), so
   *   a burst longer than the cap still packs its requests full instead of
   *   splitting a group's symbols across two half-empty requests.
   *
   * The timer is re-armed for the remaining time rather than reset on every
   * call: a recalculation of thousands of cells then costs a handful of
   * timers, not thousands of clearTimeout/setTimeout pairs.
   */
  private scheduleFlush(): void {
    const now = this.deps.now();
    this.lastQueuedAt = now;
    if (this.flushTimer !== undefined) return;
    this.firstQueuedAt = now;
    this.armFlush(this.deps.limits.batchDelayMs);
  }

  private armFlush(ms: number): void {
    this.flushTimer = this.deps.timers.setTimeout(() => this.onFlushTimer(), Math.max(0, ms));
  }

  private onFlushTimer(): void {
    this.flushTimer = undefined;
    const { batchDelayMs, batchMaxDelayMs } = this.deps.limits;
    const now = this.deps.now();
    const quietFor = now - this.lastQueuedAt;
    const openFor = now - this.firstQueuedAt;
    if (quietFor < batchDelayMs && openFor < batchMaxDelayMs) {
      this.armFlush(Math.min(batchDelayMs - quietFor, batchMaxDelayMs - openFor));
      return;
    }
    void this.flush(quietFor < batchDelayMs);
  }

  /** `stillArriving`: the cap forced this flush while calls keep coming (see scheduleFlush). */
  private async flush(stillArriving = false): Promise<void> {
    const batch = this.queue.filter((load) => load.state === "queued");
    this.queue = [];
    if (batch.length === 0) return;
    const flush = ++this.flushes;
    for (const load of batch) {
      load.state = "dispatching";
      load.flush = flush;
    }
    try {
      const settings = await this.deps.settings.read();
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
        // A symbol the service is known to fail goes alone, so it cannot fail anybody else's request.
        const unserved = loads.filter((load) => this.isUnserved(settings, load.symbol));
        const served = unserved.length ? loads.filter((load) => !unserved.includes(load)) : loads;
        const plan = this.plan(settings, window, served);
        const last = plan[plan.length - 1];
        if (stillArriving && last && !isFull(last, this.deps.limits) && last.pairs.every((load) => !load.heldBack)) {
          plan.pop();
          this.holdBack(last.pairs);
        }
        for (const request of plan) {
          sends.push(this.dispatch(settings, window, request.pairs));
        }
        for (const request of this.plan(settings, window, unserved, 1)) {
          sends.push(this.dispatch(settings, window, request.pairs, { knownUnserved: true }));
        }
      }
      await Promise.all(sends);
    } catch (error) {
      // Not the calls handed on to the next window (held back or queued again): they are that flush's.
      for (const load of batch) if (load.flush === flush && load.state !== "queued") this.settle(load, { error });
    } finally {
      // Every promise settles, always: anything a bug left unanswered fails clearly instead of hanging a cell.
      for (const load of batch) {
        // A load held back for the next window, or queued again after a change of settings, is the next flush's
        // to answer, even once that flush has taken it ("dispatching", "in-flight") while this one's requests were out.
        if (load.flush === flush && load.state !== "settled" && load.state !== "queued") {
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

  /** Packs one window's loads into requests under the caps (and the URL length the service was seen to accept). */
  private plan(settings: ResolvedSettings, window: SeriesWindow, loads: SeriesLoad[], maxSymbols?: number) {
    if (loads.length === 0) return [];
    const { limits } = this.deps;
    return planRequests(loads, {
      maxSymbols: maxSymbols ?? limits.maxSymbolsPerRequest,
      maxMetrics: limits.maxMetricsPerRequest,
      maxSeries: limits.maxSeriesPerRequest,
      maxUrlLength: Math.min(limits.maxUrlLength, this.urlLimits.get(settings.baseUrl)?.cap() ?? Infinity),
      urlLength: seriesUrlLength(settings.baseUrl, settings.apiKey, window),
      itemChars: (item) => listChars([item]),
    });
  }

  /**
   * Sends one batch request and deals with its failure. What can be one
   * caller's is isolated by halving the request until it stands alone:
   *
   * - 400/422 (a refused symbol or metric) and 413/414/431 (the request is too
   *   long for a server or proxy on the way): split by symbol, then by metric;
   *   each half is a request of its own, isolated again if refused again;
   * - a 5xx for a request with several symbols, after one retry of the whole:
   *   the real service fails a whole batch, every time, for one symbol it does
   *   not serve (real-service.md). See `isolateServerFailure`.
   *
   * Anything else (the key, the network, a timeout, a rate limit) is every
   * caller's and fails them all with the same error.
   */
  private async dispatch(
    settings: ResolvedSettings,
    window: SeriesWindow,
    loads: readonly SeriesLoad[],
    how: { knownUnserved?: boolean } = {},
  ): Promise<void> {
    const symbols = unique(loads.map((l) => l.symbol));
    const several = symbols.length > 1;
    const sent = await this.sendSeries(settings, window, loads, how.knownUnserved ? 0 : several ? 1 : undefined);
    if (sent.ok) return;
    const { error, live, urlLength } = sent;
    if (live.length === 0) return;
    const pairs = live.length;
    if (pairs > 1 && (isPerCallerRefusal(error) || isLengthRefusal(error))) {
      if (isLengthRefusal(error)) this.urlLimit(settings).refused(urlLength);
      await this.isolate(settings, window, live);
      return;
    }
    if (error instanceof MarketDataError && error.kind === "server") {
      if (how.knownUnserved) {
        for (const load of live) this.settle(load, { error: new UnservedSymbolError(load.symbol, error) });
        return;
      }
      if (unique(live.map((l) => l.symbol)).length > 1) {
        const extra = 4 * Math.ceil(Math.log2(symbols.length)) + 4;
        await this.isolateServerFailure(settings, window, live, {
          serviceUp: false,
          confirming: false,
          cause: error,
          budget: extra,
        });
        return;
      }
    }
    for (const load of live) this.settle(load, { error });
  }

  /**
   * Sends one series request and, when it is answered, hands each load its
   * own series and caches them. A failure is handed back unsettled, with the
   * loads still wanted, for the caller to settle or isolate. An answer (or a
   * failure) that arrives after the key or base URL changed belongs to the old
   * settings: its loads are queued again, to be asked under the new ones.
   */
  private async sendSeries(
    settings: ResolvedSettings,
    window: SeriesWindow,
    loads: readonly SeriesLoad[],
    serverErrorRetries: number | undefined,
  ): Promise<{ ok: true } | { ok: false; error: unknown; live: SeriesLoad[]; urlLength: number }> {
    const live = loads.filter((load) => load.state !== "settled");
    if (live.length === 0) return { ok: true };
    const symbols = unique(live.map((l) => l.symbol));
    const metrics = unique(live.map((l) => l.metric));
    const signal = this.deps.pending.fly(live as Load<unknown>[]);
    const request = seriesRequest({ symbols, metrics, ...window });
    const urlLength = requestUrl(settings.baseUrl, request, settings.apiKey).length;
    let answered = false;
    try {
      const { json } = await this.deps.send(request, settings, signal, { serverErrorRetries });
      answered = true;
      if (await this.askedUnderOldSettings(settings, live)) return { ok: true };
      const table = parseSeriesResponse(json, symbols, metrics);
      redactMessages(table, settings.apiKey);
      this.urlLimits.get(settings.baseUrl)?.accepted(urlLength);
      for (const symbol of symbols) this.unserved.delete(unservedKey(settings, symbol));
      for (const [symbol, row] of table) {
        for (const [metric, result] of row) {
          if (result instanceof BadResponseError) continue;
          const key = cacheKey(settings.baseUrl, seriesKey(symbol, metric, window));
          this.deps.cache.set(key, result, this.deps.limits.cacheTtlMs, seriesSize(result));
        }
      }
      for (const load of live) {
        const result = table.get(load.symbol)?.get(load.metric);
        if (result instanceof BadResponseError) this.settle(load, { error: result });
        else this.settle(load, { value: result ?? { kind: "points", points: [] } });
      }
      return { ok: true };
    } catch (error) {
      if (!(error instanceof CancelledError)) {
        try {
          if (await this.askedUnderOldSettings(settings, live)) return { ok: true };
        } catch (settingsError) {
          for (const load of live) this.settle(load, { error: settingsError });
          return { ok: true };
        }
      }
      // The executor counts failed sends; a body that arrived but could not be used is a failure too.
      if (answered) this.deps.counters.failures += 1;
      if (error instanceof CancelledError) {
        for (const load of live) this.settle(load, { error });
        return { ok: true };
      }
      return {
        ok: false,
        error,
        live: live.filter((load) => this.deps.pending.stillWanted(load as Load<unknown>)),
        urlLength,
      };
    }
  }

  /**
   * Whether the key or base URL changed while the request was out: then its
   * loads are queued again (their callers keep waiting) and nothing of the
   * answer is kept.
   */
  private async askedUnderOldSettings(settings: ResolvedSettings, loads: SeriesLoad[]): Promise<boolean> {
    const now = await this.deps.settings.changedSince(settings);
    if (!now) return false;
    this.deps.log(`settings changed while a request was out: its ${loads.length} series are asked again`);
    for (const load of loads) {
      if (load.state === "settled") continue;
      load.state = "queued";
      delete load.flight;
      this.queue.push(load);
    }
    this.scheduleFlush();
    return true;
  }

  /** A refusal that may concern only some callers: split the request in halves and send each. */
  private async isolate(settings: ResolvedSettings, window: SeriesWindow, loads: SeriesLoad[]): Promise<void> {
    if (loads.length === 0) return;
    this.deps.log(`isolating a refused request: re-sending ${loads.length} series in halves`);
    await Promise.all(splitInHalves(loads).map((half) => this.dispatch(settings, window, half)));
  }

  /**
   * A multi-symbol request failed with a 5xx twice. The symbols are split in
   * halves, each sent once (no retry: a failure is the signal). A half that is
   * answered settles its callers and shows the service is up; a failing half
   * with several symbols is split again; a failing symbol alone is the one the
   * service does not serve, and only its cells fail (UnservedSymbolError,
   * remembered for `cacheTtlMs` so later batches send it alone).
   *
   * When both halves fail and nothing of the request has been answered, it is
   * most likely the service, not a symbol. One level more settles it: the
   * first half is split once; if both of its halves fail too, the service is
   * down and every caller gets the outage (six requests in all, no storm); if
   * one is answered, two or more bad symbols were spread over the halves, and
   * the isolation goes on in both.
   *
   * Cost: one bad symbol among n costs at most 2·⌈log₂ n⌉ requests after the
   * failed request and its retry (12 for 50 symbols); `budget` bounds the
   * extra requests when several symbols fail.
   */
  private async isolateServerFailure(
    settings: ResolvedSettings,
    window: SeriesWindow,
    loads: SeriesLoad[],
    isolation: Isolation,
  ): Promise<void> {
    const symbols = unique(loads.map((l) => l.symbol));
    this.deps.log(`isolating a failing symbol: re-sending ${symbols.length} symbols in halves`);
    const left = new Set(symbols.slice(0, Math.ceil(symbols.length / 2)));
    const halves = [loads.filter((l) => left.has(l.symbol)), loads.filter((l) => !left.has(l.symbol))];
    isolation.budget -= 2;
    const results = await Promise.all(
      halves.map(async (half) => {
        const sent = await this.sendSeries(settings, window, half, 0);
        if (sent.ok) return undefined;
        if (sent.error instanceof MarketDataError && sent.error.kind === "server") {
          return { half: sent.live, error: sent.error };
        }
        for (const load of sent.live) this.settle(load, { error: sent.error });
        return undefined;
      }),
    );
    const failed = results.filter((r): r is FailedHalf => r !== undefined);
    if (failed.length < halves.length) isolation.serviceUp = true;
    let pending = failed;
    if (failed.length === halves.length && !isolation.serviceUp) {
      const first = failed[0]!;
      if (!isolation.confirming && unique(first.half.map((l) => l.symbol)).length > 1) {
        // Nothing answered yet: split the first half once more before blaming the service.
        isolation.confirming = true;
        await this.isolateServerFailure(settings, window, first.half, isolation);
        isolation.confirming = false;
        pending = failed.slice(1);
      }
      if (!isolation.serviceUp) {
        const outage = isolation.outage ?? outageError(isolation.cause);
        isolation.outage = outage;
        this.deps.log(`isolation stopped: every part failed as well, the service is failing`);
        for (const { half } of pending) for (const load of half) this.settle(load, { error: outage });
        return;
      }
    }
    await Promise.all(
      pending.map(async ({ half, error: halfError }) => {
        const halfSymbols = unique(half.map((l) => l.symbol));
        if (halfSymbols.length === 1) {
          this.unserved.set(unservedKey(settings, halfSymbols[0]!), this.deps.now() + this.deps.limits.cacheTtlMs);
          this.deps.log(`isolated a symbol the service fails: ${halfSymbols[0]}`);
          for (const load of half) this.settle(load, { error: new UnservedSymbolError(load.symbol, halfError) });
        } else if (isolation.budget <= 0) {
          for (const load of half) this.settle(load, { error: halfError });
        } else {
          await this.isolateServerFailure(settings, window, half, isolation);
        }
      }),
    );
  }

  private isUnserved(settings: ResolvedSettings, symbol: string): boolean {
    const key = unservedKey(settings, symbol);
    const until = this.unserved.get(key);
    if (until === undefined) return false;
    if (until > this.deps.now()) return true;
    this.unserved.delete(key);
    return false;
  }

  private urlLimit(settings: ResolvedSettings): UrlLimit {
    let limit = this.urlLimits.get(settings.baseUrl);
    if (!limit) this.urlLimits.set(settings.baseUrl, (limit = new UrlLimit()));
    return limit;
  }

  /** Back into the queue for the next window; they go with its flush whatever happens. */
  private holdBack(loads: readonly SeriesLoad[]): void {
    for (const load of loads) {
      load.state = "queued";
      load.heldBack = true;
      this.queue.push(load);
    }
    if (this.flushTimer === undefined) {
      const now = this.deps.now();
      this.firstQueuedAt = now;
      this.lastQueuedAt = now;
      this.armFlush(this.deps.limits.batchDelayMs);
    }
  }

  private settle(load: SeriesLoad, outcome: Outcome<SeriesResult>): void {
    this.deps.pending.settle(load, outcome);
  }
}

function seriesKey(symbol: string, metric: string, window: SeriesWindow): string {
  return answerKey("series", symbol, metric, window.startDate ?? "", window.endDate ?? "", window.granularity ?? "");
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

/** A refusal that may concern only some of a batched request's callers (400 Bad Request, 422 Unprocessable). */
function isPerCallerRefusal(error: unknown): boolean {
  return error instanceof BadRequestError && (error.status === 400 || error.status === 422);
}

/** The request is too long for a server or proxy on the way: 413 Content Too Large, 414 URI Too Long, 431 Header Fields Too Large. */
function isLengthRefusal(error: unknown): boolean {
  return error instanceof BadRequestError && (error.status === 413 || error.status === 414 || error.status === 431);
}

/** One isolation of a failing batch: what it has learnt so far and what it may still spend. */
interface Isolation {
  /** Some part of the batch was answered: the service is up, failures are symbols'. */
  serviceUp: boolean;
  /** Splitting a failed half once more to tell a down service from bad symbols in both halves. */
  confirming: boolean;
  /** Requests the isolation may still send. */
  budget: number;
  /** The failure of the whole request (after its retry): what the outage message repeats. */
  cause: MarketDataError;
  /** Set once the service is found failing: every caller still waiting gets it. */
  outage?: ServerError;
}

interface FailedHalf {
  half: SeriesLoad[];
  error: MarketDataError;
}

function outageError(error: MarketDataError): ServerError {
  return new ServerError(
    `${error.message.replace(/\.$/, "")}; every part of the request failed as well, so the service itself is failing, not one symbol.`,
    error.status === undefined ? {} : { status: error.status },
  );
}

function unservedKey(settings: ResolvedSettings, symbol: string): string {
  return `${settings.baseUrl} ${symbol}`;
}

/**
 * The URL length a service takes: after a length refusal, requests are
 * packed no longer than the longest one it accepted since (or one character
 * shorter than the refused one, until one was accepted), so the next batch is
 * not refused again.
 */
class UrlLimit {
  private shortestRefused = Infinity;
  private longestAccepted = 0;

  refused(length: number): void {
    this.shortestRefused = Math.min(this.shortestRefused, length);
    if (this.longestAccepted >= this.shortestRefused) this.longestAccepted = 0;
  }

  accepted(length: number): void {
    if (length < this.shortestRefused) this.longestAccepted = Math.max(this.longestAccepted, length);
  }

  cap(): number {
    if (this.shortestRefused === Infinity) return Infinity;
    return this.longestAccepted > 0 ? this.longestAccepted : this.shortestRefused - 1;
  }
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

/** A request the caps allow no more symbols in (by count or by series). */
function isFull(
  request: { symbols: readonly string[]; metrics: readonly string[] },
  limits: SeriesBatcherDeps["limits"],
): boolean {
  return (
    request.symbols.length >= limits.maxSymbolsPerRequest ||
    request.symbols.length * request.metrics.length >= limits.maxSeriesPerRequest
  );
}

function seriesSize(result: SeriesResult): number {
  return result.kind === "points" ? 96 + result.points.length * 48 : 96 + result.message.length * 2;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
