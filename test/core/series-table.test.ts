import type { DataPoint, SeriesResult } from "../../src/core/domain";
import { addDays } from "../../src/core/calendar";
import { type CellValue, errorCell } from "../../src/core/cell";
import { NoDataError, ResultTooLargeError } from "../../src/core/errors";
import { isoToSerial } from "../../src/core/excel-date";
import { parseOptions } from "../../src/core/options";
import { SERIES_OPTIONS, type SeriesColumn, seriesHeader, shapeSeriesTable } from "../../src/core/series-table";

const S = isoToSerial;
const pts = (...pairs: [string, number][]): SeriesResult => ({
  kind: "points",
  points: pairs.map(([date, val]) => ({ date, val })),
});

// 2024-01-05 is a Friday, 06/07 the weekend, 08 a Monday.
const ETH = {
  header: seriesHeader("eth", "PRICE"),
  result: pts(["2024-01-05", 1], ["2024-01-06", 2], ["2024-01-08", 3]),
};
const BTC = {
  header: seriesHeader("btc", "PRICE"),
  result: pts(["2024-01-05", 10], ["2024-01-07", 20], ["2024-01-08", 30]),
};
const SOL: SeriesColumn = {
  header: "sol PRICE",
  result: { kind: "message", message: "Metric PRICE is not supported for sol." },
};
const SOL_NA = errorCell("#N/A", "sol PRICE: Metric PRICE is not supported for sol.");
const ETH_NA = errorCell("#N/A", "eth PRICE has no value on this date.");
const BTC_NA = errorCell("#N/A", "btc PRICE has no value on this date.");

function shape(columns: SeriesColumn[], options: string | null = null): CellValue[][] {
  return shapeSeriesTable(columns, parseOptions(options, SERIES_OPTIONS), "from 2024-01-01 to 2024-01-31");
}

describe("series table", () => {
  it.each<[string | null, CellValue[][]]>([
    [
      null,
      [
        ["Date", "eth PRICE", "btc PRICE", "sol PRICE"],
        [S("2024-01-05"), 1, 10, SOL_NA],
        [S("2024-01-06"), 2, "", SOL_NA],
        [S("2024-01-07"), "", 20, SOL_NA],
        [S("2024-01-08"), 3, 30, SOL_NA],
      ],
    ],
    [
      "fill=prev",
      [
        ["Date", "eth PRICE", "btc PRICE", "sol PRICE"],
        [S("2024-01-05"), 1, 10, SOL_NA],
        [S("2024-01-06"), 2, 10, SOL_NA],
        [S("2024-01-07"), 2, 20, SOL_NA],
        [S("2024-01-08"), 3, 30, SOL_NA],
      ],
    ],
    [
      "fill=na",
      [
        ["Date", "eth PRICE", "btc PRICE", "sol PRICE"],
        [S("2024-01-05"), 1, 10, SOL_NA],
        [S("2024-01-06"), 2, BTC_NA, SOL_NA],
        [S("2024-01-07"), ETH_NA, 20, SOL_NA],
        [S("2024-01-08"), 3, 30, SOL_NA],
      ],
    ],
    [
      "days=weekdays",
      [
        ["Date", "eth PRICE", "btc PRICE", "sol PRICE"],
        [S("2024-01-05"), 1, 10, SOL_NA],
        [S("2024-01-08"), 3, 30, SOL_NA],
      ],
    ],
    [
      "order=desc; last=3",
      [
        ["Date", "eth PRICE", "btc PRICE", "sol PRICE"],
        [S("2024-01-08"), 3, 30, SOL_NA],
        [S("2024-01-07"), "", 20, SOL_NA],
        [S("2024-01-06"), 2, "", SOL_NA],
      ],
    ],
    [
      "headers=false; dates=false; last=2",
      [
        ["", 20, SOL_NA],
        [3, 30, SOL_NA],
      ],
    ],
    [
      "transpose=true; last=2",
      [
        ["Date", S("2024-01-07"), S("2024-01-08")],
        ["eth PRICE", "", 3],
        ["btc PRICE", 20, 30],
        ["sol PRICE", SOL_NA, SOL_NA],
      ],
    ],
    ["transpose=true; headers=false; last=1; fill=prev", [[S("2024-01-08")], [3], [30], [SOL_NA]]],
  ])("options %j", (options, expected) => {
    expect(shape([ETH, BTC, SOL], options)).toEqual(expected);
  });

  it("fill=prev carries a weekend reading into Monday when weekdays are shown", () => {
    const eth = { header: "eth PRICE", result: pts(["2024-01-05", 1], ["2024-01-06", 2]) };
    const btc = { header: "btc PRICE", result: pts(["2024-01-05", 10], ["2024-01-08", 30]) };
    expect(shape([eth, btc], "days=weekdays; fill=prev")).toEqual([
      ["Date", "eth PRICE", "btc PRICE"],
      [S("2024-01-05"), 1, 10],
      [S("2024-01-08"), 2, 30],
    ]);
  });

  it("keeps columns in the order given: symbols outer, metrics inner", () => {
    const columns = ["eth", "btc"].flatMap((symbol) =>
      ["PRICE", "FEES"].map((metric) => ({ header: seriesHeader(symbol, metric), result: pts(["2024-01-05", 1]) })),
    );
    expect(shape(columns)[0]).toEqual(["Date", "eth PRICE", "eth FEES", "btc PRICE", "btc FEES"]);
  });

  it("sorts an out-of-order series and keeps the last reading of a repeated date", () => {
    const messy = { header: "eth PRICE", result: pts(["2024-01-08", 3], ["2024-01-05", 1], ["2024-01-08", 4]) };
    expect(shape([messy])).toEqual([
      ["Date", "eth PRICE"],
      [S("2024-01-05"), 1],
      [S("2024-01-08"), 4],
    ]);
  });

  it("an empty series is a blank column beside the others", () => {
    const empty = { header: "eq-aapl FCF_YIELD", result: pts() };
    expect(shape([ETH, empty]).map((row) => row[2])).toEqual(["eq-aapl FCF_YIELD", "", "", ""]);
  });

  it.each<[SeriesColumn[], string | null, string]>([
    [[{ header: "eth PRICE", result: pts() }], null, "No data for eth PRICE from 2024-01-01 to 2024-01-31."],
    [[SOL], null, "sol PRICE: Metric PRICE is not supported for sol."],
    [
      [{ header: "eth PRICE", result: pts() }, SOL],
      null,
      "No data for eth PRICE, sol PRICE from 2024-01-01 to 2024-01-31. sol PRICE: Metric PRICE is not supported for sol.",
    ],
    [
      [{ header: "eth PRICE", result: pts(["2024-01-06", 1]) }],
      "days=weekdays",
      "No weekday data for eth PRICE from 2024-01-01 to 2024-01-31.",
    ],
  ])("no rows → NoDataError (%#)", (columns, options, message) => {
    expect(() => shape(columns, options)).toThrow(new NoDataError(message));
  });

  it("refuses a result over Excel's 5 MB before building it", () => {
    const days: DataPoint[] = Array.from({ length: 1000 }, (_, i) => ({ date: addDays("2020-01-01", i), val: i }));
    const columns = Array.from({ length: 3000 }, (_, i) => ({
      header: `s${i} PRICE`,
      result: { kind: "points", points: days } as SeriesResult,
    }));
    expect(() => shape(columns)).toThrow(ResultTooLargeError);
    expect(() => shape(columns)).toThrow(
      /over Excel's 5 MB limit for one formula\. Use a coarser granularity \(WEEK or MONTH\), a shorter window/,
    );
  });

  it("refuses a result whose cells add up over 5 MB", () => {
    const days: DataPoint[] = Array.from({ length: 1000 }, (_, i) => ({
      date: addDays("2020-01-01", i),
      val: Math.PI * (i + 1),
    }));
    const columns = Array.from({ length: 300 }, (_, i) => ({
      header: `s${i} PRICE`,
      result: { kind: "points", points: days } as SeriesResult,
    }));
    expect(() => shape(columns)).toThrow(/about [0-9.]+ MB \(1,001 rows × 301 columns\)/);
    expect(shape(columns, "last=100")).toHaveLength(101);
  });
});
