/**
 * Refresh never turns data into formulas. `Range.formulas` reports a value
 * cell's value ("If a cell has no formula, its value is returned instead",
 * Excel.Range.formulas) and drops a leading apostrophe (office-js #6687), so
 * text such as `=HYPERLINK("http://…",MD.VERSION())` reads exactly like a
 * formula. The recorded workbook models both; these cases must stay text after
 * Refresh all and after refresh on open, and edits made while a refresh runs
 * must be kept.
 */
import { refreshAll, type RefreshOptions } from "../../src/refresh/refresh-all";
import { RefreshController } from "../../src/refresh/refresh-controller";
import { REFRESH_ON_OPEN_SETTING } from "../../src/refresh/refresh-on-open";
import type { WorkbookAdapter } from "../../src/refresh/workbook-adapter";
import {
  build,
  FROZEN_TEXT,
  INJECTED_TITLE,
  injectionWorkbook,
  latest,
  OPENED_WITH_DOCUMENT,
  QUOTED_NOTE,
  type LabelledWorkbook,
} from "../support/recordings";
import { openRecordedWorkbook } from "../support/open-workbook";
import type { WorkbookRecording, WorkbookStandIn } from "../support/workbook-stand-in";

const fast: Partial<RefreshOptions> = { pollMs: 5, maxPollMs: 20 };

function open(recording: WorkbookRecording) {
  return openRecordedWorkbook(recording);
}

/** Every text cell of the fixture, and every cell of the catalog spill, is still the same text and no formula. */
function expectTextKept(standIn: WorkbookStandIn, fixture: LabelledWorkbook): void {
  for (const [sheet, address, text] of [
    ["Catalog", "C3", INJECTED_TITLE],
    ["Notes", "B3", FROZEN_TEXT],
    ["Notes", "B4", QUOTED_NOTE],
  ] as const) {
    expect({ at: `${sheet}!${address}`, ...standIn.cell(sheet, address) }).toEqual({
      at: `${sheet}!${address}`,
      formula: null,
      value: text,
      type: "String",
    });
  }
  const written = standIn.log.formulaWrites.map((w) => w.formula);
  for (const text of [INJECTED_TITLE, FROZEN_TEXT, QUOTED_NOTE]) expect(written).not.toContain(text);
  // The catalog still spills (a formula written into it would have broken it: #SPILL!).
  const catalog = fixture.md.find((c) => c.sheet === "Catalog")!;
  expect(standIn.cell("Catalog", "A1").formula).toBe(catalog.cell.formula);
  expect(standIn.cell("Catalog", "A1").value).not.toBe("#SPILL!");
}

describe("refresh never turns data into formulas", () => {
  const cases: [string, Partial<WorkbookRecording>][] = [
    ["as Excel documents them", {}],
    ["when special cells also return spilled cells", { specialCellsIncludeSpills: true }],
    ["even if a spilled cell reported its anchor's formula", { spilledCellsReportAnchorFormula: true }],
  ];
  const hosts: [string, Partial<WorkbookRecording>][] = [
    ["recalculating", {}],
    ["rewriting where calculating does not run custom functions", { calculateSkipsCustomFunctions: true }],
    ["rewriting, before ExcelApi 1.6", { excelApi: "1.5" }],
  ];
  // Spills exist only with dynamic arrays (ExcelApi 1.12): the anchor-formula worst case needs a current Excel.
  const matrix = hosts.flatMap(([how, host]) =>
    cases
      .filter(([, extra]) => !(host.excelApi === "1.5" && extra.spilledCellsReportAnchorFormula))
      .map(([what, extra]) => [how, what, { ...host, ...extra }] as const),
  );
  it.each(matrix)(
    "Refresh all (%s): a live spill's formula-like title, frozen text and a quoted note stay text (%s)",
    async (how, _, extra) => {
      const fixture = injectionWorkbook();
      const { standIn, workbook, calls } = open({ ...fixture.recording, ...extra });
      const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
      await standIn.idle();

      expectTextKept(standIn, fixture);
      expect([...new Set(standIn.log.calculations)].sort()).toEqual(["Catalog!A1", "Notes!B2"]);
      expect(standIn.log.formulaWrites.map((w) => `${w.sheet}!${w.address}`).sort()).toEqual(
        how === "recalculating" ? [] : ["Catalog!A1", "Notes!B2"],
      );
      expect(standIn.log.valueWrites).toEqual([]);
      // (In the worst case the spilled cells are counted among the recalculated ones: calculating them does nothing.)
      if (!extra.spilledCellsReportAnchorFormula || how !== "recalculating") expect(report.cells).toBe(2);
      // The refreshed catalog grew by a row and the new row is data too.
      expect(standIn.cell("Catalog", "A4").value).toBe("sol");
      expect(standIn.cell("Notes", "B2").value).toBe(61000);
    },
  );

  it.each(hosts)("refresh on open (%s): the same text stays text when the workbook opens", async (_, host) => {
    const fixture = injectionWorkbook();
    const { standIn, workbook, calls } = open({
      ...fixture.recording,
      ...host,
      documentSettings: { [REFRESH_ON_OPEN_SETTING]: true },
      startupBehavior: "Load",
    });
    const controller = new RefreshController({
      workbook,
      clearCache: () => {},
      readKey: async () => ({ apiKey: "user-entered-key", usingDefaultKey: false }),
      calls,
      refreshOptions: fast,
    });
    const report = await controller.runOnOpen(OPENED_WITH_DOCUMENT);
    await standIn.idle();
    expect(report?.cells).toBe(2);
    expectTextKept(standIn, fixture);
  });

  it("re-reads each block when writing: edits made during the refresh are kept", async () => {
    const cells = ["B2", "B3", "B4", "B5"].map((address, i) => ({
      sheet: "Comps",
      address,
      cell: { formula: latest(`s${i}`), value: i },
      md: true,
      fresh: { value: 100 + i, afterMs: 5 },
    }));
    const fixture = build([{ name: "Comps" }], cells);
    // An Excel that must rewrite (no Range.calculate): the write is what could overwrite an edit.
    const { standIn, workbook, calls } = open({ ...fixture.recording, excelApi: "1.5" });
    // Between the scan and the write, the user (or a co-author) types into three of the cells.
    const editing: WorkbookAdapter = {
      ...workbook,
      rewriteFormulas: async (sheet, blocks) => {
        standIn.edit("Comps", "B2", 42);
        standIn.edit("Comps", "B3", "=1+1");
        standIn.edit("Comps", "B4", `'${latest("s2")}`);
        return workbook.rewriteFormulas(sheet, blocks);
      },
    };
    const report = await refreshAll(editing, { calls, ...fast, clearCache: () => {} });
    await standIn.idle();

    expect(standIn.cell("Comps", "B2")).toMatchObject({ formula: null, value: 42 });
    expect(standIn.cell("Comps", "B3").formula).toBe("=1+1");
    expect(standIn.cell("Comps", "B4")).toMatchObject({ formula: null, value: latest("s2"), type: "String" });
    expect(standIn.cell("Comps", "B5")).toMatchObject({ formula: latest("s3"), value: 103 });
    expect(standIn.log.formulaWrites.map((w) => w.address)).toEqual(["B5"]);
    expect(report.cells).toBe(1);
    expect(report.skipped).toEqual([
      {
        sheet: "Comps",
        cells: 3,
        message: expect.stringMatching(/3 cell\(s\) on "Comps" changed while refreshing \(B2, B3, B4\)/),
      },
    ]);
  });
});
