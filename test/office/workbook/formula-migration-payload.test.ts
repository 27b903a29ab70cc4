/**
 * Artemis convert and undo on a 20,000-formula workbook, against a stand-in
 * that refuses a sync over Excel on the web's 5 MB request or response
 * (test/support/workbook-stand-in/payload.ts, Microsoft Learn, "Performance
 * optimization using the Excel JavaScript API"), and a protected sheet
 * skipped with its reason instead of tried cell by cell.
 */
import { hasArtemisCall } from "../../../src/core/artemis";
import { excelMigrationWorkbook, type FormulaChange } from "../../../src/office/workbook/formula-migration";
import type { ExcelRunner } from "../../../src/office/workbook/excel-batch";
import { openRecordedWorkbook } from "../../support/open-workbook";
import type { WorkbookRecording } from "../../support/workbook-stand-in";
import { PAYLOAD_LIMIT_BYTES } from "../../support/workbook-stand-in/payload";

const ROWS = 10_000;
const original = (row: number) => `=ART("ETH","FEES","2024-01-${String((row % 28) + 1).padStart(2, "0")}")`;
const converted = (row: number) => `=MD.AGG("eth","FEES","2024-01-${String((row % 28) + 1).padStart(2, "0")}")`;

/** 20,000 ART formulas on "Big" (A1:B10000), 300 on the protected "Locked". */
function bigWorkbook(): WorkbookRecording {
  const big: Record<string, { formula: string; value: string }> = {};
  for (let row = 1; row <= ROWS; row += 1) {
    big[`A${row}`] = { formula: original(row), value: "#NAME?" };
    big[`B${row}`] = { formula: original(row + 1), value: "#NAME?" };
  }
  const locked: Record<string, { formula: string; value: string }> = {};
  for (let row = 1; row <= 300; row += 1) locked[`C${row}`] = { formula: original(row), value: "#NAME?" };
  return {
    sheets: [
      { name: "Big", cells: big },
      { name: "Locked", cells: locked, protected: true },
    ],
    activeSheet: "Big",
    selection: { sheet: "Big", areas: ["A1"] },
    results: {},
  };
}

function changesOf(found: readonly { sheet: string; address: string; formula: string }[]): FormulaChange[] {
  return found.map((cell) => {
    const row = Number(cell.address.slice(1));
    const to = converted(cell.address.startsWith("B") ? row + 1 : row);
    return { sheet: cell.sheet, address: cell.address, from: cell.formula, to };
  });
}

describe("a 20,000-formula Artemis workbook on Excel on the web", () => {
  it("converts and undoes within 5 MB per sync, the protected sheet skipped with its reason", async () => {
    const { standIn, globals } = openRecordedWorkbook(bigWorkbook());
    const office = globals.Office as { context: { requirements: { isSetSupported(n: string, v?: string): boolean } } };
    const book = excelMigrationWorkbook(globals.Excel as ExcelRunner, office.context.requirements);

    const found = await book.findFormulas(hasArtemisCall);
    expect(found).toHaveLength(2 * ROWS + 300);
    const syncs = standIn.log.syncs;
    const outcome = await book.replaceFormulas(changesOf(found));
    expect(outcome.written).toHaveLength(2 * ROWS);
    expect(outcome.changed).toEqual([]);
    expect(outcome.refused).toEqual([]);
    expect(outcome.skipped).toEqual([{ sheet: "Locked", cells: 300, reason: expect.stringMatching(/protected/) }]);
    expect(standIn.cell("Big", "A7").formula).toBe(converted(7));
    expect(standIn.cell("Big", "B7").formula).toBe(converted(8));
    expect(standIn.cell("Locked", "C7").formula).toBe(original(7));
    // The protected sheet's cells are not tried one sync each.
    expect(standIn.log.syncs - syncs).toBeLessThan(60);

    const undone = await book.replaceFormulas(
      outcome.written.map((cell) => {
        const row = Number(cell.address.slice(1));
        return { ...cell, from: cell.formula, to: original(cell.address.startsWith("B") ? row + 1 : row) };
      }),
    );
    expect(undone.written).toHaveLength(2 * ROWS);
    expect(standIn.cell("Big", "A7").formula).toBe(original(7));
    expect(standIn.cell("Big", "B10000").formula).toBe(original(10001));

    expect(standIn.log.payloadRefusals).toBe(0);
    expect(standIn.log.largestRequestBytes).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
    expect(standIn.log.largestResponseBytes).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
  });
});

describe("a cell Excel refuses among 20,000", () => {
  it("is named with its reason; the others are written, in a few syncs within 5 MB each", async () => {
    const { standIn, globals } = openRecordedWorkbook({
      ...bigWorkbook(),
      refuseWrites: [{ sheet: "Big", address: "B5000" }],
    });
    const book = excelMigrationWorkbook(globals.Excel as ExcelRunner);
    const found = (await book.findFormulas(hasArtemisCall)).filter((cell) => cell.sheet === "Big");
    const syncs = standIn.log.syncs;
    const outcome = await book.replaceFormulas(changesOf(found));
    expect(outcome.refused).toEqual([{ sheet: "Big", address: "B5000", reason: expect.stringMatching(/array/) }]);
    expect(outcome.written).toHaveLength(2 * ROWS - 1);
    expect(standIn.cell("Big", "B4999").formula).toBe(converted(5000));
    expect(standIn.cell("Big", "B5000").formula).toBe(original(5001));
    expect(standIn.log.syncs - syncs).toBeLessThan(60);
    expect(standIn.log.payloadRefusals).toBe(0);
  });
});
