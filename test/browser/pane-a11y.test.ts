/**
 * Accessibility of every pane view, checked by axe-core in the built pane
 * (headless Chromium, the sandbox, a recorded workbook standing in for Excel),
 * in the light and the dark theme: no serious or critical violation anywhere.
 * The views are a table: a new view is one line in PANE_VIEWS. The run prints
 * a table of the violations found, view by view and impact by impact.
 */
import { readFileSync } from "node:fs";
import { DEMO_API_KEY } from "../../sandbox/server";
import { describeBrowser } from "../support/browser";
import { emptyWorkbook, type PaneWatch } from "../support/pane-page";
import { usePaneRig } from "../support/pane-rig";
import { axeTable, BLOCKING_IMPACTS, type AxeFinding, PANE_VIEWS, runAxe, type PaneTheme } from "../support/pane-views";

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

    for (const view of PANE_VIEWS) {
      it(`${view.name}: no serious or critical violation`, async () => {
        let watch: PaneWatch | null = null;
        try {
          watch = await rig.openPane(DEMO_API_KEY, { workbook: emptyWorkbook("B2") });
          await watch.page.emulateMedia({ colorScheme: theme });
          await watch.page.locator(`[data-theme="${theme}"]`).first().waitFor();
          await view.open(watch.page);
          const finding = await runAxe(watch.page, AXE_SOURCE, `${view.name} (${theme})`);
          findings.push(finding);
          const blocking = finding.violations.filter((v) => BLOCKING_IMPACTS.includes(v.impact));
          expect(blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).join(" | ")}`)).toEqual([]);
        } finally {
          await watch?.page.close();
        }
      }, 60_000);
    }
  });
}

describeBrowser("axe-core's table", () => {
  it("covers every view in both themes", () => {
    expect(findings.map((f) => f.view)).toEqual(
      THEMES.flatMap((theme) => PANE_VIEWS.map((view) => `${view.name} (${theme})`)),
    );
  });
});
