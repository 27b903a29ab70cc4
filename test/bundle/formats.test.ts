/**
 * Cells formatted by the add-in: the built bundle, loaded as in an Excel whose
 * requirement sets include data types in custom functions, returns dates,
 * percentages and values in their metric's unit as formatted numbers; a host
 * without them gets plain numbers (every other bundle test loads it so).
 */
import { cellValue, isExcelError, type LoadedBundle } from "../../harness/bundle";
import { rawGet, rawPoints, rawSeries, requestsTo, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

const EXCEL_1_19 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" };
const EXCEL_1_16 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.16" };
const EXCEL_2021 = { CustomFunctionsRuntime: "1.3", ExcelApi: "1.12" };

const world = useBundle({ quiet: true, insightFirstCallDelayMs: 10, assetCount: 2000 });
const { sandbox } = world;

function load(requirements?: Record<string, string>): LoadedBundle {
  return world.load(requirements ? { requirements } : {});
}

interface Formatted {
  type: string;
  basicValue: number;
  numberFormat: string;
}

const double = (basicValue: number, numberFormat: string): Formatted => ({ type: "Double", basicValue, numberFormat });

describe("formats where the host has data types (CustomFunctionsRuntime 1.4, ExcelApi 1.19)", () => {
  let bundle: LoadedBundle;
  beforeAll(() => {
    bundle = load(EXCEL_1_19);
  });

  // What each kind of cell displays: the table the issue asks for.
  it.each<[string, string, unknown[], (cells: unknown) => unknown, string]>([
    [
      "a SERIES date",
      "SERIES",
      ["eth", "PRICE", "2024-01-01", "2024-01-03"],
      (t) => (t as unknown[][])[1][0],
      "yyyy-mm-dd",
    ],
    [
      "a price (CURRENCY, USD)",
      "SERIES",
      ["eth", "PRICE", "2024-01-01", "2024-01-03"],
      (t) => (t as unknown[][])[1][1],
      "$#,##0.00",
    ],
    [
      "a transaction count (NOMINAL, summed)",
      "SERIES",
      ["eth", "TXNS", "2024-01-01", "2024-01-03"],
      (t) => (t as unknown[][])[1][1],
      "#,##0",
    ],
    [
      "a yield the service reports in percent",
      "SERIES",
      ["eq-coin", "EARNINGS_YIELD", "2024-01-02", "2024-01-03"],
      (t) => (t as unknown[][])[1][1],
      '0.00"%"',
    ],
    [
      "a multiple",
      "SERIES",
      ["eq-coin", "ENTERPRISE_VALUE_DIVIDE_EBITDA", "2024-01-02", "2024-01-03"],
      (t) => (t as unknown[][])[1][1],
      '0.00"x"',
    ],
    [
      "quarterly revenue",
      "SERIES",
      ["eq-aapl", "TOTAL_REVENUE", "2023-01-01", "2023-12-31"],
      (t) => (t as unknown[][])[1][1],
      "$#,##0.00",
    ],
    ["MD.LATEST of a price", "LATEST", ["eth", "PRICE", "2024-02-29"], (v) => v, "$#,##0.00"],
    ["MD.LATEST of a summed fee (L30_)", "LATEST", ["sol", "L30_FEES", "2024-03-31"], (v) => v, "$#,##0.00"],
    ["MD.AGG PCT_CHANGE", "AGG", ["eth", "TVL", "YTD", "PCT_CHANGE", "2024-03-31"], (v) => v, "0.00%"],
    ["MD.AGG SUM of users", "AGG", ["eth", "DAU", "30D", "SUM", "2024-03-31"], (v) => v, "#,##0"],
    ["an insight's start date", "INSIGHTS", ["STREAKS"], (t) => (t as unknown[][])[1][4], "yyyy-mm-dd"],
    ["an insight's change", "INSIGHTS", ["STREAKS"], (t) => (t as unknown[][])[1][8], "0.00%"],
    ["a supply date", "SUPPLY", ["usdc", "2024-01-01", "2024-01-02"], (t) => (t as unknown[][])[1][0], "yyyy-mm-dd"],
    ["a supply bucket", "SUPPLY", ["usdc", "2024-01-01", "2024-01-02"], (t) => (t as unknown[][])[1][1], "$#,##0.00"],
    ["a flow (USD)", "FLOWS", ["ethereum", "2024-01-01", "2024-01-31"], (t) => (t as unknown[][])[1][1], "$#,##0.00"],
  ])("%s shows as %s", async (_what, id, args, pick, format) => {
    const cell = pick(await bundle.call(id, args)) as Formatted;
    expect(cell.type).toBe("Double");
    expect(typeof cell.basicValue).toBe("number");
    expect(cell.numberFormat).toBe(format);
  });

  it("the values are the service's, unchanged: a yield in percent is not multiplied, dates are serials", async () => {
    const table = (await bundle.call("SERIES", [
      "eq-coin",
      "EARNINGS_YIELD",
      "2024-01-01",
      "2024-01-31",
    ])) as Formatted[][];
    const raw = await rawPoints(sandbox, "eq-coin", "EARNINGS_YIELD", {
      startDate: "2024-01-01",
      endDate: "2024-01-31",
    });
    expect(table[0]).toEqual(["Date", "eq-coin EARNINGS_YIELD"]);
    expect(table.slice(1)).toEqual(raw.map((p) => [double(serial(p.date), "yyyy-mm-dd"), double(p.val, '0.00"%"')]));
  });

  it("text stays text and a message column stays #N/A cells inside a formatted table", async () => {
    const table = (await bundle.call("SERIES", ["eth,base", "PRICE", "2024-02-01", "2024-02-02"])) as unknown[][];
    expect(table[0]).toEqual(["Date", "eth PRICE", "base PRICE"]);
    for (const row of table.slice(1)) {
      expect((row[1] as Formatted).numberFormat).toBe("$#,##0.00");
      expect(isExcelError(row[2])).toBe(true);
    }
  });

  it("a transposed table formats its date row", async () => {
    const table = (await bundle.call("SERIES", [
      "eth",
      "PRICE",
      "2024-03-01",
      "2024-03-02",
      null,
      "transpose=true",
    ])) as unknown[][];
    expect(table[0][0]).toBe("Date");
    expect((table[0][1] as Formatted).numberFormat).toBe("yyyy-mm-dd");
    expect((table[1][1] as Formatted).numberFormat).toBe("$#,##0.00");
  });

  it("errors and value preview are unchanged", async () => {
    const preview = await cellValue(load(EXCEL_1_19), "LATEST", ["arb", "FEES", "2024-02-29"], {
      isInValuePreview: true,
    });
    expect(isExcelError(preview) && preview.code).toBe("#N/A");
    const bad = await cellValue(bundle, "SERIES", ["eth", "PRICE", "2024-13-01"]);
    expect(isExcelError(bad) && bad.code).toBe("#VALUE!");
  });

  it("a grid of 40 MD.LATEST cells over 20 symbols reads units from one metric catalog, not one per symbol", async () => {
    const fresh = load(EXCEL_1_19);
    const assets = await rawGet<{ assets: { symbol: string }[] }>(sandbox, "/asset/symbols/");
    const symbols = assets.assets
      .filter((a) => a.symbol.startsWith("sbx"))
      .slice(0, 20)
      .map((a) => a.symbol);
    const before = requestsTo(sandbox, "/supported-metrics/");
    const cells = (await Promise.all(
      symbols.flatMap((s) => ["PRICE", "TXNS"].map((m) => fresh.call("LATEST", [s, m, "2024-03-31"]))),
    )) as Formatted[];
    expect(requestsTo(sandbox, "/supported-metrics/") - before).toBe(1);
    expect(cells.map((c) => c.numberFormat)).toEqual(symbols.flatMap(() => [expect.stringMatching(/^\$/), "#,##0"]));
  });
});

describe("hosts with fewer data types", () => {
  it("ExcelApi 1.16 gets FormattedNumber values", async () => {
    const value = (await load(EXCEL_1_16).call("LATEST", ["eth", "PRICE", "2024-02-29"])) as Formatted;
    const raw = await rawPoints(sandbox, "eth", "PRICE", { startDate: "2024-02-01", endDate: "2024-02-29" });
    expect(value).toEqual({ type: "FormattedNumber", basicValue: raw[raw.length - 1].val, numberFormat: "$#,##0.00" });
  });

  it.each([
    ["Excel 2021 (CustomFunctionsRuntime 1.3)", EXCEL_2021],
    ["no requirement information", undefined],
  ])("%s gets plain numbers, as before, and no catalog request for units", async (_what, requirements) => {
    const bundle = load(requirements);
    const before = requestsTo(sandbox, "/supported-metrics/");
    const table = (await bundle.call("SERIES", ["btc", "PRICE", "2024-01-01", "2024-01-02"])) as unknown[][];
    const raw = await rawSeries(sandbox, ["btc"], ["PRICE"], { startDate: "2024-01-01", endDate: "2024-01-02" });
    expect(table.slice(1)).toEqual(
      (raw.btc.PRICE as { date: string; val: number }[]).map((p) => [serial(p.date), p.val]),
    );
    expect(await bundle.call("AGG", ["btc", "PRICE", "YTD", "PCT_CHANGE", "2024-03-31"])).toEqual(expect.any(Number));
    expect(requestsTo(sandbox, "/supported-metrics/")).toBe(before);
  });
});
