/** The pure rule of the cheap recheck (src/api/store/coarse-recheck.ts). */
import {
  agree,
  agreeingPeriods,
  coarseAggregation,
  coarseGranularity,
  worthCoarseRecheck,
  worthCoarseRecheckIn,
} from "../../../src/api/store/coarse-recheck";
import { addDays } from "../../../src/core/calendar";

function days(start: string, end: string, val: (date: string) => number) {
  const out: { date: string; val: number }[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) out.push({ date: d, val: val(d) });
  return out;
}

describe("coarse recheck rule", () => {
  it("trusts SUM and AVERAGE only; LAST and unknown types are rechecked day by day", () => {
    expect(coarseAggregation("SUM")).toBe("SUM");
    expect(coarseAggregation(" average ")).toBe("AVERAGE");
    expect(coarseAggregation("LAST")).toBeNull();
    expect(coarseAggregation("")).toBeNull();
    expect(coarseAggregation(undefined)).toBeNull();
  });

  it("picks the finest of MONTH, QUARTER, YEAR with at most 24 periods; stretches under 31 days are fetched daily", () => {
    expect(coarseGranularity({ start: "2024-01-01", end: "2024-12-31" })).toBe("MONTH");
    expect(coarseGranularity({ start: "2021-01-01", end: "2023-12-31" })).toBe("QUARTER");
    expect(coarseGranularity({ start: "2014-01-01", end: "2023-12-31" })).toBe("YEAR");
    expect(worthCoarseRecheck({ start: "2024-01-01", end: "2024-01-30" })).toBe(false);
    expect(worthCoarseRecheck({ start: "2024-01-01", end: "2024-01-31" })).toBe(true);
  });

  it("compares partial first and last periods over the stretch's own days", () => {
    const stretch = { start: "2024-01-15", end: "2024-03-10" };
    const stored = days(stretch.start, stretch.end, (d) => Number(d.slice(8)));
    const sum = (from: string, to: string) =>
      stored.filter((p) => p.date >= from && p.date <= to).reduce((s, p) => s + p.val, 0);
    const answer = [
      { date: "2024-01-01", val: sum("2024-01-15", "2024-01-31") },
      { date: "2024-02-01", val: sum("2024-02-01", "2024-02-29") + 1 }, // one day of February differs
      { date: "2024-03-01", val: sum("2024-03-01", "2024-03-10") * (1 + 1e-12) },
    ];
    expect(agreeingPeriods(stretch, "MONTH", "SUM", stored, answer)).toEqual([
      { start: "2024-01-15", end: "2024-01-31" },
      { start: "2024-03-01", end: "2024-03-10" },
    ]);
  });

  it("AVERAGE divides by the points held; a period missing on one side, or sent twice, disagrees", () => {
    const stretch = { start: "2024-01-01", end: "2024-03-31" };
    const stored = days("2024-01-01", "2024-02-29", () => 2);
    const answer = [
      { date: "2024-01-01", val: 2 },
      { date: "2024-02-01", val: 2 },
      { date: "2024-02-01", val: 2 },
      { date: "2024-03-01", val: 2 },
    ];
    expect(agreeingPeriods(stretch, "MONTH", "AVERAGE", stored, answer)).toEqual([
      { start: "2024-01-01", end: "2024-01-31" },
    ]);
    expect(agreeingPeriods(stretch, "MONTH", "AVERAGE", stored, answer.slice(0, 2))).toEqual([
      { start: "2024-01-01", end: "2024-01-31" },
      { start: "2024-02-01", end: "2024-02-29" },
      { start: "2024-03-01", end: "2024-03-31" }, // no point on either side
    ]);
  });

  it("agrees within a relative 1e-9", () => {
    expect(agree(1e6, 1e6 * (1 + 5e-10))).toBe(true);
    expect(agree(1e6, 1e6 * (1 + 2e-9))).toBe(false);
    expect(agree(0, 0)).toBe(true);
    expect(agree(0, 1e-300)).toBe(false);
  });
});

describe("worthCoarseRecheckIn", () => {
  const window = { start: "2024-01-01", end: "2024-01-30" };
  it("takes a 30-day window's settled head of 7 days or more coarsely; a shorter head, or days off the head, daily", () => {
    expect(worthCoarseRecheckIn({ start: "2024-01-01", end: "2024-01-26" }, window)).toBe(true);
    expect(worthCoarseRecheckIn({ start: "2024-01-01", end: "2024-01-07" }, window)).toBe(true);
    expect(worthCoarseRecheckIn({ start: "2024-01-01", end: "2024-01-06" }, window)).toBe(false);
    expect(worthCoarseRecheckIn({ start: "2024-01-10", end: "2024-01-26" }, window)).toBe(false);
    expect(
      worthCoarseRecheckIn({ start: "2024-01-01", end: "2024-02-15" }, { start: "2023-12-01", end: "2024-02-20" }),
    ).toBe(true);
  });
});
