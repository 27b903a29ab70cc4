/**
 * Inserting a sheet plan through the workbook stand-in (Excel's documented
 * behaviour for adding worksheets, see workbook-stand-in/worksheet.ts): a free name
 * whatever the case of the names taken, everything in one batch that waits
 * out cell edit, the new sheet shown; a plan Excel refuses part of leaves no
 * sheet behind; and the stand-in refuses what Excel refuses.
 */
import { runBatch, type ExcelRunner } from "../../../src/office/workbook/excel-batch";
import { insertSheetPlan, type SheetPlan } from "../../../src/office/workbook/sheet-insert";
import { openRecordedWorkbook } from "../../support/open-workbook";
import type { WorkbookRecording } from "../../support/workbook-stand-in";

const PLAN: SheetPlan = {
  sheetName: "Prices",
  cells: [{ at: "A1", rows: [["Asset", "Price"], ["eth", '=MD.LATEST("eth","PRICE")'], ["sol"]] }],
  numberFormats: [{ range: "B2:B3", format: "$#,##0.00" }],
  bold: ["A1:B1"],
  columnWidths: [{ columns: "A:B", width: 80 }],
  chart: { type: "ColumnClustered", source: "B1:B3", categories: "A2:A3", title: "Price", position: "D1:J14" },
};

function workbookWith(names: string[], extra: Partial<WorkbookRecording> = {}) {
  return openRecordedWorkbook({
    sheets: names.map((name) => ({ name, cells: {} })),
    activeSheet: names[0],
    selection: { sheet: names[0], areas: ["A1"] },
    results: {},
    ...extra,
  });
}

describe("insertSheetPlan", () => {
  it("adds the sheet under a free name (names compare without case), writes it, and shows it, in one batch", async () => {
    const { standIn, globals } = workbookWith(["Sheet1", "PRICES"]);
    await expect(insertSheetPlan(globals.Excel as ExcelRunner, PLAN)).resolves.toEqual({ sheet: "Prices (2)" });
    expect(standIn.sheetNames()).toEqual(["Sheet1", "PRICES", "Prices (2)"]);
    expect(standIn.activeSheet()).toBe("Prices (2)");
    expect(standIn.log.runs).toBe(1);
    expect(standIn.log.runOptions).toEqual([{ delayForCellEdit: true }]);
    expect(standIn.log.syncs).toBe(2);
    expect(standIn.cell("Prices (2)", "B2").formula).toBe('=MD.LATEST("eth","PRICE")');
    expect(standIn.cell("Prices (2)", "A3").value).toBe("sol");
    expect(standIn.display("Prices (2)", "B3").own).toBe("$#,##0.00");
    expect([standIn.isBold("Prices (2)", "B1"), standIn.isBold("Prices (2)", "A2")]).toEqual([true, false]);
    expect([standIn.columnWidth("Prices (2)", "A"), standIn.columnWidth("Prices (2)", "C")]).toEqual([80, null]);
    expect(standIn.log.charts).toEqual([
      {
        sheet: "Prices (2)",
        type: "ColumnClustered",
        source: "B1:B3",
        seriesBy: "Columns",
        categories: "A2:A3",
        title: "Price",
        position: { start: "D1", end: "J14" },
      },
    ]);
  });

  it("waits while the user is typing in a cell, then inserts", async () => {
    const { standIn, globals } = workbookWith(["Sheet1"], { inCellEdit: true });
    const inserted = insertSheetPlan(globals.Excel as ExcelRunner, PLAN);
    await new Promise((resolve) => setImmediate(resolve));
    expect(standIn.sheetNames()).toEqual(["Sheet1"]);
    standIn.endCellEdit();
    await expect(inserted).resolves.toEqual({ sheet: "Prices" });
  });

  it("a plan Excel refuses part of fails with Excel's reason and leaves no half-made sheet", async () => {
    const { standIn, globals } = workbookWith(["Sheet1"], { excelApi: "1.1" });
    await expect(insertSheetPlan(globals.Excel as ExcelRunner, PLAN)).rejects.toThrow(
      "RangeFormat.columnWidth needs ExcelApi 1.2",
    );
    expect(standIn.sheetNames()).toEqual(["Sheet1"]);
    expect(standIn.activeSheet()).toBe("Sheet1");
  });
});

describe("the stand-in's worksheets.add keeps Excel's rules", () => {
  it.each<[string, string]>([
    ["a:b", "InvalidArgument"],
    ["x".repeat(32), "InvalidArgument"],
    ["History", "InvalidArgument"],
    ["sheet1", "ItemAlreadyExists"],
  ])("%j is refused with %s", async (name, code) => {
    const { standIn, globals } = workbookWith(["Sheet1"]);
    const adding = runBatch(globals.Excel as ExcelRunner, async (context) => {
      context.workbook.worksheets.add(name);
      await context.sync();
    });
    await expect(adding).rejects.toMatchObject({ code });
    expect(standIn.sheetNames()).toEqual(["Sheet1"]);
  });
});
