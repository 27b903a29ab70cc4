import fc from "fast-check";
import { countPeriods, mergeParts, splitWindow } from "../../../src/api/series/windows";
import type { Granularity, SeriesResult } from "../../../src/core/domain";

const TODAY = "2025-06-15";

describe("splitWindow: chunk boundaries per granularity", () => {
  it.each<
    [string, Granularity | undefined, string | undefined, string | undefined, { start?: string; end?: string }[]]
  >([
    ["no start date: one request", "DAY", undefined, "2025-01-01", [{ end: "2025-01-01" }]],
    ["exactly 1,000 days", "DAY", "2020-01-01", "2022-09-26", [{ start: "2020-01-01", end: "2022-09-26" }]],
    [
      "1,001 days",
      "DAY",
      "2020-01-01",
      "2022-09-27",
      [
        { start: "2020-01-01", end: "2022-09-26" },
        { start: "2022-09-27", end: "2022-09-27" },
      ],
    ],
    [
      "granularity omitted counts as DAY",
      undefined,
      "2020-01-01",
      "2022-09-27",
      [
        { start: "2020-01-01", end: "2022-09-26" },
        { start: "2022-09-27", end: "2022-09-27" },
      ],
    ],
    [
      "2,001 days: three parts",
      "DAY",
      "2020-01-01",
      "2025-06-23",
      [
        { start: "2020-01-01", end: "2022-09-26" },
        { start: "2022-09-27", end: "2025-06-22" },
        { start: "2025-06-23", end: "2025-06-23" },
      ],
    ],
    ["999 weeks from a Monday", "WEEK", "2024-01-01", "2043-02-22", [{ start: "2024-01-01", end: "2043-02-22" }]],
    [
      "1,000 weeks touched from a Wednesday: cut at a Sunday",
      "WEEK",
      "2024-01-03",
      "2043-02-23",
      [
        { start: "2024-01-03", end: "2043-02-22" },
        { start: "2043-02-23", end: "2043-02-23" },
      ],
    ],
    ["1,000 months", "MONTH", "1950-01-01", "2033-04-30", [{ start: "1950-01-01", end: "2033-04-30" }]],
    [
      "1,001 months touched, mid-month ends: cut at a month end",
      "MONTH",
      "1950-01-15",
      "2033-05-10",
      [
        { start: "1950-01-15", end: "2033-04-30" },
        { start: "2033-05-01", end: "2033-05-10" },
      ],
    ],
    ["1,000 quarters", "QUARTER", "1800-01-01", "2049-12-31", [{ start: "1800-01-01", end: "2049-12-31" }]],
    [
      "1,001 quarters",
      "QUARTER",
      "1800-02-01",
      "2050-01-01",
      [
        { start: "1800-02-01", end: "2049-12-31" },
        { start: "2050-01-01", end: "2050-01-01" },
      ],
    ],
    ["1,000 years", "YEAR", "1000-06-01", "1999-12-31", [{ start: "1000-06-01", end: "1999-12-31" }]],
    [
      "1,001 years",
      "YEAR",
      "1000-06-01",
      "2000-03-01",
      [
        { start: "1000-06-01", end: "1999-12-31" },
        { start: "2000-01-01", end: "2000-03-01" },
      ],
    ],
    ["open end within 1,000 days of today: unchanged", "DAY", "2023-01-01", undefined, [{ start: "2023-01-01" }]],
    [
      "open end over 1,000 days: split up to today, last part left open",
      "DAY",
      "2020-01-01",
      undefined,
      [{ start: "2020-01-01", end: "2022-09-26" }, { start: "2022-09-27" }],
    ],
  ])("%s", (_name, granularity, start, end, expected) => {
    const window = { ...(start ? { start } : {}), ...(end ? { end } : {}) };
    expect(splitWindow(window, granularity, TODAY)).toEqual(expected);
  });

  it("honours a smaller cap", () => {
    expect(splitWindow({ start: "2024-01-01", end: "2024-01-10" }, "DAY", TODAY, 4)).toEqual([
      { start: "2024-01-01", end: "2024-01-04" },
      { start: "2024-01-05", end: "2024-01-08" },
      { start: "2024-01-09", end: "2024-01-10" },
    ]);
  });

  /** A period label computed differently from the client (string slicing, Date weekday), to check its arithmetic. */
  function label(iso: string, g: Granularity): string {
    const [y, m] = iso.split("-").map(Number) as [number, number];
    if (g === "DAY") return iso;
    if (g === "MONTH") return `${y}-${m}`;
    if (g === "QUARTER") return `${y}-Q${Math.ceil(m / 3)}`;
    if (g === "YEAR") return `${y}`;
    const t = Date.parse(`${iso}T00:00:00Z`);
    const monday = t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000;
    return new Date(monday).toISOString().slice(0, 10);
  }

  function days(start: string, end: string): string[] {
    const out: string[] = [];
    for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += 86_400_000) {
      out.push(new Date(t).toISOString().slice(0, 10));
    }
    return out;
  }

  it("covers the window exactly, in order, with parts of at most `max` periods that never share a period", () => {
    const day = fc.integer({ min: Date.UTC(2000, 0, 1) / 86_400_000, max: Date.UTC(2025, 0, 1) / 86_400_000 });
    const iso = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
    fc.assert(
      fc.property(
        day,
        fc.integer({ min: 0, max: 1200 }),
        fc.constantFrom<Granularity>("DAY", "WEEK", "MONTH", "QUARTER", "YEAR"),
        fc.integer({ min: 2, max: 40 }),
        (first, length, g, max) => {
          const [start, end] = [iso(first), iso(first + length)];
          const parts = splitWindow({ start, end }, g, TODAY, max);
          const covered = parts.flatMap((p) => days(p.start!, p.end!));
          expect(covered).toEqual(days(start, end));
          const seen = new Set<string>();
          for (const part of parts) {
            const labels = new Set(days(part.start!, part.end!).map((d) => label(d, g)));
            if (labels.size > (g === "WEEK" ? max - 1 : max))
              throw new Error(`part ${JSON.stringify(part)} holds ${labels.size} periods`);
            for (const l of labels) {
              if (seen.has(l)) throw new Error(`period ${l} split across parts`);
              seen.add(l);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("countPeriods", () => {
  it.each<[string, string, Granularity, number]>([
    ["2024-01-01", "2024-01-01", "DAY", 1],
    ["2024-01-01", "2024-12-31", "DAY", 366],
    ["2024-01-07", "2024-01-08", "WEEK", 2], // a Sunday and the Monday after
    ["2024-01-31", "2024-02-01", "MONTH", 2],
    ["2024-03-31", "2024-04-01", "QUARTER", 2],
    ["2023-12-31", "2024-01-01", "YEAR", 2],
    ["2024-01-02", "2024-01-01", "DAY", 0],
  ])("%s … %s at %s: %i", (start, end, g, expected) => {
    expect(countPeriods(start, end, g)).toBe(expected);
  });
});

describe("mergeParts", () => {
  const p = (...dates: string[]): SeriesResult => ({
    kind: "points",
    points: dates.map((date, i) => ({ date, val: i })),
  });

  it("joins in order without duplicating a boundary date", () => {
    const merged = mergeParts([p("2024-01-01", "2024-01-02"), p("2024-01-02", "2024-01-03")]);
    expect(merged.kind === "points" && merged.points.map((x) => x.date)).toEqual([
      "2024-01-01",
      "2024-01-02",
      "2024-01-03",
    ]);
  });

  it("keeps the points of the parts that have them when another part is a message", () => {
    const merged = mergeParts([{ kind: "message", message: "no data before 2018" }, p("2024-01-01")]);
    expect(merged).toEqual(p("2024-01-01"));
  });

  it("is a message when every part is one", () => {
    const message: SeriesResult = { kind: "message", message: "Metric X is not available for eth" };
    expect(mergeParts([message, message])).toEqual(message);
  });
});
