/**
 * Accessibility of every pane view, checked by axe-core in the built pane
 * (headless Chromium, the sandbox, a recorded workbook standing in for Excel),
 * in the light and the dark theme: no violation of any impact anywhere (minor
 * and moderate ones such as `heading-order` included).
 * The views are a table: a new view is one line in PANE_VIEWS. The run prints
 * a table of the violations found, view by view and impact by impact. The
 * wide previews scroll by keyboard; screenshot: wide-preview.png.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DEMO_API_KEY } from "../../sandbox/server";
import { describeBrowser } from "../support/browser";
import { emptyWorkbook, type PaneWatch, SCREENSHOTS } from "../support/pane-page";
import { usePaneRig } from "../support/pane-rig";
import {
  axeTable,
  type AxeFinding,
  DEMO_VIEWS,
  PANE_VIEWS,
  runAxe,
  type PaneTheme,
  WIDE_PREVIEWS,
} from "../support/pane-views";

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const THEMES: readonly PaneTheme[] = ["light", "dark"];

const findings: AxeFinding[] = [];

afterAll(() => {
  if (findings.length > 0) console.log(`axe-core findings (view × impact):\n${axeTable(findings)}`);
});

for (const theme of THEMES) {
  describeBrowser(`axe-core over every pane view, ${theme} theme (headless Chromium, sandbox)`, () => {
    // A fresh profile per theme (nothing stored yet, so "Insights: loading" is a first load); the
    // feeds answer at once, "loading" being held open by that view itself.
    const rig = usePaneRig({ assetCount: 2000, insightFirstCallDelayMs: 0 });

    // PANE_VIEWS with a workbook (the stand-in as Excel); DEMO_VIEWS outside Office, the demo workbook on.
    const cases = [
      ...PANE_VIEWS.map((view) => ({ view, workbook: true })),
      ...DEMO_VIEWS.map((view) => ({ view, workbook: false })),
    ];
    for (const { view, workbook } of cases) {
      it(`${view.name}: no violation of any impact`, async () => {
        let watch: PaneWatch | null = null;
        try {
          watch = await rig.openPane(DEMO_API_KEY, workbook ? { workbook: emptyWorkbook("B2") } : {});
          await watch.page.emulateMedia({ colorScheme: theme });
          await watch.page.locator(`[data-theme="${theme}"]`).first().waitFor();
          await view.open(watch.page);
          const finding = await runAxe(watch.page, AXE_SOURCE, `${view.name} (${theme})`);
          findings.push(finding);
          expect(finding.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).join(" | ")}`)).toEqual([]);
        } finally {
          await watch?.page.close();
        }
      }, 60_000);
    }
  });
}

describeBrowser("wide previews in the built pane (headless Chromium, sandbox)", () => {
  const rig = usePaneRig({ assetCount: 2000 });

  for (const view of WIDE_PREVIEWS) {
    it(`${view.name}: a named region in the Tab order, with a note; the arrow keys and End scroll it`, async () => {
      const watch = await rig.openPane(DEMO_API_KEY, { workbook: emptyWorkbook("B2") });
      const { page } = watch;
      try {
        await view.open(page);
        const box = page.locator('[data-testid="function-preview-scroll"]:visible');
        await page.locator('[data-testid="function-preview-scroll"][data-scrollable="true"]:visible').waitFor();
        expect(await box.getAttribute("role")).toBe("region");
        expect(await box.getAttribute("tabindex")).toBe("0");
        expect(await box.getAttribute("aria-label")).toMatch(
          /^Preview table, \d+ rows? (\(and a header row\) )?× \d+ columns/,
        );
        const note = page.getByTestId("function-preview-scroll-note");
        expect(await note.textContent()).toMatch(/^Wider than the pane: scroll sideways/);
        expect(await box.getAttribute("aria-describedby")).toBe(await note.getAttribute("id"));
        // The shadow on the right says more columns are there; none on the left yet.
        expect(await box.getAttribute("data-more-columns")).toBe("right");
        expect(await box.evaluate((e) => getComputedStyle(e).boxShadow)).toMatch(/-12px 0px 8px -8px inset/);
        if (view.screenshot) {
          mkdirSync(SCREENSHOTS, { recursive: true });
          await box.scrollIntoViewIfNeeded();
          await page
            .locator('[data-testid="function-preview"]:visible')
            .screenshot({ path: path.join(SCREENSHOTS, view.screenshot) });
        }

        // Reached with the Tab key from the control before it, then scrolled with the keyboard alone.
        await box.evaluate((e) => {
          const before = Array.from(document.querySelectorAll<HTMLElement>("input, select, button, [tabindex]")).filter(
            (c) =>
              c.tabIndex >= 0 &&
              !(c as HTMLButtonElement).disabled &&
              !c.closest("[hidden]") &&
              (c.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0,
          );
          before[before.length - 1].focus();
        });
        await page.keyboard.press("Tab");
        expect(await box.evaluate((e) => e === document.activeElement)).toBe(true);
        await page.keyboard.press("ArrowRight");
        await box.evaluate(
          (e) =>
            new Promise<void>((resolve) =>
              e.scrollLeft > 0 ? resolve() : e.addEventListener("scroll", () => resolve(), { once: true }),
            ),
        );
        expect(await box.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
        await page.keyboard.press("End");
        // At the right end: the shadow moves to the left.
        await page.locator('[data-testid="function-preview-scroll"][data-more-columns="left"]:visible').waitFor();
        expect(await box.evaluate((e) => e.scrollLeft + e.clientWidth >= e.scrollWidth - 1)).toBe(true);
        expect(await box.evaluate((e) => getComputedStyle(e).boxShadow)).toMatch(
          /^rgba?\([^)]*\) 12px 0px 8px -8px inset$/,
        );

        // And by pointer, whatever the system does with scroll bars: the buttons beside the note.
        const preview = page.locator('[data-testid="function-preview"]:visible');
        expect(await preview.getByRole("button", { name: "Scroll right" }).isDisabled()).toBe(true);
        const atEnd = await box.evaluate((e) => e.scrollLeft);
        await preview.getByRole("button", { name: "Scroll left" }).click();
        await page
          .locator(
            '[data-testid="function-preview-scroll"][data-more-columns="both sides"]:visible, [data-testid="function-preview-scroll"][data-more-columns="right"]:visible',
          )
          .waitFor();
        expect(await box.evaluate((e) => e.scrollLeft)).toBeLessThan(atEnd);
      } finally {
        await page.close();
      }
    }, 60_000);
  }

  it("a narrow preview is no region and not in the Tab order", async () => {
    const watch = await rig.openPane(DEMO_API_KEY, { workbook: emptyWorkbook("B2") });
    const { page } = watch;
    try {
      await PANE_VIEWS.find((v) => v.name === "Builder: MD.SERIES")!.open(page);
      const box = page.locator('[data-testid="function-preview-scroll"]:visible');
      expect(await box.getAttribute("data-scrollable")).toBe("false");
      expect(await box.getAttribute("tabindex")).toBeNull();
      expect(await box.getAttribute("role")).toBeNull();
      expect(await page.getByTestId("function-preview-scroll-note").count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});

describeBrowser("axe-core's table", () => {
  it("covers every view in both themes", () => {
    expect(findings.map((f) => f.view)).toEqual(
      THEMES.flatMap((theme) => [...PANE_VIEWS, ...DEMO_VIEWS].map((view) => `${view.name} (${theme})`)),
    );
  });
});
