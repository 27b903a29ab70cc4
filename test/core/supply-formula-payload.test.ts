import type { SeriesResult } from "../../src/core/domain";
import { type CellValue, errorCell } from "../../src/core/cell";
import { isoToSerial } from "../../src/core/excel-date";
import { buildFormula, quoteText } from "../../src/core/formula";
import { estimateCellBytes, estimatePayloadBytes } from "../../src/core/payload-size";
import { type SupplyPart, shapeSupplyTable } from "../../src/core/supply-table";

const S = isoToSerial;
const pts = (...pairs: [string, number][]): SeriesResult => ({
  kind: "points",
  points: pairs.map(([date, val]) => ({ date, val })),
});

describe("supply table", () => {
  // Built so that the identity gives other locked = 1000 − 50 − 100 − 25 − 800 = 25 on day one.
  const series: Record<SupplyPart, SeriesResult> = {
    total: pts(["2024-01-01", 1000], ["2024-01-02", 1100]),
    bridged: pts(["2024-01-01", 50], ["2024-01-02", 60]),
    premint: pts(["2024-01-01", 100], ["2024-01-02", 100]),
    peg: pts(["2024-01-01", 25], ["2024-01-02", 40]),
    circulating: pts(["2024-01-01", 800]),
  };

  it("derives other locked from the identity; blank where a part is missing", () => {
    expect(shapeSupplyTable("usdc", series)).toEqual([
      ["Date", "Total", "Bridged", "Premint", "Peg stability", "Other locked", "Circulating"],
      [S("2024-01-01"), 1000, 50, 100, 25, 1000 - 800 - 50 - 100 - 25, 800],
      [S("2024-01-02"), 1100, 60, 100, 40, "", ""],
    ]);
  });

  it("rounding dust of an exact identity shows as 0", () => {
    const total = 0.1 + 0.2;
    const exact = {
      ...series,
      total: pts(["2024-01-01", total]),
      bridged: pts(["2024-01-01", 0.1]),
      premint: pts(["2024-01-01", 0.2]),
      peg: pts(["2024-01-01", 0]),
      circulating: pts(["2024-01-01", 0]),
    };
    expect(total - 0.1 - 0.2).not.toBe(0);
    expect(shapeSupplyTable("usdc", exact)[1][5]).toBe(0);
  });

  it("a message series makes its column and other locked #N/A", () => {
    const table = shapeSupplyTable("usdc", {
      ...series,
      premint: { kind: "message", message: "Not tracked for usdc." },
    });
    const na = errorCell("#N/A", "Premint: Not tracked for usdc.");
    expect(table[1]).toEqual([S("2024-01-01"), 1000, 50, na, 25, na, 800]);
  });
});

describe("formula text", () => {
  it.each<[string, Parameters<typeof buildFormula>[1], string]>([
    ["MD.VERSION", [], "=MD.VERSION()"],
    ["MD.SERIES", ["eth", "PRICE"], '=MD.SERIES("eth","PRICE")'],
    ["MD.SERIES", ["eth,btc", "PRICE", "-30D", null, "WEEK"], '=MD.SERIES("eth,btc","PRICE","-30D",,"WEEK")'],
    ["MD.SERIES", ["eth", "PRICE", null, null, null, null], '=MD.SERIES("eth","PRICE")'],
    ["MD.SERIES", ["eth", "PRICE", undefined, "TODAY"], '=MD.SERIES("eth","PRICE",,"TODAY")'],
    ["MD.ASSETS", ['say "hi"', "ALL"], '=MD.ASSETS("say ""hi""","ALL")'],
    ["MD.LATEST", ["eth", "PRICE", 45292], '=MD.LATEST("eth","PRICE",45292)'],
    ["MD.LATEST", ["eth", "PRICE", { expression: "A2" }], '=MD.LATEST("eth","PRICE",A2)'],
    ["MD.X", [true, false, 1e21, 0.5], "=MD.X(TRUE,FALSE,1E+21,0.5)"],
    ["MD.X", [""], '=MD.X("")'],
  ])("%s %j", (name, args, expected) => {
    expect(buildFormula(name, args)).toBe(expected);
  });

  it("refuses what cannot be written", () => {
    expect(() => buildFormula("MD SERIES", [])).toThrow(RangeError);
    expect(() => buildFormula("MD.X", [NaN])).toThrow(RangeError);
  });

  it("quoteText doubles quotes only", () => {
    expect(quoteText('a"b""c')).toBe('"a""b""""c"');
  });
});

describe("payload estimate", () => {
  it.each<[CellValue, string]>([
    [45292, "45292"],
    [-7, "-7"],
    [0, "0"],
    [true, "false"],
    ["hello", '"hello"'],
  ])("%j costs about its JSON length plus a separator", (cell, json) => {
    expect(Math.abs(estimateCellBytes(cell) - (json.length + 1))).toBeLessThanOrEqual(2);
  });

  it.each([Math.PI, 1 / 3, -123456.789, 1e-7, 2553.26, 0.1 + 0.2])(
    "the fraction %d costs its JSON length plus a separator",
    (value) => {
      expect(estimateCellBytes(value)).toBe(JSON.stringify(value).length + 1);
    },
  );

  it("is within a few percent of a table's JSON size, exactly or by sampling", () => {
    const prices = (rows: number) =>
      Array.from({ length: rows }, (_, r): CellValue[] => [
        45292 + r,
        Math.round((3000 + Math.sin(r) * 250) * 100) / 100,
        "eth PRICE",
        r % 2 === 0,
        r * 1.5,
        "",
      ]);
    for (const table of [prices(50), prices(20_000)]) {
      const json = JSON.stringify(table).length;
      expect(Math.abs(estimatePayloadBytes(table) - json) / json).toBeLessThan(0.05);
    }
  });
});
