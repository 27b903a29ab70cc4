/**
 * A counting semaphore for the concurrency limit. Waiters are served in
 * arrival order; a waiter whose signal aborts leaves the line at once.
 */
import type { CancelSignal } from "../cancel-signal";
import { CancelledError } from "../errors";

export type Release = () => void;

export class Semaphore {
  private active = 0;
  private readonly line: { grant: (release: Release) => void }[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency must be a whole number ≥ 1, not ${limit}`);
  }

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.line.length;
  }

  acquire(signal?: CancelSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new CancelledError());
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const entry = {
        grant: (release: Release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const index = this.line.indexOf(entry);
        if (index >= 0) this.line.splice(index, 1);
        reject(new CancelledError());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.line.push(entry);
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.line.shift();
      // The slot passes straight to the next waiter, so `active` is unchanged.
      if (next) next.grant(this.releaser());
      else this.active -= 1;
    };
  }
}
