/**
 * A hidden page's timers on a fake clock. Excel's shared runtime is a hidden
 * page whenever the task pane is closed, and Chromium (Edge's WebView2) wakes
 * a hidden page's timers at most once a second
 * (https://developer.chrome.com/blog/timer-throttling-in-chrome-88). The
 * model: every timer fires only at the next 1,000 ms boundary, while a turn
 * of the event loop that is not a timer (a message task) still runs at once
 * and takes a millisecond.
 */
import type { Timers } from "../../src/api/http/timers";
import type { FakeClock } from "./fake-clock";

/** A hidden page's timer wake-ups: once a second, aligned. */
export const WAKE_UP_MS = 1_000;

/** The clock's timers as a hidden page runs them: each one fires at the next wake-up at or after it is due. */
export function throttledTimers(clock: FakeClock): Timers {
  return {
    setTimeout: (fn, ms) => {
      const due = clock.time + Math.max(0, ms);
      return clock.setTimeout(fn, Math.ceil(due / WAKE_UP_MS) * WAKE_UP_MS - clock.time);
    },
    clearTimeout: clock.clearTimeout,
    throttled: () => true,
    nextTurn: () => clock.advance(1),
  };
}
