/**
 * The series batcher: *when* a batch goes (the batch window) and *what* it
 * does (group the queued parts by window, pack them into requests, send, hand
 * each caller its own series). Which callers a refused request is for is
 * series/isolation.ts's business, handed the batcher's send. It receives what it
 * works with — the pending-loads registry, the settings reader, the cache and
 * a send function — and reaches into nothing else; how one request is sent
 * (concurrency, retries, timeouts) is the send function's business.
 */
import type { SeriesResult, SeriesWindow } from "../../core/domain";
import { isFull, planRequests, seriesSize, unique } from "./batch-plan";
import { BadResponseError, CancelledError, MarketDataError, NotCachedError, redact } from "../errors";
import type { ResolvedSettings } from "../http/executor";
import { answerKey, cacheKey, type Load, type Outcome, type PendingLoads } from "../pending-loads";
import { listChars, requestUrl, seriesRequest, seriesUrlLength, type ApiRequest } from "../http/requests";
import { parseSeriesResponse, type SeriesTable } from "../http/responses";
import { SeriesIsolation } from "./isolation";
import { Deliveries, SMALL_ANSWER, yieldToHost } from "../slices";
import type { SendOutcome, SeriesLoad } from "./batch-types";
import type { Timers } from "../http/timers";
import { type AnswerLog, SeriesAnswerRecorder } from "../answer-log";
import type { CallOptions, ClientCounters } from "../types";

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
  ): Promise<{ json: unknown; address?: string; ms?: number; cacheStatus?: string }>;
  /** Where each pair's answer is recorded (answer-log.ts): absent, nothing is. */
  answers?: AnswerLog;
  timers: Timers;
  now: () => number;
  /** The client's counters: the batcher counts cache hits, answers that arrived unusable and the points it dropped. */
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

export class SeriesBatcher {
  private queue: SeriesLoad[] = [];
  private flushes = 0;
  /** Refused requests and unserved symbols: who a failure is for; what each service was seen to refuse. */
  private readonly isolation: SeriesIsolation;
  private flushTimer: unknown = undefined;
  /** The window is watched from message tasks (a hidden page: see scheduleFlush). */
  private watchingTurns = false;
  private firstQueuedAt = 0;
  private lastQueuedAt = 0;
  /** Answers handed to their callers in slices, one answer after the other (slices.ts). */
  private readonly deliveries: Deliveries;

  constructor(private readonly deps: SeriesBatcherDeps) {
    this.deliveries = new Deliveries(deps.now);
    this.isolation = new SeriesIsolation({
      send: (settings, window, loads, serverErrorRetries) =>
        this.sendSeries(settings, window, loads, serverErrorRetries),
      fail: (load, error) => this.settle(load, { error }),
      now: () => this.deps.now(),
      log: (line) => this.deps.log(line),
      unservedForMs: () => this.deps.limits.cacheTtlMs,
    });
  }

  /**
   * Resolves at the next moment no answer is being handed out (at once when
   * none is): for a caller about to plan from what answers left in the store.
   * Undefined when none is being handed out, so that caller need not wait a turn.
   */
  betweenDeliveries(): Promise<void> | undefined {
    return this.deliveries.busy ? this.deliveries.between() : undefined;
  }

  /** Parts waiting for their batch. */
  queued(): number {
    return this.queue.filter((l) => l.state === "queued").length;
  }

  /** One (symbol, metric, window) part: from the cache, by joining a pending load, or queued for the next batch. */
  load(symbol: string, metric: string, window: SeriesWindow, opts: CallOptions): Promise<SeriesResult> {
    const { pending, counters } = this.deps;
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
    // Only a load that is queued needs its window's key (batches group by it).
    const windowKey = JSON.stringify([window.start ?? "", window.end ?? "", window.granularity ?? ""]);
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
   *
   * The window must not wait on the timer's precision: with the pane closed
   * the shared runtime is a hidden page, whose timers Chromium wakes at most
   * once a second (http/timers.ts), so each window would close a second late.
   * While the timers are throttled, message tasks (`nextTurn`, not throttled)
   * also watch the window, checking the same quiet gap and cap against
   * `now()`: the same calls share the same requests as with the pane open,
   * and the burst's end costs the quiet gap, not the next wake-up. The turns
   * run only while a window is open in a hidden page (at most the cap).
   */
  private scheduleFlush(): void {
    const now = this.deps.now();
    this.lastQueuedAt = now;
    if (this.flushTimer !== undefined) return;
    this.firstQueuedAt = now;
    this.armFlush(this.deps.limits.batchDelayMs);
  }

  private armFlush(ms: number): void {
    const timer = this.deps.timers.setTimeout(() => void (this.flushTimer === timer && this.onFlushTimer()), ms);
    this.flushTimer = timer;
    if (!this.watchingTurns && this.deps.timers.throttled?.()) void this.watchTurns();
  }

  /** Closes the window from message tasks once it is due, while the timers are throttled (see scheduleFlush). */
  private async watchTurns(): Promise<void> {
    const { timers, limits } = this.deps;
    this.watchingTurns = true;
    let timer: unknown;
    let now: number;
    do {
      await timers.nextTurn!();
      timer = this.flushTimer; // closed, or waiting for a step of the handing out (a promise): the watch is over
      now = this.deps.now();
    } while (
      timer !== undefined &&
      !(timer instanceof Promise) &&
      now - this.lastQueuedAt < limits.batchDelayMs &&
      now - this.firstQueuedAt < limits.batchMaxDelayMs
    );
    this.watchingTurns = false;
    if (timer === undefined || timer instanceof Promise) return;
    timers.clearTimeout(timer);
    this.onFlushTimer();
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
    const stillArriving = quietFor < batchDelayMs;
    if (this.deliveries.stepping && (!stillArriving || this.deliveries.lettingThrough)) {
      // An answer is being handed out, or the calls that waited for one are being let through, in slices
      // (slices.ts): the calls they make arrive between the slices, and a pause between two is no quiet. The
      // window closes once the step is through (the calls that waited: even past the cap, so one
      // recalculation's calls are not split between two windows).
      this.flushTimer = this.deliveries.stepDone().then(() => this.closeWindow());
      return;
    }
    void this.flush(stillArriving);
  }

  /** The window closes now that a step of the handing out is through; calls may still be coming. */
  private closeWindow(): void {
    this.flushTimer = undefined;
    void this.flush(this.deps.now() - this.lastQueuedAt < this.deps.limits.batchDelayMs);
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
        const unserved = loads.filter((load) => this.isolation.isUnserved(settings, load.symbol));
        const served = unserved.length ? loads.filter((load) => !unserved.includes(load)) : loads;
        const plan = this.plan(settings, window, served);
        const last = plan[plan.length - 1];
        if (stillArriving && last && !isFull(last, this.deps.limits) && last.pairs.every((load) => !load.heldBack)) {
          plan.pop();
          this.holdBack(last.pairs);
        }
        for (const request of plan) {
          sends.push(this.isolation.dispatch(settings, window, request.pairs));
        }
        for (const request of this.plan(settings, window, unserved, 1)) {
          sends.push(this.isolation.dispatch(settings, window, request.pairs, { knownUnserved: true }));
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
      maxUrlLength: Math.min(limits.maxUrlLength, this.isolation.urlCap(settings)),
      urlLength: seriesUrlLength(settings.baseUrl, settings.apiKey, window),
      itemChars: (item) => listChars([item]),
    });
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
  ): Promise<SendOutcome> {
    const live = loads.filter((load) => load.state !== "settled");
    if (live.length === 0) return { ok: true };
    const symbols = unique(live.map((l) => l.symbol));
    const metrics = unique(live.map((l) => l.metric));
    const signal = this.deps.pending.fly(live as Load<unknown>[]);
    const request = seriesRequest({ symbols, metrics, ...window });
    const urlLength = requestUrl(settings.baseUrl, request, settings.apiKey).length;
    let answered = false;
    try {
      const sent = await this.deps.send(request, settings, signal, { serverErrorRetries }),
        json = sent.json;
      answered = true;
      // Reading the body (JSON.parse) and checking it are two stretches of a big answer: the thread is given back
      // between them, and again before the answer is handed out (slices.ts).
      if (live.length > SMALL_ANSWER) await yieldToHost();
      if (await this.askedUnderOldSettings(settings, live)) return { ok: true };
      // Checked against the window asked for (http/responses.ts soundPoints): only sound points are cached or stored.
      const recorder = new SeriesAnswerRecorder(this.deps, window);
      const table = parseSeriesResponse(json, symbols, metrics, window, (symbol, metric, dropped) =>
        recorder.dropped(symbol, metric, dropped),
      );
      redactMessages(table, settings.apiKey);
      recorder.answered(sent, table, this.deps.now());
      this.isolation.answered(settings, symbols, urlLength);
      for (const [symbol, row] of table) {
        for (const [metric, result] of row) {
          if (result instanceof BadResponseError) continue;
          const key = cacheKey(settings.baseUrl, seriesKey(symbol, metric, window));
          this.deps.cache.set(key, result, this.deps.limits.cacheTtlMs, seriesSize(result));
        }
      }
      // Each caller's continuation (the store's write, the cell's value) runs when it is handed its series: an
      // answer for hundreds of series is handed out in short slices, the thread given back between them (slices.ts).
      await this.deliveries.deliver(live, (load) => {
        const result = table.get(load.symbol)?.get(load.metric);
        if (result instanceof BadResponseError) this.settle(load, { error: result });
        else this.settle(load, { value: result ?? { kind: "points", points: [] } });
      });
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
  return answerKey("series", symbol, metric, window.start ?? "", window.end ?? "", window.granularity ?? "");
}

/**
 * A message in place of a series is the service's own text, shown in cells
 * and in the pane; a careless service may quote the request in it, key
 * included. Error bodies are redacted where they are read (http/transport.ts).
 */
function redactMessages(table: SeriesTable, apiKey: string): void {
  for (const row of table.values()) {
    for (const [metric, result] of row) {
      if (!(result instanceof BadResponseError) && result.kind === "message")
        row.set(metric, { kind: "message", message: redact(result.message, apiKey) });
    }
  }
}
