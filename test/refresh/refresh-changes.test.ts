/**
 * What changed on Refresh all (src/refresh/refresh-changes.ts): the MD cells
 * whose values changed (old → new, by how much) and the cells that became
 * errors, read from the refresh's own scan (before) and result read (after),
 * kept by the pane's actions for the last refresh. Against the workbook stand-in.
 */
import { createPaneRefreshActions } from "../../src/refresh/pane-actions";
import { RefreshController } from "../../src/refresh/refresh-controller";
import { MAX_CHANGES_PER_TABLE } from "../../src/refresh/refresh-changes";
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

/** The pane's refresh actions over the stand-in opened on `book`, on a clock that moves on 10 ms each time it is read. */
function actions(book: WorkbookRecording = recording()) {
  const { workbook, calls } = openRecordedWorkbook(book);
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

describe("what changed in a spilled table", () => {
  const TABLE = '=MD.SERIES("eth","PRICE","-3D")';
  const BIG = '=MD.SERIES("btc","PRICE","-40D")';
  const days = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `2024-05-${String(from + i).padStart(2, "0")}`);
  const bigBefore = [["Date", "PRICE"], ...days(1, 30).map((d, i) => [d, 100 + i])];
  const bigAfter = [["Date", "PRICE"], ...days(1, 30).map((d, i) => [d, 200 + i])];
  const spills = (): WorkbookRecording => ({
    sheets: [
      {
        name: "Model",
        cells: {
          D2: {
            formula: TABLE,
            spill: [
              ["Date", "PRICE"],
              ["2024-05-01", 10],
              ["2024-05-02", 11],
              ["2024-05-03", 12],
            ],
          },
          H2: { formula: BIG, spill: bigBefore },
        },
      },
    ],
    activeSheet: "Model",
    selection: { sheet: "Model", areas: ["A1"] },
    results: {
      // The window moved on a day (2024-05-01 out, 2024-05-04 in) and a recheck revised 2024-05-02.
      [TABLE]: {
        spill: [
          ["Date", "PRICE"],
          ["2024-05-02", 11.5],
          ["2024-05-03", 12],
          ["2024-05-04", 13],
        ],
        afterMs: 1,
      },
      [BIG]: { spill: bigAfter, afterMs: 1 },
    },
  });

  it("lists each cell whose value changed, matched by the table's first column, with its table; rows in and out counted; a table that all moved is bounded", async () => {
    const pane = actions(spills());
    const result = await pane.refreshAll();
    const inTable = (anchor: string) => (result.changes ?? []).filter((c) => c.table === anchor);
    // 2024-05-02's PRICE sits in E3 now (the row for that day): old → new, by how much.
    expect(inTable("D2")).toEqual([{ sheet: "Model", address: "E3", was: 11, now: 11.5, by: 0.5, table: "D2" }]);
    expect(inTable("H2")).toHaveLength(MAX_CHANGES_PER_TABLE);
    expect(inTable("H2")[0]).toEqual({ sheet: "Model", address: "I3", was: 100, now: 200, by: 100, table: "H2" });
    expect(pane.lastChanges()?.tables).toEqual([
      { sheet: "Model", anchor: "D2", changed: 1, rowsIn: 1, rowsOut: 1 },
      { sheet: "Model", anchor: "H2", changed: 30, rowsIn: 0, rowsOut: 0 },
    ]);
  });
});
