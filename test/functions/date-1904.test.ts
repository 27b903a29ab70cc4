/**
 * The 1904 date system (Mac workbooks): dates spilled four years and a day off
 * when serials were read and written as 1900 ones. The built dist/functions.js
 * runs against the sandbox with a recorded workbook as `Excel` that uses the
 * 1904 system; the add-in asks Excel once (DATE(1904,1,1) is 0 there) and
 * converts both ways: date arguments read, and date columns returned.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { isoToSerialIn, serialToIsoIn } from "../../src/core/excel-date";
import { parseDate, parseDateWindow } from "../../src/core/arguments";
import { rawPoints, serial } from "../support/raw-sandbox";
import { DIST, type LoadedBundle } from "../../harness/bundle";
import { installWorkbookStandIn, type WorkbookStandIn } from "../support/workbook-stand-in";
import { useBundle } from "../support/bundle";

describe("1904 serials in core (the date system passed in)", () => {
  it.each([
    [0, "1904-01-01"],
    [1, "1904-01-02"],
    [59, "1904-02-29"],
    [43830, "2024-01-01"],
    [2957003, "9999-12-31"],
  ])("1904 serial %d is %s, both ways", (value, iso) => {
    expect(serialToIsoIn(value, 1904)).toBe(iso);
    expect(isoToSerialIn(iso, 1904)).toBe(value);
    if (iso > "1904-02-29") expect(isoToSerialIn(iso, 1900) - isoToSerialIn(iso, 1904)).toBe(1462);
  });

  it("refuses what the 1904 system cannot hold", () => {
    expect(() => serialToIsoIn(-1, 1904)).toThrow(/before 0 \(1904-01-01\)/);
    expect(() => isoToSerialIn("1903-12-31", 1904)).toThrow(/before 1904-01-01/);
    expect(() => serialToIsoIn(2957004, 1904)).toThrow(/after/);
  });

  it("reads date arguments in the workbook's system", () => {
    const anchors = { today: "2024-05-10", anchor: "2024-05-10" };
    expect(parseDate(43830, "as_of", { ...anchors, dateSystem: 1904 })).toBe("2024-01-01");
    expect(parseDate(45292, "as_of", anchors)).toBe("2024-01-01");
    expect(parseDateWindow(43830, 43860, "2024-05-10", 1904)).toEqual({ start: "2024-01-01", end: "2024-01-31" });
  });
});

const built = existsSync(path.join(DIST, "functions.js"));
const describeBuilt = built ? describe : describe.skip;

describeBuilt("a 1904 workbook (dist/functions.js against the sandbox)", () => {
  const { sandbox, load } = useBundle({ quiet: true });
  let workbook: WorkbookStandIn;
  let bundle: LoadedBundle;

  beforeAll(() => {
    const excel: Record<string, unknown> = {};
    workbook = installWorkbookStandIn(excel, {
      sheets: [{ name: "Sheet1", cells: {} }],
      activeSheet: "Sheet1",
      selection: { sheet: "Sheet1", areas: ["A1"] },
      results: {},
      date1904: true,
    });
    bundle = load({ globals: { Excel: excel.Excel } });
  });

  it("spills dates as 1904 serials", async () => {
    const table = (await bundle.call("SERIES", ["eth", "PRICE", "2024-01-01", "2024-01-10"])) as unknown[][];
    const raw = await rawPoints(sandbox, "eth", "PRICE", { startDate: "2024-01-01", endDate: "2024-01-10" });
    expect(table.slice(1).map((row) => row[0])).toEqual(raw.map((p) => serial(p.date) - 1462));
    expect(table[1][0]).toBe(43830);
  });

  it("reads a date argument as a 1904 serial", async () => {
    const byText = await bundle.call("LATEST", ["eth", "PRICE", "2024-02-29"]);
    const bySerial = await bundle.call("LATEST", ["eth", "PRICE", serial("2024-02-29") - 1462]);
    expect(bySerial).toBe(byText);
    const window = (await bundle.call("SERIES", ["eth", "PRICE", 43830, 43839])) as unknown[][];
    expect(window.slice(1).map((row) => row[0])).toEqual(Array.from({ length: 10 }, (_, i) => 43830 + i));
  });

  it("asks Excel once per runtime", async () => {
    await bundle.call("LATEST", ["btc", "PRICE", 43830]);
    expect(workbook.log.runs).toBe(1);
  });
});
