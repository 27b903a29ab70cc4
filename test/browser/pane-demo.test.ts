/**
 * The pane as `npm start` shows it: against the default sandbox (no filler
 * tokens, no hostile fixtures), the picker lists the demo catalog — every
 * asset, none with a fixture-like title — and the insight feeds name only
 * catalog assets. Headless Chromium, the built pane.
 */
import type { Page } from "playwright-core";
import { DEFAULT_ASSET_COUNT } from "../../sandbox/asset-catalog";
import { DEMO_API_KEY } from "../../sandbox/server";
import { describeBrowser } from "../support/browser";
import { openPane, type PaneWatch, showView } from "../support/pane-page";
import { offMachine, usePaneRig } from "../support/pane-rig";

interface Asset {
  symbol: string;
  title: string;
  platform_id: string;
}

/** Text that only a security or rendering fixture, or a generated filler token, would carry. */
const FIXTURE_LIKE = /[<>]|onerror|script|xss|test|fixture|bold|sandbox_token|\bsbx\d|Ünïcødé/i;

/** Every option of the virtualised asset list, scrolling it from top to bottom. */
async function allListedOptions(page: Page): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const list = page.getByTestId("asset-list");
  await list.evaluate((element) => (element.scrollTop = 0));
  for (let step = 0; step < 200; step++) {
    const rows = await page
      .getByTestId("asset-option")
      .evaluateAll((options) =>
        options.map((o) => [o.getAttribute("data-symbol") ?? "", (o as HTMLElement).innerText] as const),
      );
    for (const [symbol, text] of rows) seen.set(symbol, text);
    const atEnd = await list.evaluate((element) => {
      const end = element.scrollTop + element.clientHeight >= element.scrollHeight - 1;
      element.scrollTop += element.clientHeight / 2;
      return end;
    });
    if (atEnd) break;
    await page.waitForTimeout(50);
  }
  return seen;
}

describeBrowser("the pane against npm start's sandbox (headless Chromium)", () => {
  // The sandbox as npm start runs it: no assetCount, no hostile fixtures.
  const rig = usePaneRig({ assetCount: undefined, hostileFixtures: false });
  let watch: PaneWatch;
  let catalog: Asset[];

  beforeAll(async () => {
    catalog = (await rig.fetchJson<{ assets: Asset[] }>("/asset/symbols/")).assets;
    watch = await openPane(rig.session, rig.pane.url, { baseUrl: rig.sandbox.url, apiKey: DEMO_API_KEY });
  }, 60_000);

  it("the picker lists the demo catalog, every asset, none with a fixture-like title", async () => {
    const { page } = watch;
    await showView(page, "Picker");
    await page.getByTestId("asset-option").first().waitFor({ timeout: 20_000 });
    expect(catalog).toHaveLength(DEFAULT_ASSET_COUNT);
    expect(await page.getByTestId("asset-count").textContent()).toBe(`${DEFAULT_ASSET_COUNT} assets`);
    const listed = await allListedOptions(page);
    expect([...listed.keys()].sort()).toEqual(catalog.map((a) => a.symbol).sort());
    expect([...listed].filter(([symbol, text]) => FIXTURE_LIKE.test(symbol) || FIXTURE_LIKE.test(text))).toEqual([]);
    // The plausible names are there: the large chains and the crypto equities.
    for (const symbol of ["btc", "eth", "sol", "usdt", "usdc", "eq-coin", "eq-mstr", "eq-aapl"])
      expect(listed.has(symbol)).toBe(true);
  });

  it.each(["<img", "onerror", "xss", "Bold", "sbx"])("searching %j finds nothing", async (query) => {
    const { page } = watch;
    await page.getByTestId("asset-search").fill(query);
    await page.locator(`[data-testid="asset-list"][data-query="${query}"]`).waitFor();
    expect(await page.getByTestId("asset-option").count()).toBe(0);
    await page.getByTestId("asset-search").fill("");
  });

  it("the insight cards name catalog assets only, none fixture-like", async () => {
    const { page } = watch;
    await showView(page, "Insights");
    await page.getByTestId("insight-card").first().waitFor({ timeout: 30_000 });
    const entities = await page
      .getByTestId("insight-card")
      .locator("h3")
      .evaluateAll((hs) => hs.map((h) => h.getAttribute("data-entity") ?? ""));
    expect(entities.length).toBeGreaterThan(0);
    const platformIds = new Set(catalog.map((a) => a.platform_id));
    expect(entities.filter((entity) => !platformIds.has(entity) || FIXTURE_LIKE.test(entity))).toEqual([]);
  });

  it("nothing went anywhere but this machine, and no page error", () => {
    expect(offMachine(rig.requests)).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
  });
});
