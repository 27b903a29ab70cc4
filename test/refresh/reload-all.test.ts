/**
 * "Reload everything": Refresh all with the data stored on this computer
 * dropped first — from the pane's Refresh section and from the ribbon — so a
 * history the service revised comes back revised.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createClient } from "../../src/api/client";
import { openSeriesStore } from "../../src/api/store/persistent-store";
import {
  REFRESH_ALL_COMMAND,
  RELOAD_ALL_COMMAND,
  registerCommands,
  getRefreshController,
} from "../../src/office/commands";
import { getRuntime } from "../../src/office/runtime";
import { createPaneRefreshActions } from "../../src/refresh/pane-actions";
import { RefreshController } from "../../src/refresh/refresh-controller";
import { DEMO_API_KEY, startSandbox } from "../../sandbox/server";
import { compsWorkbook } from "../support/recordings";
import { installWorkbookStandIn, type WorkbookStandIn } from "../support/workbook-stand-in";
import { openRecordedWorkbook } from "../support/open-workbook";
import { TEST_TODAY } from "../support/today";
import { freshIndexedDb } from "../support/fake-idb";

function controllerWith(events: string[], standIn?: { current?: WorkbookStandIn }) {
  const fixture = compsWorkbook({ afterMs: 2 });
  const { standIn: installed, workbook, calls } = openRecordedWorkbook(fixture.recording);
  if (standIn) standIn.current = installed;
  const controller = new RefreshController({
    workbook,
    clearCache: (options) =>
      void events.push(
        `clear cache${options?.recheckHistory ? " and recheck history" : ""} after ${installed.log.calculations.length} calculations`,
      ),
    clearStored: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push(`clear stored after ${installed.log.calculations.length} calculations`);
    },
    readKey: async () => ({ apiKey: "user-entered-key", usingDefaultKey: false }),
    calls,
    refreshOptions: { pollMs: 2 },
  });
  return { controller, fixture, standIn: installed };
}

describe("Reload everything", () => {
  it("drops the stored data, then the cache, before any cell is calculated, then refreshes every MD cell", async () => {
    const events: string[] = [];
    const { controller, fixture, standIn } = controllerWith(events);
    const report = await controller.reloadAll("pane");
    expect(events).toEqual(["clear stored after 0 calculations", "clear cache after 0 calculations"]);
    expect(report?.cells).toBe(fixture.md.length);
    expect(standIn.log.calculations.length).toBe(report?.cells);
  });

  it("Refresh all keeps the stored data", async () => {
    const events: string[] = [];
    const { controller } = controllerWith(events);
    await controller.refreshAll("pane");
    expect(events).toEqual(["clear cache after 0 calculations"]);
  });

  it("Refresh all told to recheck history tells the cache so, before any cell is calculated", async () => {
    const events: string[] = [];
    const { controller, fixture, standIn } = controllerWith(events);
    const report = await createPaneRefreshActions(controller).refreshAll({ recheckHistory: true });
    expect(events).toEqual(["clear cache and recheck history after 0 calculations"]);
    expect(report.cells).toBe(fixture.md.length);
    expect(standIn.log.calculations.length).toBe(report.cells);
  });

  it("asked for while a refresh runs, follows it instead of joining it", async () => {
    const events: string[] = [];
    const { controller, fixture } = controllerWith(events);
    const cells = fixture.md.length;
    const refresh = controller.refreshAll("pane");
    const reload = controller.reloadAll("pane");
    expect(controller.reloadAll("pane")).toBe(reload); // a second click joins the reload
    await Promise.all([refresh, reload]);
    expect(events).toEqual([
      "clear cache after 0 calculations",
      `clear stored after ${cells} calculations`,
      `clear cache after ${cells} calculations`,
    ]);
  });

  it("the pane's action reports like Refresh all", async () => {
    const { controller, fixture } = controllerWith([]);
    const result = await createPaneRefreshActions(controller).reloadAll();
    expect(result.cells).toBe(fixture.md.length);
  });

  it("picks up a history the service revised, which a refresh keeps from the store", async () => {
    const sandbox = await startSandbox({ port: 0, today: TEST_TODAY });
    try {
      const store = openSeriesStore({ indexedDB: freshIndexedDb() });
      const client = createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }), store });
      const fixture = compsWorkbook({ afterMs: 2 });
      const { workbook, calls } = openRecordedWorkbook(fixture.recording);
      const controller = new RefreshController({
        workbook,
        clearCache: () => client.clear(),
        clearStored: () => client.clearStored(),
        readKey: async () => ({ apiKey: "user-entered-key", usingDefaultKey: false }),
        calls,
        refreshOptions: { pollMs: 2 },
      });
      const req = { symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-01-31" };
      const before = await client.getSeries(req);
      sandbox.setRevision(1);
      await controller.refreshAll("pane");
      expect(await client.getSeries(req)).toEqual(before);
      await controller.reloadAll("pane");
      const after = await client.getSeries(req);
      if (before.kind !== "points" || after.kind !== "points") throw new Error("expected points");
      expect(after.points.map((p) => p.val)).toEqual(before.points.map((p) => (p.val === null ? null : p.val * 2)));
      store.close();
    } finally {
      await sandbox.close();
    }
  });
});

describe("ribbon command: Reload everything", () => {
  it("is an ExecuteFunction button whose FunctionName is the associated command", () => {
    const manifest = readFileSync(path.resolve(__dirname, "../../manifest.xml"), "utf8");
    const control =
      /<Control xsi:type="Button" id="MarketData\.ReloadAll">([\s\S]*?)<\/Control>/.exec(manifest)?.[1] ?? "";
    expect(control).toContain('<Action xsi:type="ExecuteFunction">');
    expect(/<FunctionName>([^<]+)<\/FunctionName>/.exec(control)?.[1]).toBe(RELOAD_ALL_COMMAND);
    expect(manifest).toMatch(/<bt:String id="ReloadAll.Label" DefaultValue="Reload everything" \/>/);
  });

  it("is associated beside Refresh all", () => {
    const associated: string[] = [];
    registerCommands({ actions: { associate: (id: string) => void associated.push(id) } });
    expect(associated).toEqual([REFRESH_ALL_COMMAND, RELOAD_ALL_COMMAND]);
  });

  it("completes its event at once, drops the runtime's stored data and refreshes every MD cell", async () => {
    const fixture = compsWorkbook({ afterMs: 5 });
    const globals = globalThis as Record<string, unknown>;
    const standIn = installWorkbookStandIn(globals, fixture.recording);
    const runtime = getRuntime();
    await runtime.settings.setApiKey("user-entered-key");
    const clearStored = jest.spyOn(runtime.client, "clearStored");
    expect(registerCommands()).toBe(true);

    const { completed } = await standIn.runCommand(RELOAD_ALL_COMMAND);
    expect(completed).toBe(true);
    const report = await getRefreshController().reloadAll("ribbon"); // joins the running reload
    expect(clearStored).toHaveBeenCalledTimes(1);
    expect(report?.cells).toBe(fixture.md.length);
    expect(getRefreshController().getState().lastRefreshTrigger).toBe("ribbon");
    delete globals.Excel;
    delete globals.Office;
  });
});
