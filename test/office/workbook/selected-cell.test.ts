/**
 * The pane follows Excel's selection (src/office/workbook/selected-cell.ts):
 * Office's DocumentSelectionChanged event tells it the selection moved, one
 * batch reads the cell and, inside a spill, its anchor's formula; `select`
 * moves the selection (Range.select). Against the workbook stand-in.
 */
import { cellSelectionFor } from "../../../src/office/workbook/selected-cell";
import { openRecordedWorkbook } from "../../support/open-workbook";
import type { WorkbookRecording } from "../../support/workbook-stand-in";

const recording = (): WorkbookRecording => ({
  sheets: [
    {
      name: "Model",
      cells: {
        A1: { value: "BTC" },
        B1: { formula: '=MD.LATEST("btc","PRICE")', value: 101 },
        A3: {
          formula: '=MD.SERIES("eth","PRICE","-2D")',
          spill: [
            ["Date", "eth PRICE"],
            [45000, 1],
            [45001, 2],
          ],
        },
      },
    },
  ],
  activeSheet: "Model",
  selection: { sheet: "Model", areas: ["A1"] },
  results: {},
});

/** The next selection change, as the pane hears it. */
function nextChange(selection: ReturnType<typeof cellSelectionFor>): Promise<void> {
  return new Promise((resolve) => {
    const stop = selection.watch(() => {
      stop();
      resolve();
    });
  });
}

describe("the selected cell, followed", () => {
  it.each([
    ["A1", { sheet: "Model", address: "A1", formulaCell: "A1", formula: null, spilled: false }],
    ["B1", { sheet: "Model", address: "B1", formulaCell: "B1", formula: '=MD.LATEST("btc","PRICE")', spilled: false }],
    [
      "A3",
      { sheet: "Model", address: "A3", formulaCell: "A3", formula: '=MD.SERIES("eth","PRICE","-2D")', spilled: false },
    ],
    [
      "B5",
      { sheet: "Model", address: "B5", formulaCell: "A3", formula: '=MD.SERIES("eth","PRICE","-2D")', spilled: true },
    ],
  ])("a user selects %s: the pane hears it and reads the cell (a spill's anchor)", async (address, expected) => {
    const { standIn, globals } = openRecordedWorkbook(recording());
    const selection = cellSelectionFor(globals as never);
    const heard = nextChange(selection);
    standIn.select("Model", [address]);
    await heard;
    expect(await selection.read()).toEqual(expected);
  });

  it("select() moves Excel's selection, and the pane hears that too", async () => {
    const { standIn, globals } = openRecordedWorkbook(recording());
    const selection = cellSelectionFor(globals as never);
    const heard = nextChange(selection);
    await selection.select("Model", "B1");
    await heard;
    expect(standIn.selection()).toEqual({ sheet: "Model", areas: ["B1"] });
  });

  it("stops hearing once unsubscribed", async () => {
    const { standIn, globals } = openRecordedWorkbook(recording());
    const selection = cellSelectionFor(globals as never);
    let heard = 0;
    const stop = selection.watch(() => (heard += 1));
    const other = nextChange(selection);
    stop();
    standIn.select("Model", ["B1"]);
    await other;
    expect(heard).toBe(0);
  });
});
