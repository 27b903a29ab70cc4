/**
 * The 5 MB guard counts what Excel receives: a formatted number travels as a
 * data-type object (`{"type":"Double","basicValue":…,"numberFormat":…}`),
 * several times the bytes of the plain number. A table whose formatted form is
 * over the limit goes as plain numbers with a note; one over it even as plain
 * numbers is refused with its size. Nothing over the limit is ever sent.
 */
import { installCustomFunctionsStandIn, StandInError } from "../../harness/custom-functions-stand-in";

installCustomFunctionsStandIn();

import { FakeClient } from "../support/fake-client";
import { CallTracker } from "../../src/office/call-tracker";

const fake = FakeClient.answering();
const mockCalls = new CallTracker();
jest.mock("../../src/office/runtime", () => ({
  getClient: () => fake,
  getRuntime: () => ({ client: fake, calls: mockCalls, dateSystem: async () => 1900 }),
}));

import type { CellValue } from "../../src/core/cell";
import { DATE_FORMAT, type FormatAt } from "../../src/core/number-format";
import { EXCEL_RESULT_LIMIT_BYTES } from "../../src/core/payload-size";
import { ResultTooLargeError } from "../../src/core/errors";
import { toExcelValuesWithinLimit } from "../../src/office/cells/cell-values";
import { invokeTable } from "../../src/functions/invoke";

const PRICE_FORMAT = "$#,##0.00";
/** Dates down the first column, prices across: the shape of MD.SERIES. */
const formatAt: FormatAt = (row, column) => (row === 0 ? null : column === 0 ? DATE_FORMAT : PRICE_FORMAT);

function priceTable(rows: number, columns: number): CellValue[][] {
  const table: CellValue[][] = [["Date", ...Array.from({ length: columns }, (_, c) => `s${c} PRICE`)]];
  for (let r = 0; r < rows; r++) {
    const row: CellValue[] = [43101 + r];
    for (let c = 0; c < columns; c++) row.push(Math.round((1000 + r * 0.37 + c * 13.1) * 100) / 100);
    table.push(row);
  }
  return table;
}

const sentBytes = (values: unknown) => JSON.stringify(values).length;

describe("toExcelValuesWithinLimit measures the table as sent", () => {
  it("a formatted number is about 65 bytes as sent, where the plain number is 7", () => {
    const { values } = toExcelValuesWithinLimit([[2553.26]], () => PRICE_FORMAT, "double");
    expect(values[0][0]).toEqual({ type: "Double", basicValue: 2553.26, numberFormat: PRICE_FORMAT });
    expect(JSON.stringify(values[0][0]).length).toBe(65);
    expect(JSON.stringify(2553.26).length).toBe(7);
  });

  it.each<[string, "double" | "formatted-number"]>([
    ["Double (ExcelApi 1.19)", "double"],
    ["FormattedNumber (ExcelApi 1.16)", "formatted-number"],
  ])("a table that fits formatted is sent formatted, its JSON within the limit (%s)", (_what, support) => {
    const table = priceTable(2_000, 30);
    const sent = toExcelValuesWithinLimit(table, formatAt, support);
    expect(sent.note).toBeUndefined();
    expect(sent.values[1][1]).toEqual(expect.objectContaining({ numberFormat: PRICE_FORMAT }));
    expect(sentBytes(sent.values)).toBeLessThanOrEqual(EXCEL_RESULT_LIMIT_BYTES);
  });

  it("a table over the limit only formatted arrives as plain numbers with a note stating both sizes", () => {
    // 2,557 days (2018–2024) × 40 prices: under 1 MB plain, over 6 MB formatted.
    const table = priceTable(2_557, 40);
    const formattedJson = sentBytes(
      toExcelValuesWithinLimit(table, formatAt, "none").values.map((row, r) =>
        row.map((cell, c) =>
          typeof cell === "number" && r > 0
            ? { type: "Double", basicValue: cell, numberFormat: formatAt(r, c, cell) }
            : cell,
        ),
      ),
    );
    expect(formattedJson).toBeGreaterThan(EXCEL_RESULT_LIMIT_BYTES);
    const sent = toExcelValuesWithinLimit(table, formatAt, "double");
    expect(sent.values).toEqual(table);
    expect(sentBytes(sent.values)).toBeLessThanOrEqual(EXCEL_RESULT_LIMIT_BYTES);
    expect(sent.note).toMatch(
      /^the formatted result \(2,558 rows × 41 columns\) would reach Excel as about 6\.\d MB, over its 5 MB limit for one formula, so it was sent as plain numbers \(about 0\.\d MB\) with its formats dropped/,
    );
  });

  it("a table over the limit as plain numbers is refused with its size, never sent", () => {
    const table = priceTable(60_000, 10).map((row, r) => (r === 0 ? row : row.map((v) => (v as number) + 0.123456789)));
    expect(() => toExcelValuesWithinLimit(table, formatAt, "double")).toThrow(ResultTooLargeError);
    expect(() => toExcelValuesWithinLimit(table, formatAt, "none")).toThrow(
      /^The result would be about \d+\.\d MB \(60,001 rows × 11 columns\), over Excel's 5 MB limit for one formula\./,
    );
  });
});

describe("invokeTable says so when it drops the formats", () => {
  const office = (globalThis as { Office?: unknown }).Office;
  beforeAll(() => {
    (globalThis as { Office?: unknown }).Office = {
      context: {
        requirements: { isSetSupported: (name: string) => name === "CustomFunctionsRuntime" || name === "ExcelApi" },
      },
    };
  });
  afterAll(() => {
    (globalThis as { Office?: unknown }).Office = office;
  });

  it("plain numbers reach the cell; a console line and the call tracker's note say why", async () => {
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    const table = priceTable(2_557, 40);
    const cells = await invokeTable({ functionName: "SERIES" } as CustomFunctions.CancelableInvocation, async () => ({
      rows: table,
      formatAt,
    }));
    expect(cells).toEqual(table);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[Market Data\] MD\.SERIES: the formatted result/));
    expect(mockCalls.notes().map((n) => n.text)).toEqual([
      expect.stringMatching(/^MD\.SERIES: the formatted result .* plain numbers/),
    ]);
    warn.mockRestore();
  });

  it("a table too large even plain is a #VALUE! with its size", async () => {
    const table = priceTable(60_000, 10).map((row, r) => (r === 0 ? row : row.map((v) => (v as number) + 0.123456789)));
    const failure = await invokeTable(undefined, async () => ({ rows: table, formatAt })).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StandInError);
    expect(failure).toEqual(
      expect.objectContaining({ code: "#VALUE!", message: expect.stringMatching(/about \d+\.\d MB/) }),
    );
  });
});
