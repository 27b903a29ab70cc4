/**
 * Isolation of a refused batch request: which of its callers the refusal is
 * for. It owns the halving of a refused request (by symbol, then by metric),
 * the handling of a 5xx that one unserved symbol causes, the symbols the
 * service was seen to fail (remembered for a while, so later batches send
 * them alone) and the URL length each service was seen to accept after a
 * 413/414/431. It is handed what it works with — a send function that sends
 * and hands out one request's series (the batcher's), a function that fails
 * a load's callers, the clock, a log — and reaches into nothing else.
 */
import type { SeriesWindow } from "../../core/domain";
import { BadRequestError, MarketDataError, ServerError, UnservedSymbolError } from "../errors";
import type { ResolvedSettings } from "../http/executor";
import type { SendOutcome, SeriesLoad } from "./batch-types";

export interface SeriesIsolationDeps {
  /** Sends one series request and hands out its series; `serverErrorRetries` caps the retries of a 5xx. */
  send(
    settings: ResolvedSettings,
    window: SeriesWindow,
    loads: readonly SeriesLoad[],
    serverErrorRetries: number | undefined,
  ): Promise<SendOutcome>;
  /** Fails one load's callers. */
  fail(load: SeriesLoad, error: unknown): void;
  now: () => number;
  log: (line: string) => void;
  /** How long a symbol the service fails is remembered (the cache's TTL). */
  unservedForMs: () => number;
}

export class SeriesIsolation {
  /** Symbols the service was seen to fail every request for, per base URL, until a time. */
  private readonly unserved = new Map<string, number>();
  /** What URL lengths each service was seen to refuse (413/414/431) and accept. */
  private readonly urlLimits = new Map<string, UrlLimit>();

  constructor(private readonly deps: SeriesIsolationDeps) {}

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
  async dispatch(
    settings: ResolvedSettings,
    window: SeriesWindow,
    loads: readonly SeriesLoad[],
    how: { knownUnserved?: boolean } = {},
  ): Promise<void> {
    const symbols = unique(loads.map((l) => l.symbol));
    const several = symbols.length > 1;
    const sent = await this.deps.send(settings, window, loads, how.knownUnserved ? 0 : several ? 1 : undefined);
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
        for (const load of live) this.deps.fail(load, new UnservedSymbolError(load.symbol, error));
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
    for (const load of live) this.deps.fail(load, error);
  }

  /** Whether the service was seen to fail every request for this symbol, lately. */
  isUnserved(settings: ResolvedSettings, symbol: string): boolean {
    const key = unservedKey(settings, symbol);
    const until = this.unserved.get(key);
    if (until === undefined) return false;
    if (until > this.deps.now()) return true;
    this.unserved.delete(key);
    return false;
  }

  /** The longest URL to pack for this service: what it was seen to accept after a length refusal. */
  urlCap(settings: ResolvedSettings): number {
    return this.urlLimits.get(settings.baseUrl)?.cap() ?? Infinity;
  }

  /** A request was answered: its URL length was accepted and its symbols are served. */
  answered(settings: ResolvedSettings, symbols: readonly string[], urlLength: number): void {
    this.urlLimits.get(settings.baseUrl)?.accepted(urlLength);
    for (const symbol of symbols) this.unserved.delete(unservedKey(settings, symbol));
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
    // Called with several symbols only: halved by symbol.
    const halves = splitInHalves(loads);
    isolation.budget -= 2;
    const results = await Promise.all(
      halves.map(async (half) => {
        const sent = await this.deps.send(settings, window, half, 0);
        if (sent.ok) return undefined;
        if (sent.error instanceof MarketDataError && sent.error.kind === "server") {
          return { half: sent.live, error: sent.error };
        }
        for (const load of sent.live) this.deps.fail(load, sent.error);
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
        for (const { half } of pending) for (const load of half) this.deps.fail(load, outage);
        return;
      }
    }
    await Promise.all(
      pending.map(async ({ half, error: halfError }) => {
        const halfSymbols = unique(half.map((l) => l.symbol));
        if (halfSymbols.length === 1) {
          this.unserved.set(unservedKey(settings, halfSymbols[0]!), this.deps.now() + this.deps.unservedForMs());
          this.deps.log(`isolated a symbol the service fails: ${halfSymbols[0]}`);
          for (const load of half) this.deps.fail(load, new UnservedSymbolError(load.symbol, halfError));
        } else if (isolation.budget <= 0) {
          for (const load of half) this.deps.fail(load, halfError);
        } else {
          await this.isolateServerFailure(settings, window, half, isolation);
        }
      }),
    );
  }

  private urlLimit(settings: ResolvedSettings): UrlLimit {
    let limit = this.urlLimits.get(settings.baseUrl);
    if (!limit) this.urlLimits.set(settings.baseUrl, (limit = new UrlLimit()));
    return limit;
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

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
