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
import { BadRequestError, BadResponseError, MarketDataError, NotCachedError, redact } from "./errors";
import type { ResolvedSettings } from "./executor";
import { answerKey, cacheKey, type Load, type Outcome, type PendingLoads } from "./pending-loads";
import { listChars, seriesRequest, seriesUrlLength, type ApiRequest } from "./requests";
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
  };
  cache: AnswerCache;
  /** Sends one series request with the client's retries and timeout; `signal` aborts it. */
  send(request: ApiRequest, settings: ResolvedSettings, signal: AbortSignal): Promise<{ json: unknown }>;
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
}

export class SeriesBatcher {
  private queue: SeriesLoad[] = [];
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
   *   queueing again.
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
    void this.flush();
  }

  private async flush(): Promise<void> {
    const batch = this.queue.filter((load) => load.state === "queued");
    this.queue = [];
    if (batch.length === 0) return;
    for (const load of batch) load.state = "dispatching";
    const { limits } = this.deps;
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
        const urlLength = seriesUrlLength(settings.baseUrl, settings.apiKey, window);
        const plan = planRequests(loads, {
          maxSymbols: limits.maxSymbolsPerRequest,
          maxMetrics: limits.maxMetricsPerRequest,
          maxSeries: limits.maxSeriesPerRequest,
          maxUrlLength: limits.maxUrlLength,
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
    const signal = this.deps.pending.fly(live as Load<unknown>[]);
    let answered = false;
    try {
      const request = seriesRequest({ symbols, metrics, ...window });
      const { json } = await this.deps.send(request, settings, signal);
      answered = true;
      const table = parseSeriesResponse(json, symbols, metrics);
      redactMessages(table, settings.apiKey);
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
    } catch (error) {
      if (isPerCallerRefusal(error) && symbols.length * metrics.length > 1) {
        const waiting = live.filter((load) => this.deps.pending.stillWanted(load as Load<unknown>));
        await this.isolate(settings, window, waiting);
        return;
      }
      // The executor counts failed sends; a body that arrived but could not be used is a failure too.
      if (answered) this.deps.counters.failures += 1;
      for (const load of live) this.settle(load, { error });
    }
  }

  private async isolate(settings: ResolvedSettings, window: SeriesWindow, loads: SeriesLoad[]): Promise<void> {
    if (loads.length === 0) return;
    this.deps.log(`isolating a refused request: re-sending ${loads.length} series in halves`);
    const halves = splitInHalves(loads);
    await Promise.all(
      halves.map((half) =>
        this.sendSeries(settings, window, half, unique(half.map((l) => l.symbol)), unique(half.map((l) => l.metric))),
      ),
    );
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

function splitInHalves(loads: SeriesLoad[]): SeriesLoad[][] {
  const symbols = unique(loads.map((l) => l.symbol));
  if (symbols.length > 1) {
    const left = new Set(symbols.slice(0, Math.ceil(symbols.length / 2)));
    return [loads.filter((l) => left.has(l.symbol)), loads.filter((l) => !left.has(l.symbol))];
  }
  const middle = Math.ceil(loads.length / 2);
  return [loads.slice(0, middle), loads.slice(middle)].filter((half) => half.length > 0);
}

function seriesSize(result: SeriesResult): number {
  return result.kind === "points" ? 96 + result.points.length * 48 : 96 + result.message.length * 2;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
