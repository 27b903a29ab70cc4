/**
 * The Office edge of formatted numbers: which host gets data types (decided
 * from Office.context.requirements, never by trying) and what a table of
 * cells becomes for each.
 */
import { installCustomFunctionsStandIn, StandInError } from "../../../harness/custom-functions-stand-in";

installCustomFunctionsStandIn();

import { errorCell } from "../../../src/core/cell";
import { dataTypeSupport, toExcelValue, toExcelValues } from "../../../src/office/cells/cell-values";

const host = (sets: Record<string, string>) => ({
  context: {
    requirements: {
      isSetSupported: (name: string, version = "1.1") =>
        sets[name] !== undefined && Number(sets[name].split(".")[1]) >= Number(version.split(".")[1]),
    },
  },
});

describe("data-type support by the host's requirement sets", () => {
  it.each<[string, unknown, string]>([
    ["no Office (outside Excel, or before Office is ready)", undefined, "none"],
    ["Office without requirements", { context: {} }, "none"],
    [
      "custom functions without data types (CustomFunctionsRuntime 1.3)",
      host({ CustomFunctionsRuntime: "1.3", ExcelApi: "1.19" }),
      "none",
    ],
    [
      "data types, DoubleCellValue.numberFormat (ExcelApi 1.19)",
      host({ CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" }),
      "double",
    ],
    [
      "data types, FormattedNumberCellValue (ExcelApi 1.16)",
      host({ CustomFunctionsRuntime: "1.4", ExcelApi: "1.16" }),
      "formatted-number",
    ],
    [
      "data types but no formatted number (ExcelApi 1.15)",
      host({ CustomFunctionsRuntime: "1.4", ExcelApi: "1.15" }),
      "none",
    ],
    [
      "a requirements object that throws",
      {
        context: {
          requirements: {
            isSetSupported: () => {
              throw new Error("boom");
            },
          },
        },
      },
      "none",
    ],
  ])("%s → %s", (_what, office, support) => {
    expect(dataTypeSupport(office)).toBe(support);
  });
});

describe("cells as Excel receives them", () => {
  const table = [
    ["Date", "eth PRICE", "note"],
    [45467, 2553.26, "text"],
    [45468, errorCell("#N/A", "none"), true],
  ];
  const formatAt = (_row: number, column: number) => (column === 0 ? "yyyy-mm-dd" : "$#,##0.00");

  it("plain numbers where the host has no data types, errors as CustomFunctions.Error", () => {
    const cells = toExcelValues(table, formatAt, "none");
    expect(cells.slice(0, 2)).toEqual([
      ["Date", "eth PRICE", "note"],
      [45467, 2553.26, "text"],
    ]);
    expect(cells[2][1]).toBeInstanceOf(StandInError);
  });

  it("Double data types with numberFormat on ExcelApi 1.19; text, booleans and errors unchanged", () => {
    const cells = toExcelValues(table, formatAt, "double");
    expect(cells[1]).toEqual([
      { type: "Double", basicValue: 45467, numberFormat: "yyyy-mm-dd" },
      { type: "Double", basicValue: 2553.26, numberFormat: "$#,##0.00" },
      "text",
    ]);
    expect(cells[2][0]).toEqual({ type: "Double", basicValue: 45468, numberFormat: "yyyy-mm-dd" });
    expect(cells[2][1]).toEqual(new StandInError("#N/A", "none"));
    expect(cells[2][2]).toBe(true);
  });

  it("FormattedNumber on ExcelApi 1.16", () => {
    expect(toExcelValues(table, formatAt, "formatted-number")[1][1]).toEqual({
      type: "FormattedNumber",
      basicValue: 2553.26,
      numberFormat: "$#,##0.00",
    });
  });

  it("a number without a format stays a number", () => {
    expect(toExcelValues([[1.5]], () => null, "double")).toEqual([[1.5]]);
    expect(toExcelValue(0.25, "0.00%", "double")).toEqual({ type: "Double", basicValue: 0.25, numberFormat: "0.00%" });
    expect(toExcelValue(0.25, null, "double")).toBe(0.25);
    expect(toExcelValue(0.25, "0.00%", "none")).toBe(0.25);
  });
});
