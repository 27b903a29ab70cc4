/**
 * The demo workbook (src/taskpane/demo/): the built test pane outside Office
 * works on the in-page workbook model the tests use, and the grid shows what
 * the pane did — a template inserted and computed, Artemis formulas
 * converted (and the conversion undone), a sheet frozen to values (and the
 * freeze undone), and the Picker's Insert writing a formula the grid
 * computes. With a host (the stand-in as Excel), there is no demo.
 * Headless Chromium, the sandbox.
 */
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/server";
import { describeBrowser } from "../support/browser";
import { emptyWorkbook, insertTemplate, type PaneWatch, showView } from "../support/pane-page";
import { usePaneRig } from "../support/pane-rig";
import { pickAssetMetric, previewSettled } from "../support/pane-views";

/** The grid's visible cells by address: what the cell shows and its formula (the title on hover). */
function visibleCells(page: Page): Promise<Record<string, { shown: string; formula: string | null }>> {
  return page
    .getByTestId("demo-cell")
    .evaluateAll((cells) =>
      Object.fromEntries(
        cells.map((c) => [
          c.getAttribute("data-address"),
          { shown: c.textContent ?? "", formula: c.getAttribute("title") },
        ]),
      ),
    );
}

/** Waits until the grid shows `sheet` and `address` shows text matching `shown`. */
async function cellShows(page: Page, sheet: string, address: string, shown: RegExp): Promise<void> {
  await page.locator(`[data-testid=demo-grid][data-sheet="${sheet}"]`).waitFor();
  await page.waitForFunction(
    ([a, source]) => new RegExp(source).test(document.querySelector(`[data-address="${a}"]`)?.textContent ?? ""),
    [address, shown.source] as const,
    { timeout: 30_000 },
  );
}

const NUMBER = /^-?\d/;

describeBrowser("the demo workbook outside Office (headless Chromium, built test pane)", () => {
  const rig = usePaneRig({ assetCount: undefined, hostileFixtures: false });
  let watch: PaneWatch;

  beforeAll(async () => {
    watch = await rig.openPane(DEMO_API_KEY);
  }, 60_000);

  it("offers a demo workbook, labelled not Excel, off until turned on; on, a grid of its sheet", async () => {
    const { page } = watch;
    const toggle = page.getByRole("switch", { name: "Demo workbook — not Excel" });
    await toggle.waitFor();
    expect(await page.getByTestId("host").textContent()).toMatch(/Running outside Office/);
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.getByTestId("demo-grid").count()).toBe(0);
    await toggle.click();
    expect((await visibleCells(page)).A1.shown).toMatch(/^Pick a cell/);
  });

  it("the Picker's Insert writes the built formula into the picked cell, which computes the preview's value", async () => {
    const { page } = watch;
    const sheet = (await page.getByTestId("demo-grid").getAttribute("data-sheet"))!;
    await page.locator('[data-testid=demo-cell][data-address="B2"]').click();
    expect(await page.getByTestId("demo-formula-bar").textContent()).toMatch(new RegExp(`^${sheet}!B2: `));
    await showView(page, "Picker");
    await pickAssetMetric(page, "eth", "PRICE");
    await page.getByRole("radio", { name: /^MD\.LATEST/ }).check();
    await previewSettled(page);
    // The value the preview computed (its data-value: the cell's value as JSON, before number formatting).
    const preview = await page.locator('[data-testid="function-preview-value"]:visible').getAttribute("data-value");
    expect(typeof JSON.parse(preview!)).toBe("number");
    expect(await page.getByTestId("formula-text").textContent()).toBe('=MD.LATEST("eth","PRICE")');
    await page.getByRole("button", { name: /^Insert the formula/ }).click();
    await page.getByText(`Inserted into ${sheet}!B2.`).waitFor({ timeout: 30_000 });
    await cellShows(page, sheet, "B2", NUMBER);
    const cells = await visibleCells(page);
    expect(cells.B2.formula).toBe('=MD.LATEST("eth","PRICE")');
    // The grid shows the cell's value unformatted.
    expect(Number(cells.B2.shown)).toBe(JSON.parse(preview!));
  });

  it("inserts a template: its sheet is shown and its MD formulas compute in the grid", async () => {
    const { page } = watch;
    await insertTemplate(page, "Equity comps");
    const sheet = await page.getByTestId("demo-grid").getAttribute("data-sheet");
    expect(sheet).toMatch(/Equity comps/);
    const cells = await visibleCells(page);
    const [address] = Object.entries(cells).find(([, c]) => c.formula === '=MD.LATEST("eq-aapl","PRICE")')!;
    await cellShows(page, sheet!, address, NUMBER);
  });

  it("converts the Artemis sheet's formulas, computes them, and undoes the conversion", async () => {
    const { page } = watch;
    await showView(page, "Artemis");
    await page.getByRole("heading", { name: "To convert (3)" }).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "Convert 3 formulas" }).click();
    await page.getByTestId("migrate-result").waitFor();
    await page.getByTestId("demo-workbook").getByRole("button", { name: "Artemis" }).click();
    await cellShows(page, "Artemis", "B2", NUMBER);
    const converted = await visibleCells(page);
    expect(converted.B2.formula).toBe('=MD.LATEST("btc","PRICE")');
    expect(converted.B3.formula).toBe('=MD.LATEST("eth","PRICE")');
    await page.getByRole("button", { name: "Undo conversion (3 formulas)" }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-address="B2"]')?.getAttribute("title") === '=ART("BTC","PRICE")',
    );
    expect((await visibleCells(page)).B4.formula).toBe('=ART("SOL","FEES")');
  });

  it("freezes the shown sheet to values and undoes the freeze", async () => {
    const { page } = watch;
    // Convert again, so the Artemis sheet holds MD formulas to freeze.
    await showView(page, "Artemis");
    await page.getByRole("heading", { name: "To convert (3)" }).waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Convert 3 formulas" }).click();
    await cellShows(page, "Artemis", "B2", NUMBER);
    // Clicking its tab made the Artemis sheet Excel's active one: Freeze sheet freezes it.
    await page.locator('[data-testid=demo-cell][data-address="B2"]').click();
    const before = await visibleCells(page);
    await showView(page, "Settings");
    await page.getByRole("button", { name: "Freeze sheet to values" }).click();
    await page
      .getByTestId("refresh-outcome")
      .getByText(/Froze \d+ cells/)
      .waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector('[data-address="B2"]')?.getAttribute("title") === null);
    const frozen = await visibleCells(page);
    expect(frozen.B2).toEqual({ shown: before.B2.shown, formula: null });
    await page.getByRole("button", { name: "Undo last freeze" }).click();
    await page.waitForFunction(
      () => document.querySelector('[data-address="B2"]')?.getAttribute("title") === '=MD.LATEST("btc","PRICE")',
    );
  });

  it("refreshes every MD formula with Refresh all", async () => {
    const { page } = watch;
    await page.getByRole("button", { name: "Refresh all MD formulas" }).click();
    await page.getByTestId("refresh-outcome").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("refresh-outcome").textContent()).toMatch(/Refreshed|refreshed/);
    await cellShows(page, "Artemis", "B2", NUMBER);
  });
});

describeBrowser("the pane inside Office (headless Chromium, the stand-in as Excel)", () => {
  const rig = usePaneRig({ assetCount: undefined, hostileFixtures: false });

  it("offers no demo workbook", async () => {
    const watch = await rig.openPane(DEMO_API_KEY, { workbook: emptyWorkbook("A1") });
    expect(await watch.page.getByTestId("host").textContent()).toMatch(/Running in Excel/);
    expect(await watch.page.getByTestId("demo-workbook").count()).toBe(0);
    expect(await watch.page.getByText("Demo workbook — not Excel").count()).toBe(0);
  });
});
