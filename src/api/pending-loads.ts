/**
 * Work somebody is waiting for: one registry of pending loads (a series part,
 * a catalog, a feed, a flow), so that every caller asking for an answer already
 * queued or in flight joins it instead of asking the service again (in-flight
 * de-duplication). A load settles exactly once; a caller's signal drops only
 * that caller, and the HTTP request once nobody waits for any of its loads.
 * Knows nothing of batching, sending or caching.
 */
import type { CancelSignal } from "./cancel-signal";
import { CancelledError } from "./errors";

/**
 * The one key scheme for pending work and kept answers: the question as JSON,
 * its kind first — ["series", symbol, metric, start, end, granularity],
 * ["assets"], ["metrics", symbol], ["insights", feed], ["flows", query]. It
 * never holds the API key: answers are the same data whatever key fetched
 * them, and keys end up in logs and diagnostics.
 */
export function answerKey(kind: string, ...parts: unknown[]): string {
  return JSON.stringify([kind, ...parts]);
}

/** Where the cache files an answer: its key behind the base URL that gave it (answers may differ per service). */
export function cacheKey(baseUrl: string, key: string): string {
  return `${baseUrl} ${key}`;
}

export type Outcome<T> = { value: T } | { error: unknown };

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** One awaited answer and the callers waiting for it. */
export interface Load<T> {
  key: string;
  state: "queued" | "dispatching" | "in-flight" | "settled";
  waiters: Set<Waiter<T>>;
  /** The base URL it is fetched from, once known (catalogs know it before they are registered; series parts do not). */
  service?: string;
  flight?: Flight;
}

/** One HTTP request (with its retries) and the loads it answers; aborted once none of them has a waiter. */
interface Flight {
  controller: AbortController;
  loads: Load<unknown>[];
}

export class PendingLoads {
  private readonly byKey = new Map<string, Load<unknown>>();

  constructor(private readonly log: (line: string) => void) {}

  /** Loads registered and not yet settled. */
  get size(): number {
    return this.byKey.size;
  }

  /**
   * The load pending for `key`, if a caller may join it. A caller that has read
   * the settings (`service`, a base URL) joins only a load fetched from that
   * service: after a change of service, an answer from the old one is not its.
   */
  find<T>(key: string, service?: string): Load<T> | undefined {
    const load = this.byKey.get(key) as Load<T> | undefined;
    if (!load || (service !== undefined && load.service !== undefined && load.service !== service)) return undefined;
    return load;
  }

  /** Registers a new load under its key: later callers of the same answer find it. */
  add<T>(load: Load<T>): void {
    this.byKey.set(load.key, load as Load<unknown>);
  }

  /** Puts loads on one HTTP request; returns the signal that aborts it once none of them has a waiter left. */
  fly(loads: readonly Load<unknown>[]): AbortSignal {
    const flight: Flight = { controller: new AbortController(), loads: [...loads] };
    for (const load of loads) {
      load.state = "in-flight";
      load.flight = flight;
    }
    return flight.controller.signal;
  }

  /** Adds a waiter to a load; its signal drops only this waiter, and the request once nobody waits. */
  join<T>(load: Load<T>, signal?: CancelSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (!signal) {
        load.waiters.add({ resolve, reject });
        return;
      }
      const waiter = new SignalledWaiter(this, load, signal, resolve, reject);
      load.waiters.add(waiter);
      if (signal.aborted) waiter.handleEvent();
      else signal.addEventListener("abort", waiter, { once: true });
    });
  }

  /** Whether anybody still waits for a load about to be re-sent; one nobody waits for is settled as cancelled. */
  stillWanted(load: Load<unknown>): boolean {
    if (load.waiters.size > 0) return true;
    this.settle(load, { error: new CancelledError() });
    return false;
  }

  /** Hands every waiter the outcome, once: a second settle of the same load does nothing. */
  settle<T>(load: Load<T>, outcome: Outcome<T>): void {
    if (load.state === "settled") return;
    load.state = "settled";
    if (this.byKey.get(load.key) === (load as Load<unknown>)) this.byKey.delete(load.key);
    const waiters = [...load.waiters];
    load.waiters.clear();
    for (const waiter of waiters) {
      if ("value" in outcome) waiter.resolve(outcome.value);
      else waiter.reject(outcome.error);
    }
  }

  /** A waiter left `load`: settled as cancelled if nobody waits for it, its request aborted once it serves nobody. */
  abandonIfUnwanted<T>(load: Load<T>): void {
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
}

/**
 * A waiter with a signal: one object that is both the waiter and the signal's
 * listener (its handleEvent), rather than three closures. A cold workbook's
 * cells all wait at once, each with one of these.
 */
class SignalledWaiter<T> implements Waiter<T> {
  constructor(
    private readonly loads: PendingLoads,
    private readonly load: Load<T>,
    private readonly signal: CancelSignal,
    private readonly resolved: (value: T) => void,
    private readonly rejected: (error: unknown) => void,
  ) {}

  resolve(value: T): void {
    this.signal.removeEventListener("abort", this);
    this.resolved(value);
  }

  reject(error: unknown): void {
    this.signal.removeEventListener("abort", this);
    this.rejected(error);
  }

  /** The signal aborted. */
  handleEvent(): void {
    if (!this.load.waiters.delete(this)) return;
    this.rejected(new CancelledError());
    this.loads.abandonIfUnwanted(this.load);
  }
}
