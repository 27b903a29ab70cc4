/**
 * Long work cut into short slices, so the thread the add-in shares with the
 * task pane answers input while it runs. With a shared runtime, custom
 * functions and the task pane run in one browser runtime, one thread
 * (https://learn.microsoft.com/office/dev/add-ins/testing/runtimes): while an
 * answer for 250 series hands each waiting cell its value (the store's merge
 * and write, the cell's extraction and formatting), a keystroke in the pane
 * waits. A browser runs queued input between tasks, not inside one, so the
 * work gives the thread back between slices of a few milliseconds each.
 */

/** How long one slice may run before the thread is given back, in milliseconds. */
export const SLICE_BUDGET_MS = 3;

/** Items handed out before the first measurement: a small answer is delivered at once, as before. */
const FIRST_CHUNK = 16;

/** An answer for at most this many callers is handed out without giving the thread back first. */
export const SMALL_ANSWER = FIRST_CHUNK;

/**
 * Microtask turns awaited after a chunk, so the continuations it started
 * (each caller's own chain of awaits) run, and are measured, before the
 * budget is checked. A deeper chain just finishes in the next check's time.
 */
const CONTINUATION_TURNS = 32;

/** Lets the continuations started so far run (CONTINUATION_TURNS microtask turns). */
async function continuations(): Promise<void> {
  for (let turn = 0; turn < CONTINUATION_TURNS; turn++) await undefined;
}

interface HostScheduler {
  yield?: () => Promise<void>;
  postTask?: (callback: () => void) => Promise<void>;
}

let channel: { port: MessagePort; waiting: (() => void)[] } | undefined;

/**
 * One turn of the host's event loop: the promise resolves in a new task,
 * after the input already queued. Where the platform has it,
 * `scheduler.yield()` (Chromium, Edge's WebView2: the continuation runs
 * before other queued tasks of its kind, so the work is not pushed behind
 * them; https://developer.chrome.com/blog/use-scheduler-yield), else
 * `scheduler.postTask`, else a MessageChannel message (a task without
 * setTimeout's clamping of nested timers), else a 0 ms timer.
 */
export function yieldToHost(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: HostScheduler }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  if (typeof scheduler?.postTask === "function") return scheduler.postTask(() => undefined);
  return messageTurn();
}

/**
 * A new task, after the tasks already queued: a MessageChannel message (no
 * timer, so neither clamped when nested nor throttled in a hidden page), else
 * a 0 ms timer.
 */
export function messageTurn(): Promise<void> {
  if (typeof MessageChannel === "function") {
    if (!channel) {
      const { port1, port2 } = new MessageChannel();
      const state = { port: port2, waiting: [] as (() => void)[] };
      port1.onmessage = () => state.waiting.shift()?.();
      // Node keeps a port's process alive while it listens; a browser ignores this.
      (port1 as { unref?: () => void }).unref?.();
      channel = state;
    }
    const { port, waiting } = channel;
    return new Promise((resolve) => {
      waiting.push(resolve);
      port.postMessage(null);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Calls `each` for every item, in order, in slices of at most about
 * `budgetMs` of work each (the calls and the continuations they start),
 * giving the thread back between slices. The chunk size follows the measured
 * cost per item. Resolves once every item has been handed out.
 */
export async function inSlices<T>(
  items: readonly T[],
  each: (item: T) => void,
  now: () => number,
  budgetMs = SLICE_BUDGET_MS,
  yieldTo: () => Promise<void> = yieldToHost,
): Promise<void> {
  let sliceStart = now();
  let chunk = FIRST_CHUNK;
  let i = 0;
  while (i < items.length) {
    const from = i;
    const chunkStart = now();
    const end = Math.min(items.length, i + chunk);
    for (; i < end; i++) each(items[i]!);
    if (i >= items.length) return;
    await continuations();
    const at = now();
    const perItem = (at - chunkStart) / (i - from);
    if (at - sliceStart >= budgetMs) {
      await yieldTo();
      sliceStart = now();
    }
    const left = budgetMs - (now() - sliceStart);
    chunk = perItem > 0 ? Math.max(1, Math.floor(left / perItem)) : FIRST_CHUNK * 4;
  }
}

interface Delivery {
  run: () => Promise<void>;
  done: () => void;
}

/**
 * Answers handed out one after the other, each in slices (inSlices), and the
 * moments between two of them. A caller that plans from what earlier answers
 * left in the store waits for such a moment (`between`): it then sees every
 * answer either wholly handed out or not at all, as it did when an answer was
 * handed out in one task, so the calls of one recalculation still plan alike
 * and share their requests.
 */
export class Deliveries {
  private readonly queue: Delivery[] = [];
  private running = false;
  /** The callers waiting, by the task they came in (a recalculation's batch of calls comes in one). */
  private waiting: (() => void)[][] = [];
  /** The last group of waiting callers still takes callers of the task running now. */
  private groupOpen = 0;
  private groups = 0;
  private stepEnds: (() => void)[] = [];

  constructor(
    private readonly now: () => number,
    private readonly budgetMs = SLICE_BUDGET_MS,
    private readonly yieldTo: () => Promise<void> = yieldToHost,
  ) {}

  /**
   * Whether a step is under way: an answer being handed out, or a group of
   * waiting callers being let through (in slices). The calls they make are
   * still arriving between its slices: a batch window should not close on
   * part of them.
   */
  stepping = false;
  /** The step under way lets waiting callers through (not an answer). */
  lettingThrough = false;

  /** Resolves once the step under way is through, the calls it started included (at once when none is). */
  stepDone(): Promise<void> {
    if (!this.stepping) return Promise.resolve();
    return new Promise((resolve) => this.stepEnds.push(resolve));
  }

  /** Whether an answer is being handed out now. */
  get busy(): boolean {
    return this.running;
  }

  /** Resolves at the next moment no answer is being handed out (at once when none is). */
  between(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const open = this.groupOpen !== 0 ? this.waiting.at(-1) : undefined;
      if (open) {
        open.push(resolve);
        return;
      }
      this.waiting.push([resolve]);
      const group = ++this.groups;
      this.groupOpen = group;
      // The group closes with the task its callers came in.
      void this.yieldTo().then(() => {
        if (this.groupOpen === group) this.groupOpen = 0;
      });
    });
  }

  /** Hands `each` every item, in slices, after the answers queued before; resolves once all are handed out. */
  deliver<T>(items: readonly T[], each: (item: T) => void): Promise<void> {
    return new Promise((resolve) => {
      this.queue.push({ run: () => inSlices(items, each, this.now, this.budgetMs, this.yieldTo), done: resolve });
      if (!this.running) void this.drain(items.length > SMALL_ANSWER);
    });
  }

  /** `fresh`: starts in a new task, so that a big answer's first slice does not add to the task that parsed it. */
  private async drain(fresh: boolean): Promise<void> {
    this.running = true;
    try {
      if (fresh) await this.yieldTo();
      for (;;) {
        // The callers that waited go first, before the next answer changes what they read: in slices too, since
        // each plans its cell's requests, group by group. Those who come while they go wait for the next moment
        // between two answers: answers are not held back by a stream of them.
        if (this.waiting.length > 0) await this.release();
        const next = this.queue.shift();
        if (!next) {
          if (this.waiting.length > 0) continue;
          break;
        }
        try {
          await this.step(next.run);
        } finally {
          next.done();
        }
      }
    } finally {
      this.running = false;
      const waiting = this.waiting;
      this.waiting = [];
      this.groupOpen = 0;
      for (const group of waiting) for (const resolve of group) resolve();
    }
  }

  private async release(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = [];
    this.groupOpen = 0;
    this.lettingThrough = true;
    try {
      for (const group of waiting)
        await this.step(() => inSlices(group, (resolve) => resolve(), this.now, this.budgetMs, this.yieldTo));
    } finally {
      this.lettingThrough = false;
    }
  }

  /** One step; it ends once the continuations it started have run (their calls reach the batcher a few turns later). */
  private async step(run: () => Promise<void>): Promise<void> {
    this.stepping = true;
    try {
      await run();
      await continuations();
    } finally {
      this.stepping = false;
      const ended = this.stepEnds;
      this.stepEnds = [];
      for (const resolve of ended) resolve();
    }
  }
}
