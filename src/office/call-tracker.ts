/**
 * The add-in's custom function calls as the shared runtime runs them. Every MD
 * function begins a call when Excel invokes it and settles it when the
 * function returns, fails or is cancelled (src/functions/invoke.ts), so the
 * runtime knows at any moment how many calls are running.
 *
 * Refresh and Freeze wait on these counts instead of reading cells: current
 * Excel keeps a cell's previous value on screen (with a refresh icon) while its
 * function runs, so a cell that is not #BUSY! may not have been recalculated
 * at all. One tracker lives in the runtime registry, shared by functions.js
 * and the pane's page.
 *
 * It also keeps the last few notes about results, what a cell cannot say
 * itself (a table sent without its formats to stay within Excel's limit), for
 * the pane to show.
 */

/** A note about one result: when, and what the user should know. */
export interface CallNote {
  at: number;
  text: string;
}

/** Notes kept: the most recent only, so a sheet of thousands of cells cannot grow the list. */
export const MAX_CALL_NOTES = 20;

/** Calls since the runtime started. Those running now: `started - settled`. */
export interface CallCounts {
  started: number;
  settled: number;
}

export class CallTracker {
  private started = 0;
  private settled = 0;
  private readonly recent: CallNote[] = [];

  /** Starts one call; the returned function settles it (once, however often it is called). */
  begin(): () => void {
    this.started += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.settled += 1;
    };
  }

  counts(): CallCounts {
    return { started: this.started, settled: this.settled };
  }

  /** Records a note about a result (the oldest is dropped past MAX_CALL_NOTES). */
  note(text: string, at = Date.now()): void {
    this.recent.push({ at, text });
    if (this.recent.length > MAX_CALL_NOTES) this.recent.shift();
  }

  /** The recent notes, oldest first. */
  notes(): readonly CallNote[] {
    return [...this.recent];
  }

  get inFlight(): number {
    return this.started - this.settled;
  }
}
