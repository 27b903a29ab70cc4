/**
 * When a refresh is done, counted where the functions run. The shared runtime
 * counts every MD call as it starts and settles (src/office/call-tracker.ts);
 * a refresh notes the counts, makes Excel run the formulas, and waits until
 * the calls that started have settled.
 *
 * Cells cannot answer this: current Excel keeps a cell's previous value on
 * screen while its custom function runs (with a refresh icon, no #BUSY!), so a
 * cell that looks settled may not have been fetched at all.
 */
import type { Clock } from "./clock";

/** Calls since the runtime started; those running: `started - settled`. */
export interface CallCounts {
  started: number;
  settled: number;
}

/** The runtime's call counter, as refresh and freeze read it. */
export interface CustomFunctionCalls {
  counts(): CallCounts;
}

export interface WaitForCallsOptions {
  clock: Clock;
  /** Formula cells made to recalculate: at least one call each, unless a formula skips its MD part (IF). */
  expected: number;
  /** Give up at this time (clock.now() scale); calls still running are reported. */
  deadline: number;
  /** No call started this long after the trigger: Excel did not run the functions. */
  noStartMs: number;
  /** Fewer calls than cells: once nothing runs and nothing has changed for this long, it is over. */
  quietMs: number;
  pollMs: number;
  maxPollMs: number;
  onProgress?(settled: number, expected: number): void;
}

export type Completion =
  { kind: "settled"; calls: number } | { kind: "no-calls" } | { kind: "timeout"; calls: number; running: number };

/**
 * Waits for the calls that started after `before` (the counts taken just
 * before the trigger) to settle. Calls already running at `before` are waited
 * for too: they may be the same cells' previous calculation.
 */
export async function waitForCalls(
  calls: CustomFunctionCalls,
  before: CallCounts,
  options: WaitForCallsOptions,
): Promise<Completion> {
  const { clock } = options;
  const triggered = clock.now();
  let lastChange = triggered;
  let seen = calls.counts();
  let wait = options.pollMs;
  for (;;) {
    const now = calls.counts();
    if (now.started !== seen.started || now.settled !== seen.settled) {
      seen = now;
      lastChange = clock.now();
    }
    const started = now.started - before.started;
    const running = now.started - now.settled;
    options.onProgress?.(Math.min(Math.max(0, now.settled - before.settled), options.expected), options.expected);
    if (running === 0 && started >= options.expected && started > 0) return { kind: "settled", calls: started };
    if (running === 0 && started > 0 && clock.now() - lastChange >= options.quietMs)
      return { kind: "settled", calls: started };
    if (started === 0 && running === 0 && clock.now() - triggered >= options.noStartMs) return { kind: "no-calls" };
    if (clock.now() >= options.deadline) return { kind: "timeout", calls: started, running };
    await clock.sleep(Math.min(wait, Math.max(1, options.deadline - clock.now())));
    wait = Math.min(wait * 2, options.maxPollMs);
  }
}

/** Waits until no call runs (true), or until `deadline` (false). */
export async function waitForIdle(
  calls: CustomFunctionCalls,
  options: { clock: Clock; deadline: number; pollMs: number; onWait?(running: number): void },
): Promise<boolean> {
  for (;;) {
    const { started, settled } = calls.counts();
    const running = started - settled;
    if (running === 0) return true;
    options.onWait?.(running);
    if (options.clock.now() >= options.deadline) return false;
    await options.clock.sleep(Math.min(options.pollMs, Math.max(1, options.deadline - options.clock.now())));
  }
}
