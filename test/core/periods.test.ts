import {
  datedLabel,
  partialLabels,
  partialNote,
  periodEndOf,
  periodStartOf,
  reshapePeriods,
} from "../../src/core/periods";

describe("calendar periods", () => {
  // 2024-03-13 is a Wednesday; 2024 is a leap year.
  it.each([
    ["WEEK", "2024-03-13", "2024-03-11", "2024-03-17"],
    ["WEEK", "2024-03-11", "2024-03-11", "2024-03-17"],
    ["WEEK", "2024-03-17", "2024-03-11", "2024-03-17"],
    ["WEEK", "2024-12-31", "2024-12-30", "2025-01-05"],
    ["MONTH", "2024-02-10", "2024-02-01", "2024-02-29"],
    ["MONTH", "2023-02-10", "2023-02-01", "2023-02-28"],
    ["QUARTER", "2024-05-20", "2024-04-01", "2024-06-30"],
    ["QUARTER", "2024-12-31", "2024-10-01", "2024-12-31"],
    ["YEAR", "2024-07-04", "2024-01-01", "2024-12-31"],
    ["DAY", "2024-07-04", "2024-07-04", "2024-07-04"],
  ] as const)("%s of %s runs %s … %s", (granularity, day, first, last) => {
    expect(periodStartOf(day, granularity)).toBe(first);
    expect(periodEndOf(day, granularity)).toBe(last);
  });

  it.each([
    ["MONTH", "2024-01-15", "2024-03-10", { first: "2024-01-01", last: "2024-03-01" }],
    ["MONTH", "2024-01-01", "2024-03-31", { first: null, last: null }],
    ["MONTH", undefined, "2024-03-10", { first: null, last: "2024-03-01" }],
    ["WEEK", "2024-03-11", "2024-03-24", { first: null, last: null }],
    ["WEEK", "2024-03-12", "2024-03-24", { first: "2024-03-11", last: null }],
    ["QUARTER", "2024-01-01", "2024-05-10", { first: null, last: "2024-04-01" }],
    ["YEAR", "2023-06-30", "2024-12-31", { first: "2023-01-01", last: null }],
    ["DAY", "2024-01-15", "2024-03-10", { first: null, last: null }],
  ] as const)("%s from %s to %s: partial periods %j", (granularity, start, end, expected) => {
    expect(partialLabels(start, end, granularity)).toEqual(expected);
  });

  const months = [
    { date: "2024-01-01", val: 1 },
    { date: "2024-02-01", val: 2 },
    { date: "2024-03-01", val: 3 },
  ];
  const labels = { first: "2024-01-01", last: "2024-03-01" };

  it("dates rows on the period's start (as the service does) or end, and keeps or drops partial ones", () => {
    expect(reshapePeriods(months, "MONTH", "start", "keep", labels)).toBe(months);
    expect(reshapePeriods(months, "MONTH", "end", "keep", labels)).toEqual([
      { date: "2024-01-31", val: 1 },
      { date: "2024-02-29", val: 2 },
      { date: "2024-03-31", val: 3 },
    ]);
    expect(reshapePeriods(months, "MONTH", "start", "drop", labels)).toEqual([{ date: "2024-02-01", val: 2 }]);
    expect(reshapePeriods(months, "MONTH", "end", "drop", { first: null, last: "2024-03-01" })).toEqual([
      { date: "2024-01-31", val: 1 },
      { date: "2024-02-29", val: 2 },
    ]);
    expect(datedLabel("2024-03-01", "MONTH", "end")).toBe("2024-03-31");
    expect(datedLabel("2024-03-01", "MONTH", "start")).toBe("2024-03-01");
  });

  it.each([
    [true, true, " (first and last periods partial)"],
    [true, false, " (first period partial)"],
    [false, true, " (last period partial)"],
    [false, false, ""],
  ])("note for first=%s last=%s: %j", (first, last, note) => {
    expect(partialNote(first, last)).toBe(note);
  });
});
