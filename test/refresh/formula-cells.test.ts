import fc from "fast-check";
import { cellAddress, columnIndex, columnLetters, parseRange, rowBands, withoutSheet } from "../../src/refresh/a1";
import { findMdCells, planBlocks, type FormulaCell } from "../../src/refresh/formula-cells";

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
  it("finds MD formulas at their sheet positions, spilled arrays once at the anchor", () => {
    // Used range C3:E5. C3 spills a 2×2 table into C3:D4: D3, C4 and D4 report values, not the formula.
    const formulas = [
      ['=MD.SERIES("eth","PRICE","-1D")', "PRICE", "=C3*2"],
      [45000, 1800.5, '=IFERROR(MD.AGG("eth","FEES","30D"),0)'],
      ['="MD.LATEST"', 'MD.LATEST("x")', '=MD.LATEST("btc","PRICE")*2'],
    ];
    const cells = findMdCells({ name: "S", protected: false, usedAddress: "C3:E5", formulas });
    expect(cells.map((c) => [c.address, c.formula])).toEqual([
      ["C3", formulas[0][0]],
      ["E4", formulas[1][2]],
      ["E5", formulas[2][2]],
    ]);
  });

  it("finds nothing on an empty sheet", () => {
    expect(findMdCells({ name: "S", protected: false, usedAddress: null, formulas: [] })).toEqual([]);
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
