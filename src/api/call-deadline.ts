/**
 * The per-call deadline: every call of the client settles within it,
 * whatever the service does. It owns the deadline's timer, the abort of what
 * the call was waiting for, and the TimeoutError naming what was asked.
 */
import { CallSignal, type CancelSignal } from "./cancel-signal";
import { CancelledError, TimeoutError } from "./errors";
import type { Timers } from "./http/timers";
import type { CallOptions } from "./types";

/**
 * Every call settles within its deadline (DESIGN: Excel on Mac abandons a
 * request at 60 s), whatever the service does: a body that never ends, a
 * retry chain, a queue behind stuck requests. At the deadline the caller is
 * answered with a TimeoutError and dropped from the loads it waits for; a
 * request nobody waits for any more is aborted, its body read included.
 * `ms` not a positive finite number: no deadline.
 */
export function withDeadline<T>(
  timers: Timers,
  ms: number,
  what: string,
  opts: CallOptions,
  run: (opts: CallOptions) => Promise<T>,
): Promise<T> {
  if (!(ms > 0 && Number.isFinite(ms))) return run(opts);
  const outer = opts.signal;
  if (outer?.aborted) return Promise.reject(new CancelledError());
  const call = new DeadlineCall(opts, outer);
  return new Promise<T>((resolve, reject) => {
    const timer = timers.setTimeout(() => {
      call.expired = true;
      reject(new TimeoutError(`No answer from the market-data service within ${Math.round(ms / 1000)} s (${what}).`));
      call.abort();
    }, ms);
    const done = () => {
      timers.clearTimeout(timer);
      call.release();
    };
    run(call).then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        if (!call.expired) reject(error);
      },
    );
  });
}

/**
 * The options a call runs with: the caller's, and a signal of its own that
 * aborts at the deadline or with the caller's. The signal is made when first
 * read: most calls of a reopened workbook are answered from memory without
 * waiting for anything and never read it. Made late, it starts aborted if the
 * call already expired or the caller cancelled, as the one made at once would
 * be by then. It is a CallSignal, not an AbortController's (cancel-signal.ts):
 * a cold workbook's cells all hold one while they wait. The signal is a
 * getter: pass these options on as they are (a spread copy would lose it).
 */
class DeadlineCall implements CallOptions {
  cacheOnly?: boolean;
  keepWidened?: boolean;
  deadlineMs?: number;
  networkRetries?: number;
  expired = false;
  private own: CallSignal | undefined = undefined;
  /** Listening to the caller's signal (this object is the listener: its handleEvent). */
  private listening = false;
  private released = false;

  constructor(
    opts: CallOptions,
    private readonly outer: CancelSignal | undefined,
  ) {
    // Every option but the signal, as given (the compiler lists them: a new option must be copied here too).
    const copied: Record<Exclude<keyof CallOptions, "signal">, true> = {
      cacheOnly: true,
      keepWidened: true,
      deadlineMs: true,
      networkRetries: true,
    };
    void copied;
    if (opts.cacheOnly !== undefined) this.cacheOnly = opts.cacheOnly;
    if (opts.keepWidened !== undefined) this.keepWidened = opts.keepWidened;
    if (opts.deadlineMs !== undefined) this.deadlineMs = opts.deadlineMs;
    if (opts.networkRetries !== undefined) this.networkRetries = opts.networkRetries;
  }

  get signal(): CancelSignal {
    if (!this.own) {
      const own = (this.own = new CallSignal());
      if (this.expired || this.outer?.aborted) own.abort();
      else if (this.outer && !this.released) {
        this.listening = true;
        this.outer.addEventListener("abort", this, { once: true });
      }
    }
    return this.own;
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.own?.abort();
  }

  abort(): void {
    this.own?.abort();
  }

  /** The call settled: the caller's signal no longer concerns it. */
  release(): void {
    this.released = true;
    if (this.listening) this.outer?.removeEventListener("abort", this);
    this.listening = false;
  }
}
