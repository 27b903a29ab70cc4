/**
 * Finding MD formulas costs what the sheet's formulas cost, not what its
 * formatting covers. A sheet formatted down to row 1,048,576 has a used range
 * of a million rows (Worksheet.getUsedRange counts formatted cells unless
 * `valuesOnly` is true); reading `formulas` over it took 1,365 reads of 20,000
 * cells. The scan asks Excel for the formula cells instead
 * (Range.getSpecialCellsOrNullObject("Formulas"), ExcelApi 1.9) and reads only
 * those.
 */
import { MAX_CELLS_PER_SYNC } from "../../src/office/workbook/workbook";
import { findMdCells } from "../../src/refresh/formula-cells";
import { build, latest, type LabelledCell } from "../support/recordings";
import type { WorkbookRecording } from "../support/workbook-stand-in";
import { openRecordedWorkbook } from "../support/open-workbook";

/** `md` MD cells in column B, `other` plain formulas in column D, constants around them, every 7th row. */
function sheetWith(md: number, other: number, formattedTo?: string): WorkbookRecording {
  const cells: LabelledCell[] = [];
  for (let i = 0; i < Math.max(md, other); i += 1) {
    const row = 2 + i * 7;
    cells.push({ sheet: "Model", address: `A${row}`, cell: { value: `label ${i}` }, md: false });
    if (i < md)
      cells.push({ sheet: "Model", address: `B${row}`, cell: { formula: latest(`s${i}`), value: i }, md: true });
    if (i < other)
      cells.push({ sheet: "Model", address: `D${row}`, cell: { formula: `=C${row}*2`, value: 0 }, md: false });
  }
  const recording = build([{ name: "Model" }], cells).recording;
  recording.sheets[0].formattedTo = formattedTo;
  return recording;
}

function scan(recording: WorkbookRecording) {
  const { standIn, workbook } = openRecordedWorkbook(recording);
  return { standIn, read: () => workbook.readFormulaCells("Model") };
}

describe("the scan for MD formulas", () => {
  it("reads only formula cells: a sheet formatted to row 1,048,576 costs what its formulas cost", async () => {
    const plain = scan(sheetWith(50, 10));
    const formatted = scan(sheetWith(50, 10, "Z1048576"));
    const a = await plain.read();
    const b = await formatted.read();

    expect(findMdCells(b).map((c) => c.address)).toEqual(findMdCells(a).map((c) => c.address));
    expect(findMdCells(b)).toHaveLength(50);
    // 60 formula cells (50 MD, 10 others), read once each for formulas and once for values.
    expect(formatted.standIn.log.cellsLoaded).toBe(2 * 60);
    expect(formatted.standIn.log.cellsLoaded).toBe(plain.standIn.log.cellsLoaded);
    expect(formatted.standIn.log.syncs).toBe(plain.standIn.log.syncs);
    expect(formatted.standIn.log.syncs).toBeLessThanOrEqual(3);
  });

  it("grows with the number of formulas, not with the sheet", async () => {
    const small = scan(sheetWith(10, 0, "Z1048576"));
    const large = scan(sheetWith(1000, 0, "Z1048576"));
    await small.read();
    await large.read();
    expect(small.standIn.log.cellsLoaded).toBe(2 * 10);
    expect(large.standIn.log.cellsLoaded).toBe(2 * 1000);
  });

  it("reads a formula block larger than one request's cell cap in several syncs", async () => {
    const rows = MAX_CELLS_PER_SYNC + 5_000;
    const cells: LabelledCell[] = Array.from({ length: rows }, (_, i) => ({
      sheet: "Model",
      address: `B${i + 1}`,
      cell: { formula: latest("eth"), value: i },
      md: true,
    }));
    const big = scan(build([{ name: "Model" }], cells).recording);
    const result = await big.read();
    expect(result.cells).toHaveLength(rows);
    // used range, special cells, then two bands of formulas and values.
    expect(big.standIn.log.syncs).toBe(4);
    expect(big.standIn.log.cellsLoaded).toBe(2 * rows);
  });

  it("without special cells (before ExcelApi 1.9), reads the cells holding values, not the formatted ones", async () => {
    const old = scan({ ...sheetWith(50, 10, "Z1048576"), excelApi: "1.8" });
    const result = await old.read();
    expect(findMdCells(result)).toHaveLength(50);
    expect(old.standIn.log.unsupportedCalls).toEqual([]);
    // The used range of values: A2:D345 (4 columns × 344 rows), never a million rows.
    expect(old.standIn.log.cellsLoaded).toBe(2 * 4 * 344);
  });
});
