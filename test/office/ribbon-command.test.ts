/**
 * The ribbon's "Refresh all" button: manifest and code agree on the function
 * name, the command is associated through `Office.actions`, and running it
 * completes the event and refreshes through the page's one controller.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { OfficeMockObject } from "office-addin-mock";
import { OfficeApp } from "office-addin-manifest";
import { getRefreshController, REFRESH_ALL_COMMAND, registerCommands } from "../../src/office/commands";
import { getRuntime } from "../../src/office/runtime";
import { compsWorkbook } from "../support/recordings";
import { installWorkbookStandIn } from "../support/workbook-stand-in";

describe("ribbon command: Refresh all", () => {
  it("is an ExecuteFunction button whose FunctionName is the associated command", () => {
    const manifest = readFileSync(path.resolve(__dirname, "../../manifest.xml"), "utf8");
    const control =
      /<Control xsi:type="Button" id="MarketData\.RefreshAll">([\s\S]*?)<\/Control>/.exec(manifest)?.[1] ?? "";
    expect(control).toContain('<Action xsi:type="ExecuteFunction">');
    expect(/<FunctionName>([^<]+)<\/FunctionName>/.exec(control)?.[1]).toBe(REFRESH_ALL_COMMAND);
  });

  it("is associated through Office.actions", () => {
    const associated: string[] = [];
    const office = new OfficeMockObject(
      { actions: { associate: (id: string) => void associated.push(id) } },
      OfficeApp.Outlook,
    );
    expect(registerCommands(office as Parameters<typeof registerCommands>[0])).toBe(true);
    expect(associated).toContain(REFRESH_ALL_COMMAND);
  });

  it("is skipped where there is no ribbon", () => {
    expect(registerCommands(undefined)).toBe(false);
    expect(registerCommands({})).toBe(false);
  });

  it("completes its event at once and refreshes every MD cell", async () => {
    const fixture = compsWorkbook({ afterMs: 5 });
    const globals = globalThis as Record<string, unknown>;
    const standIn = installWorkbookStandIn(globals, fixture.recording);
    await getRuntime().settings.setApiKey("user-entered-key");
    expect(registerCommands()).toBe(true);

    const { completed } = await standIn.runCommand(REFRESH_ALL_COMMAND);
    expect(completed).toBe(true);
    const report = await getRefreshController().refreshAll("ribbon"); // joins the running refresh
    expect(report?.cells).toBe(fixture.md.length);
    expect(getRefreshController().getState().lastRefreshTrigger).toBe("ribbon");
    delete globals.Excel;
    delete globals.Office;
  });
});
