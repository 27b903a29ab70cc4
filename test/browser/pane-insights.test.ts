/**
 * The insight browser of the built pane in headless Chromium against the
 * sandbox, whose feeds answer their first call slowly (1.5 s here): the
 * progress shows, then the cards; both feeds; the cadence filter; a card's
 * formula inserted into a recorded workbook. Screenshot: insights.png.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/server";
import { describeBrowser } from "../support/browser";
import { emptyWorkbook, type PageWorkbook, type PaneWatch, SCREENSHOTS, showView } from "../support/pane-page";
import { offMachine, usePaneRig } from "../support/pane-rig";

interface Card {
  ENTITY_ID: string;
  METRIC_NAME: string;
  FLAG: string;
  PERIOD_START_DATE: string;
  PERIOD_END_DATE: string;
}

const EMPTY_WORKBOOK = emptyWorkbook("C3");

const GRANULARITY: Record<string, string> = { weekly: "WEEK", monthly: "MONTH", quarterly: "QUARTER" };
const cadenceOf = (flag: string) => /_(weekly|monthly|quarterly)$/.exec(flag)?.[1] ?? null;
/** The formula a card stands for, written out here from the card's own fields. */
const formulaFor = (card: Card) => {
  const cadence = cadenceOf(card.FLAG);
  const args = [
    card.ENTITY_ID.toLowerCase(),
    card.METRIC_NAME.toUpperCase(),
    card.PERIOD_START_DATE,
    card.PERIOD_END_DATE,
  ];
  if (cadence) args.push(GRANULARITY[cadence]);
  return `=MD.SERIES(${args.map((a) => `"${a}"`).join(",")})`;
};

/** The feed loads slowly: its progress is on screen first, then the cards replace it. */
async function expectSlowLoad(page: Page): Promise<void> {
  const loading = page.getByTestId("insights-loading");
  await loading.waitFor({ timeout: 5_000 });
  // Read at one instant: on a busy machine the cards may arrive between two separate reads.
  const onScreen = await page.evaluate(() => ({
    progress: document.querySelector('[data-testid="insights-loading"] [role="progressbar"]') !== null,
    cards: document.querySelectorAll('[data-testid="insight-card"]').length,
  }));
  expect(onScreen).toEqual({ progress: true, cards: 0 });
  await page.getByTestId("insight-card").first().waitFor({ timeout: 20_000 });
  expect(await loading.count()).toBe(0);
}

describeBrowser("task pane Insights with slow first calls (headless Chromium, sandbox)", () => {
  // 3 s: long enough for the progress to be seen on a loaded machine.
  const rig = usePaneRig({ insightFirstCallDelayMs: 3000 });
  let watch: PaneWatch;

  beforeAll(async () => {
    watch = await rig.openPane(DEMO_API_KEY, { workbook: EMPTY_WORKBOOK });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  it("growth streaks: the progress indicator shows while the first call runs, then every card", async () => {
    const { page } = watch;
    await showView(page, "Insights");
    await expectSlowLoad(page);
    // The feed, read by the test after the pane (so the pane's call was the slow first one).
    const rows = (await rig.fetchJson<{ rows: Card[] }>("/insights/streaks/")).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(await page.getByTestId("insight-count").textContent()).toBe(`${rows.length} cards`);
    const first = page.getByTestId("insight-card").first();
    expect(await first.locator("h3").getAttribute("data-entity")).toBe(rows[0].ENTITY_ID);
    // Headed by the catalog's title for the entity (a platform id), once the catalog is in.
    const catalog = await rig.fetchJson<{ assets: { platform_id: string; title: string }[] }>("/asset/symbols/");
    const title = catalog.assets.find((a) => a.platform_id === rows[0].ENTITY_ID)?.title;
    expect(title).toBeDefined();
    await first.locator("h3", { hasText: title }).waitFor();
    // The streak is drawn marked; the period before it (the lead-in) thin and muted.
    const parts = await first
      .getByTestId("insight-sparkline")
      .locator("path")
      .evaluateAll((ps) => ps.map((p) => p.getAttribute("data-part")));
    expect(parts).toEqual(["lead-in", "emphasis"]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOTS, "insights.png") });
  });

  it("the cards are one Tab stop, moved through with the arrow keys, and a skip link passes them", async () => {
    const { page } = watch;
    const rows = (await rig.fetchJson<{ rows: Card[] }>("/insights/streaks/")).rows;
    expect(rows.length).toBeGreaterThan(30);
    const list = '[aria-label="Growth streaks cards"]';
    // Where focus is after each Tab from the cadence radios (the control before the list): in the list, or past it.
    const where = () =>
      page.evaluate((selector) => {
        const container = document.querySelector(selector)!;
        const active = document.activeElement!;
        if (container.contains(active)) return "in";
        return container.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_FOLLOWING ? "past" : "before";
      }, list);
    const tabsUntil = async (goal: "in" | "past") => {
      await page.getByRole("radio", { name: /^All \(/ }).focus();
      for (let tabs = 1; tabs <= 80; tabs++) {
        await page.keyboard.press("Tab");
        if ((await where()) === goal) return tabs;
      }
      return Infinity;
    };
    expect(await tabsUntil("in")).toBeLessThanOrEqual(3);
    expect(await tabsUntil("past")).toBeLessThanOrEqual(3);

    // In the list: the first card; ↓ the next card, → its Insert button, ← back to the card.
    await tabsUntil("in");
    const cardName = (i: number) =>
      page
        .getByTestId("insight-card")
        .nth(i)
        .locator("h3")
        .evaluate((h) => h.textContent ?? "");
    const focusedCard = () =>
      page.evaluate(
        () => document.activeElement?.closest('[data-testid="insight-card"]')?.querySelector("h3")?.textContent,
      );
    expect(await focusedCard()).toBe(await cardName(0));
    await page.keyboard.press("ArrowDown");
    expect(await focusedCard()).toBe(await cardName(1));
    await page.keyboard.press("ArrowRight");
    const second = rows[1];
    expect(
      await page
        .getByRole("button", {
          name: `Insert the formula for ${second.ENTITY_ID} ${second.METRIC_NAME} into the selected cell`,
        })
        .evaluate((button) => button === document.activeElement),
    ).toBe(true);
    // One Tab stop: Tab leaves the list from anywhere in it, and Shift+Tab comes back to where it was.
    await page.keyboard.press("Tab");
    expect(await where()).toBe("past");
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Insert");
    expect(await focusedCard()).toBe(await cardName(1));

    // The skip link: Enter on it puts focus past the list.
    await page.getByRole("radio", { name: /^All \(/ }).focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("A");
    await page.keyboard.press("Enter");
    expect(await where()).toBe("past");
  });

  it("the cadence filter keeps that cadence's cards, and Insert writes the card's formula", async () => {
    const { page } = watch;
    const rows = (await rig.fetchJson<{ rows: Card[] }>("/insights/streaks/")).rows;
    const cadence = (["weekly", "monthly", "quarterly"] as const).find((c) =>
      rows.some((r) => cadenceOf(r.FLAG) === c),
    );
    expect(cadence).toBeDefined();
    const kept = rows.filter((r) => cadenceOf(r.FLAG) === cadence);
    await page
      .getByRole("radio", { name: new RegExp(`^${cadence![0].toUpperCase()}${cadence!.slice(1)} \\(`) })
      .check();
    const count = kept.length === rows.length ? `${rows.length} cards` : `${kept.length} of ${rows.length} cards`;
    await page.getByText(count, { exact: true }).waitFor();
    const headings = await page
      .getByTestId("insight-card")
      .locator("h3")
      .evaluateAll((hs) => hs.map((h) => h.getAttribute("data-entity") ?? ""));
    expect(headings).toEqual(kept.slice(0, headings.length).map((r) => r.ENTITY_ID));

    const card = kept[0];
    await page
      .getByTestId("insight-card")
      .first()
      .getByRole("button", {
        name: `Insert the formula for ${card.ENTITY_ID} ${card.METRIC_NAME} into the selected cell`,
      })
      .click();
    await page.getByTestId("place-outcome").first().waitFor();
    const log = await page.evaluate(() => (window as unknown as PageWorkbook).__workbook.log);
    expect(log.formulaWrites).toEqual([{ sheet: "Sheet1", address: "C3", formula: formulaFor(card) }]);
  });

  it("decline streaks: the other feed loads slowly too, then shows its own cards", async () => {
    const { page } = watch;
    await page.getByRole("radio", { name: "Decline streaks" }).check();
    await expectSlowLoad(page);
    const rows = (await rig.fetchJson<{ rows: Card[] }>("/insights/decline-streaks/")).rows;
    await page.getByRole("radio", { name: /^All \(/ }).check();
    expect(await page.getByTestId("insight-count").textContent()).toBe(`${rows.length} cards`);
    expect(await page.getByTestId("insight-card").first().locator("h3").getAttribute("data-entity")).toBe(
      rows[0].ENTITY_ID,
    );
    // Switching back shows the growth feed at once: it is kept, not fetched again.
    await page.getByRole("radio", { name: "Growth streaks" }).check();
    expect(await page.getByTestId("insights-loading").count()).toBe(0);
    await page.getByTestId("insight-card").first().waitFor();
  });

  it("nothing went anywhere but this machine, and no page error or dialog", () => {
    expect(rig.requests.some((url) => url.includes("/insights/decline-streaks/"))).toBe(true);
    expect(offMachine(rig.requests)).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(watch.dialogs).toEqual([]);
  });
});
