import fc from "fast-check";
import { cellAddress, columnIndex, columnLetters, parseRange, rowBands, withoutSheet } from "../../src/refresh/a1";
import { findMdCells, holdsFormula, planBlocks, type FormulaCell } from "../../src/refresh/formula-cells";

describe("A1 addresses", () => {
  it.each([
    ["A", 0],
    ["Z", 25],
    ["AA", 26],
    ["AZ", 51],
    ["XFD", 16383],
  ])("column %s is index %i and back", (letters, index) => {
    expect(columnIndex(letters)).toBe(index);
    expect(columnLetters(index)).toBe(letters);
  });

  it.each([
    ["Sheet1!B2:D4", "B2:D4"],
    ["'Q1 comps'!$C$7", "$C$7"],
    ["'It''s!odd'!A1", "A1"],
    ["B2", "B2"],
  ])("%s without its sheet is %s", (address, local) => {
    expect(withoutSheet(address)).toBe(local);
  });

  it("parses a range in either corner order", () => {
    expect(parseRange("D4:B2")).toEqual({ top: 1, left: 1, bottom: 3, right: 3 });
  });

  it("rejects an address that is not A1", () => {
    expect(() => parseRange("R1C1")).toThrow(/not a cell address/);
  });

  it("splits a big range into row bands under the cell cap, covering every row once", () => {
    const rect = parseRange("A1:J1000"); // 10 columns
    const bands = rowBands(rect, 2500);
    expect(bands.every((b) => (b.bottom - b.top + 1) * 10 <= 2500)).toBe(true);
    expect(bands[0].top).toBe(0);
    expect(bands[bands.length - 1].bottom).toBe(999);
    bands.slice(1).forEach((band, i) => expect(band.top).toBe(bands[i].bottom + 1));
  });
});

describe("findMdCells", () => {
  it("finds the formula cells that call MD, at their sheet positions", () => {
    const cells = findMdCells({
      cells: [
        { address: "C3", formula: '=MD.SERIES("eth","PRICE","-1D")', value: "Date" },
        { address: "E3", formula: "=C3*2", value: 0 },
        { address: "E4", formula: '=IFERROR(MD.AGG("eth","FEES","30D"),0)', value: 12.5 },
        { address: "C5", formula: '="MD.LATEST"', value: "MD.LATEST" },
        { address: "E5", formula: '=MD.LATEST("btc","PRICE")*2', value: "#N/A" },
      ],
    });
    expect(cells.map((c) => [c.address, c.formula])).toEqual([
      ["C3", '=MD.SERIES("eth","PRICE","-1D")'],
      ["E4", '=IFERROR(MD.AGG("eth","FEES","30D"),0)'],
      ["E5", '=MD.LATEST("btc","PRICE")*2'],
    ]);
  });

  it.each([
    ["a catalog title an MD.ASSETS table spilled", '=HYPERLINK("http://evil.example/",MD.VERSION())'],
    ["text Freeze wrote with an apostrophe", '=MD.LATEST("eth","PRICE")'],
    ["a user's own quoted note", '=MD.SERIES("eth","PRICE") is how we fetch prices'],
  ])("never takes %s for a formula: Range.formulas returns a constant's value", (_, text) => {
    // What Excel reports for a value cell: its `formulas` entry is its value (apostrophe dropped, office-js #6687).
    expect(findMdCells({ cells: [{ address: "B2", formula: text, value: text }] })).toEqual([]);
    expect(holdsFormula({ formula: text, value: text })).toBe(false);
  });

  it("tells a formula from a constant by its value, whatever the result's type", () => {
    expect(holdsFormula({ formula: '=MD.LATEST("eth","PRICE")', value: 1800.5 })).toBe(true);
    expect(holdsFormula({ formula: '=MD.LATEST("eth","PRICE")', value: "#N/A" })).toBe(true);
    expect(holdsFormula({ formula: "=MD.VERSION()", value: "0.1.0" })).toBe(true);
    expect(holdsFormula({ formula: '=ISNUMBER(MD.LATEST("eth","PRICE"))', value: true })).toBe(true);
    expect(holdsFormula({ formula: 1800.5, value: 1800.5 })).toBe(false);
  });

  it("finds nothing on a sheet without formula cells", () => {
    expect(findMdCells({ cells: [] })).toEqual([]);
  });
});

describe("planBlocks", () => {
  const cell = (address: string): FormulaCell => {
    const { top, left } = parseRange(address);
    return { row: top, col: left, address, formula: `=MD.LATEST("${address}","PRICE")` };
  };

  it("writes a solid block as one rectangle, formulas in place", () => {
    const cells = ["B2", "C2", "B3", "C3", "B4", "C4"].map(cell);
    const blocks = planBlocks(cells);
    expect(blocks.map((b) => b.address)).toEqual(["B2:C4"]);
    expect(blocks[0].formulas).toEqual([
      [cells[0].formula, cells[1].formula],
      [cells[2].formula, cells[3].formula],
      [cells[4].formula, cells[5].formula],
    ]);
  });

  it("never covers a cell that is not an MD cell", () => {
    // An L shape and a gap: B2:C2 then B3 alone, then B5 after an empty row.
    const blocks = planBlocks(["B2", "C2", "B3", "B5"].map(cell));
    expect(blocks.map((b) => b.address)).toEqual(["B2:C2", "B3", "B5"]);
  });

  it("covers exactly the given cells, each once, for any set of cells", () => {
    const position = fc.record({ row: fc.integer({ min: 0, max: 12 }), col: fc.integer({ min: 0, max: 8 }) });
    fc.assert(
      fc.property(fc.uniqueArray(position, { selector: (p) => `${p.row}:${p.col}`, maxLength: 60 }), (positions) => {
        const cells = positions.map((p) => cell(cellAddress(p.row, p.col)));
        const covered: string[] = [];
        for (const block of planBlocks(cells)) {
          const r = parseRange(block.address);
          block.formulas.forEach((line, i) =>
            line.forEach((formula, j) => {
              const address = cellAddress(r.top + i, r.left + j);
              covered.push(address);
              expect(formula).toBe(cell(address).formula);
            }),
          );
        }
        expect([...covered].sort()).toEqual(cells.map((c) => c.address).sort());
      }),
    );
  });
});
