/**
 * One wait of the pane, bounded: whatever the pane waits for (a catalog, a
 * preview, the connection test, the workbook) ends within WAIT_LIMIT_MS, or
 * when the user cancels it, with an outcome whose message names the cause —
 * no answer from the address in so many seconds, the client's own failure
 * (a refused address: "Could not reach the market-data service at …"), or
 * cancelled. Its AbortSignal goes down to the client, so an abandoned wait
 * also drops the request (the client aborts a request nobody waits for any
 * more). Plain TypeScript over injected timers: use-bounded-wait.ts is the
 * React side, and the tests drive it on a fake clock.
 *
 * The cells keep their own deadlines (55 s, src/functions/invoke.ts): this is
 * the pane's bound, for a person watching it.
 */
import { errorText, isCancellation } from "./error-text";

/**
 * The promise is a message within 15 s of the user's act. The wait
 * starts a render after the act and its message takes a render to show, so
 * it gives up at 14 s and says so ("in 14 s").
 */
export const WAIT_LIMIT_MS = 14_000;

/** When a wait shows its elapsed time and Cancel: under the 1 s promised, with a render's room. Quicker waits never flash them. */
export const SHOW_PROGRESS_AFTER_MS = 800;

/**
 * What the pane hands the client with each request: the wait's signal, and one quick retry of a refused or
 * unreachable address (CallOptions.networkRetries) instead of the cells' four with backoff, so a refused
 * address is said in under 2 s (measured: test/browser/pane-waits.test.ts). Cells keep the whole policy,
 * which rides out a network blip nobody is watching for.
 */
export interface PaneCall {
  signal: AbortSignal;
  networkRetries: number;
}
export const PANE_NETWORK_RETRIES = 1;

export type WaitCause = "no-answer" | "cancelled" | "failed";

export type WaitOutcome<T> = { status: "ready"; data: T } | { status: "error"; cause: WaitCause; message: string };

export interface WaitTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface BoundedWaitOptions {
  timers?: WaitTimers;
  limitMs?: number;
  /** The service's address as last read (for the message), or undefined: not known yet. */
  address?: () => string | undefined;
  /**
   * The message at the limit, for a wait on something else than the service (the workbook); default
   * noAnswerText with the address.
   */
  noAnswer?: (seconds: number) => string;
  /** The message when the user cancels; default CANCELLED_TEXT. */
  cancelled?: string;
}

export interface BoundedWait {
  /** The user's Cancel: the wait ends now, as cancelled. */
  cancel(): void;
  /** Nobody waits any more (the view went away, the inputs changed): the wait ends without an outcome. */
  abandon(): void;
}

const globalWaitTimers: WaitTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export const CANCELLED_TEXT = "Cancelled before an answer came.";

export function noAnswerText(address: string | undefined, limitMs: number): string {
  return `No answer from ${address || "the market-data service"} in ${Math.round(limitMs / 1000)} s. The service may be down or overloaded; try again later.`;
}

/**
 * The messages of a wait on the workbook rather than the service. Office.js offers no way to call off a batch
 * once `context.sync()` has sent it: the caller can only stop waiting for its promise (office-js issue #6909,
 * https://github.com/OfficeDev/office-js/issues/6909, the same `RequestContext.sync()` model in Excel), so giving
 * up or Cancel stops the pane's waiting only: a change may still land, and the message says so
 * (docs/excel-checklist.md, "Waits on a busy Excel").
 */
export const WORKBOOK_READ_WAIT: Pick<BoundedWaitOptions, "noAnswer" | "cancelled"> = {
  noAnswer: (seconds) =>
    `Excel did not answer in ${seconds} s: it may be busy (a cell being edited, a dialog open). Try again once it is free.`,
};
export const WORKBOOK_CHANGE_WAIT: Pick<BoundedWaitOptions, "noAnswer" | "cancelled"> = {
  noAnswer: (seconds) =>
    `Excel did not finish in ${seconds} s: it may be busy (a cell being edited, a dialog open). The change may still be made: look at the workbook before trying again.`,
  cancelled: "Stopped waiting. Excel may still make the change: look at the workbook before trying again.",
};

/** Starts `run` with a signal; `onEnd` is told its outcome exactly once, unless the wait is abandoned first. */
export function startBoundedWait<T>(
  run: (call: PaneCall) => Promise<T>,
  onEnd: (outcome: WaitOutcome<T>) => void,
  options: BoundedWaitOptions = {},
): BoundedWait {
  const timers = options.timers ?? globalWaitTimers;
  const limitMs = options.limitMs ?? WAIT_LIMIT_MS;
  const controller = new AbortController();
  let ended = false;
  const end = (outcome: WaitOutcome<T> | null) => {
    if (ended) return;
    ended = true;
    timers.clearTimeout(timer);
    // Aborted after the outcome is taken: the client's CancelledError that follows is nobody's news.
    controller.abort();
    if (outcome) onEnd(outcome);
  };
  const cancelled: WaitOutcome<T> = {
    status: "error",
    cause: "cancelled",
    message: options.cancelled ?? CANCELLED_TEXT,
  };
  const noAnswer = () =>
    options.noAnswer ? options.noAnswer(Math.round(limitMs / 1000)) : noAnswerText(options.address?.(), limitMs);
  const timer = timers.setTimeout(() => end({ status: "error", cause: "no-answer", message: noAnswer() }), limitMs);
  let started: Promise<T>;
  try {
    started = run({ signal: controller.signal, networkRetries: PANE_NETWORK_RETRIES });
  } catch (error) {
    started = Promise.reject(error);
  }
  started.then(
    (data) => end({ status: "ready", data }),
    (error: unknown) =>
      end(isCancellation(error) ? cancelled : { status: "error", cause: "failed", message: errorText(error) }),
  );
  return {
    cancel: () => end(cancelled),
    abandon: () => end(null),
  };
}
