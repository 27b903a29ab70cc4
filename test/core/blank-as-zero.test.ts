/**
 * Blank cells that arrive as 0: older desktop builds of Excel pass 0 for an
 * empty cell in a range or a reference to a blank cell. Where 0 can never be
 * valid — symbols, metrics, dates, granularity, stat, flow type, option keys —
 * it is read as blank, so a formula over a half-filled range works as it does
 * in current Excel, which passes null.
 */
import {
  parseDate,
  parseDateWindow,
  parseGranularity,
  parseMetrics,
  parseSymbol,
  parseSymbols,
} from "../../src/core/arguments";
import { parseStat } from "../../src/core/agg-stat";
import { parseFlowTypes } from "../../src/core/flows-table";
import { parseOptions } from "../../src/core/options";
import { SERIES_OPTIONS } from "../../src/core/series-table";

const anchors = { today: "2024-05-10", anchor: "2024-05-10" };

describe("0 read as blank where it can never be valid", () => {
  it("symbols and metrics: a 0 in a range is an empty cell", () => {
    expect(parseSymbols([["eth"], [0], ["btc"], [0]])).toEqual(["eth", "btc"]);
    expect(parseMetrics([["PRICE", 0, "FEES"]])).toEqual(["PRICE", "FEES"]);
    // Same as current Excel's null for the same range.
    expect(parseSymbols([["eth"], [null], ["btc"], [null]])).toEqual(parseSymbols([["eth"], [0], ["btc"], [0]]));
  });

  it("a symbol that is a blank reference says none was given, not that 0 is a number", () => {
    expect(() => parseSymbol(0)).toThrow(/no symbol given/);
    expect(() => parseSymbols(1)).toThrow(/1 is a number, not a symbol/);
  });

  it("dates: 0 is an omitted date (1900-01-00, or 1904-01-01, never a market-data date)", () => {
    expect(parseDate(0, "as_of", anchors)).toBeUndefined();
    expect(parseDate(0, "as_of", { ...anchors, dateSystem: 1904 })).toBeUndefined();
    expect(parseDateWindow(0, 0, "2024-05-10")).toEqual({ start: undefined, end: undefined });
    expect(parseDateWindow("-5D", 0, "2024-05-10")).toEqual({ start: "2024-05-06", end: undefined });
  });

  it("granularity, stat and flow type: 0 takes the default", () => {
    expect(parseGranularity(0, ["PRICE"])).toBe("DAY");
    expect(parseGranularity(0, ["TOTAL_REVENUE"])).toBe(parseGranularity(null, ["TOTAL_REVENUE"]));
    expect(parseStat(0)).toBeUndefined();
    expect(parseFlowTypes(0)).toEqual(["netflow"]);
  });

  it("options: a 0 key (with nothing or 0 beside it) is an empty row; a 0 value still means FALSE", () => {
    expect(parseOptions(0, SERIES_OPTIONS)).toEqual(parseOptions(null, SERIES_OPTIONS));
    const range = [
      ["headers", 0],
      [0, 0],
      ["order", "desc"],
      [0, null],
    ];
    expect(parseOptions(range, SERIES_OPTIONS)).toMatchObject({ headers: false, order: "desc" });
    expect(parseOptions([["headers=false"], [0]], SERIES_OPTIONS)).toMatchObject({ headers: false });
    expect(parseOptions([["order", "desc", 0]], SERIES_OPTIONS)).toMatchObject({ order: "desc" });
    expect(() => parseOptions([[0, "desc"]], SERIES_OPTIONS)).toThrow(/key column holds a blank beside "desc"/);
  });
});
