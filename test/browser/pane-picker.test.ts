/**
 * The asset and metric picker of the built pane in headless Chromium against
 * the sandbox's 20,000-asset catalog: search, pick an asset and a metric, read
 * its descriptor, see the preview, and insert the formula — into a recorded
 * workbook standing in for Excel, and outside Office (copied, and the pane
 * says why). HTML-looking asset titles stay text. Screenshot: picker.png.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { OUTSIDE_EXCEL_COPIED } from "../../src/taskpane/shared/place-formula";
import { describeBrowser } from "../support/browser";
import { emptyWorkbook, layout, type PageWorkbook, type PaneWatch, SCREENSHOTS, showView } from "../support/pane-page";
import { offMachine, usePaneRig } from "../support/pane-rig";
import { DEMO_API_KEY } from "../../sandbox/server";

interface Asset {
  symbol: string;
  title: string;
  platform_id: string;
  aggregator_id: string | null;
}
type Descriptor = { label: string; description: string; source: string; methodology: string | null };

/** An empty sheet with B2 selected: Insert writes there. */
const EMPTY_WORKBOOK = emptyWorkbook("B2");

/** Types a query and waits until the list shows the results for it (not the previous query's, still on screen). */
async function search(page: Page, query: string): Promise<void> {
  await page.getByTestId("asset-search").fill(query);
  await page.locator(`[data-testid="asset-list"][data-query="${query}"]`).waitFor();
  await page.getByTestId("asset-option").first().waitFor();
}

/** Symbol and title of each rendered option (the list is virtualised: only the rows on screen exist). */
const shownOptions = (page: Page) =>
  page
    .getByTestId("asset-option")
    .evaluateAll((rows) =>
      rows.map((row) => ({ symbol: row.getAttribute("data-symbol") ?? "", text: (row as HTMLElement).innerText })),
    );

async function pickEthPrice(page: Page): Promise<void> {
  await showView(page, "Picker");
  await search(page, "eth");
  await page.locator('[data-testid="asset-option"][data-symbol="eth"]').click();
  await page.locator('[data-testid="metric-option"][data-metric="PRICE"]').click();
  await page.getByTestId("metric-details").waitFor();
}

/**
 * Waits until the preview shows the function's answer to the formula on screen
 * (its debounce keeps the previous answer for a moment), then counts its rows
 * shown, header row included.
 */
async function previewRows(page: Page): Promise<number> {
  await page.waitForFunction(
    () => {
      const key = document.querySelector('[data-testid="function-preview"]')?.getAttribute("data-key");
      return !!key && key === document.querySelector('[data-testid="formula-text"]')?.textContent;
    },
    undefined,
    { timeout: 20_000 },
  );
  await page.getByTestId("function-preview-table").locator("tbody tr").first().waitFor();
  return page.getByTestId("function-preview-table").locator("tbody tr").count();
}

/**
 * Whether the element with focus is the one a screen reader knows by this role and name (Playwright's own ARIA
 * reading); when not, what has focus instead, so a failure says where focus went.
 */
async function focusedIs(page: Page, role: Parameters<Page["getByRole"]>[0], name: string): Promise<true | string> {
  const target = page.getByRole(role, { name, exact: true });
  if ((await target.count()) === 1 && (await target.evaluate((element) => element === document.activeElement)))
    return true;
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return "the page body";
    return `${element.tagName.toLowerCase()} role=${element.getAttribute("role")} name=${element.getAttribute("aria-label") ?? (element as HTMLElement).innerText}`;
  });
}

describeBrowser("task pane Picker over 20,000 assets (headless Chromium, sandbox)", () => {
  // The 20,000-asset catalog, with the markup-like titles the rendering case needs.
  const rig = usePaneRig({ hostileFixtures: true });
  let watch: PaneWatch;
  let catalog: Asset[];

  beforeAll(async () => {
    catalog = (await rig.fetchJson<{ assets: Asset[] }>("/asset/symbols/")).assets;
    watch = await rig.openPane(DEMO_API_KEY, { workbook: EMPTY_WORKBOOK });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  it("runs as Excel with the stand-in, and lists the whole catalog", async () => {
    const { page } = watch;
    expect(await page.getByTestId("host").textContent()).toMatch(/^Running in Excel/);
    await showView(page, "Picker");
    await page.getByTestId("asset-option").first().waitFor({ timeout: 20_000 });
    expect(catalog.length).toBeGreaterThanOrEqual(20_000);
    expect(await page.getByTestId("asset-count").textContent()).toBe(
      `${catalog.length.toLocaleString("en-US")} assets`,
    );
    // Virtualised: a screenful of rows exist, not 20,000.
    expect(await page.getByTestId("asset-option").count()).toBeLessThan(60);
  });

  it("searching narrows the list to assets matching the query, the exact symbol first", async () => {
    const { page } = watch;
    await search(page, "eth");
    // The search looks at the symbol, title, platform id and aggregator id.
    const matching = catalog.filter((a) =>
      [a.symbol, a.title, a.platform_id, a.aggregator_id ?? ""].some((field) => field.toLowerCase().includes("eth")),
    );
    expect(await page.getByTestId("asset-count").textContent()).toBe(
      `${matching.length.toLocaleString("en-US")} of ${catalog.length.toLocaleString("en-US")}`,
    );
    const shown = await shownOptions(page);
    expect(shown[0].symbol).toBe("eth");
    for (const option of shown) expect(option.text.toLowerCase()).toContain("eth");
  });

  it("HTML-looking titles are shown as the characters the service sent: no element, no script, no dialog", async () => {
    const { page } = watch;
    for (const symbol of ["xsstest", "boldtoken"]) {
      const title = catalog.find((a) => a.symbol === symbol)?.title ?? "";
      expect(title).toMatch(/</);
      await search(page, symbol);
      const option = page.locator(`[data-testid="asset-option"][data-symbol="${symbol}"]`);
      expect(await option.innerText()).toContain(title);
      expect(await page.getByTestId("asset-list").locator("img, b, script").count()).toBe(0);
    }
    await page.waitForTimeout(300); // an onerror handler would have fired by now
    expect(watch.dialogs).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  });

  it("picking eth and PRICE shows the metric's descriptor from the metric catalog", async () => {
    const { page } = watch;
    await pickEthPrice(page);
    const metrics = (await rig.fetchJson<{ metrics: Record<string, Descriptor>[] }>("/supported-metrics/?symbol=eth"))
      .metrics;
    const price = metrics.map((m) => m.PRICE).find(Boolean);
    expect(price).toBeDefined();
    const details = await page.getByTestId("metric-details").innerText();
    expect(details).toContain(price!.label);
    expect(details).toContain(price!.description);
    expect(details).toMatch(/Unit/);
    expect(details).toMatch(/Aggregation/);
    if (price!.source) expect(details).toContain(price!.source);
    if (price!.methodology) expect(details).toContain(price!.methodology);
  });

  it("a 3-month weekly window previews rows and a line, and inserts the formula into the selected cell", async () => {
    const { page } = watch;
    await page.getByRole("button", { name: "Window: last 3M" }).click();
    await page.getByTestId("granularity").selectOption("WEEK");
    const rows = await previewRows(page);
    expect(rows).toBeGreaterThan(2);
    // A header row, then weekly rows: consecutive dates in the table are 7 days apart.
    const dates = await page
      .getByTestId("function-preview-table")
      .locator("tbody tr td:first-child")
      .evaluateAll((cells) => cells.map((c) => (c as HTMLElement).innerText.trim()));
    // -3M … TODAY rarely starts and ends on week boundaries: the function marks those weeks partial, and so does the preview.
    expect(dates[0]).toMatch(/^Date/);
    const day = (text: string) => Date.parse(text.replace(/ \(partial\)$/, ""));
    for (let i = 2; i < dates.length; i++) expect(day(dates[i]) - day(dates[i - 1])).toBe(7 * 86_400_000);
    expect(await page.getByTestId("preview-chart").locator("path").getAttribute("d")).toMatch(/^M[\d.]+[ ,][\d.]+ ?L/);

    const formula = '=MD.SERIES("eth","PRICE","-3M","TODAY","WEEK")';
    expect(await page.getByTestId("formula-text").innerText()).toBe(formula);
    // The whole view: chosen asset, metric list and descriptor, the builder, the preview and the formula.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOTS, "picker.png"), fullPage: true });

    await page.getByRole("button", { name: "Insert the formula for eth PRICE into the selected cell" }).click();
    await page.getByTestId("place-outcome").waitFor();
    const log = await page.evaluate(() => (window as unknown as PageWorkbook).__workbook.log);
    expect(log.formulaWrites).toEqual([{ sheet: "Sheet1", address: "B2", formula }]);
    expect(await page.getByTestId("place-outcome").innerText()).toMatch(/^Inserted into (Sheet1!)?B2\.$/);
  });

  it("at 320 px the formula wraps between arguments or at spaces, never inside a name", async () => {
    const { page } = watch;
    await page.setViewportSize({ width: 320, height: 900 });
    try {
      await page.getByRole("combobox", { name: "Order" }).selectOption("desc");
      await page.getByTestId("last-rows").fill("12");
      const formula = '=MD.SERIES("eth","PRICE","-3M","TODAY","WEEK","order=desc; last=12")';
      await page.waitForFunction(
        (f) => document.querySelector('[data-testid="formula-text"]')?.textContent === f,
        formula,
      );
      // Each character's line, by the top of its box: a new line must follow a comma or a space.
      const lines = await page.getByTestId("formula-text").evaluate((element) => {
        const chars: { ch: string; top: number }[] = [];
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (let i = 0; i < (node.textContent ?? "").length; i++) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            if (rect) chars.push({ ch: node.textContent![i], top: Math.round(rect.top) });
          }
        }
        const out: string[] = [""];
        chars.forEach((c, i) => {
          if (i > 0 && c.top > chars[i - 1].top) out.push("");
          out[out.length - 1] += c.ch;
        });
        return out;
      });
      expect(lines.join("")).toBe(formula);
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines.slice(0, -1)) expect(line).toMatch(/[, ]$/);
      const report = await layout(page);
      expect(report.overflowing).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 420, height: 900 });
    }
  });

  it("after each choice focus is on the next control; Change keeps the build, and Escape brings it back", async () => {
    const { page } = watch;
    // The build so far (the tests above): eth, PRICE, MD.SERIES over -3M weekly, newest first, the last 12 rows.
    const build = '=MD.SERIES("eth","PRICE","-3M","TODAY","WEEK","order=desc; last=12")';
    expect(await page.getByTestId("formula-text").innerText()).toBe(build);
    await page.getByRole("button", { name: "Change" }).click();
    // Change: focus goes to the asset search, not the page body.
    expect(await focusedIs(page, "combobox", "Search assets")).toBe(true);
    await page.keyboard.type("so");
    await page.keyboard.press("Escape");
    // Escape: the previous build, whole, and focus back on Change.
    expect(await focusedIs(page, "button", "Change")).toBe(true);
    expect(await page.getByTestId("chosen-asset").innerText()).toContain("eth");
    expect(await page.getByTestId("formula-text").innerText()).toBe(build);

    // Change, then another asset that offers PRICE, picked with Enter: metric and fields kept, focus on the metrics.
    await page.getByRole("button", { name: "Change" }).click();
    await search(page, "sol");
    await page.keyboard.press("Enter");
    // The metrics load after the pick; focus moves to them once they are there.
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "metric-list", undefined, {
      timeout: 20_000,
    });
    expect(await focusedIs(page, "listbox", "Metrics for sol")).toBe(true);
    expect(await page.locator('[data-testid="metric-option"][aria-selected="true"]').getAttribute("data-metric")).toBe(
      "PRICE",
    );
    const solBuild = '=MD.SERIES("sol","PRICE","-3M","TODAY","WEEK","order=desc; last=12")';
    await page.waitForFunction(
      (f) => document.querySelector('[data-testid="formula-text"]')?.textContent === f,
      solBuild,
    );
    // Enter on the chosen metric: focus on the Function choice of step 3.
    await page.keyboard.press("Enter");
    expect(await focusedIs(page, "radio", "MD.SERIES (a table)")).toBe(true);
  });

  it("MD.ASSET previews the card as its property/value table", async () => {
    const { page } = watch;
    await page.getByRole("radio", { name: /^MD\.ASSET/ }).check();
    const rows = await previewRows(page);
    expect(rows).toBeGreaterThan(1);
    const first = await page
      .getByTestId("function-preview-table")
      .locator("tbody tr")
      .first()
      .evaluate((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
    // No header row: the first row is the card's Name, as the cell a table starts in shows the asset.
    expect(first[0]).toBe("Name");
    expect(await page.getByTestId("function-preview-table").innerText()).toMatch(/Symbol\s+sol/);
  });

  it("outside Office: the pane says Insert copies, and Insert copies the formula", async () => {
    await rig.session.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: rig.pane.url });
    const outside = await rig.openPane(DEMO_API_KEY);
    const { page } = outside;
    expect(await page.getByTestId("host").textContent()).toMatch(/^Running outside Office/);
    await pickEthPrice(page);
    expect(await page.getByText("Running outside Excel: Insert copies the formula").isVisible()).toBe(true);
    await previewRows(page);
    const formula = await page.getByTestId("formula-text").innerText();
    expect(formula).toMatch(/^=MD\.SERIES\("eth","PRICE"/);
    await page.getByRole("button", { name: "Insert the formula for eth PRICE", exact: true }).click();
    await page.getByTestId("place-outcome").waitFor();
    expect(await page.getByTestId("place-outcome").innerText()).toBe(OUTSIDE_EXCEL_COPIED);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(formula);
    expect(outside.pageErrors).toEqual([]);
    await page.close();
    // A second page loading the 20,000-asset catalog: over 30 s on a busy machine.
  }, 90_000);

  it("nothing went anywhere but this machine", () => {
    expect(rig.requests.some((url) => url.startsWith(rig.sandbox.url))).toBe(true);
    expect(offMachine(rig.requests)).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  });
});
