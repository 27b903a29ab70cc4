/**
 * What changed on Refresh all (src/refresh/refresh-changes.ts): the MD cells
 * whose values changed (old → new, by how much) and the cells that became
 * errors, read from the refresh's own scan (before) and result read (after),
 * kept by the pane's actions for the last refresh. Against the workbook stand-in.
 */
import { createPaneRefreshActions } from "../../src/refresh/pane-actions";
import { RefreshController } from "../../src/refresh/refresh-controller";
import { openRecordedWorkbook } from "../support/open-workbook";
import type { WorkbookRecording } from "../support/workbook-stand-in";

const recording = (): WorkbookRecording => ({
  sheets: [
    {
      name: "Q1 comps",
      cells: {
        A1: { value: "label" },
        B1: { formula: '=MD.LATEST("btc","PRICE")', value: 100 },
        B2: { formula: '=MD.LATEST("eth","PRICE")', value: 50 },
        B3: { formula: '=MD.LATEST("gone","PRICE")', value: 7 },
        B4: { formula: '=MD.LATEST("bad","PRICE")', value: "#N/A" },
        B5: { formula: '=MD.LATEST("txt","NAME")', value: "old" },
      },
    },
  ],
  activeSheet: "Q1 comps",
  selection: { sheet: "Q1 comps", areas: ["A1"] },
  results: {
    '=MD.LATEST("btc","PRICE")': { value: 110, afterMs: 1 },
    '=MD.LATEST("eth","PRICE")': { value: 50, afterMs: 1 },
    '=MD.LATEST("gone","PRICE")': { value: "#N/A", afterMs: 1 },
    '=MD.LATEST("bad","PRICE")': { value: "#N/A", afterMs: 1 },
    '=MD.LATEST("txt","NAME")': { value: "new", afterMs: 1 },
  },
});

function actions() {
  const { workbook, calls } = openRecordedWorkbook(recording());
  let now = 1_000;
  const controller = new RefreshController({
    workbook,
    clearCache: () => {},
    readKey: async () => ({ apiKey: "k", usingDefaultKey: false }),
    calls,
    refreshOptions: { pollMs: 2 },
  });
  return createPaneRefreshActions(controller, () => (now += 10));
}

describe("what changed on Refresh all", () => {
  it("lists the cells whose values changed, by how much, and the cells that became errors; nothing before a refresh", async () => {
    const pane = actions();
    expect(pane.lastChanges()).toBeNull();
    const result = await pane.refreshAll();
    const expected = [
      { sheet: "Q1 comps", address: "B1", was: 100, now: 110, by: 10 },
      { sheet: "Q1 comps", address: "B3", was: 7, now: "#N/A", error: true },
      { sheet: "Q1 comps", address: "B5", was: "old", now: "new" },
    ];
    expect(result.changes).toEqual(expected);
    const kept = pane.lastChanges();
    expect(kept?.cells).toEqual(expected);
    expect(typeof kept?.startedAt).toBe("number");
  });

  it("keeps the last refresh's changes: a second refresh with nothing new lists none", async () => {
    const pane = actions();
    await pane.refreshAll();
    await pane.refreshAll();
    expect(pane.lastChanges()?.cells).toEqual([]);
  });
});
