/**
 * Refresh all against the recorded workbook, on two kinds of Excel: one with
 * `Range.calculate()` (ExcelApi 1.6), where MD cells are recalculated and
 * nothing is written, and an older one, where their formulas are entered
 * again (the fallback). `log.calculations` lists the custom functions Excel
 * ran, whichever way they were triggered.
 */
import { refreshAll, type RefreshOptions } from "../../src/refresh/refresh-all";
import { refreshSummary } from "../../src/refresh/summary";
import { openRecordedWorkbook } from "../support/open-workbook";
import { build, compsWorkbook, latest, type LabelledWorkbook } from "../support/recordings";
import type { WorkbookRecording, WorkbookStandIn } from "../support/workbook-stand-in";

const fast: Partial<RefreshOptions> = { pollMs: 5, maxPollMs: 20, noStartMs: 300, quietMs: 50 };
const ran = (standIn: WorkbookStandIn) => [...new Set(standIn.log.calculations)].sort();
const written = (standIn: WorkbookStandIn) => standIn.log.formulaWrites.map((w) => `${w.sheet}!${w.address}`).sort();
const ids = (cells: LabelledWorkbook["md"]) => cells.map((c) => `${c.sheet}!${c.address}`).sort();

const HOSTS: [string, Partial<WorkbookRecording>, "recalculate" | "rewrite"][] = [
  ["Excel with Range.calculate", {}, "recalculate"],
  ["Excel before ExcelApi 1.6", { excelApi: "1.5" }, "rewrite"],
];

describe.each(HOSTS)("refresh all on %s", (_, host, method) => {
  const open = (fixture: LabelledWorkbook, extra: Partial<WorkbookRecording> = {}) =>
    openRecordedWorkbook({ ...fixture.recording, ...host, ...extra });
  /** Protected sheets can be recalculated, never rewritten. */
  const refreshable = (fixture: LabelledWorkbook) =>
    fixture.md.filter((c) => method === "recalculate" || c.sheet !== "Locked");

  it("empties the cache first, then runs exactly the MD cells' functions again", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture);
    const runsWhenCleared: number[] = [];
    const report = await refreshAll(workbook, {
      calls,
      ...fast,
      clearCache: () => runsWhenCleared.push(standIn.log.calculations.length),
    });

    expect(runsWhenCleared).toEqual([0]);
    expect(ran(standIn)).toEqual(ids(refreshable(fixture)));
    expect(report.cells).toBe(refreshable(fixture).length);
    expect(report.method).toBe(method);
    if (method === "recalculate") {
      expect(report.sheets).toEqual(["Comps", "Series", "Locked"]);
      expect(standIn.log.formulaWrites).toEqual([]);
    } else {
      expect(report.sheets).toEqual(["Comps", "Series"]);
      expect(written(standIn)).toEqual(ids(refreshable(fixture)));
      for (const w of standIn.log.formulaWrites) {
        expect(w.formula).toBe(fixture.cells.find((c) => c.sheet === w.sheet && c.address === w.address)?.cell.formula);
      }
    }
  });

  it("leaves every other formula and value as it was", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture);
    await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    for (const c of fixture.cells.filter((cell) => !cell.md)) {
      const now = standIn.cell(c.sheet, c.address);
      expect({ at: `${c.sheet}!${c.address}`, formula: now.formula, value: now.value }).toEqual({
        at: `${c.sheet}!${c.address}`,
        formula: c.cell.formula ?? null,
        value: c.cell.value,
      });
    }
  });

  it("waits for the fresh values and reports the cells that came back as errors", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture);
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });

    for (const c of refreshable(fixture)) {
      const expectedValue = c.fresh?.spill ? c.fresh.spill[0][0] : c.fresh?.value;
      expect([c.address, standIn.cell(c.sheet, c.address).value]).toEqual([c.address, expectedValue]);
    }
    const errors = refreshable(fixture).filter(
      (c) => typeof c.fresh?.value === "string" && c.fresh.value.startsWith("#"),
    );
    expect(report.failed.map((f) => `${f.sheet}!${f.address} ${f.error}`).sort()).toEqual(
      errors.map((c) => `${c.sheet}!${c.address} ${c.fresh?.value}`).sort(),
    );
    expect(report.failed.every((f) => f.message.length > 0)).toBe(true);
    expect(report.pending).toEqual([]);
    expect(report.running).toBe(0);
  });

  it("refreshes a spilled array from its anchor and lets it grow", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture);
    await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    const series = fixture.md.find((c) => c.sheet === "Series")!;
    const spill = series.fresh!.spill!;
    expect(standIn.log.calculations.filter((id) => id.startsWith("Series!"))).toEqual(["Series!A1"]);
    spill.forEach((line, r) =>
      line.forEach((value, c) => expect(standIn.cell("Series", `${"AB"[c]}${r + 1}`).value).toBe(value)),
    );
  });

  it("costs a fixed number of syncs per sheet, however many cells it has", async () => {
    const syncsFor = async (rows: number) => {
      const cells = Array.from({ length: rows }, (_, i) => ({
        sheet: "Big",
        address: `B${i + 1}`,
        cell: { formula: latest(`s${i}`), value: i },
        md: true,
        fresh: { value: i + 0.5, afterMs: 1 },
      }));
      const { standIn, workbook, calls } = open(build([{ name: "Big" }], cells));
      await standIn.idle();
      await refreshAll(workbook, { calls, pollMs: 50, clearCache: () => {} });
      return standIn.log.syncs;
    };
    const few = await syncsFor(5);
    const many = await syncsFor(500);
    expect(many).toBe(few);
    expect(few).toBeLessThanOrEqual(method === "recalculate" ? 7 : 8);
  });

  it("says so when the workbook has no MD formulas", async () => {
    const fixture = build(
      [{ name: "Plain" }],
      [{ sheet: "Plain", address: "A1", cell: { formula: "=1+1", value: 2 }, md: false }],
    );
    const { standIn, workbook, calls } = open(fixture);
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    expect(report.cells).toBe(0);
    expect(standIn.log.formulaWrites).toEqual([]);
    expect(standIn.log.calculations).toEqual([]);
  });

  it("reports the MD calls still running when the wait runs out, without failing their cells", async () => {
    const fixture = compsWorkbook({ afterMs: 400 });
    const { standIn, workbook, calls } = open(fixture);
    const report = await refreshAll(workbook, { calls, ...fast, settleTimeoutMs: 30, clearCache: () => {} });
    expect(report.running).toBe(report.cells);
    expect(report.failed).toEqual([]);
    await standIn.idle();
  });

  it("on an older Excel that shows #BUSY! while calculating, names the cells still calculating", async () => {
    const fixture = compsWorkbook({ afterMs: 400 });
    const { standIn, workbook, calls } = open(fixture, { whileCalculating: "#BUSY!" });
    const report = await refreshAll(workbook, { calls, ...fast, settleTimeoutMs: 30, clearCache: () => {} });
    expect(report.pending.length).toBe(report.cells);
    expect(report.failed).toEqual([]);
    await standIn.idle();
  });

  it("in manual calculation mode, refreshes the MD cells and says what F9 is for", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture, { calculationMode: "Manual" });
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    for (const c of refreshable(fixture).filter((m) => m.sheet === "Comps"))
      expect(standIn.cell(c.sheet, c.address).value).toBe(c.fresh?.value);
    expect(report.notes).toEqual([expect.stringMatching(/calculate manually.*press F9/)]);
    expect(refreshSummary(report)).toMatch(/press F9/);
  });
});

describe("refresh all: recalculation first, rewriting only where it must", () => {
  it("recalculates a protected sheet (calculating is not a write) and writes nothing anywhere", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = openRecordedWorkbook(fixture.recording);
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    expect(report.skipped).toEqual([]);
    for (const c of fixture.md.filter((m) => m.sheet === "Locked"))
      expect(standIn.cell("Locked", c.address).value).toBe(c.fresh?.value);
    expect(standIn.log.formulaWrites).toEqual([]);
    expect(standIn.log.valueWrites).toEqual([]);
  });

  it("on an Excel that cannot calculate a range, skips a protected sheet with the reason and rewrites the rest", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = openRecordedWorkbook({ ...fixture.recording, excelApi: "1.5" });
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    const locked = fixture.md.filter((c) => c.sheet === "Locked");
    expect(report.skipped).toEqual([
      { sheet: "Locked", cells: locked.length, message: expect.stringMatching(/protected.*unprotect it/) },
    ]);
    for (const c of locked) expect(standIn.cell("Locked", c.address).value).toBe(c.cell.value);
    expect(standIn.log.unsupportedCalls).toEqual([]);
  });

  it("where Excel calculates without running custom functions, enters the formulas again instead", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = openRecordedWorkbook({
      ...fixture.recording,
      calculateSkipsCustomFunctions: true,
    });
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    expect(report.method).toBe("rewrite");
    expect(report.notes).toEqual([expect.stringMatching(/did not run the MD functions.*entered again/)]);
    expect(written(standIn)).toEqual(ids(fixture.md.filter((c) => c.sheet !== "Locked")));
    for (const c of fixture.md.filter((m) => m.sheet === "Comps"))
      expect(standIn.cell(c.sheet, c.address).value).toBe(c.fresh?.value);
  });

  it("a rewrite is one undo entry where Excel allows it (mergeUndoGroup, ExcelApi 1.20)", async () => {
    const fixture = compsWorkbook();
    const current = openRecordedWorkbook({ ...fixture.recording, calculateSkipsCustomFunctions: true });
    await refreshAll(current.workbook, { calls: current.calls, ...fast, clearCache: () => {} });
    const rewriteRuns = current.standIn.log.runOptions.filter((o) => "mergeUndoGroup" in o);
    expect(rewriteRuns.length).toBeGreaterThan(0);
    expect(rewriteRuns.every((o) => o.mergeUndoGroup === true && o.delayForCellEdit === true)).toBe(true);

    const older = openRecordedWorkbook({ ...fixture.recording, excelApi: "1.12" });
    await refreshAll(older.workbook, { calls: older.calls, ...fast, clearCache: () => {} });
    expect(older.standIn.log.runOptions.some((o) => "mergeUndoGroup" in o)).toBe(false);
  });

  it("when Excel refuses a block, still rewrites the others and says which it refused", async () => {
    const fixture = compsWorkbook();
    // C3 belongs to a legacy array formula in this recording: writes that touch it fail.
    const { standIn, workbook, calls } = openRecordedWorkbook({
      ...fixture.recording,
      excelApi: "1.5",
      refuseWrites: [{ sheet: "Comps", address: "C3" }],
    });
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    const comps = report.skipped.find((s) => s.sheet === "Comps");
    expect(comps?.message).toMatch(/refused.*B2:C5/);
    expect(written(standIn)).toEqual(expect.arrayContaining(["Comps!E4", "Comps!E5", "Series!A1"]));
    expect(report.cells).toBe(fixture.md.filter((c) => c.sheet !== "Locked").length - 8);
  });
});
