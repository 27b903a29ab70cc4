/**
 * How long one read of the persistent series store waits for IndexedDB
 * (persistent-store.ts is the store) before it counts as a miss and the cell
 * is answered from the network.
 */
import type { Timers } from "../http/timers";

/** The read wait's steps, and the most it takes counted or not (see readDeadline). */
const READ_WAIT_STEPS = 10;
const READ_WAIT_MAX_STEPS = 100;

/**
 * The read wait, counted in steps of a tenth of it, and only the steps the
 * thread was free for: a step whose timer fires more than a step late was
 * spent on other work (a recalculation's burst, the read's own answer
 * queued behind it) and does not count, so a reopened workbook's read is
 * not given up for the network because its own thread was busy. It still
 * ends: after at most READ_WAIT_MAX_STEPS steps, counted or not (and every
 * call has its own deadline besides).
 */
export function readDeadline(
  timers: Timers,
  now: () => number,
  readWaitMs: number,
  expire: () => void,
): { cancel: () => void } {
  const step = readWaitMs / READ_WAIT_STEPS;
  let counted = 0;
  let taken = 0;
  let last = now();
  let timer: unknown;
  const tick = () => {
    const at = now();
    if (at - last < 2 * step) counted += 1;
    last = at;
    taken += 1;
    if (counted >= READ_WAIT_STEPS || taken >= READ_WAIT_MAX_STEPS) expire();
    else timer = timers.setTimeout(tick, step);
  };
  timer = timers.setTimeout(tick, step);
  return { cancel: () => timers.clearTimeout(timer) };
}
