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
});
