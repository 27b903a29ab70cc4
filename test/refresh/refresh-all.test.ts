import { refreshAll, type RefreshOptions } from "../../src/refresh/refresh-all";
import { openRecordedWorkbook } from "../support/open-workbook";
import { build, compsWorkbook, latest, type LabelledWorkbook } from "../support/recordings";
import type { WorkbookStandIn } from "../support/workbook-stand-in";

function open(fixture: LabelledWorkbook) {
  return openRecordedWorkbook(fixture.recording);
}

const fast: Partial<RefreshOptions> = { pollMs: 5, maxPollMs: 20 };
const written = (standIn: WorkbookStandIn) => standIn.log.formulaWrites.map((w) => `${w.sheet}!${w.address}`).sort();

describe("refresh all", () => {
  it("empties the cache first, then rewrites exactly the MD cells of every unprotected sheet", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture);
    const writesWhenCleared: number[] = [];
    const report = await refreshAll(workbook, {
      calls,
      ...fast,
      clearCache: () => writesWhenCleared.push(standIn.log.formulaWrites.length),
    });

    const expected = fixture.md.filter((c) => c.sheet !== "Locked").map((c) => `${c.sheet}!${c.address}`);
    expect(writesWhenCleared).toEqual([0]);
    expect(written(standIn)).toEqual([...expected].sort());
    expect(report.cells).toBe(expected.length);
    expect(report.sheets).toEqual(["Comps", "Series"]);
    // Each rewritten with its own text.
    for (const w of standIn.log.formulaWrites) {
      expect(w.formula).toBe(fixture.cells.find((c) => c.sheet === w.sheet && c.address === w.address)?.cell.formula);
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

  it("waits for the recalculated values and reports the cells that came back as errors", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture);
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });

    const refreshed = fixture.md.filter((c) => c.sheet !== "Locked");
    for (const c of refreshed) {
      const expectedValue = c.fresh?.spill ? c.fresh.spill[0][0] : c.fresh?.value;
      expect([c.address, standIn.cell(c.sheet, c.address).value]).toEqual([c.address, expectedValue]);
    }
    const errors = refreshed.filter((c) => typeof c.fresh?.value === "string" && c.fresh.value.startsWith("#"));
    expect(report.failed.map((f) => `${f.sheet}!${f.address} ${f.error}`).sort()).toEqual(
      errors.map((c) => `${c.sheet}!${c.address} ${c.fresh?.value}`).sort(),
    );
    expect(report.failed.every((f) => f.message.length > 0)).toBe(true);
    expect(report.pending).toEqual([]);
  });

  it("refreshes a spilled array from its anchor and lets it grow", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture);
    await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    const series = fixture.md.find((c) => c.sheet === "Series")!;
    const spill = series.fresh!.spill!;
    expect(standIn.log.formulaWrites.filter((w) => w.sheet === "Series").map((w) => w.address)).toEqual(["A1"]);
    spill.forEach((line, r) =>
      line.forEach((value, c) => expect(standIn.cell("Series", `${"AB"[c]}${r + 1}`).value).toBe(value)),
    );
  });

  it("reports a protected sheet and leaves its cells alone", async () => {
    const fixture = compsWorkbook();
    const { standIn, workbook, calls } = open(fixture);
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    const locked = fixture.md.filter((c) => c.sheet === "Locked");
    expect(report.skipped).toEqual([
      { sheet: "Locked", cells: locked.length, message: expect.stringMatching(/protected/) },
    ]);
    for (const c of locked) expect(standIn.cell("Locked", c.address).value).toBe(c.cell.value);
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
    expect(few).toBeLessThanOrEqual(8);
  });

  it("when Excel refuses a block, still rewrites the others and says which it refused", async () => {
    const fixture = compsWorkbook();
    // C3 belongs to a legacy array formula in this recording: writes that touch it fail.
    const { standIn, workbook, calls } = open({
      ...fixture,
      recording: { ...fixture.recording, refuseWrites: [{ sheet: "Comps", address: "C3" }] },
    });
    const report = await refreshAll(workbook, { calls, ...fast, clearCache: () => {} });
    const comps = report.skipped.find((s) => s.sheet === "Comps");
    expect(comps?.message).toMatch(/refused.*B2:C5/);
    expect(written(standIn)).toEqual(expect.arrayContaining(["Comps!E4", "Comps!E5", "Series!A1"]));
    expect(report.cells).toBe(fixture.md.filter((c) => c.sheet !== "Locked").length - 8);
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
    const { standIn, workbook, calls } = open({
      ...fixture,
      recording: { ...fixture.recording, whileCalculating: "#BUSY!" },
    });
    const report = await refreshAll(workbook, { calls, ...fast, settleTimeoutMs: 30, clearCache: () => {} });
    expect(report.pending.length).toBe(report.cells);
    expect(report.failed).toEqual([]);
    await standIn.idle();
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
  });
});
