/**
 * The store's wait for IndexedDB (read-deadline.ts), on timers fired by hand:
 * judged by whether IndexedDB is still answering, and bounded all the same.
 */
import { READ_WAIT_MAX_STEPS, readDeadline } from "../../../src/api/store/read-deadline";

/** Hand-fired timers and clock; `step()` fires the one pending timer, the clock moved by `late`. */
function handTimers() {
  let pending: { run: () => void; ms: number } | null = null;
  let clock = 0;
  return {
    timers: {
      setTimeout: (run: () => void, ms: number) => (pending = { run, ms }),
      clearTimeout: () => void (pending = null),
    },
    now: () => clock,
    step(late?: number): boolean {
      const timer = pending;
      if (!timer) return false;
      pending = null;
      clock += late ?? timer.ms;
      timer.run();
      return true;
    },
  };
}

/** A wait of 1 s on hand-fired timers, IndexedDB's answers counted by `answers`. */
function wait(answers: () => number) {
  const hand = handTimers();
  const state = { expired: false };
  readDeadline(hand.timers, hand.now, 1000, answers, () => void (state.expired = true));
  return { step: hand.step, state };
}

describe("the wait for IndexedDB", () => {
  it("goes on while IndexedDB answers, ends once it has answered nothing for the wait", () => {
    let answers = 0;
    const { step, state } = wait(() => answers);
    // IndexedDB answering something every step, for five times the wait: still waited for.
    for (let i = 0; i < 50; i++) {
      answers += 1;
      step();
    }
    expect(state.expired).toBe(false);
    // Then nothing: the wait ends after its ten steps of silence, not before.
    for (let i = 0; i < 9; i++) step();
    expect(state.expired).toBe(false);
    step();
    expect(state.expired).toBe(true);
  });

  it("a read that answers one request in a while is still ended at the bound", () => {
    let answers = 0;
    const { step, state } = wait(() => answers);
    let steps = 0;
    while (!state.expired && step()) {
      steps += 1;
      if (steps % 5 === 0) answers += 1;
    }
    // READ_WAIT_MAX_STEPS steps of a tenth of the wait: 25 s at the default wait, half a call's own deadline.
    expect(steps).toBe(READ_WAIT_MAX_STEPS);
  });

  it("IndexedDB stuck from the start: ended after the wait", () => {
    const { step, state } = wait(() => 0);
    let steps = 0;
    while (!state.expired && step()) steps += 1;
    expect(steps).toBe(10);
  });
});
