/**
 * The clock the client runs on. Injected so tests drive time by hand; the
 * defaults are the host's globals.
 */
import type { CancelSignal } from "../cancel-signal";
import { CancelledError } from "../errors";
import { messageTurn } from "../slices";

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /**
   * Whether the host throttles these timers now: a hidden page's timers wake
   * at most once a second in Chromium (and Edge's WebView2), once a minute
   * for chained ones after five minutes hidden
   * (https://developer.chrome.com/blog/timer-throttling-in-chrome-88), and
   * Excel's shared runtime is a hidden page whenever the task pane is closed.
   * Absent: never.
   */
  throttled?(): boolean;
  /** One turn of the host's event loop that is not a timer (so not throttled): a message task. */
  nextTurn?(): Promise<void>;
}

export const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
  // Chromium throttles by the page's visibility, which an iframe shares with its parent (Excel on the web).
  throttled: () => (globalThis as { document?: { visibilityState?: string } }).document?.visibilityState === "hidden",
  nextTurn: messageTurn,
};

/**
 * Runs `callback` in a new task, after the tasks already queued: a 0 ms
 * timer, or while the timers are throttled (a hidden page) a message task,
 * so work batched for the next task never waits for the next wake-up.
 * Chromium runs a 0 ms timer set outside a timer chain at once even in a
 * hidden page (measured: bench/hidden-runtime.ts), but one set in a chain of
 * five or more timers waits for the page's wake-up, a second or a minute
 * (https://developer.chrome.com/blog/timer-throttling-in-chrome-88); a
 * message task is never throttled.
 */
export function nextTask(timers: Timers, callback: () => void): void {
  if (timers.nextTurn && timers.throttled?.()) void timers.nextTurn().then(callback);
  else timers.setTimeout(callback, 0);
}

/** Waits `ms`, or rejects with CancelledError as soon as `signal` aborts. */
export function sleep(timers: Timers, ms: number, signal?: CancelSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CancelledError());
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(handle);
      reject(new CancelledError());
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Settles with `promise`, or rejects with `reason()` as soon as `signal`
 * aborts, whichever is first: a fetch that ignores its signal cannot keep a
 * caller waiting past its timeout or cancellation.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, reason: () => unknown): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reason());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * `promise`, or `late()` once `ms` have passed, whichever comes first. The
 * give-up is kept in `waits` while pending, so its owner can give up early
 * (on closing, say) by calling it.
 */
export function within<T>(
  timers: Timers,
  waits: Set<() => void>,
  promise: Promise<T>,
  ms: number,
  late: () => T,
): Promise<T> {
  return new Promise<T>((resolve) => {
    const giveUp = () => {
      waits.delete(giveUp);
      timers.clearTimeout(timer);
      resolve(late());
    };
    const timer = timers.setTimeout(giveUp, ms);
    waits.add(giveUp);
    void promise.then((value) => {
      waits.delete(giveUp);
      timers.clearTimeout(timer);
      resolve(value);
    });
  });
}
