/**
 * The per-call deadline: every call of the client settles within it,
 * whatever the service does. It owns the deadline's timer, the abort of what
 * the call was waiting for, and the TimeoutError naming what was asked.
 */
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
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = timers.setTimeout(() => {
      expired = true;
      reject(new TimeoutError(`No answer from the market-data service within ${Math.round(ms / 1000)} s (${what}).`));
      controller.abort();
    }, ms);
    const done = () => {
      timers.clearTimeout(timer);
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
