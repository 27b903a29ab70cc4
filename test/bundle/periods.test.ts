/**
 * Honest periods at WEEK/MONTH/QUARTER/YEAR: rows dated as the service dates
 * them (the period's first day) or on the period's last day (period=end),
 * each holding the metric's aggregate of the period's days inside the window;
 * incomplete first and last periods kept and marked, or dropped.
 * Expectations are computed from the sandbox's raw daily readings.
 */
import { type LoadedBundle } from "../../harness/bundle";
import { rawPoints, type RawPoint, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

const world = useBundle({ quiet: true });
const { sandbox, bundle } = world;

function load(requirements?: Record<string, string>): LoadedBundle {
  return world.load(requirements ? { requirements } : {});
}

/** Daily readings grouped by calendar month (YYYY-MM), in date order. */
function byMonth(points: RawPoint[]): Map<string, RawPoint[]> {
  const months = new Map<string, RawPoint[]>();
  for (const p of points) months.set(p.date.slice(0, 7), [...(months.get(p.date.slice(0, 7)) ?? []), p]);
  return months;
}

const WINDOW = ["2024-01-15", "2024-03-10"] as const;

describe("MONTH rows", () => {
  it("are dated on the 1st and hold the month's days inside the window: the last price, the sum of fees", async () => {
    const table = (await bundle.call("SERIES", ["eth", "PRICE,FEES", ...WINDOW, "MONTH"])) as unknown[][];
    const prices = byMonth(await rawPoints(sandbox, "eth", "PRICE", { startDate: WINDOW[0], endDate: WINDOW[1] }));
    const fees = byMonth(await rawPoints(sandbox, "eth", "FEES", { startDate: WINDOW[0], endDate: WINDOW[1] }));
    expect(table[0]).toEqual(["Date (first and last periods partial)", "eth PRICE", "eth FEES"]);
    expect(table.slice(1).map((row) => row[0])).toEqual(["2024-01-01", "2024-02-01", "2024-03-01"].map(serial));
    [...prices.keys()].forEach((month, i) => {
      const days = prices.get(month)!;
      expect(table[i + 1][1]).toBe(days[days.length - 1].val);
      expect(table[i + 1][2]).toBeCloseTo(
        fees.get(month)!.reduce((sum, p) => sum + p.val, 0),
        4,
      );
    });
  });

  it("period=end dates them on the month's last day", async () => {
    const table = (await bundle.call("SERIES", ["eth", "PRICE", ...WINDOW, "MONTH", "period=end"])) as unknown[][];
    expect(table.slice(1).map((row) => row[0])).toEqual(["2024-01-31", "2024-02-29", "2024-03-31"].map(serial));
    expect(table[0][0]).toBe("Date (first and last periods partial)");
  });

  it("partial=drop keeps whole months only; a window of whole months has nothing to mark", async () => {
    const dropped = (await bundle.call("SERIES", ["eth", "PRICE", ...WINDOW, "M", "partial=drop"])) as unknown[][];
    expect(dropped.map((row) => row[0])).toEqual(["Date", serial("2024-02-01")]);
    const whole = (await bundle.call("SERIES", ["eth", "PRICE", "2024-01-01", "2024-03-31", "M"])) as unknown[][];
    expect(whole[0][0]).toBe("Date");
    expect(whole).toHaveLength(4);
  });

  it("without a date column, each calendar series' header carries the note", async () => {
    const table = (await bundle.call("SERIES", [
      "eth,sol",
      "TVL",
      "2024-01-01",
      "2024-03-10",
      "M",
      "dates=false",
    ])) as unknown[][];
    expect(table[0]).toEqual(["eth TVL (last period partial)", "sol TVL (last period partial)"]);
  });
});

describe("WEEK rows", () => {
  it("are dated on Mondays (or Sundays with period=end) and sum the week's days inside the window", async () => {
    // 2024-03-13 is a Wednesday, 2024-03-24 a Sunday: the first week is partial, the last is whole.
    const table = (await bundle.call("SERIES", [
      "sol",
      "FEES",
      "2024-03-13",
      "2024-03-24",
      "WEEK",
      "period=end",
    ])) as unknown[][];
    const fees = await rawPoints(sandbox, "sol", "FEES", { startDate: "2024-03-13", endDate: "2024-03-24" });
    const sum = (from: string, to: string) =>
      fees.filter((p) => p.date >= from && p.date <= to).reduce((total, p) => total + p.val, 0);
    expect(table[0]).toEqual(["Date (first period partial)", "sol FEES"]);
    expect(table[1][0]).toBe(serial("2024-03-17"));
    expect(table[1][1]).toBeCloseTo(sum("2024-03-13", "2024-03-17"), 4);
    expect(table[2][0]).toBe(serial("2024-03-24"));
    expect(table[2][1]).toBeCloseTo(sum("2024-03-18", "2024-03-24"), 4);
  });
});

describe("financials", () => {
  it("stay on their fiscal period ends whatever period says, and are never partial", async () => {
    const start = (await bundle.call("SERIES", [
      "eq-aapl",
      "TOTAL_REVENUE",
      "2023-02-15",
      "2023-11-15",
    ])) as unknown[][];
    const end = (await bundle.call("SERIES", [
      "eq-aapl",
      "TOTAL_REVENUE",
      "2023-02-15",
      "2023-11-15",
      null,
      "period=end; partial=drop",
    ])) as unknown[][];
    const raw = await rawPoints(sandbox, "eq-aapl", "TOTAL_REVENUE", {
      startDate: "2023-02-15",
      endDate: "2023-11-15",
      granularity: "QUARTER",
    });
    expect(start).toEqual([["Date", "eq-aapl TOTAL_REVENUE"], ...raw.map((p) => [serial(p.date), p.val])]);
    expect(end).toEqual(start);
  });
});

describe("with data types", () => {
  it("a partial period's date shows as partial", async () => {
    const table = (await load({ CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" }).call("SERIES", [
      "eth",
      "PRICE",
      ...WINDOW,
      "MONTH",
    ])) as { numberFormat: string }[][];
    expect(table.slice(1).map((row) => row[0].numberFormat)).toEqual([
      'yyyy-mm-dd" (partial)"',
      "yyyy-mm-dd",
      'yyyy-mm-dd" (partial)"',
    ]);
  });
});

describe("MD.SUPPLY", () => {
  it("marks its partial periods too", async () => {
    const table = (await bundle.call("SUPPLY", ["usdc", "2024-01-01", "2024-03-10", "MONTH"])) as unknown[][];
    expect(table[0][0]).toBe("Date (last period partial)");
    expect(table.slice(1).map((row) => row[0])).toEqual(["2024-01-01", "2024-02-01", "2024-03-01"].map(serial));
  });
});
