/**
 * A hand-driven clock implementing the client's `Timers`: time moves only in
 * `advance`, timers fire in due order, and promise chains run between timers
 * (real setImmediate turns, since the client's own microtasks and Response
 * body reads need them).
 */
import type { Timers } from "../../src/api/http/timers";

interface Scheduled {
  at: number;
  seq: number;
  fn: () => void;
}

export class FakeClock implements Timers {
  time: number;
  private seq = 0;
  private readonly scheduled = new Map<number, Scheduled>();

  constructor(start = Date.UTC(2025, 5, 15, 12)) {
    this.time = start;
  }

  now = (): number => this.time;

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.seq;
    this.scheduled.set(id, { at: this.time + Math.max(0, ms), seq: id, fn });
    return id;
  };

  clearTimeout = (handle: unknown): void => {
    this.scheduled.delete(handle as number);
  };

  get pending(): number {
    return this.scheduled.size;
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await settle();
      const next = this.nextDue(target);
      if (!next) break;
      this.scheduled.delete(next.seq);
      this.time = next.at;
      next.fn();
    }
    this.time = target;
    await settle();
  }

  /** Fires timers until none is left (bounded, so a timer loop fails the test instead of hanging it). */
  async runAll(maxTimers = 10_000): Promise<void> {
    for (let fired = 0; fired < maxTimers; fired += 1) {
      await settle();
      const next = this.nextDue(Infinity);
      if (!next) return;
      this.scheduled.delete(next.seq);
      this.time = Math.max(this.time, next.at);
      next.fn();
    }
    throw new Error(`FakeClock.runAll: more than ${maxTimers} timers fired`);
  }

  private nextDue(limit: number): Scheduled | undefined {
    let best: Scheduled | undefined;
    for (const s of this.scheduled.values()) {
      if (s.at > limit) continue;
      if (!best || s.at < best.at || (s.at === best.at && s.seq < best.seq)) best = s;
    }
    return best;
  }
}

/** Lets pending promise chains and body reads run. */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}
