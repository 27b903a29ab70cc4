/**
 * A call's cancellation as the client reads it: whether it is cancelled, and
 * a listener told once when it is. A DOM AbortSignal is one (the pane passes
 * its own); a cell's call gets a CallSignal, which is the same contract
 * without an event target behind it. Every waiting cell of a big workbook
 * holds two signals (the cell's and its call's deadline) until its answer
 * comes, and an AbortSignal with its listener is an event target, a listener
 * record and their tables each (Node's: ~1 KB per signal in a heap
 * snapshot, `npx tsx bench/pending-cell.ts`), where a CallSignal is one small object.
 */

/** Called once when the signal aborts: a function, or an object's `handleEvent` (as DOM listeners may be). */
export type AbortListener = (() => void) | { handleEvent(): void };

/** What the client reads of a signal; an AbortSignal fits it. */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: AbortListener, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: AbortListener): void;
}

/**
 * A signal its owner aborts. As an AbortSignal's: a listener added after the
 * abort is never called, each listener is called at most once (abort happens
 * once), in the order added, and one that throws does not keep the others
 * from being told (its error is reported in a task of its own, as the DOM reports a listener's).
 */
export class CallSignal implements CancelSignal {
  aborted = false;
  /** One listener held as itself (the common case: a waiting cell has one), more in an array. */
  private listeners: AbortListener | AbortListener[] | undefined = undefined;

  addEventListener(_type: "abort", listener: AbortListener, _options?: { once?: boolean }): void {
    if (this.aborted) return;
    const held = this.listeners;
    if (held === undefined) this.listeners = listener;
    else if (Array.isArray(held)) {
      if (!held.includes(listener)) held.push(listener);
    } else if (held !== listener) this.listeners = [held, listener];
  }

  removeEventListener(_type: "abort", listener: AbortListener): void {
    const held = this.listeners;
    if (held === listener) this.listeners = undefined;
    else if (Array.isArray(held)) {
      const at = held.indexOf(listener);
      if (at >= 0) held.splice(at, 1);
    }
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const held = this.listeners;
    if (!Array.isArray(held)) {
      this.listeners = undefined;
      if (held !== undefined) tell(held);
      return;
    }
    // A listener removed by one told before it is not told (the array stays held while they are told).
    for (const listener of [...held]) if (held.includes(listener)) tell(listener);
    this.listeners = undefined;
  }
}

function tell(listener: AbortListener): void {
  try {
    if (typeof listener === "function") listener();
    else listener.handleEvent();
  } catch (error) {
    setTimeout(() => {
      throw error;
    }, 0);
  }
}
