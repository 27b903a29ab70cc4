/** @jest-environment jsdom */
// jsdom: the freeze log is written and read with the DOM's XML parser and serializer, as in the pane's page.
/**
 * Freeze, Undo freeze and Refresh all's rewrite on a sheet of 20,000 MD
 * cells and a spill of 150,000, against a stand-in that refuses a sync over
 * Excel on the web's 5 MB request or response
 * (test/support/workbook-stand-in/payload.ts; Microsoft Learn, "Performance
 * optimization using the Excel JavaScript API"): every sync within it.
 */
import { findMdCells, planBlocks } from "../../src/refresh/formula-cells";
import type { Clock } from "../../src/refresh/clock";
import { freezeToValues, undoLastFreeze } from "../../src/refresh/freeze";
import { build, latest, type LabelledCell } from "../support/recordings";
import { openRecordedWorkbook } from "../support/open-workbook";
import { PAYLOAD_LIMIT_BYTES } from "../support/workbook-stand-in/payload";

const MD_CELLS = 20_000;
const SPILL_ROWS = 50_000;
const SERIES = '=MD.SERIES("eth,btc","PRICE","-50000D")';

function bigSheet() {
  const cells: LabelledCell[] = [];
  for (let row = 1; row <= MD_CELLS; row += 1)
    cells.push({
      sheet: "Model",
      address: `B${row}`,
      cell: { formula: latest(`s${row}`), value: row + 0.5 },
      md: true,
    });
  const spill = Array.from({ length: SPILL_ROWS }, (_, i) => [45000 + i, 1800 + i / 10, 60000 + i / 10]);
  cells.push({ sheet: "Model", address: "E1", cell: { formula: SERIES, spill }, md: true });
  return openRecordedWorkbook(build([{ name: "Model" }], cells).recording);
}

const at = (iso: string): Clock => ({ now: () => Date.parse(iso), sleep: async () => {} });

function expectWithinLimit(log: {
  payloadRefusals: number;
  largestRequestBytes: number;
  largestResponseBytes: number;
}) {
  expect(log.payloadRefusals).toBe(0);
  expect(log.largestRequestBytes).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
  expect(log.largestResponseBytes).toBeLessThanOrEqual(PAYLOAD_LIMIT_BYTES);
}

describe("20,000 MD cells and a 150,000-cell spill on Excel on the web", () => {
  it("Refresh all's rewrite stays within 5 MB a sync", async () => {
    const { standIn, workbook } = bigSheet();
    const scan = await workbook.readFormulaCells("Model");
    const outcome = await workbook.rewriteFormulas("Model", planBlocks(findMdCells(scan)));
    expect(outcome.written).toHaveLength(MD_CELLS + 1);
    expect(outcome.refused).toEqual([]);
    expectWithinLimit(standIn.log);
  });

  it("Freeze and Undo freeze stay within 5 MB a sync, the spill read and written in pieces", async () => {
    const { standIn, workbook } = bigSheet();
    const report = await freezeToValues(workbook, "sheet", { clock: at("2025-03-03T09:30:00.000Z") });
    expect(report.formulas).toBe(MD_CELLS + 1);
    expect(standIn.cell("Model", "B7").formula).toBeNull();
    expect(standIn.cell("Model", "B7").value).toBe(7.5);
    expect(standIn.cell("Model", `G${SPILL_ROWS}`).value).toBe(60000 + (SPILL_ROWS - 1) / 10);
    expectWithinLimit(standIn.log);

    const undone = await undoLastFreeze(workbook);
    expect(undone.restored).toHaveLength(MD_CELLS + 1);
    expect(standIn.cell("Model", "B7").formula).toBe(latest("s7"));
    expect(standIn.cell("Model", "E1").formula).toBe(SERIES);
    expectWithinLimit(standIn.log);
  });
});
