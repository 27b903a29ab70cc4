/**
 * Switching from Artemis Sheets in the built pane (headless Chromium, the
 * sandbox's asset catalog, a recorded workbook of two sheets): the scan finds
 * the ART, ARTRANGE and ARTINFO formulas of both sheets (not a constant that
 * only looks like one, nor other formulas), shows each beside its MD formula
 * and lists the ones it cannot convert with the reason; Convert writes the
 * chosen ones in one batch (one undo step where the host groups them); Undo
 * conversion restores the originals, except in a cell edited since. Two
 * cells call the Artemis add-in as Excel saves them while it is not loaded
 * (`_xldudf_ARTEMIS_ART`, the stand-in's custom-functions.ts): one converts
 * whole, the other's misspelt metric is listed with "Did you mean".
 * Screenshot: migrate.png.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { DEMO_API_KEY } from "../../sandbox/server";
import { describeBrowser } from "../support/browser";
import { SCREENSHOTS, type PageWorkbook, type PaneWatch } from "../support/pane-page";
import { offMachine, usePaneRig } from "../support/pane-rig";
import type { WorkbookRecording } from "../support/workbook-stand-in";

const PRICES = "Prices";
const FUNDAMENTALS = "Fundamentals Q2";

/**
 * Artemis formulas in the order the view lists them (sheet by sheet, row by
 * row), as `Range.formulas` reads them, with the MD formula each must become
 * (null: left as it is, with this reason); `typed`: what the cell holds when
 * Excel shows it otherwise (the Artemis add-in not loaded).
 */
const SEEDED: {
  sheet: string;
  address: string;
  formula: string;
  typed?: string;
  md: string | null;
  reason?: RegExp;
}[] = [
  { sheet: PRICES, address: "A1", formula: '=ART("BTC","PRICE")', md: '=MD.LATEST("btc","PRICE")' },
  { sheet: PRICES, address: "B1", formula: '=ART("ETH","L30_FEES")*2', md: '=MD.LATEST("eth","L30_FEES")*2' },
  {
    sheet: PRICES,
    address: "A2",
    formula: '=ART("eth","PRICE","2024-06-28")',
    md: '=MD.LATEST("eth","PRICE","2024-06-28")',
  },
  {
    sheet: PRICES,
    address: "A3",
    formula: '=ARTRANGE({"BTC","ETH"},"PRICE","2024-06-24","2024-06-28","DESC",TRUE,TRUE)',
    md: '=MD.SERIES("btc,eth","PRICE","2024-06-24","2024-06-28",,"order=desc; days=weekdays")',
  },
  {
    sheet: PRICES,
    address: "A4",
    formula: '=ARTINFO("BTC","MC-RANK")',
    md: null,
    reason: /MC-RANK: the service has no market-cap rank/,
  },
  { sheet: FUNDAMENTALS, address: "C3", formula: '=ARTINFO("ALL","SYMBOLS")', md: "=MD.ASSETS()" },
  {
    sheet: FUNDAMENTALS,
    address: "C4",
    formula: '=ART("ETH","TT_SOCIAL_VOLUME")',
    md: null,
    reason: /TT_SOCIAL_VOLUME is a third party's data/,
  },
  {
    sheet: FUNDAMENTALS,
    address: "C5",
    formula: '=ARTINFO("SOL","SUPPORTED-METRICS")',
    md: '=MD.METRICS("sol")',
  },
  {
    sheet: FUNDAMENTALS,
    address: "C6",
    formula: '=ART("BTCC","PRICE")',
    md: null,
    reason: /symbol "BTCC" is not in the asset catalog\. Did you mean btc/,
  },
  {
    sheet: FUNDAMENTALS,
    address: "C7",
    typed: '=ARTEMIS.ART("SOL","PRICE")*2',
    formula: '=_xldudf_ARTEMIS_ART("SOL","PRICE")*2',
    md: '=MD.LATEST("sol","PRICE")*2',
  },
  {
    sheet: FUNDAMENTALS,
    address: "C8",
    typed: '=ARTEMIS.ART("ETH","FEEZ")',
    formula: '=_xldudf_ARTEMIS_ART("ETH","FEEZ")',
    md: null,
    reason: /^metric FEEZ is not in the metric catalog of eth\. Did you mean FEES\b/,
  },
];

/** What the stand-in holds in a cell never converted: the formula as typed. */
const stored = (seeded: (typeof SEEDED)[number]) => seeded.typed ?? seeded.formula;

const name = (sheet: string, address: string) =>
  sheet.includes(" ") ? `'${sheet}'!${address}` : `${sheet}!${address}`;

function workbook(): WorkbookRecording {
  const cells = (sheet: string) =>
    Object.fromEntries(
      SEEDED.filter((s) => s.sheet === sheet).map((s) => [s.address, { formula: stored(s), value: "#NAME?" }]),
    );
  return {
    sheets: [
      {
        name: PRICES,
        cells: {
          ...cells(PRICES),
          // Not Artemis formulas: an ordinary formula, and text that only looks like one.
          B2: { formula: "=SUM(1,2)", value: 3 },
          B3: { value: '=ART("BTC","PRICE")' },
        },
      },
      { name: FUNDAMENTALS, cells: cells(FUNDAMENTALS) },
    ],
    activeSheet: PRICES,
    selection: { sheet: PRICES, areas: ["D1"] },
    results: {},
    // Artemis for Excel is not loaded: its calls read `_xldudf_ARTEMIS_…` (office-js #3558).
    otherAddIns: [{ namespace: "ARTEMIS", functions: ["ART", "ARTRANGE", "ARTINFO"], loaded: false }],
  };
}

const formulaIn = (page: Page, sheet: string, address: string) =>
  page.evaluate(([s, a]) => (window as unknown as PageWorkbook).__workbook.cell(s, a).formula, [sheet, address]);

describeBrowser("the pane's Artemis view (headless Chromium, sandbox, recorded workbook)", () => {
  const rig = usePaneRig();
  let watch: PaneWatch;

  beforeAll(async () => {
    watch = await rig.openPane(DEMO_API_KEY, { workbook: workbook() });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  it("lists every sheet's Artemis formulas beside their MD formulas, and the ones it cannot convert with the reason", async () => {
    const { page } = watch;
    await page.getByRole("tab", { name: "Artemis" }).click();
    const convertible = SEEDED.filter((s) => s.md !== null);
    const refused = SEEDED.filter((s) => s.md === null);
    await page.getByRole("heading", { name: `To convert (${convertible.length})` }).waitFor({ timeout: 90_000 });

    const items = page.getByTestId("migrate-convertible");
    expect(await items.count()).toBe(convertible.length);
    for (const [i, seeded] of convertible.entries()) {
      const item = items.nth(i);
      const box = item.getByRole("checkbox", { name: name(seeded.sheet, seeded.address) });
      expect(await box.isChecked()).toBe(true);
      expect(await item.getByTestId("migrate-original").innerText()).toBe(seeded.formula);
      expect(await item.getByTestId("migrate-converted").innerText()).toBe(seeded.md);
    }
    const refusals = page.getByTestId("migrate-refused");
    expect(await refusals.count()).toBe(refused.length);
    for (const [i, seeded] of refused.entries()) {
      const item = refusals.nth(i);
      expect(await item.innerText()).toContain(name(seeded.sheet, seeded.address));
      expect(await item.getByTestId("migrate-reason").innerText()).toMatch(seeded.reason!);
    }
    // No element id is used twice.
    const duplicates = await page.evaluate(() => {
      const ids = Array.from(document.querySelectorAll("[id]"), (el) => el.id);
      return ids.filter((id, i) => ids.indexOf(id) !== i);
    });
    expect(duplicates).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOTS, "migrate.png"), fullPage: true });
  }, 120_000);

  it("converts the chosen formulas in one batch, and Undo restores the originals except where a cell was edited since", async () => {
    const { page } = watch;
    const skipped = SEEDED.find((s) => s.address === "C5")!;
    // Chosen with the keyboard: focus the checkbox, Space toggles it.
    const skippedBox = page.getByRole("checkbox", { name: name(skipped.sheet, skipped.address) });
    await skippedBox.focus();
    await page.keyboard.press("Space");
    expect(await skippedBox.isChecked()).toBe(false);
    const chosen = SEEDED.filter((s) => s.md !== null && s !== skipped);

    const before = await page.evaluate(() => (window as unknown as PageWorkbook).__workbook.log.runOptions.length);
    await page.getByRole("button", { name: `Convert ${chosen.length} formulas` }).click();
    await page
      .getByTestId("migrate-result")
      .getByText(`Converted ${chosen.length} formulas.`)
      .waitFor({ timeout: 20_000 });
    for (const seeded of chosen) expect(await formulaIn(page, seeded.sheet, seeded.address)).toBe(seeded.md);
    for (const seeded of SEEDED.filter((s) => !chosen.includes(s))) {
      expect(await formulaIn(page, seeded.sheet, seeded.address)).toBe(stored(seeded));
    }
    // One Excel.run wrote them, as one undo group (ExcelApi 1.20), waiting out cell edit.
    const runs = await page.evaluate(
      (from) => (window as unknown as PageWorkbook).__workbook.log.runOptions.slice(from),
      before,
    );
    expect(runs.filter((options) => options.mergeUndoGroup === true)).toEqual([
      { mergeUndoGroup: true, delayForCellEdit: true },
    ]);
    // The rescan lists what is left: the unchosen one.
    await page.getByRole("heading", { name: "To convert (1)" }).waitFor();

    // Someone edits a converted cell; Undo must leave it as they made it.
    const edited = chosen[1];
    await page.evaluate(
      ([s, a]) => (window as unknown as PageWorkbook).__workbook.edit(s, a, "=1+1"),
      [edited.sheet, edited.address],
    );
    await page.getByRole("button", { name: `Undo conversion (${chosen.length} formulas)` }).click();
    const result = page.getByTestId("migrate-result");
    await result.getByText(`Restored ${chosen.length - 1} original formulas.`).waitFor({ timeout: 20_000 });
    expect(await result.innerText()).toContain(
      `1 cell edited since the conversion kept as they are (${name(edited.sheet, edited.address)}).`,
    );
    // Undo writes back the formulas as the scan read them; cells never converted keep theirs.
    for (const seeded of SEEDED.filter((s) => s !== edited)) {
      const restored = chosen.includes(seeded) ? seeded.formula : stored(seeded);
      expect(await formulaIn(page, seeded.sheet, seeded.address)).toBe(restored);
    }
    expect(await formulaIn(page, edited.sheet, edited.address)).toBe("=1+1");
    await page.getByRole("heading", { name: `To convert (${chosen.length})` }).waitFor();
    expect(await page.getByRole("button", { name: /Undo conversion/ }).count()).toBe(0);
    expect(watch.pageErrors).toEqual([]);
    expect(offMachine(rig.requests)).toEqual([]);
  }, 60_000);
});
