/**
 * The formats numbers carry where the host shows Excel data types: one table
 * from the metric catalog's descriptor to what the cell displays.
 */
import type { MetricDescriptor } from "../../src/core/domain";
import {
  COUNT_FORMAT,
  DATE_FORMAT,
  numberFormatFor,
  PERCENT_FORMAT,
  PERCENT_UNITS_FORMAT,
  RATIO_FORMAT,
  valueKindOf,
} from "../../src/core/number-format";

function descriptor(name: string, fields: Partial<MetricDescriptor>): MetricDescriptor {
  return {
    name,
    label: name,
    description: "",
    tags: [],
    aggregation_type: "LAST",
    unit: "NOMINAL",
    internal_data_source: "",
    source: "",
    base_metric: null,
    accepts_date: true,
    cuts: [],
    thumbnail_url: null,
    source_link: null,
    methodology: null,
    ...fields,
  };
}

describe("number formats by the metric's descriptor", () => {
  it.each<[string, MetricDescriptor | undefined, number, string | null]>([
    ["PRICE in USD", descriptor("PRICE", { unit: "CURRENCY", currency_type: "USD" }), 2553.26, "$#,##0.00"],
    ["a price under one dollar keeps its digits", descriptor("PRICE", { unit: "CURRENCY" }), 0.000312, "$0.00####"],
    ["revenue without a currency type is USD", descriptor("TOTAL_REVENUE", { unit: "CURRENCY" }), 9.5e10, "$#,##0.00"],
    [
      "a currency other than USD is named",
      descriptor("X", { unit: "CURRENCY", currency_type: "CHF" }),
      12,
      '#,##0.00 "CHF"',
    ],
    ["a summed count", descriptor("TXNS", { unit: "NOMINAL", aggregation_type: "SUM" }), 1234567, COUNT_FORMAT],
    ["an averaged count", descriptor("DAU", { unit: "NOMINAL", aggregation_type: "AVERAGE" }), 4567.5, COUNT_FORMAT],
    [
      "a yield the service reports in percent is not multiplied",
      descriptor("FCF_YIELD", {
        unit: "NOMINAL",
        description: "Trailing-twelve-month free cash flow divided by market cap, in percent.",
      }),
      3.21,
      PERCENT_UNITS_FORMAT,
    ],
    [
      "a multiple by its name",
      descriptor("ENTERPRISE_VALUE_DIVIDE_EBITDA", { unit: "NOMINAL", label: "EV / EBITDA" }),
      25.3,
      RATIO_FORMAT,
    ],
    ["a multiple by its label", descriptor("PE", { unit: "NOMINAL", label: "Price / Earnings" }), 25.3, RATIO_FORMAT],
    ["a NOMINAL level the catalog says nothing more of stays plain", descriptor("SCORE", {}), 0.53, null],
    ["an unknown unit stays plain", descriptor("X", { unit: "POINTS" }), 3, null],
    ["no descriptor: plain", undefined, 3, null],
  ])("%s → %s", (_what, d, value, format) => {
    expect(numberFormatFor(valueKindOf(d), value)).toBe(format);
  });

  it("dates and fractions have fixed formats: ISO dates, percentages of fractions", () => {
    expect(DATE_FORMAT).toBe("yyyy-mm-dd");
    expect(PERCENT_FORMAT).toBe("0.00%");
    // A literal % sign: 3.21 shows as 3.21%, while 0.00% would show 321.00%.
    expect(PERCENT_UNITS_FORMAT).toBe('0.00"%"');
  });
});
