/**
 * Refresh, refresh on open and freeze, driven through the built pane in
 * headless Chromium. The page gets a recorded workbook in place of Excel:
 * `page.addInitScript` installs the stand-in (harness/workbook-stand-in/)
 * as `Excel` and `Office` before any page script runs (test/support/pane-page.ts).
 */
import type { Page } from "playwright-core";
import { REFRESH_ALL_COMMAND } from "../../src/office/commands";
import { REFRESH_ON_OPEN_SETTING } from "../../src/refresh/refresh-on-open";
import { build, cardsWorkbook, compsWorkbook, latest, type LabelledWorkbook } from "../support/recordings";
import type { StandInLog, WorkbookRecording } from "../support/workbook-stand-in";
import { describeBrowser, usePaneBrowser } from "../support/browser";
import { addWorkbookStandIn, gotoPane, startHidden, type PageWorkbook } from "../support/pane-page";

/** Retries `read` until it equals `expected` (or the time runs out, then fails showing the last value). */
async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!equals(last, expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    last = await read();
  }
  expect(last).toEqual(expected);
}
const equals = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describeBrowser("refresh in the task pane (headless Chromium, recorded workbook)", () => {
  const browser = usePaneBrowser();

  async function open(recording: WorkbookRecording, apiKey: string | null): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.session.context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await addWorkbookStandIn(page, recording, apiKey);
    await gotoPane(page, browser.pane.url);
    expect(await page.getByTestId("host").textContent()).toMatch(/Running in Excel/);
    return { page, errors };
  }

  async function openSettings(page: Page): Promise<void> {
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByTestId("refresh-section").waitFor();
  }

  const log = (page: Page) =>
    page.evaluate(() => (window as unknown as PageWorkbook).__workbook.log) as Promise<StandInLog>;
  const cell = (page: Page, sheet: string, address: string) =>
    page.evaluate(([s, a]) => (window as unknown as PageWorkbook).__workbook.cell(s, a), [sheet, address] as const);
  /** The custom functions Excel ran (the stand-in counts each on the runtime's CallTracker). */
  const ran = async (page: Page) => [...new Set((await log(page)).calculations)].sort();
  const refreshable = (fixture: LabelledWorkbook) => fixture.md.map((c) => `${c.sheet}!${c.address}`).sort();

  it("Refresh all recalculates every MD cell on every sheet, writes nothing, and the pane shows the count and the failures", async () => {
    const fixture = compsWorkbook();
    const { page, errors } = await open(fixture.recording, "user-entered-key");
    await openSettings(page);
    await page.getByRole("button", { name: "Refresh all MD formulas" }).click();

    const outcome = page.getByTestId("refresh-outcome");
    await outcome.waitFor();
    const failed = fixture.md.filter((c) => c.fresh?.value === "#N/A");
    expect(await ran(page)).toEqual(refreshable(fixture));
    expect((await log(page)).formulaWrites).toEqual([]);
    const text = await outcome.textContent();
    expect(text).toContain(`Refreshed ${refreshable(fixture).length} cells`);
    // The protected sheet was recalculated too: calculating is not a write.
    expect((await cell(page, "Locked", "B2")).value).toBe(200);
    // Fresh values landed; the error cells are the failures.
    for (const c of fixture.md.filter((m) => m.sheet === "Comps"))
      expect((await cell(page, c.sheet, c.address)).value).toBe(c.fresh?.value);
    expect(failed.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("lists failed cells by address when nothing else needs saying", async () => {
    const fixture = compsWorkbook();
    // Without the protected sheet the summary is the pane's own, with the failures listed.
    const recording = { ...fixture.recording, sheets: fixture.recording.sheets.filter((s) => s.name !== "Locked") };
    const { page } = await open(recording, "user-entered-key");
    await openSettings(page);
    await page.getByRole("button", { name: "Refresh all MD formulas" }).click();
    const outcome = page.getByTestId("refresh-outcome");
    await outcome.waitFor();
    const failed = fixture.md.filter((c) => c.fresh?.value === "#N/A").map((c) => `${c.sheet}!${c.address}`);
    const text = await outcome.textContent();
    expect(text).toMatch(new RegExp(`${failed.length} failed`));
    for (const address of failed) expect(text).toContain(`${address}: #N/A`);
    await page.close();
  });

  it("the ribbon's Refresh all command completes at once and refreshes the workbook", async () => {
    const fixture = compsWorkbook();
    const { page } = await open(fixture.recording, "user-entered-key");
    const associated = (await log(page)).associated;
    expect(associated).toContain(REFRESH_ALL_COMMAND);
    const result = await page.evaluate(
      (id) => (window as unknown as PageWorkbook).__workbook.runCommand(id),
      REFRESH_ALL_COMMAND,
    );
    expect(result.completed).toBe(true);
    await eventually(() => ran(page), refreshable(fixture));
    await page.close();
  });

  it("the refresh-on-open switch saves the choice in the workbook and sets the add-in's startup behaviour", async () => {
    const { page } = await open(compsWorkbook().recording, "user-entered-key");
    await openSettings(page);
    const toggle = page.getByRole("switch", { name: /when this workbook opens/ });
    expect(await toggle.isChecked()).toBe(false);

    await toggle.click();
    await eventually(async () => (await log(page)).startupBehavior, ["Load"]);
    const saved = () =>
      page.evaluate((key) => (window as unknown as PageWorkbook).__workbook.settings[key], REFRESH_ON_OPEN_SETTING);
    await eventually(saved, true);

    await toggle.click();
    await eventually(async () => (await log(page)).startupBehavior, ["Load", "None"]);
    await eventually(saved, false);
    expect((await log(page)).formulaWrites).toEqual([]);
    await page.close();
  });

  it("opening a workbook set to refresh on open, with the user's key, refreshes it without a click", async () => {
    const fixture = compsWorkbook();
    // Office saved the startup behaviour "Load" with the document: it loads the add-in, with no UI, as the
    // workbook opens — the runtime's page starts hidden, and that is the runtime's evidence of an open.
    const recording = {
      ...fixture.recording,
      documentSettings: { [REFRESH_ON_OPEN_SETTING]: true },
      startupBehavior: "Load" as const,
    };
    const page = await browser.session.context.newPage();
    await startHidden(page);
    await addWorkbookStandIn(page, recording, "user-entered-key");
    await page.goto(`${browser.pane.url}/taskpane.html`);
    await eventually(() => ran(page), refreshable(fixture));
    await page.close();
  });

  it("opening the pane later in a workbook set to refresh on open refreshes nothing, and says why", async () => {
    const fixture = compsWorkbook();
    // getStartupBehavior() still reads "Load" (it reports the next open), but the page started on screen.
    const recording = {
      ...fixture.recording,
      documentSettings: { [REFRESH_ON_OPEN_SETTING]: true },
      startupBehavior: "Load" as const,
    };
    const { page } = await open(recording, "user-entered-key");
    await openSettings(page);
    await page.getByText(/Excel did not load the add-in when the workbook opened/).waitFor();
    expect((await log(page)).calculations).toEqual([]);
    await page.close();
  });

  it("opening it without a key of the user's own refreshes nothing: the saved values stay", async () => {
    const fixture = compsWorkbook();
    const recording = { ...fixture.recording, documentSettings: { [REFRESH_ON_OPEN_SETTING]: true } };
    // The test build's default is the sandbox demo key, which refresh on open does not use.
    const { page } = await open(recording, null);
    await openSettings(page);
    await page.getByText(/Sign in to refresh/).waitFor();
    expect((await log(page)).formulaWrites).toEqual([]);
    expect((await log(page)).calculations).toEqual([]);
    for (const c of fixture.md) {
      expect((await cell(page, c.sheet, c.address)).value).toBe(c.cell.spill ? c.cell.spill[0][0] : c.cell.value);
    }
    await page.close();
  });

  it("Freeze selection to values freezes only the selected MD cells", async () => {
    const fixture = compsWorkbook();
    const { page } = await open(
      { ...fixture.recording, selection: { sheet: "Comps", areas: ["B3:D3"] } },
      "user-entered-key",
    );
    await openSettings(page);
    await page.getByRole("button", { name: "Freeze selection to values" }).click();
    await page.getByTestId("refresh-outcome").waitFor();
    for (const c of fixture.cells.filter((x) => x.sheet === "Comps")) {
      const selected = /^[BCD]3$/.test(c.address);
      const now = await cell(page, "Comps", c.address);
      expect([c.address, now.formula]).toEqual([c.address, selected && c.md ? null : (c.cell.formula ?? null)]);
      expect(now.value).toBe(c.cell.value);
    }
    await page.close();
  });

  it("Freeze sheet to values replaces the active sheet's MD formulas with their values", async () => {
    const fixture = compsWorkbook();
    const { page } = await open(fixture.recording, "user-entered-key");
    await openSettings(page);
    await page.getByRole("button", { name: "Freeze sheet to values" }).click();
    await page.getByTestId("refresh-outcome").waitFor();
    for (const c of fixture.cells.filter((x) => x.sheet === "Comps")) {
      const now = await cell(page, "Comps", c.address);
      expect([c.address, now.formula, now.value]).toEqual([
        c.address,
        c.md ? null : (c.cell.formula ?? null),
        c.cell.value,
      ]);
    }
    expect(await page.getByTestId("refresh-outcome").textContent()).toMatch(/Froze \d+ cells/);
    const parts = await page.evaluate(() => (window as unknown as PageWorkbook).__workbook.customXmlParts());
    expect(parts).toHaveLength(1);
    for (const c of fixture.md.filter((x) => x.sheet === "Comps"))
      expect(parts[0].xml).toContain(`address="${c.address}"`);
    await page.close();
  });

  it("Freeze sheet to values keeps each cell's format: dates, $ and % carried in the values", async () => {
    const series = '=MD.SERIES("eth","PRICE","-1D",,,"transform=pct")';
    const spill = [
      ["Date", "eth PRICE"],
      [
        { type: "Double", basicValue: 45719, numberFormat: "yyyy-mm-dd" },
        { type: "Double", basicValue: 0.0123, numberFormat: "0.00%" },
      ],
    ];
    const fixture = build(
      [{ name: "Report" }],
      [
        { sheet: "Report", address: "A1", cell: { formula: series, spill }, md: true },
        {
          sheet: "Report",
          address: "D1",
          cell: { formula: latest("eth"), value: { type: "Double", basicValue: 2553.26, numberFormat: "$#,##0.00" } },
          md: true,
        },
      ],
    );
    const { page } = await open(fixture.recording, "user-entered-key");
    await openSettings(page);
    await page.getByRole("button", { name: "Freeze sheet to values" }).click();
    await page.getByTestId("refresh-outcome").waitFor();
    const shown = await page.evaluate(() =>
      ["A1", "A2", "B2", "D1"].map((a) => {
        const workbook = (window as unknown as PageWorkbook).__workbook;
        return [
          a,
          workbook.cell("Report", a).formula,
          workbook.cell("Report", a).value,
          workbook.display("Report", a).format,
        ];
      }),
    );
    expect(shown).toEqual([
      ["A1", null, "Date", "General"],
      ["A2", null, 45719, "yyyy-mm-dd"],
      ["B2", null, 0.0123, "0.00%"],
      ["D1", null, 2553.26, "$#,##0.00"],
    ]);
    await page.close();
  });

  it("Freeze sheet to values and Undo last freeze keep MD.ASSET cards, the formatted table and the user's format", async () => {
    const fixture = cardsWorkbook();
    const { page, errors } = await open(fixture.recording, "user-entered-key");
    await openSettings(page);
    const shown = () =>
      page.evaluate(() =>
        ["A1", "B1", "D2", "E2", "G1"].map((a) => {
          const workbook = (window as unknown as PageWorkbook).__workbook;
          const { json } = workbook.display("Desk", a);
          return [
            a,
            workbook.cell("Desk", a).formula,
            json.text ?? json.basicValue,
            workbook.display("Desk", a).format,
          ];
        }),
      );
    const before = await shown();
    await page.getByRole("button", { name: "Freeze sheet to values" }).click();
    const outcome = page.getByTestId("refresh-outcome");
    await outcome.getByText(/2 MD\.ASSET card\(s\) kept as cards/).waitFor();
    // Every cell shows what it showed, the cards as cards (their JSON is an entity, not #VALUE!), without formulas.
    const after = await shown();
    expect(after).toEqual(before.map(([a, formula, ...rest]) => [a, a === "B1" ? formula : null, ...rest]));
    const frozenCard = await page.evaluate(
      () => (window as unknown as PageWorkbook).__workbook.display("Desk", "A1").json,
    );
    expect(frozenCard).toMatchObject({
      type: "Entity",
      text: "Ethereum",
      properties: { Price: { basicValue: 2553.26 } },
    });
    expect(frozenCard).not.toHaveProperty("provider");

    await page.getByRole("button", { name: "Undo last freeze" }).click();
    await outcome.getByText(/^Restored 4 MD formula/).waitFor();
    for (const c of fixture.md) expect((await cell(page, "Desk", c.address)).formula).toBe(c.cell.formula);
    expect((await shown()).find(([a]) => a === "G1")?.[3]).toBe("0.0");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("Undo last freeze puts the frozen formulas back, except in a cell changed since, which it names", async () => {
    const fixture = compsWorkbook();
    const { page, errors } = await open(fixture.recording, "user-entered-key");
    await openSettings(page);
    await page.getByRole("button", { name: "Freeze sheet to values" }).click();
    await page
      .getByTestId("refresh-outcome")
      .getByText(/Froze \d+ cells/)
      .waitFor();
    const md = fixture.md.filter((x) => x.sheet === "Comps");
    const edited = md[0];
    await page.evaluate(([a]) => (window as unknown as PageWorkbook).__workbook.edit("Comps", a, "42"), [
      edited.address,
    ] as const);

    await page.getByRole("button", { name: "Undo last freeze" }).click();
    const outcome = page.getByTestId("refresh-outcome");
    await outcome.getByText(/^Restored \d+ MD formula/).waitFor();
    for (const c of md.slice(1)) expect((await cell(page, "Comps", c.address)).formula).toBe(c.cell.formula);
    expect(await cell(page, "Comps", edited.address)).toMatchObject({ formula: null, value: 42 });
    const text = await outcome.textContent();
    expect(text).toContain(`Restored ${md.length - 1} MD formula(s)`);
    expect(text).toContain(`Comps!${edited.address}: changed since the freeze: left as it is`);
    // Only the record of the cell left alone stays in the log.
    const parts = await page.evaluate(() => (window as unknown as PageWorkbook).__workbook.customXmlParts());
    expect(parts).toHaveLength(1);
    expect(parts[0].xml.match(/<frozen /g)).toHaveLength(1);
    expect(parts[0].xml).toContain(`address="${edited.address}"`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
