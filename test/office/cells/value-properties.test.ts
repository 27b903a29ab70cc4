/**
 * A value's provenance as properties (src/office/cells/value-properties.ts)
 * and the 5 MB guard that counts them: the properties are laid out as the
 * card lists them, only where the host shows them (ExcelApi 1.19); a table
 * whose properties would take it over the limit goes without them, its
 * formats kept; one still over with formats goes plain.
 */
import { installCustomFunctionsStandIn } from "../../../harness/custom-functions-stand-in";

installCustomFunctionsStandIn();

import type { CellValue } from "../../../src/core/cell";
import { DATE_FORMAT, type FormatAt } from "../../../src/core/number-format";
import { EXCEL_RESULT_LIMIT_BYTES } from "../../../src/core/payload-size";
import type { Provenance } from "../../../src/core/provenance";
import { toExcelValue, toExcelValuesWithinLimit } from "../../../src/office/cells/cell-values";
import { propertiesBytes, provenanceProperties, showsProperties } from "../../../src/office/cells/value-properties";

const PRICE_FORMAT = "$#,##0.00";
const formatAt: FormatAt = (row, column) => (row === 0 ? null : column === 0 ? DATE_FORMAT : PRICE_FORMAT);
const FETCHED = Date.UTC(2026, 10, 28, 10, 42);

const provenance: Provenance = {
  symbol: "eth",
  metric: "PRICE",
  description: "Price of ETH",
  unit: "CURRENCY",
  date: "2026-11-25",
  settled: true,
  source: "gateway-cache",
  fetchedAt: FETCHED,
};

function priceTable(rows: number, columns: number): CellValue[][] {
  const table: CellValue[][] = [["Date", ...Array.from({ length: columns }, (_, c) => `s${c} PRICE`)]];
  for (let r = 0; r < rows; r++) {
    const row: CellValue[] = [43101 + r];
    for (let c = 0; c < columns; c++) row.push(1000 + r + c);
    table.push(row);
  }
  return table;
}

describe("provenance properties", () => {
  it("lays the provenance out as the card lists it", () => {
    const properties = provenanceProperties({
      ...provenance,
      revised: { was: 1.5, wasFetchedAt: FETCHED - 86_400_000, at: FETCHED },
    });
    expect(Object.keys(properties)).toEqual([
      "Date",
      "Symbol",
      "Metric",
      "Settled",
      "Source",
      "Fetched",
      "Revised",
      "Earlier value",
    ]);
    expect(properties.Date).toEqual({ type: "Double", basicValue: 46351, numberFormat: DATE_FORMAT });
    expect(properties.Metric).toEqual({
      type: "String",
      basicValue: "PRICE",
      propertyMetadata: { sublabel: "Price of ETH · unit: CURRENCY" },
    });
    expect(properties.Source).toEqual({ type: "String", basicValue: "Firm gateway's cache" });
    expect(properties["Earlier value"]).toEqual({ type: "Double", basicValue: 1.5 });
  });

  it("only ExcelApi 1.19 hosts get them; others get the number as before", () => {
    expect(["none", "formatted-number", "double"].map((s) => showsProperties(s as "none"))).toEqual([
      false,
      false,
      true,
    ]);
    expect(toExcelValue(2553.26, PRICE_FORMAT, "double", provenance)).toMatchObject({
      type: "Double",
      basicValue: 2553.26,
      numberFormat: PRICE_FORMAT,
      properties: { Symbol: { basicValue: "eth" } },
    });
    expect(toExcelValue(2553.26, PRICE_FORMAT, "formatted-number", provenance)).toEqual({
      type: "FormattedNumber",
      basicValue: 2553.26,
      numberFormat: PRICE_FORMAT,
    });
    expect(toExcelValue(2553.26, PRICE_FORMAT, "none", provenance)).toBe(2553.26);
  });
});

describe("the bytes the properties add", () => {
  it("are the JSON of the properties exactly, for every shape of provenance (shared fields counted each time)", () => {
    const shapes: Provenance[] = [
      provenance,
      { ...provenance, description: undefined, unit: undefined, settled: false, source: "store" },
      { ...provenance, dateSystem: 1904, start: "2026-10-27", daysWithData: 29, metric: "L30_FEES" },
      {
        ...provenance,
        symbol: 'q"uote\\d',
        description: "Ünïcode — “quoted”",
        revised: { was: -0.5, wasFetchedAt: 0, at: FETCHED },
      },
    ];
    for (const shape of [...shapes, ...shapes]) {
      const properties = provenanceProperties(shape);
      expect(propertiesBytes(properties)).toBe(`,"properties":${JSON.stringify(properties)}`.length);
    }
  });

  it("two values with the same provenance get equal properties, apart from each other", () => {
    const first = provenanceProperties(provenance);
    const second = provenanceProperties({ ...provenance });
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
  });
});

describe("the 5 MB guard counts the properties and drops them before the formats", () => {
  const provenanceAt = (row: number, column: number) => (row > 0 && column > 0 ? provenance : undefined);

  it("a table that fits with its properties keeps them", () => {
    const sent = toExcelValuesWithinLimit(priceTable(100, 5), formatAt, "double", provenanceAt);
    expect(sent.note).toBeUndefined();
    expect(sent.values[1][1]).toMatchObject({ numberFormat: PRICE_FORMAT, properties: expect.any(Object) });
    expect(JSON.stringify(sent.values).length).toBeLessThan(EXCEL_RESULT_LIMIT_BYTES);
  });

  it("a table over the limit with properties goes without them, formats kept, and says so", () => {
    const table = priceTable(2_000, 10);
    const withProperties = JSON.stringify(
      table.map((row, r) => row.map((_, c) => (r > 0 && c > 0 ? provenanceProperties(provenance) : null))),
    ).length;
    expect(withProperties).toBeGreaterThan(EXCEL_RESULT_LIMIT_BYTES);
    const sent = toExcelValuesWithinLimit(table, formatAt, "double", provenanceAt);
    expect(sent.values[1][1]).toEqual({ type: "Double", basicValue: 1000, numberFormat: PRICE_FORMAT });
    expect(sent.note).toContain("without the properties");
    expect(JSON.stringify(sent.values).length).toBeLessThanOrEqual(EXCEL_RESULT_LIMIT_BYTES);
  });

  it("a table over the limit even with formats alone goes plain", () => {
    const sent = toExcelValuesWithinLimit(priceTable(20_000, 6), formatAt, "double", provenanceAt);
    expect(sent.values[1][1]).toBe(1000);
    expect(sent.note).toContain("formats dropped");
  });
});
