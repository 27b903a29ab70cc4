/**
 * The number format a cell value carries, as `Range.valuesAsJson` returns it:
 * Excel.DoubleCellValue.numberFormat (ExcelApi 1.19) or
 * Excel.FormattedNumberCellValue.numberFormat (1.16); nothing for any other value.
 */
import { carriedFormat, shownFormat } from "../../../src/office/workbook/range-values";

describe("carriedFormat", () => {
  it.each([
    ["a Double with its format", { type: "Double", basicValue: 45000, numberFormat: "yyyy-mm-dd" }, "yyyy-mm-dd"],
    ["a FormattedNumber", { type: "FormattedNumber", basicValue: 0.0123, numberFormat: "0.00%" }, "0.00%"],
    ["a plain Double", { type: "Double", basicValue: 1800.5 }, null],
    ["a Double with an empty format", { type: "Double", basicValue: 1, numberFormat: "" }, null],
    ["text", { type: "String", basicValue: "00123" }, null],
    ["an error", { type: "Error", basicValue: "#N/A", errorType: "NotAvailable" }, null],
    ["an entity", { type: "Entity", text: "Ether", properties: {}, numberFormat: "0" }, null],
    ["a bare number", 1800.5, null],
    ["null", null, null],
  ])("%s", (_, value, format) => {
    expect(carriedFormat(value)).toBe(format);
  });
});

describe("shownFormat: a format applied to the cell wins over the value's (Excel data types: core concepts)", () => {
  it.each([
    ["the user's format over the value's", "0.0", "$#,##0.00", "0.0"],
    ["the value's format in a cell nobody formatted", "General", "$#,##0.00", "$#,##0.00"],
    ["the cell's own format when the value carries none", "yyyy-mm-dd", null, "yyyy-mm-dd"],
    ["General when neither says", "General", null, "General"],
    ["General for a cell Excel gives no format", null, null, "General"],
  ])("%s", (_, own, carried, shown) => {
    expect(shownFormat(own, carried)).toBe(shown);
  });
});
