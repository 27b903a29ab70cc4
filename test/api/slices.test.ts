/**
 * Long work in short slices (src/api/slices.ts): every item handed out, in
 * order, the thread given back once a slice has used its budget; answers
 * handed out one after the other, with callers waiting for the moment between
 * two. Time here is a counter each item advances, and the yield a recorded
 * promise, so the slicing is exact.
 */
import { Deliveries, inSlices, yieldToHost } from "../../src/api/slices";

function costly(msPerItem: number) {
  let time = 0;
  const events: string[] = [];
  return {
    now: () => time,
    events,
    each: (item: number) => {
      time += msPerItem;
      events.push(`item ${item}`);
    },
    yieldTo: async () => {
      events.push("yield");
      await yieldToHost();
    },
  };
}

describe("inSlices", () => {
  it("hands out a small answer in one go, without giving the thread back", async () => {
    const c = costly(0.01);
    await inSlices([1, 2, 3, 4, 5], c.each, c.now, 3, c.yieldTo);
    expect(c.events).toEqual([1, 2, 3, 4, 5].map((i) => `item ${i}`));
  });

  it("gives the thread back once a slice has used its budget, every item handed out once and in order", async () => {
    const c = costly(0.5);
    const items = Array.from({ length: 100 }, (_, i) => i);
    await inSlices(items, c.each, c.now, 3, c.yieldTo);
    expect(c.events.filter((e) => e !== "yield")).toEqual(items.map((i) => `item ${i}`));
    // Between two yields, no more work than the first chunk or the budget allows (at 0.5 ms an item: 6 after the first).
    const runs = c.events
      .join(",")
      .split("yield")
      .map((run) => run.split(",").filter(Boolean).length);
    expect(runs.length).toBeGreaterThan(10);
    for (const run of runs.slice(1)) expect(run).toBeLessThanOrEqual(6);
  });
});

describe("Deliveries", () => {
  it("lets a caller through at once when nothing is being handed out", async () => {
    const c = costly(0.5);
    const deliveries = new Deliveries(c.now, 3, c.yieldTo);
    expect(deliveries.busy).toBe(false);
    await deliveries.between();
    expect(c.events).toEqual([]);
  });

  it("hands out answers one after the other; a waiting caller goes before or between them, never inside one", async () => {
    const c = costly(0.5);
    const deliveries = new Deliveries(c.now, 3, c.yieldTo);
    const first = Array.from({ length: 40 }, (_, i) => i);
    const second = Array.from({ length: 40 }, (_, i) => 100 + i);
    const done = [deliveries.deliver(first, c.each), deliveries.deliver(second, c.each)];
    expect(deliveries.busy).toBe(true);
    const waited = deliveries.between().then(() => c.events.push("caller"));
    await Promise.all([...done, waited]);
    const handed = c.events.filter((e) => e !== "yield");
    expect(handed.filter((e) => e !== "caller")).toEqual([...first, ...second].map((i) => `item ${i}`));
    expect([0, first.length, first.length + second.length]).toContain(handed.indexOf("caller"));
    expect(deliveries.busy).toBe(false);
  });

  it("starts a big answer in a new task, a small one at once", async () => {
    const c = costly(0.01);
    const deliveries = new Deliveries(c.now, 3, c.yieldTo);
    await deliveries.deliver([1, 2, 3], c.each);
    expect(c.events).toEqual(["item 1", "item 2", "item 3"]);
    c.events.length = 0;
    await deliveries.deliver(
      Array.from({ length: 20 }, (_, i) => i),
      c.each,
    );
    expect(c.events[0]).toBe("yield");
    expect(c.events.filter((e) => e !== "yield")).toHaveLength(20);
  });

  it("lets callers that came in one task through as one group, in slices; stepDone() resolves once the whole group went", async () => {
    const c = costly(0.5);
    const deliveries = new Deliveries(c.now, 3, c.yieldTo);
    const done = deliveries.deliver(
      Array.from({ length: 40 }, (_, i) => i),
      c.each,
    );
    const callers = Array.from({ length: 30 }, (_, i) =>
      deliveries.between().then(() => {
        c.each(1000 + i);
        if (i === 0) void deliveries.stepDone().then(() => c.events.push("group released"));
      }),
    );
    await Promise.all([done, ...callers]);
    const handed = c.events.filter((e) => e !== "yield");
    expect(handed.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => `item ${1000 + i}`));
    expect(handed[30]).toBe("group released");
    expect(handed.slice(31)).toEqual(Array.from({ length: 40 }, (_, i) => `item ${i}`));
    // The group itself went in several slices.
    const groupEnd = c.events.indexOf("group released");
    expect(c.events.slice(1, groupEnd).filter((e) => e === "yield").length).toBeGreaterThan(1);
  });
});
