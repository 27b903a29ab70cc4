/**
 * How long the persistent series store (persistent-store.ts) waits for
 * IndexedDB — to open, or to answer one batch of reads — before it goes on
 * without it and the cell is answered from the network.
 */
import type { Timers } from "../http/timers";

/** The wait's steps, and the most it takes counted or not (see readDeadline). */
const READ_WAIT_STEPS = 10;
/**
 * 25 times the wait (25 s at the default 1 s): a read still answering on a
 * busy computer has time to finish, and the network still has half of a
 * call's default 50 s deadline (client-options.ts) if it does not.
 */
export const READ_WAIT_MAX_STEPS = 250;

/**
 * The wait, counted in steps of a tenth of it, judged by whether IndexedDB is
 * still answering rather than by wall time alone. `answered()` counts
 * IndexedDB's answers so far (each request of the store that succeeded: the
 * open, each get, each page of a read): a step in which IndexedDB answered
 * anything starts the count again, so a read that is making progress on a
 * busy computer (IndexedDB runs in the browser's own process and threads,
 * and answers late when other programs keep the cores busy) is not given up
 * for the network. A step whose timer fires more than a step late was spent
 * on other work of this thread (a recalculation's burst, the read's own
 * answer queued behind it) and does not count either. The wait ends after
 * READ_WAIT_STEPS counted steps — a tenth of `waitMs` each, with no answer
 * from IndexedDB and the thread free: IndexedDB stuck — and after at most
 * READ_WAIT_MAX_STEPS steps, counted or not, well within every call's own
 * deadline (the client's `callDeadlineMs`).
 */
export function readDeadline(
  timers: Timers,
  now: () => number,
  waitMs: number,
  answered: () => number,
  expire: () => void,
): { cancel: () => void } {
  const step = waitMs / READ_WAIT_STEPS;
  let counted = 0;
  let taken = 0;
  let last = now();
  let seen = answered();
  let timer: unknown;
  const tick = () => {
    const at = now();
    const answers = answered();
    if (answers !== seen) counted = 0;
    else if (at - last < 2 * step) counted += 1;
    seen = answers;
    last = at;
    taken += 1;
    if (counted >= READ_WAIT_STEPS || taken >= READ_WAIT_MAX_STEPS) expire();
    else timer = timers.setTimeout(tick, step);
  };
  timer = timers.setTimeout(tick, step);
  return { cancel: () => timers.clearTimeout(timer) };
}
