import { historyStart, transformColumn, transformNote, type TransformOptions } from "../../src/core/series-transforms";

const NONE: TransformOptions = { transform: "none", rolling: null, rolling_stat: "avg" };
const opts = (extra: Partial<TransformOptions>): TransformOptions => ({ ...NONE, ...extra });
const DATES = ["2023-01-02", "2023-01-03", "2024-01-01", "2024-01-02", "2024-01-03"];
const VALUES = Float64Array.from([10, 20, 11, NaN, 33]);

const list = (values: Float64Array) => Array.from(values, (v) => (Number.isNaN(v) ? null : Math.round(v * 1e9) / 1e9));

describe("MD.SERIES transforms on one column", () => {
  it.each<[string, TransformOptions, (number | null)[]]>([
    ["none leaves it", NONE, [10, 20, 11, null, 33]],
    ["pct: on the previous value, a missing row skipped", opts({ transform: "pct" }), [null, 1, -0.45, null, 2]],
    ["diff", opts({ transform: "diff" }), [null, 10, -9, null, 22]],
    [
      "rebase: 100 at the window's first row, history on the same base",
      opts({ transform: "rebase" }),
      [90.909090909, 181.818181818, 100, null, 300],
    ],
    ["cumsum: from the window's first row", opts({ transform: "cumsum" }), [null, null, 11, null, 44]],
    [
      "yoy: on the last value on or before a year earlier (none for 2024-01-01)",
      opts({ transform: "yoy" }),
      [null, null, null, null, 0.65],
    ],
    ["rolling 2 avg", opts({ rolling: 2 }), [null, 15, 15.5, null, 22]],
    ["rolling 2 sum of diff", opts({ transform: "diff", rolling: 2, rolling_stat: "sum" }), [null, null, 1, null, 13]],
  ])("%s", (_what, options, expected) => {
    expect(list(transformColumn(VALUES, DATES, 2, options))).toEqual(expected);
  });

  it("a change on 0 is blank, not infinite", () => {
    expect(
      list(transformColumn(Float64Array.from([0, 5]), ["2024-01-01", "2024-01-02"], 0, opts({ transform: "pct" }))),
    ).toEqual([null, null]);
  });

  it.each<[TransformOptions, string]>([
    [NONE, ""],
    [opts({ transform: "yoy" }), " (yoy %)"],
    [opts({ transform: "rebase" }), " (rebased to 100)"],
    [opts({ transform: "pct", rolling: 7 }), " (pct %, rolling 7 avg)"],
  ])("headers say what was applied: %j", (options, note) => {
    expect(transformNote(options)).toBe(note);
  });

  it.each<[string, string, TransformOptions, string]>([
    ["nothing to fetch", "DAY", NONE, "2024-03-15"],
    ["pct at DAY: a week and a day before", "DAY", opts({ transform: "pct" }), "2024-03-07"],
    ["pct at MONTH: the first month whole, and two before", "MONTH", opts({ transform: "pct" }), "2024-01-01"],
    ["yoy at MONTH: a year and a month", "MONTH", opts({ transform: "yoy" }), "2023-02-01"],
    ["rolling 20 at DAY: 27 days for 19 weekday rows, and a week", "DAY", opts({ rolling: 20 }), "2024-02-10"],
  ])("history: %s", (_what, granularity, options, from) => {
    expect(historyStart("2024-03-15", granularity as "DAY", options)).toBe(from);
  });
});
