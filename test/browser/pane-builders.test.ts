/**
 * Every builder — MD.SERIES, MD.LATEST, MD.AGG, MD.SUPPLY, MD.SNAPSHOT and
 * MD.FLOWS — in the built pane (headless Chromium, the sandbox, a recorded workbook standing in for
 * Excel): each inserts its formula into the selected cell, and its preview
 * shows what the BUILT functions bundle (dist/functions.js) returns for that
 * formula's text — cell for cell in the rows shown, and the table's size.
 * "Insert with a chart" records a native line chart beside the table.
 */
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/server";
import { describeBrowser } from "../support/browser";
import { isExcelError } from "../../harness/bundle";
import { useBundleOver } from "../support/bundle";
import { emptyWorkbook, type PageWorkbook, type PaneWatch, showView } from "../support/pane-page";
import { offMachine, usePaneRig } from "../support/pane-rig";
import type { StandInLog } from "../support/workbook-stand-in";
import { serialToIso } from "../../src/core/excel-date";

/** `=MD.AGG("eth","FEES",,"x")` → ["AGG", ["eth", "FEES", null, "x"]]: the arguments Excel passes for the formula's text. */
function formulaCall(formula: string): [string, (string | null)[]] {
  const match = /^=MD\.([A-Z]+)\((.*)\)$/.exec(formula);
  if (!match) throw new Error(`not an MD formula: ${formula}`);
  const args: (string | null)[] = [];
  let current: string | null = null;
  let i = 0;
  const text = match[2];
  while (i <= text.length) {
    const ch = text[i];
    if (ch === '"') {
      let value = "";
      for (i += 1; i < text.length; i += 1) {
        if (text[i] === '"' && text[i + 1] === '"') {
          value += '"';
          i += 1;
        } else if (text[i] === '"') break;
        else value += text[i];
      }
      current = value;
      i += 1;
    } else if (ch === "," || ch === undefined) {
      args.push(current);
      current = null;
      i += 1;
    } else throw new Error(`unexpected ${ch} in ${formula}`);
  }
  return [match[1], text === "" ? [] : args];
}

/** A bundle cell as the preview's data-value holds it: numbers and text as JSON, errors by code. */
const asData = (value: unknown) => JSON.stringify(isExcelError(value) ? value.code : value);

describeBrowser("formula builders in the built pane (headless Chromium, sandbox, recorded workbook)", () => {
  const rig = usePaneRig({ assetCount: 2000 });
  const { bundle } = useBundleOver(() => rig.sandbox);
  let watch: PaneWatch;

  beforeAll(async () => {
    watch = await rig.openPane(DEMO_API_KEY, { workbook: emptyWorkbook("B2") });
    await showView(watch.page, "Picker");
  }, 60_000);

  const page = () => watch.page;
  const log = () => page().evaluate(() => (window as unknown as PageWorkbook).__workbook.log) as Promise<StandInLog>;

  async function formulaShown(expected: string): Promise<void> {
    await page().waitForFunction(
      (f) => Array.from(document.querySelectorAll('[data-testid="formula-text"]')).some((e) => e.textContent === f),
      expected,
      { timeout: 10_000 },
    );
  }

  /** Waits for the preview of `formula`, then compares it with the bundle's answer for the same text. */
  async function expectPreviewEqualsBundle(formula: string): Promise<unknown> {
    const preview = page().locator(`[data-testid="function-preview"][data-key="${formula.replace(/"/g, '\\"')}"]`);
    await preview.waitFor({ timeout: 30_000 });
    const [name, args] = formulaCall(formula);
    let expected: unknown;
    try {
      expected = await bundle.call(name, args);
    } catch (error) {
      expected = error;
    }
    const table = preview.getByTestId("function-preview-table");
    if (Array.isArray(expected)) {
      const shown = await table.evaluate((element) => ({
        rows: Number(element.getAttribute("data-rows")),
        columns: Number(element.getAttribute("data-columns")),
        cells: Array.from(element.querySelectorAll("tbody tr")).map((tr) =>
          Array.from(tr.querySelectorAll("td")).map((td) => td.getAttribute("data-value")),
        ),
      }));
      const rows = expected as unknown[][];
      expect(shown.rows).toBe(rows.length);
      expect(shown.columns).toBe(Math.max(...rows.map((r) => r.length)));
      expect(shown.cells.length).toBeGreaterThan(0);
      expect(shown.cells).toEqual(rows.slice(0, shown.cells.length).map((row) => row.map(asData)));
    } else {
      const value = await preview.getByTestId("function-preview-value").getAttribute("data-value");
      expect(value).toBe(asData(expected));
    }
    return expected;
  }

  /** The date note under the preview of `formula` (shown once the preview has its answer). */
  async function datedNote(formula: string): Promise<string | null> {
    const preview = page().locator(`[data-testid="function-preview"][data-key="${formula.replace(/"/g, '\\"')}"]`);
    await preview.waitFor({ timeout: 30_000 });
    return preview.getByTestId("function-preview-dated").textContent();
  }

  /** The bundle's answer for `formula`'s arguments with `options` as its argument at `index`, a date serial as ISO. */
  async function bundleDate(formula: string, index: number, options: string): Promise<string> {
    const [name, args] = formulaCall(formula);
    const padded: (string | null)[] = [...args, ...Array<null>(index).fill(null)].slice(0, index);
    return serialToIso((await bundle.call(name, [...padded, options])) as number);
  }

  async function insert(subject: string, formula: string): Promise<void> {
    const before = (await log()).formulaWrites.length;
    await page()
      .getByRole("button", { name: `Insert the formula for ${subject} into the selected cell` })
      .click();
    // The one-asset picker keeps its own (hidden) outcome while another builder shows.
    await page().locator('[data-testid="place-outcome"]:visible').waitFor();
    const writes = (await log()).formulaWrites;
    expect(writes.slice(before)).toEqual([{ sheet: "Sheet1", address: "B2", formula }]);
  }

  async function pick(page: Page, symbol: string, metric: string): Promise<void> {
    await page.getByRole("radio", { name: /^One asset/ }).check();
    const chosen = page.getByTestId("chosen-asset");
    if (await chosen.isVisible()) await chosen.getByRole("button", { name: "Change" }).click();
    await page.getByTestId("asset-search").fill(symbol);
    await page.locator(`[data-testid="asset-list"][data-query="${symbol}"]`).waitFor();
    await page.locator(`[data-testid="asset-option"][data-symbol="${symbol}"]`).click();
    await page.locator(`[data-testid="metric-option"][data-metric="${metric}"]`).click();
  }

  it("MD.AGG: window, statistic and as-of date; the preview is the bundle's number, and Insert writes the formula", async () => {
    await pick(page(), "eth", "FEES");
    await page().getByRole("radio", { name: "MD.AGG (a statistic over a window)" }).check();
    await page().getByTestId("agg-window").fill("90D");
    await page().getByTestId("agg-stat").selectOption("AVG");
    await page().getByTestId("agg-as-of").fill("2024-06-30");
    const formula = '=MD.AGG("eth","FEES","90D","AVG","2024-06-30")';
    await formulaShown(formula);
    expect(typeof (await expectPreviewEqualsBundle(formula))).toBe("number");
    // The days the number covers, as the cell's show=start and show=date options give them.
    expect(await datedNote(formula)).toBe(
      `Over ${await bundleDate(formula, 5, "show=start")} to ${await bundleDate(formula, 5, "show=date")}`,
    );
    await insert("eth FEES (MD.AGG)", formula);
  });

  it("MD.SUPPLY: the preview is the bundle's table, and Insert with a chart records a line chart beside it", async () => {
    await pick(page(), "usdc", "STABLECOIN_SUPPLY_CIRCULATING");
    await page()
      .getByRole("radio", { name: /^MD\.SUPPLY/ })
      .check();
    await page().getByTestId("supply-start").fill("2024-04-01");
    await page().getByTestId("supply-end").fill("2024-06-30");
    await page().getByTestId("supply-granularity").selectOption("MONTH");
    const formula = '=MD.SUPPLY("usdc","2024-04-01","2024-06-30","MONTH")';
    await formulaShown(formula);
    const table = (await expectPreviewEqualsBundle(formula)) as unknown[][];
    expect(table.length).toBe(4); // header + April, May, June
    await insert("usdc supply", formula);

    const withChart = page().getByRole("button", { name: "Insert with a line chart the formula for usdc supply" });
    await withChart.click();
    await page().getByText("Inserted into Sheet1!B2, with a line chart beside the table.").waitFor();
    const { charts, formulaWrites } = await log();
    expect(formulaWrites[formulaWrites.length - 1]).toEqual({ sheet: "Sheet1", address: "B2", formula });
    // 4 rows × 7 columns from B2: values C2:H5 (header row names the series), dates B3:B5, the chart from J2.
    expect(charts).toEqual([
      {
        sheet: "Sheet1",
        type: "Line",
        source: "C2:H5",
        seriesBy: "Columns",
        categories: "B3:B5",
        title: "usdc supply",
        position: { start: "J2", end: "Q16" },
      },
    ]);
  });

  it("MD.SERIES: the preview is the bundle's table (last=N and order included), and Insert with a chart charts it", async () => {
    await pick(page(), "eth", "PRICE");
    await page().getByRole("radio", { name: "MD.SERIES (a table)" }).check();
    await page().getByTestId("window-start").fill("2024-01-01");
    await page().getByTestId("window-end").fill("2024-06-30");
    await page().getByTestId("granularity").selectOption("MONTH");
    await formulaShown('=MD.SERIES("eth","PRICE","2024-01-01","2024-06-30","MONTH")');
    const whole = (await expectPreviewEqualsBundle(
      '=MD.SERIES("eth","PRICE","2024-01-01","2024-06-30","MONTH")',
    )) as unknown[][];
    expect(whole.length).toBe(7); // header + January … June

    // Newest first, the last 4 kept: the function's own options, shown as the cell will show them.
    const seriesRequests = () => rig.requests.filter((url) => url.includes("/data/api/")).length;
    const before = seriesRequests();
    expect(before).toBeGreaterThan(0); // the first preview's own requests were seen
    await page().getByRole("combobox", { name: "Order" }).selectOption("desc");
    await page().getByTestId("last-rows").fill("4");
    const formula = '=MD.SERIES("eth","PRICE","2024-01-01","2024-06-30","MONTH","order=desc; last=4")';
    await formulaShown(formula);
    const table = (await expectPreviewEqualsBundle(formula)) as unknown[][];
    expect(table.length).toBe(5); // header + the last 4 months
    expect(table.slice(1)).toEqual(whole.slice(-4).reverse());
    // Reshaping the same window is answered by the shared client's cache: the pane sent no series request.
    expect(seriesRequests()).toBe(before);
    // Newest first in the table, oldest to newest in the chart: Excel is asked to plot the dates last to first.
    await page().getByRole("button", { name: "Insert with a line chart the formula for eth PRICE" }).click();
    await page()
      .locator('[data-testid="place-outcome"]:visible')
      .getByText(/with a line chart/)
      .waitFor();
    const reversed = (await log()).charts;
    expect(reversed[reversed.length - 1]).toMatchObject({
      source: "C2:C6",
      categories: "B3:B6",
      reversePlotOrder: true,
    });

    await page().getByRole("combobox", { name: "Order" }).selectOption("asc");
    const ascending = '=MD.SERIES("eth","PRICE","2024-01-01","2024-06-30","MONTH","last=4")';
    await formulaShown(ascending);
    expect(((await expectPreviewEqualsBundle(ascending)) as unknown[][]).slice(1)).toEqual(whole.slice(-4));
    const withChart = page().getByRole("button", { name: "Insert with a line chart the formula for eth PRICE" });
    // Enabled once the preview has the table (its size sizes the chart).
    await withChart.click();
    await page()
      .locator('[data-testid="place-outcome"]:visible')
      .getByText(/with a line chart/)
      .waitFor();
    await page().waitForFunction(
      (n) => (window as unknown as PageWorkbook).__workbook.log.charts.length > n,
      reversed.length,
    );
    const { charts, formulaWrites } = await log();
    expect(formulaWrites[formulaWrites.length - 1]).toEqual({ sheet: "Sheet1", address: "B2", formula: ascending });
    expect(charts[charts.length - 1].reversePlotOrder).toBeUndefined();
    expect(charts[charts.length - 1]).toEqual({
      sheet: "Sheet1",
      type: "Line",
      source: "C2:C6",
      seriesBy: "Columns",
      categories: "B3:B6",
      title: "eth PRICE",
      position: { start: "E2", end: "L16" },
    });
  });

  it("MD.LATEST: the preview is the bundle's value for the as-of date, and Insert writes the formula", async () => {
    await pick(page(), "eth", "PRICE");
    await page().getByRole("radio", { name: "MD.LATEST (one value)" }).check();
    await page().getByTestId("as-of").fill("2024-06-28");
    const formula = '=MD.LATEST("eth","PRICE","2024-06-28")';
    await formulaShown(formula);
    expect(typeof (await expectPreviewEqualsBundle(formula))).toBe("number");
    expect(await datedNote(formula)).toBe(`Dated ${await bundleDate(formula, 3, "show=date")}`);
    await insert("eth PRICE", formula);
  });

  it("MD.SNAPSHOT: several assets × metrics; the preview (with its #N/A pair) is the bundle's table", async () => {
    await page()
      .getByRole("radio", { name: /^A comps table/ })
      .check();
    await page().getByTestId("snapshot-symbols").fill("eth, sol, eq-coin");
    await page().getByTestId("snapshot-metrics").fill("PRICE, L30_FEES, TVL");
    await page().getByTestId("snapshot-as-of").fill("2024-06-28");
    const formula = '=MD.SNAPSHOT("eth, sol, eq-coin","PRICE, L30_FEES, TVL","2024-06-28")';
    await formulaShown(formula);
    const table = (await expectPreviewEqualsBundle(formula)) as unknown[][];
    expect(table.map((r) => r[0])).toEqual(["Symbol", "eth", "sol", "eq-coin"]);
    expect(isExcelError(table[3][2])).toBe(true);
    // The values' dates, as the formula's dates=true columns give them.
    const [name, args] = formulaCall(formula);
    const dated = (await bundle.call(name, [...args, "dates=true"])) as unknown[][];
    const dates = dated
      .slice(1)
      .flatMap((row) => row.filter((cell, c) => c > 0 && c % 2 === 0 && typeof cell === "number") as number[])
      .map(serialToIso)
      .sort();
    const [first, last] = [dates[0], dates[dates.length - 1]];
    expect(await datedNote(formula)).toBe(first === last ? `Values dated ${last}` : `Values dated ${first} to ${last}`);
    await insert("the comps table (MD.SNAPSHOT)", formula);
  });

  it("MD.FLOWS: ticked chains, flows and top N; the preview is the bundle's table, largest first", async () => {
    await page()
      .getByRole("radio", { name: /^Capital flows/ })
      .check();
    const chains = page().getByRole("group", { name: "Source chains" });
    await chains.getByRole("checkbox", { name: "tron" }).check();
    await chains.getByRole("checkbox", { name: "base" }).uncheck();
    await page().getByTestId("flows-other-chains").fill("optimism");
    await page().getByTestId("flows-start").fill("2024-04-01");
    await page().getByTestId("flows-end").fill("2024-06-30");
    const flows = page().getByRole("group", { name: "Flows" });
    await flows.getByRole("checkbox", { name: "Inflow" }).check();
    await flows.getByRole("checkbox", { name: "Outflow" }).check();
    await page().getByTestId("flows-top").fill("3");
    const formula = '=MD.FLOWS("ethereum, solana, arbitrum, tron, optimism","2024-04-01","2024-06-30",,"ALL","top=3")';
    await formulaShown(formula);
    const table = (await expectPreviewEqualsBundle(formula)) as unknown[][];
    expect(table[0]).toEqual(["Chain", "Netflow (USD)", "Inflow (USD)", "Outflow (USD)"]);
    expect(table.length).toBe(4);
    await insert("chain flows (MD.FLOWS)", formula);
  });

  it("nothing went anywhere but this machine, and the page raised no error", () => {
    expect(offMachine(rig.requests)).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  });
});
