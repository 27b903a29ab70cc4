import { CallSignal, type CancelSignal } from "../../src/api/cancel-signal";

describe("CallSignal: an AbortSignal's contract without an event target", () => {
  it("tells each listener once, in the order added, functions and handleEvent objects alike", () => {
    const signal = new CallSignal();
    const told: string[] = [];
    const first = () => told.push("first");
    const second = { handleEvent: () => told.push("second") };
    const third = () => told.push("third");
    signal.addEventListener("abort", first);
    signal.addEventListener("abort", second, { once: true });
    signal.addEventListener("abort", third);
    expect(signal.aborted).toBe(false);
    signal.abort();
    expect(signal.aborted).toBe(true);
    expect(told).toEqual(["first", "second", "third"]);
    signal.abort();
    expect(told).toEqual(["first", "second", "third"]);
  });

  it("adds the same listener once, as addEventListener does", () => {
    const signal = new CallSignal();
    let told = 0;
    const listener = () => (told += 1);
    signal.addEventListener("abort", listener);
    signal.addEventListener("abort", listener);
    signal.addEventListener("abort", () => undefined);
    signal.addEventListener("abort", listener);
    signal.abort();
    expect(told).toBe(1);
  });

  it("does not tell a listener removed before the abort, nor one added after it", () => {
    const signal = new CallSignal();
    const told: string[] = [];
    const removedAlone = () => told.push("removed alone");
    signal.addEventListener("abort", removedAlone);
    signal.removeEventListener("abort", removedAlone);
    const kept = () => told.push("kept");
    const removed = () => told.push("removed");
    signal.addEventListener("abort", kept);
    signal.addEventListener("abort", removed);
    signal.removeEventListener("abort", removed);
    signal.abort();
    signal.addEventListener("abort", () => told.push("late"));
    expect(told).toEqual(["kept"]);
  });

  it("does not tell a listener that one told before it removed", () => {
    const signal = new CallSignal();
    const told: string[] = [];
    const later = () => told.push("later");
    signal.addEventListener("abort", () => {
      told.push("remover");
      signal.removeEventListener("abort", later);
    });
    signal.addEventListener("abort", later);
    signal.abort();
    expect(told).toEqual(["remover"]);
  });

  it("tells the others when one throws, and reports the error in a task of its own", async () => {
    const signal = new CallSignal();
    const told: string[] = [];
    const reported: unknown[] = [];
    const timeout = jest.spyOn(globalThis, "setTimeout").mockImplementation(((callback: () => void) => {
      try {
        callback();
      } catch (error) {
        reported.push(error);
      }
      return 0 as unknown as ReturnType<typeof setTimeout>;
    }) as typeof setTimeout);
    try {
      signal.addEventListener("abort", () => {
        throw new Error("listener failed");
      });
      signal.addEventListener("abort", () => told.push("after"));
      expect(() => signal.abort()).not.toThrow();
    } finally {
      timeout.mockRestore();
    }
    expect(told).toEqual(["after"]);
    expect(reported).toEqual([new Error("listener failed")]);
  });

  it("behaves as a DOM AbortSignal for what the client reads of it", () => {
    const controller = new AbortController();
    const call = new CallSignal();
    const pairs: [CancelSignal, () => void][] = [
      [controller.signal, () => controller.abort()],
      [call, () => call.abort()],
    ];
    const seen = pairs.map(([signal, abort]) => {
      const told: string[] = [];
      const removed = () => told.push("removed");
      signal.addEventListener("abort", { handleEvent: () => told.push("object") }, { once: true });
      signal.addEventListener("abort", removed);
      signal.addEventListener("abort", () => told.push("function"));
      signal.removeEventListener("abort", removed);
      const before = signal.aborted;
      abort();
      signal.addEventListener("abort", () => told.push("late"));
      abort();
      return { before, after: signal.aborted, told };
    });
    expect(seen[0]).toEqual({ before: false, after: true, told: ["object", "function"] });
    expect(seen[1]).toEqual(seen[0]);
  });
});
