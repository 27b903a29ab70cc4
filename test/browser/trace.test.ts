/**
 * Where a number came from, in the built pane (headless Chromium, the
 * sandbox, the demo workbook): selecting a cell of the stand-in raises
 * Office's DocumentSelectionChanged, and the Trace view shows the request
 * that answered its MD call, its source and its dates, without a new request;
 * a cell of a spilled table leads to its anchor's call. After the service
 * revises its data, Refresh all lists the cell whose value changed, and its
 * Select button selects it in the workbook. Every wait is on what the page
 * shows, never a fixed sleep.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/server";
import { describeBrowser } from "../support/browser";
import { insertTemplate, type PaneWatch, SCREENSHOTS, showView } from "../support/pane-page";
import { usePaneRig } from "../support/pane-rig";
import { runAxe } from "../support/pane-views";

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** The demo grid's blank corner header (the row numbers' column): the demo panel's, not a view's. */
const DEMO_GRID_CORNER = 'th[aria-label="Row"]';

/** axe-core over the page as it stands: every violation, whatever its impact, outside the demo grid's corner. */
async function violations(page: Page, view: string): Promise<string[]> {
  const finding = await runAxe(page, AXE_SOURCE, view);
  return finding.violations
    .map((v) => ({ ...v, nodes: v.nodes.filter((node) => node !== DEMO_GRID_CORNER) }))
    .filter((v) => v.nodes.length > 0)
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).join(" | ")}`);
}

const PRICE = '=MD.LATEST("eq-aapl","PRICE")';

/** The address of the shown grid's cell holding `formula`. */
async function cellWith(page: Page, formula: string): Promise<string> {
  const cell = page.locator(`[data-testid=demo-cell][title='${formula}']`).first();
  await cell.waitFor();
  return (await cell.getAttribute("data-address"))!;
}

async function shownNumber(page: Page, address: string): Promise<string> {
  await page.waitForFunction(
    (a) => /^-?\d/.test(document.querySelector(`[data-testid=demo-cell][data-address="${a}"]`)?.textContent ?? ""),
    address,
    { timeout: 30_000 },
  );
  return (await page.locator(`[data-testid=demo-cell][data-address="${address}"]`).textContent())!;
}

describeBrowser("Trace and What changed in the built pane (headless Chromium, sandbox, demo workbook)", () => {
  const rig = usePaneRig({ assetCount: undefined, hostileFixtures: false });
  let watch: PaneWatch;
  let priceCell: string;

  beforeAll(async () => {
    watch = await rig.openPane(DEMO_API_KEY);
    const { page } = watch;
    await page.getByRole("switch", { name: "Demo workbook — not Excel" }).click();
    await insertTemplate(page, "Equity comps");
    priceCell = await cellWith(page, PRICE);
    await shownNumber(page, priceCell);
  }, 90_000);

  it("selecting a cell shows its request, source and dates, with no new request", async () => {
    const { page } = watch;
    await showView(page, "Trace");
    const sent = rig.requests.length;
    await page.locator(`[data-testid=demo-cell][data-address="${priceCell}"]`).click();
    const call = page.getByTestId("trace-call").filter({ hasText: 'MD.LATEST("eq-aapl","PRICE"' });
    await call.getByText(/\/data\/api\//).waitFor({ timeout: 30_000 });
    const text = (await call.textContent())!;
    expect(text).toContain("Market-data service");
    expect(text).toMatch(/Days\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);
    expect(text).toMatch(/\d+ ms/);
    expect(text).not.toContain(DEMO_API_KEY);
    expect(await page.getByTestId("trace-pinned").textContent()).toMatch(
      /^=MD\.LATEST\("eq-aapl","PRICE","\d{4}-\d{2}-\d{2}"\)$/,
    );
    expect(rig.requests.slice(sent).filter((url) => url.startsWith(rig.sandbox.url))).toEqual([]);
    expect(await violations(page, "Trace: a traced call")).toEqual([]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, "trace.png"), fullPage: true });
  });

  it("a cell of a spilled table leads to the anchor's MD.SERIES call", async () => {
    const { page } = watch;
    const anchor = (await page
      .locator("[data-testid=demo-cell][title^='=MD.SERIES(']")
      .first()
      .getAttribute("data-address"))!;
    // Two rows below the anchor: a cell of its spill.
    const below = anchor.replace(/\d+$/, (row) => String(Number(row) + 2));
    await shownNumber(page, below);
    await page.locator(`[data-testid=demo-cell][data-address="${below}"]`).click();
    await page.getByTestId("trace-cell").getByText(`is part of the table ${anchor} spills`).waitFor();
    const call = page.getByTestId("trace-call").filter({ hasText: "MD.SERIES(" });
    await call
      .getByText(/\/data\/api\//)
      .first()
      .waitFor({ timeout: 30_000 });
  });

  it("after Refresh all with revised data, What changed lists the cell, and Select selects it", async () => {
    const { page } = watch;
    const before = await shownNumber(page, priceCell);
    rig.sandbox.setRevision(0.25);
    await showView(page, "Settings");
    await page.getByRole("checkbox", { name: "Recheck stored history when refreshing" }).check();
    await page.getByRole("button", { name: "Refresh all MD formulas" }).click();
    const changes = page.getByTestId("what-changed");
    const line = changes.getByRole("listitem").filter({ hasText: new RegExp(`!${priceCell}: `) });
    await line.waitFor({ timeout: 60_000 });
    // The sandbox scaled every value by 1.25.
    expect(await line.textContent()).toMatch(/ → .*\(\+[\d.,]+ \(\+25%\)\)/);
    expect(await shownNumber(page, priceCell)).not.toBe(before);
    // Select it: the workbook's selection moves there (the grid's formula bar names it).
    await page.locator("[data-testid=demo-cell]").first().click();
    await line.getByRole("button", { name: /^Select / }).click();
    await page.getByTestId("demo-formula-bar").getByText(`!${priceCell}: ${PRICE}`).waitFor();

    // The template's MD.SERIES table: its history revised by the recheck, its cells listed with their table.
    const anchor = (await page
      .locator("[data-testid=demo-cell][title^='=MD.SERIES(']")
      .first()
      .getAttribute("data-address"))!;
    const table = changes.getByTestId("what-changed-table").filter({ hasText: `!${anchor} spills:` });
    expect(await table.textContent()).toMatch(/: \d+ value\(s\) changed/);
    const inTable = changes.getByRole("listitem").filter({ hasText: `(in the table ${anchor} spills)` });
    const spilled = inTable.first();
    expect(await spilled.textContent()).toMatch(/\(\+[\d.,]+ \(\+25%\)\)/);
    await spilled.getByRole("button", { name: /^Select / }).click();
    const where = /!([A-Z]+\d+) \(in the table/.exec((await spilled.textContent())!)![1];
    await page
      .getByTestId("demo-formula-bar")
      .getByText(new RegExp(`!${where}: `))
      .waitFor();
    expect(await violations(page, "What changed")).toEqual([]);
    mkdirSync(SCREENSHOTS, { recursive: true });
    // The list's first lines (a refresh that moved every value lists hundreds of cells).
    await changes.evaluate((e) => e.scrollIntoView({ block: "start" }));
    const box = (await changes.boundingBox())!;
    const viewport = page.viewportSize()!;
    const clip = { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, viewport.height - box.y) };
    await page.screenshot({ path: path.join(SCREENSHOTS, "what-changed.png"), clip });
  });
});
