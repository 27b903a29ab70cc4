import {
  assertFinancialGranularity,
  isOmitted,
  parseDate,
  parseDateWindow,
  parseGranularity,
  parseMetric,
  parseMetrics,
  parseSymbol,
  parseSymbols,
} from "../../src/core/arguments";
import { parseAggWindow, windowStart } from "../../src/core/agg-window";
import { ArgumentError } from "../../src/core/errors";
import { isoToSerial } from "../../src/core/excel-date";

const TODAY = "2024-05-10";

function argumentError(fn: () => unknown): ArgumentError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ArgumentError) return error;
    throw error;
  }
  throw new Error("expected an ArgumentError");
}

describe("isOmitted", () => {
  it.each([
    [null, true],
    [undefined, true],
    ["", true],
    ["   ", true],
    [[[null]], true],
    [
      [
        ["", null],
        [" ", null],
      ],
      true,
    ],
    [0, false],
    [false, false],
    ["x", false],
    [[["x"]], false],
  ])("%j → %s", (value, expected) => {
    expect(isOmitted(value)).toBe(expected);
  });
});

describe("symbols", () => {
  it.each([
    ["ETH", ["eth"]],
    [" EQ-AAPL ", ["eq-aapl"]],
    ["eth, BTC ,sol", ["eth", "btc", "sol"]],
    ["eth,,btc,", ["eth", "btc"]],
    ["eth,ETH,Eth", ["eth"]],
    [
      [["ETH"], ["btc"], [null], [""], ["eth"]],
      ["eth", "btc"],
    ],
    [
      [
        ["eth", "btc"],
        ["sol, avax", null],
      ],
      ["eth", "btc", "sol", "avax"],
    ],
    [[["usdc-ethereum"]], ["usdc-ethereum"]],
    ["stablecoins-usdc-ethereum", ["stablecoins-usdc-ethereum"]],
    ["eq-brk.b", ["eq-brk.b"]],
  ])("%j → %j", (value, expected) => {
    expect(parseSymbols(value)).toEqual(expected);
  });

  it.each([
    [null, /symbols: no symbol given\. Use a symbol such as eth/],
    ["", /symbols: no symbol given/],
    [" , ,", /symbols: no symbol given/],
    [[[null], [""]], /symbols: no symbol given/],
    [42, /symbols: 42 is a number, not a symbol\. Use a symbol/],
    [[["eth"], [3]], /symbols: 3 is a number, not a symbol/],
    [true, /symbols: TRUE is a TRUE\/FALSE value, not a symbol/],
    ["eth btc", /symbols: "eth btc" is not a symbol name .*separate names with commas/],
    ["eth;btc", /symbols: "eth;btc" is not a symbol name/],
    ["e/th", /symbols: "e\/th" is not a symbol name/],
  ])("refuses %j", (value, message) => {
    const error = argumentError(() => parseSymbols(value));
    expect(error.argument).toBe("symbols");
    expect(error.message).toMatch(message);
  });

  it("a single symbol refuses a list, naming it", () => {
    expect(parseSymbol(" Eth ")).toBe("eth");
    expect(() => parseSymbol("eth,btc")).toThrow("symbol: takes one symbol, got 2 (eth, btc).");
    expect(() => parseSymbol(null, "source")).toThrow(/^source: no symbol given/);
  });
});

describe("metrics", () => {
  it.each([
    ["price", ["PRICE"]],
    ["price, fees,PRICE", ["PRICE", "FEES"]],
    [[["total_revenue", "net_income"]], ["TOTAL_REVENUE", "NET_INCOME"]],
    ["l30_fees", ["L30_FEES"]],
  ])("%j → %j", (value, expected) => {
    expect(parseMetrics(value)).toEqual(expected);
  });

  it.each([
    [null, /metrics: no metric given\. Use a metric name such as PRICE/],
    [7, /metrics: 7 is a number, not a metric/],
    ["PRICE-X", /metrics: "PRICE-X" is not a metric name/],
    ["30D", /metrics: "30D" is not a metric name/],
  ])("refuses %j", (value, message) => {
    expect(() => parseMetrics(value)).toThrow(message);
  });

  it("a single metric refuses a list", () => {
    expect(parseMetric("fees")).toBe("FEES");
    expect(() => parseMetric("fees,price")).toThrow("metric: takes one metric, got 2 (FEES, PRICE).");
  });
});

describe("dates", () => {
  const asEnd = { today: TODAY, anchor: TODAY };
  it.each([
    [null, undefined],
    ["", undefined],
    [isoToSerial("2024-01-31"), "2024-01-31"],
    [isoToSerial("2024-01-31") + 0.75, "2024-01-31"],
    ["2024-01-31", "2024-01-31"],
    [" 2024-01-31 ", "2024-01-31"],
    ["TODAY", TODAY],
    ["today", TODAY],
    ["-30D", "2024-04-10"],
    ["-30d", "2024-04-10"],
    ["-12W", "2024-02-16"],
    ["-6M", "2023-11-10"],
    ["-2Q", "2023-11-10"],
    ["-1Y", "2023-05-10"],
    ["-0D", TODAY],
  ])("end %j → %s", (value, expected) => {
    expect(parseDate(value, "end", asEnd)).toBe(expected);
  });

  it("clamps month arithmetic to the month's end", () => {
    expect(parseDate("-6M", "start", { today: TODAY, anchor: "2024-08-31" })).toBe("2024-02-29");
    expect(parseDate("-1Y", "start", { today: TODAY, anchor: "2024-02-29" })).toBe("2023-02-28");
  });

  it.each([
    [
      "2024-13-01",
      'start: "2024-13-01" is not a date. Use an Excel date, YYYY-MM-DD, TODAY, or -30D/-12W/-6M/-2Q/-1Y.',
    ],
    ["2023-02-29", 'start: "2023-02-29" is not a date.'],
    ["1900-02-29", 'start: "1900-02-29" is not a date.'],
    ["01/31/2024", 'start: "01/31/2024" is not a date.'],
    ["yesterday", 'start: "yesterday" is not a date.'],
    ["+30D", 'start: "+30D" is not a date.'],
    ["30D", 'start: "30D" is not a date.'],
    ["-30X", 'start: "-30X" is not a date.'],
    [true, "start: TRUE is not a date."],
    [60, "start: 60 is 1900-02-29, a day that does not exist (Excel's 1900 leap-year quirk). Use an Excel date"],
    // (0 is a blank cell from an older Excel, read as an omitted date: test/core/blank-as-zero.test.ts.)
    [0.5, "start: 0.5 is before 1 (1900-01-01), the first Excel date. Use"],
    [-5, "start: -5 is before 1"],
    [NaN, "start: NaN is not an Excel date"],
    [3e6, "start: 3000000 is after 2958465 (9999-12-31), the last Excel date"],
    [
      "1899-12-31",
      'start: "1899-12-31" is outside Excel\'s dates: 1899-12-31 is before 1900-01-01, the first Excel date.',
    ],
    ["-99999D", 'start: "-99999D" is outside Excel\'s dates: 1750-'],
  ])("refuses %j", (value, message) => {
    const error = argumentError(() => parseDate(value, "start", { today: TODAY, anchor: TODAY }));
    expect(error.argument).toBe("start");
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.message).toMatch(/Use an Excel date, YYYY-MM-DD, TODAY, or -30D\/-12W\/-6M\/-2Q\/-1Y\.$/);
  });

  it.each([
    [null, null, {}],
    // A relative start covers N whole periods ending on the end date, both included.
    ["-30D", null, { start: "2024-04-11" }],
    ["-1D", null, { start: TODAY }],
    ["-12W", "2024-03-31", { start: "2024-01-08", end: "2024-03-31" }],
    ["-1M", "2024-03-31", { start: "2024-03-01", end: "2024-03-31" }],
    ["-6M", "2023-08-31", { start: "2023-03-01", end: "2023-08-31" }],
    ["-2Q", "2023-12-31", { start: "2023-07-01", end: "2023-12-31" }],
    // An end after today is today (docs/functions.md, "Dates"): 9999-12-31 too, Excel's last date.
    ["-30D", "2030-01-01", { start: "2024-04-11", end: TODAY }],
    ["2024-05-01", 2958465, { start: "2024-05-01", end: TODAY }],
    ["-1Y", "9999-12-31", { start: "2023-05-11", end: TODAY }],
    ["-1Y", "2024-02-29", { start: "2023-03-01", end: "2024-02-29" }],
    ["-1M", "-1M", { start: "2024-03-11", end: "2024-04-10" }],
    ["2024-01-01", "TODAY", { start: "2024-01-01", end: TODAY }],
    ["TODAY", null, { start: TODAY }],
    [null, "-7D", { end: "2024-05-03" }],
  ])("window start=%j end=%j: the start counts back from the end", (start, end, expected) => {
    expect(parseDateWindow(start, end, TODAY)).toEqual({ start: undefined, end: undefined, ...expected });
  });

  it.each([
    ["2024-05-11", null],
    [2958465, null],
    ["9999-12-31", "9999-12-31"],
  ])("a start after today is refused, naming today (start=%j end=%j)", (start, end) => {
    const error = argumentError(() => parseDateWindow(start, end, TODAY));
    expect(error.argument).toBe("start");
    expect(error.message).toMatch(/is after today \(2024-05-10\): no data is dated after today\.$/);
  });

  it("a relative start covers the same days as MD.AGG's window of the same text", () => {
    for (const text of ["-1D", "-30D", "-12W", "-6M", "-2Q", "-1Y", "-5Y"]) {
      for (const end of ["2024-03-31", "2024-02-29", "2023-12-31", "2024-05-10"]) {
        expect(parseDateWindow(text, end, TODAY).start).toBe(windowStart(parseAggWindow(text), end));
      }
    }
  });

  it("refuses a relative start of zero periods", () => {
    expect(() => parseDateWindow("-0D", null, TODAY)).toThrow(
      'start: "-0D" covers no day: a relative start counts whole periods ending on the end date, so use -1D or more.',
    );
  });

  it("refuses a start after the end", () => {
    expect(() => parseDateWindow("2024-05-01", "2024-04-01", TODAY)).toThrow(
      "start: 2024-05-01 is after the end date 2024-04-01. Give a start on or before the end.",
    );
    expect(() => parseDateWindow("TODAY", "-1D", TODAY)).toThrow(/start: 2024-05-10 is after the end date 2024-05-09/);
  });
});

describe("granularity", () => {
  it.each([
    ["day", ["PRICE"], "DAY"],
    ["D", ["PRICE"], "DAY"],
    ["w", ["PRICE"], "WEEK"],
    [" Month ", ["PRICE"], "MONTH"],
    ["q", ["PRICE"], "QUARTER"],
    ["YEAR", ["PRICE"], "YEAR"],
    ["y", ["PRICE"], "YEAR"],
    ["weekly", ["PRICE"], "WEEK"],
    [null, ["PRICE"], "DAY"],
    ["", ["PRICE"], "DAY"],
    [null, ["TOTAL_REVENUE", "NET_INCOME"], "QUARTER"],
    [null, ["TOTAL_REVENUE", "PRICE"], "DAY"],
    [null, ["FREE_CASH_FLOW"], "QUARTER"],
    [null, ["FCF_YIELD"], "DAY"],
  ] as const)("%j with %j → %s", (value, metrics, expected) => {
    expect(parseGranularity(value, metrics)).toBe(expected);
  });

  it.each([
    ["HOUR", 'granularity: "HOUR" is not accepted. Use DAY, WEEK, MONTH, QUARTER or YEAR (or D, W, M, Q, Y).'],
    [1, "granularity: 1 is not accepted. Use DAY, WEEK, MONTH, QUARTER or YEAR (or D, W, M, Q, Y)."],
    ["DAYS", 'granularity: "DAYS" is not accepted.'],
  ])("refuses %j", (value, message) => {
    expect(() => parseGranularity(value, ["PRICE"])).toThrow(message);
  });

  it("refuses financials at any granularity but QUARTER, naming them", () => {
    expect(() => assertFinancialGranularity(["TOTAL_REVENUE", "PRICE"], "DAY")).toThrow(
      "granularity: TOTAL_REVENUE is reported per fiscal quarter, so DAY is not available. Use QUARTER (or Q), or ask for the financials in a separate formula.",
    );
    expect(() => assertFinancialGranularity(["EBITDA", "BASIC_EPS"], "MONTH")).toThrow(
      "granularity: EBITDA, BASIC_EPS are reported per fiscal quarter, so MONTH is not available. Use QUARTER (or Q).",
    );
    expect(() => assertFinancialGranularity(["EBITDA"], "QUARTER")).not.toThrow();
    expect(() => assertFinancialGranularity(["PRICE", "FCF_YIELD"], "DAY")).not.toThrow();
  });
});
