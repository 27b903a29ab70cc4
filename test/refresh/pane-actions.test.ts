/** @jest-environment jsdom */
// jsdom: the freeze log is written with the DOM's XML serializer, as in the pane's page.
import { qualifiedAddress } from "../../src/refresh/a1";
import { createPaneRefreshActions, paneRefreshResult, type PaneRefreshActions } from "../../src/refresh/pane-actions";
import type { RefreshReport } from "../../src/refresh/refresh-all";
import { RefreshController, SIGN_IN_TO_REFRESH } from "../../src/refresh/refresh-controller";
import { compsWorkbook, OPENED_WITH_DOCUMENT } from "../support/recordings";
import { openRecordedWorkbook } from "../support/open-workbook";

const report = (patch: Partial<RefreshReport>): RefreshReport => ({
  startedAt: "2025-03-03T09:30:00.000Z",
  ms: 1234,
  cells: 12,
  sheets: ["Comps"],
  failed: [],
  method: "recalculate",
  pending: [],
  running: 0,
  skipped: [],
  notes: [],
  ...patch,
});

describe("the pane's refresh actions", () => {
  it.each([
    ["Comps", "B4", "Comps!B4"],
    ["Q1 comps", "C7", "'Q1 comps'!C7"],
    ["Bob's", "A1", "'Bob''s'!A1"],
    ["A1", "B2", "'A1'!B2"],
  ])("names %s!%s as Excel would: %s", (sheet, address, qualified) => {
    expect(qualifiedAddress(sheet, address)).toBe(qualified);
  });

  it("passes cells, time and failures by address; no note when the counts tell the story", () => {
    const result = paneRefreshResult(
      report({ failed: [{ sheet: "Q1 comps", address: "B5", error: "#N/A", message: "No data." }] }),
    );
    expect(result).toEqual({ cells: 12, ms: 1234, failures: [{ address: "'Q1 comps'!B5", message: "#N/A No data." }] });
  });

  it("adds a note when sheets were skipped or cells are still calculating", () => {
    const skipped = paneRefreshResult(
      report({ skipped: [{ sheet: "Locked", cells: 2, message: 'Sheet "Locked" is protected.' }] }),
    );
    expect(skipped.note).toMatch(/Refreshed 12 MD cells.*Locked" is protected/);
    const pending = paneRefreshResult(report({ pending: [{ sheet: "Comps", address: "B2" }] }));
    expect(pending.note).toMatch(/1 cell still calculating/);
  });

  function actionsFor(key: { apiKey: string; usingDefaultKey: boolean }) {
    const fixture = compsWorkbook({ afterMs: 2 });
    const { standIn, workbook, calls } = openRecordedWorkbook(fixture.recording);
    const controller = new RefreshController({
      workbook,
      clearCache: () => {},
      readKey: async () => key,
      calls,
      refreshOptions: { pollMs: 2 },
    });
    // Type check: the contract the pane's Refresh section is written against.
    const actions: PaneRefreshActions = createPaneRefreshActions(controller);
    return { fixture, standIn, actions };
  }

  it("without a key, answers with the sign-in note instead of refreshing", async () => {
    const { actions, standIn } = actionsFor({ apiKey: "", usingDefaultKey: true });
    expect(await actions.refreshAll()).toEqual({ cells: 0, ms: 0, note: SIGN_IN_TO_REFRESH });
    expect(standIn.log.formulaWrites).toEqual([]);
    expect(standIn.log.calculations).toEqual([]);
  });

  it("freezes and reports the cells now holding values", async () => {
    const { actions, fixture, standIn } = actionsFor({ apiKey: "k", usingDefaultKey: false });
    const result = await actions.freezeToValues("sheet");
    const comps = fixture.md.filter((c) => c.sheet === "Comps");
    expect(result.cells).toBe(comps.length);
    for (const c of comps) expect(standIn.cell("Comps", c.address).formula).toBeNull();
  });

  it("rejects with the reason when the workbook refuses the setting", async () => {
    const fixture = compsWorkbook();
    const { workbook, calls } = openRecordedWorkbook({
      ...fixture.recording,
      startupBehaviorFails: "not supported here",
    });
    const controller = new RefreshController({
      workbook,
      clearCache: () => {},
      readKey: async () => ({ apiKey: "k", usingDefaultKey: false }),
      calls,
    });
    await expect(createPaneRefreshActions(controller).setRefreshOnOpen(true)).rejects.toThrow(/not supported here/);
  });
});

describe("sign in to refresh", () => {
  it("clears once the user's own key is saved and the pane asks again", async () => {
    let key = { apiKey: "md-sandbox-demo", usingDefaultKey: true };
    const fixture = compsWorkbook();
    const { workbook, calls } = openRecordedWorkbook({
      ...fixture.recording,
      documentSettings: { "md.refreshOnOpen": true },
    });
    const controller = new RefreshController({
      workbook,
      clearCache: () => {},
      readKey: async () => key,
      calls,
    });
    const actions = createPaneRefreshActions(controller);
    await controller.runOnOpen(OPENED_WITH_DOCUMENT);
    expect(actions.getState().signInRequired).toBe(true);
    key = { apiKey: "user-entered-key", usingDefaultKey: false };
    await actions.checkKey();
    expect(actions.getState()).toMatchObject({ signInRequired: false, keyStatus: "user" });
  });
});

describe("a failed refresh after an on-open sign-in notice", () => {
  it("reports the failure, not the sign-in note", async () => {
    const fixture = compsWorkbook();
    const { workbook, calls } = openRecordedWorkbook({
      ...fixture.recording,
      documentSettings: { "md.refreshOnOpen": true },
    });
    const controller = new RefreshController({
      workbook: { ...workbook, listSheets: () => Promise.reject(new Error("Excel is busy editing a cell.")) },
      clearCache: () => {},
      readKey: async () => ({ apiKey: "md-sandbox-demo", usingDefaultKey: true }),
      calls,
    });
    await controller.runOnOpen(OPENED_WITH_DOCUMENT);
    expect(controller.getState().signInRequired).toBe(true);
    await expect(createPaneRefreshActions(controller).refreshAll()).rejects.toThrow("Excel is busy editing a cell.");
  });
});
