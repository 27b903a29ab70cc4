/**
 * The sandbox's knobs for the persistent-cache tests: history revised as a
 * methodology change would, and the last day with data moved on (the next day).
 */
import { SANDBOX_SUITE, series, useSandbox } from "../support/sandbox";

describe("sandbox revision", () => {
  // One sandbox for the three cases (each puts back what it changes, with reset()),
  // started on the day the setToday case moves on from; the revision cases read 2023.
  const sandbox = useSandbox({ ...SANDBOX_SUITE, today: "2025-06-15" });

  it("scales every series value by 1 + revision, old days included; reset() restores the start-up revision", async () => {
    const window = { startDate: "2023-01-01", endDate: "2023-01-10" };
    const before = await series(sandbox, "eth", "PRICE", window);
    sandbox.setRevision(1);
    const after = await series(sandbox, "eth", "PRICE", window);
    expect(after.map((p) => p.date)).toEqual(before.map((p) => p.date));
    expect(after.map((p) => p.val)).toEqual(before.map((p) => p.val * 2));
    sandbox.reset();
    expect(await series(sandbox, "eth", "PRICE", window)).toEqual(before);
  });

  it("setToday moves the last day with data; reset() restores the start-up day", async () => {
    const lastDay = async () => (await series(sandbox, "eth", "PRICE", { startDate: "2025-06-01" })).at(-1)?.date;
    expect(await lastDay()).toBe("2025-06-15");
    sandbox.setToday("2025-06-16");
    expect(await lastDay()).toBe("2025-06-16");
    sandbox.reset();
    expect(await lastDay()).toBe("2025-06-15");
    expect(() => sandbox.setToday("June 16")).toThrow(RangeError);
  });

  it("refuses a negative revision", async () => {
    expect(() => sandbox.setRevision(-1)).toThrow(RangeError);
  });

  it("reviseDay scales one day only, before the roll-up: the month holding it changes by that day's change", async () => {
    const daily = { startDate: "2023-03-01", endDate: "2023-03-31" };
    const monthly = { ...daily, granularity: "MONTH" };
    const before = await series(sandbox, "eth", "FEES", daily);
    const monthBefore = await series(sandbox, "eth", "FEES", monthly);
    sandbox.setReviseDay({ date: "2023-03-14", by: 0.5 });
    const after = await series(sandbox, "eth", "FEES", daily);
    expect(after.map((p) => p.date)).toEqual(before.map((p) => p.date));
    expect(after.map((p) => p.val)).toEqual(before.map((p) => (p.date === "2023-03-14" ? p.val * 1.5 : p.val)));
    const monthAfter = await series(sandbox, "eth", "FEES", monthly);
    const day = before.find((p) => p.date === "2023-03-14")!.val;
    expect(monthAfter).toHaveLength(1);
    expect(monthAfter[0]!.val).toBeCloseTo(monthBefore[0]!.val + day * 0.5, 6);
    sandbox.reset();
    expect(await series(sandbox, "eth", "FEES", daily)).toEqual(before);
    expect(() => sandbox.setReviseDay({ date: "March 14", by: 1 })).toThrow(RangeError);
  });
});
