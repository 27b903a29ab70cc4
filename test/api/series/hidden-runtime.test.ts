/**
 * The batch window in a hidden runtime. Excel's shared runtime is a hidden
 * page whenever the task pane is closed, and its timers wake at most once a
 * second (test/support/throttled-timers.ts: every timer fires only at the
 * next 1,000 ms boundary, a message task runs at once). A refresh with the pane closed must send the
 * requests it sends with the pane open, and its cells settle before the
 * first throttled wake-up, not at it.
 */
import { CLIENT_DEFAULTS } from "../../../src/api/client";
import type { ResolvedSettings } from "../../../src/api/http/executor";
import type { ApiRequest } from "../../../src/api/http/requests";
import { PendingLoads } from "../../../src/api/pending-loads";
import { SeriesBatcher } from "../../../src/api/series/batcher";
import { FakeClock, settle } from "../../support/fake-clock";
import { throttledTimers, WAKE_UP_MS } from "../../support/throttled-timers";

const SETTINGS: ResolvedSettings = { baseUrl: "https://md.example.test", apiKey: "k3y" };
const WINDOW = { start: "2025-05-01", end: "2025-05-02" };

function rig(hidden: boolean) {
  const clock = new FakeClock(); // starts on a whole second: the first wake-up is WAKE_UP_MS away
  const sent: string[][] = [];
  const batcher = new SeriesBatcher({
    pending: new PendingLoads(() => undefined),
    settings: { read: async () => SETTINGS, last: () => undefined, changedSince: async () => undefined },
    cache: { get: () => undefined, set: () => undefined },
    send: async (request: ApiRequest) => {
      const symbols = request.query.find(([name]) => name === "symbols")![1].split(",");
      const metrics = /^data\/api\/([^/]+)\/$/.exec(request.path)![1]!.split(",");
      sent.push(symbols);
      const data = Object.fromEntries(
        symbols.map((s) => [s, Object.fromEntries(metrics.map((m) => [m, [{ date: "2025-05-01", val: 1 }]]))]),
      );
      return { json: { data: { symbols: data } } };
    },
    timers: hidden ? throttledTimers(clock) : clock,
    now: clock.now,
    counters: { requests: 0, cacheHits: 0, retries: 0, failures: 0, bytes: 0, dropped: 0 },
    log: () => undefined,
    limits: CLIENT_DEFAULTS,
  });
  return { batcher, clock, sent };
}

/**
 * A recalculation's calls: `symbols` × two metrics, arriving over `tasks`
 * message tasks a millisecond apart (as Excel's calls reach the runtime).
 * Resolves with when (on the rig's clock) every cell had its answer.
 */
async function recalculate(r: ReturnType<typeof rig>, symbols: number, tasks: number): Promise<number> {
  let settled = 0;
  let settledAt = NaN;
  const calls: Promise<unknown>[] = [];
  const perTask = Math.ceil(symbols / tasks);
  for (let i = 0; i < symbols; i++) {
    if (i > 0 && i % perTask === 0) await r.clock.advance(1);
    for (const metric of ["PRICE", "FEES"])
      calls.push(
        r.batcher.load(`s${i}`, metric, WINDOW, {}).then(() => {
          settled += 1;
          if (settled === symbols * 2) settledAt = r.clock.now();
        }),
      );
  }
  // The event loop runs on (message tasks, promise chains) without any timer firing; then, if the cells still
  // wait, the next wake-ups come, one at a time (bounded: a cell left waiting fails the test, never hangs it).
  for (let turn = 0; turn < 200 && Number.isNaN(settledAt); turn++) await settle(1);
  for (let wakeUp = 0; wakeUp < 5 && Number.isNaN(settledAt); wakeUp++) await r.clock.advance(WAKE_UP_MS);
  await Promise.all(calls);
  return settledAt;
}

describe("the batch window in a hidden runtime (timers woken once a second)", () => {
  it.each([
    ["in one task", 120, 1],
    ["over three message tasks", 120, 3],
    ["over eight message tasks", 400, 8],
  ])(
    "a recalculation arriving %s sends the requests it sends visible, and settles before the first wake-up",
    async (_, symbols, tasks) => {
      const visible = rig(false);
      await recalculate(visible, symbols, tasks);
      expect(visible.sent.length).toBeGreaterThan(1);

      const hidden = rig(true);
      const start = hidden.clock.now();
      const settledAt = await recalculate(hidden, symbols, tasks);
      expect(hidden.sent.map((s) => s.length)).toEqual(visible.sent.map((s) => s.length));
      expect(settledAt - start).toBeLessThan(WAKE_UP_MS);
    },
  );
});
