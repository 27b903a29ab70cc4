/**
 * The pane's bounded wait (src/taskpane/shared/bounded-wait.ts) on a fake
 * clock: it gives up at its limit with a message naming the address, Cancel
 * ends it at once, an answer or a failure before the limit is passed on, each
 * outcome is told once, and the signal handed to the request is aborted
 * whenever the wait ends, so the client drops the request.
 */
import {
  CANCELLED_TEXT,
  PANE_NETWORK_RETRIES,
  startBoundedWait,
  WAIT_LIMIT_MS,
  WORKBOOK_CHANGE_WAIT,
  type BoundedWaitOptions,
  type PaneCall,
  type WaitOutcome,
} from "../../src/taskpane/shared/bounded-wait";
import { FakeClock, settle } from "../support/fake-clock";

/** A request that answers only when the test says, recording the call it was given. */
function pendingRequest<T>() {
  const seen: PaneCall[] = [];
  let answer!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const run = (call: PaneCall) => {
    seen.push(call);
    return new Promise<T>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
  };
  return { run, seen, answer: (v: T) => answer(v), fail: (e: unknown) => fail(e) };
}

function record<T>() {
  const outcomes: WaitOutcome<T>[] = [];
  return { outcomes, onEnd: (o: WaitOutcome<T>) => outcomes.push(o) };
}

/** A wait on a fake clock over a request the test answers. */
function begin(options: Omit<BoundedWaitOptions, "timers"> = {}) {
  const clock = new FakeClock();
  const request = pendingRequest<string>();
  const { outcomes, onEnd } = record<string>();
  const wait = startBoundedWait(request.run, onEnd, { timers: clock, ...options });
  return { clock, request, outcomes, wait };
}

describe("startBoundedWait", () => {
  it("gives up at the limit with a message naming the address, and aborts the request's signal", async () => {
    const { clock, request, outcomes } = begin({ address: () => "https://md.example.test/api" });
    expect(request.seen[0]!.networkRetries).toBe(PANE_NETWORK_RETRIES);
    await clock.advance(WAIT_LIMIT_MS - 1);
    expect(outcomes).toEqual([]);
    expect(request.seen[0]!.signal.aborted).toBe(false);
    await clock.advance(1);
    expect(outcomes).toEqual([
      {
        status: "error",
        cause: "no-answer",
        message:
          "No answer from https://md.example.test/api in 14 s. The service may be down or overloaded; try again later.",
      },
    ]);
    expect(request.seen[0]!.signal.aborted).toBe(true);
    // The client's cancellation that follows the abort is nobody's news.
    request.fail(Object.assign(new Error("Cancelled"), { kind: "cancelled" }));
    await settle();
    expect(outcomes).toHaveLength(1);
    expect(WAIT_LIMIT_MS).toBeLessThan(15_000);
  });

  it("names the service when the address is not known", async () => {
    const { clock, outcomes } = begin({ limitMs: 5_000 });
    await clock.advance(5_000);
    expect(outcomes[0]).toMatchObject({
      cause: "no-answer",
      message: expect.stringMatching(/^No answer from the market-data service in 5 s\./),
    });
  });

  it("a wait on the workbook says so: Excel did not finish, and the change may still be made", async () => {
    const { clock, outcomes } = begin(WORKBOOK_CHANGE_WAIT);
    await clock.advance(WAIT_LIMIT_MS);
    expect(outcomes[0]).toMatchObject({
      cause: "no-answer",
      message: expect.stringMatching(/^Excel did not finish in 14 s: .*may still be made/),
    });
    const cancelled = begin(WORKBOOK_CHANGE_WAIT);
    cancelled.wait.cancel();
    expect(cancelled.outcomes[0]).toMatchObject({ cause: "cancelled", message: WORKBOOK_CHANGE_WAIT.cancelled });
  });

  it("Cancel ends the wait at once, aborts the signal and clears the timer", async () => {
    const { clock, request, outcomes, wait } = begin();
    await clock.advance(3_000);
    wait.cancel();
    expect(outcomes).toEqual([{ status: "error", cause: "cancelled", message: CANCELLED_TEXT }]);
    expect(request.seen[0]!.signal.aborted).toBe(true);
    expect(clock.pending).toBe(0);
    wait.cancel();
    await clock.advance(WAIT_LIMIT_MS);
    expect(outcomes).toHaveLength(1);
  });

  it("passes on an answer before the limit, once, and stops its timer", async () => {
    const { clock, request, outcomes, wait } = begin();
    await clock.advance(2_000);
    request.answer("catalog");
    await settle();
    expect(outcomes).toEqual([{ status: "ready", data: "catalog" }]);
    expect(clock.pending).toBe(0);
    wait.cancel();
    await clock.advance(WAIT_LIMIT_MS);
    expect(outcomes).toHaveLength(1);
  });

  it("passes on the client's failure with its own message (a refused address names it)", async () => {
    const { request, outcomes } = begin();
    const message = "Could not reach the market-data service at http://127.0.0.1:9/asset/symbols/: connection refused.";
    request.fail(Object.assign(new Error(message), { kind: "network" }));
    await settle();
    expect(outcomes).toEqual([{ status: "error", cause: "failed", message }]);
  });

  it("abandoned, it tells nothing and aborts the signal; a request that throws at once still ends", async () => {
    const { clock, request, outcomes, wait } = begin();
    wait.abandon();
    expect(request.seen[0]!.signal.aborted).toBe(true);
    await clock.advance(WAIT_LIMIT_MS);
    expect(outcomes).toEqual([]);

    const thrown = record<string>();
    startBoundedWait(
      () => {
        throw new Error("no client");
      },
      thrown.onEnd,
      { timers: clock },
    );
    await settle();
    expect(thrown.outcomes).toEqual([{ status: "error", cause: "failed", message: "no client" }]);
  });
});
