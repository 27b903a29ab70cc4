/**
 * The pane's views as a table, each with the steps that bring a freshly
 * opened pane (test/support/pane-page.ts) to it, and axe-core run over the
 * page as it stands. A new view is one line in PANE_VIEWS.
 */
import type { Page } from "playwright-core";
import { showView } from "./pane-page";

export type PaneTheme = "light" | "dark";

export interface PaneViewCase {
  name: string;
  /** From the pane just opened (on the Picker) to the view, waiting until it has settled. */
  open(page: Page): Promise<void>;
}

/** Picks `symbol` in the asset search and `metric` among its metrics. */
export async function pickAssetMetric(page: Page, symbol: string, metric: string): Promise<void> {
  await page.getByRole("radio", { name: /^One asset/ }).check();
  await page.getByTestId("asset-search").fill(symbol);
  await page.locator(`[data-testid="asset-list"][data-query="${symbol}"]`).waitFor();
  await page.locator(`[data-testid="asset-option"][data-symbol="${symbol}"]`).click();
  await page.locator(`[data-testid="metric-option"][data-metric="${metric}"]`).click();
}

/** Waits until the visible preview shows an answer (a table or a value), not its spinner. */
export async function previewSettled(page: Page): Promise<void> {
  await page
    .locator('[data-testid="function-preview"]:visible:not([data-key=""])')
    .locator('[data-testid="function-preview-table"], [data-testid="function-preview-value"]')
    .first()
    .waitFor({ timeout: 30_000 });
}

/** One asset, one function of the picker's step 3, its preview shown. */
const assetFormula =
  (symbol: string, metric: string, fn: RegExp, extra?: (page: Page) => Promise<void>) => async (page: Page) => {
    await pickAssetMetric(page, symbol, metric);
    await page.getByRole("radio", { name: fn }).check();
    await extra?.(page);
    await previewSettled(page);
  };

/** Ten assets by four metrics: a comps table wider than the pane. */
export const WIDE_SNAPSHOT = {
  symbols: "eth, sol, btc, bnb, trx, arb, op, avax, sui, ton",
  metrics: "PRICE, MC, L30_FEES, TVL",
};

const insightsFeed = (feed: string) => async (page: Page) => {
  await showView(page, "Insights");
  await page.getByRole("radio", { name: feed }).check();
  await page.getByTestId("insight-card").first().waitFor({ timeout: 20_000 });
};

export const PANE_VIEWS: readonly PaneViewCase[] = [
  { name: "Settings", open: (page) => showView(page, "Settings") },
  {
    name: "Picker: asset search",
    open: async (page) => {
      await page.getByTestId("asset-search").fill("eth");
      await page.locator('[data-testid="asset-list"][data-query="eth"]').waitFor();
    },
  },
  { name: "Builder: MD.SERIES", open: assetFormula("eth", "PRICE", /^MD\.SERIES/) },
  { name: "Builder: MD.LATEST", open: assetFormula("eth", "PRICE", /^MD\.LATEST/) },
  { name: "Builder: MD.AGG", open: assetFormula("eth", "FEES", /^MD\.AGG/) },
  { name: "Builder: MD.SUPPLY (7 columns)", open: assetFormula("eth", "PRICE", /^MD\.SUPPLY/) },
  {
    name: "Builder: MD.ASSET card and its preview",
    open: async (page) => {
      await pickAssetMetric(page, "eth", "PRICE");
      await page.getByRole("radio", { name: /^MD\.ASSET/ }).check();
      await page.getByTestId("asset-card-builder").waitFor();
      await previewSettled(page);
    },
  },
  {
    name: "Builder: MD.SNAPSHOT (10×4)",
    open: async (page) => {
      await page.getByRole("radio", { name: /^A comps table/ }).check();
      await page.getByTestId("snapshot-symbols").fill(WIDE_SNAPSHOT.symbols);
      await page.getByTestId("snapshot-metrics").fill(WIDE_SNAPSHOT.metrics);
      await previewSettled(page);
    },
  },
  {
    name: "Builder: MD.FLOWS",
    open: async (page) => {
      await page.getByRole("radio", { name: /^Capital flows/ }).check();
      await previewSettled(page);
    },
  },
  {
    name: "Insights: loading",
    open: async (page) => {
      // The feed's answer is held back for as long as the page lives: the view stays on its progress.
      await page.route(/\/insights\//, () => undefined);
      await showView(page, "Insights");
      await page.getByTestId("insights-loading").waitFor();
    },
  },
  { name: "Insights: growth streaks", open: insightsFeed("Growth streaks") },
  { name: "Insights: decline streaks", open: insightsFeed("Decline streaks") },
  { name: "Templates", open: (page) => showView(page, "Templates") },
  { name: "Artemis", open: (page) => showView(page, "Artemis") },
  {
    name: "Trace",
    open: async (page) => {
      await showView(page, "Trace");
      await page
        .getByTestId("trace-cell")
        .getByText(/holds no MD formula|Select a cell/)
        .waitFor();
    },
  },
];

/** Turns on the demo workbook of a pane opened outside Office (no workbook), and waits for its grid. */
export async function demoOn(page: Page): Promise<void> {
  await page.getByRole("switch", { name: "Demo workbook — not Excel" }).check();
  await page.getByTestId("demo-grid").waitFor();
}

/** Views of a pane opened outside Office with its demo workbook (src/taskpane/demo/) switched on. */
export const DEMO_VIEWS: readonly PaneViewCase[] = [
  { name: "Demo workbook: Picker", open: demoOn },
  {
    name: "Demo workbook: MD.LATEST built",
    open: async (page) => {
      await demoOn(page);
      await assetFormula("eth", "PRICE", /^MD\.LATEST/)(page);
    },
  },
  ...["Settings", "Insights", "Templates", "Artemis"].map((view) => ({
    name: `Demo workbook: ${view}`,
    open: async (page: Page) => {
      await demoOn(page);
      await showView(page, view);
    },
  })),
];

/** The views whose preview is wider than the pane; the screenshot's file name where one is kept. */
export const WIDE_PREVIEWS: readonly (PaneViewCase & { screenshot?: string })[] = [
  PANE_VIEWS.find((v) => v.name === "Builder: MD.SUPPLY (7 columns)")!,
  { ...PANE_VIEWS.find((v) => v.name === "Builder: MD.SNAPSHOT (10×4)")!, screenshot: "wide-preview.png" },
];

export type AxeImpact = "critical" | "serious" | "moderate" | "minor";
export const IMPACTS: readonly AxeImpact[] = ["critical", "serious", "moderate", "minor"];

export interface AxeViolation {
  id: string;
  impact: AxeImpact;
  /** The offending elements, as axe's selectors. */
  nodes: string[];
}

export interface AxeFinding {
  view: string;
  violations: AxeViolation[];
}

/** Injects axe-core (its source text, evaluated through the debugging protocol, which the page's CSP does not govern) and runs it over the document. */
export async function runAxe(page: Page, axeSource: string, view: string): Promise<AxeFinding> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeRun> } }).axe;
    interface AxeRun {
      violations: { id: string; impact: string; nodes: { target: unknown[] }[] }[];
    }
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.map((n) => n.target.map(String).join(" ")),
    }));
  });
  return { view, violations: violations as AxeViolation[] };
}

/** A plain-text table: one line per view, the count of violated rules at each impact, and their ids. */
export function axeTable(findings: readonly AxeFinding[]): string {
  const width = Math.max(4, ...findings.map((f) => f.view.length));
  const head = `${"view".padEnd(width)} | ${IMPACTS.map((i) => i.padStart(8)).join(" | ")} | rules`;
  const lines = findings.map((f) => {
    const counts = IMPACTS.map((impact) => String(f.violations.filter((v) => v.impact === impact).length).padStart(8));
    const rules = f.violations.map((v) => `${v.id} (${v.impact})`).join(", ");
    return `${f.view.padEnd(width)} | ${counts.join(" | ")} | ${rules}`;
  });
  return [head, "-".repeat(head.length), ...lines].join("\n");
}
