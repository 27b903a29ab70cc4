/**
 * @jest-environment jsdom
 *
 * Knowing when a refresh is done: counted where the functions run. Current
 * Excel keeps a cell's previous value on screen while its custom function runs
 * (no #BUSY!), which the recorded workbook models by default, so a refresh
 * that judged by cell values would report "refreshed" before anything was
 * fetched. The runtime's CallTracker sees every call start and settle.
 */
import { CallTracker } from "../../src/office/call-tracker";
import type { Clock } from "../../src/refresh/clock";
import { waitForCalls } from "../../src/refresh/completion";
import { freezeToValues } from "../../src/refresh/freeze";
import { refreshAll, type RefreshOptions } from "../../src/refresh/refresh-all";
import { refreshSummary } from "../../src/refresh/summary";
import type { WorkbookAdapter } from "../../src/refresh/workbook-adapter";
import { openRecordedWorkbook } from "../support/open-workbook";
import { build, latest, type LabelledCell } from "../support/recordings";

const fast: Partial<RefreshOptions> = { pollMs: 5, maxPollMs: 20, quietMs: 50, noStartMs: 200 };

function comps(afterMs: number, extra: LabelledCell[] = []) {
  const cells: LabelledCell[] = ["eth", "btc", "sol"].map((symbol, i) => ({
    sheet: "Comps",
    address: `B${i + 2}`,
    cell: { formula: latest(symbol), value: 100 + i },
    md: true,
    fresh: { value: 200 + i, afterMs },
  }));
  return build([{ name: "Comps" }], [...cells, ...extra]);
}

describe("refresh knows it is done by counting the calls", () => {
  it("waits for every call to settle, although the cells kept their old values all along", async () => {
    const fixture = comps(150);
    const { standIn, workbook, calls } = openRecordedWorkbook(fixture.recording);
    const shownAfterTrigger: unknown[] = [];
    const watched: WorkbookAdapter = {
      ...workbook,
      recalculate: async (sheet, addresses) => {
        await workbook.recalculate(sheet, addresses);
        for (const c of fixture.md) shownAfterTrigger.push(standIn.cell(c.sheet, c.address).value);
      },
    };
    const report = await refreshAll(watched, { calls, ...fast, clearCache: () => {} });

    // What the cells showed while the functions ran: the saved values, nothing to wait on.
    expect(shownAfterTrigger).toEqual(fixture.md.map((c) => c.cell.value));
    // When the refresh resolved, without waiting any further: every call settled, every cell fresh.
    expect(calls.inFlight).toBe(0);
    for (const c of fixture.md) expect(standIn.cell(c.sheet, c.address).value).toBe(c.fresh?.value);
    expect(report.ms).toBeGreaterThanOrEqual(150);
    expect(report).toMatchObject({ cells: 3, running: 0, pending: [], failed: [] });
  });

  it("ends once nothing runs when a formula skips its MD call (fewer calls than cells)", async () => {
    const fixture = comps(20, [
      // IF short-circuits: Excel never calls MD.LATEST here.
      {
        sheet: "Comps",
        address: "C2",
        cell: { formula: `=IF(FALSE,${latest("ada").slice(1)},0)`, value: 0 },
        md: true,
      },
    ]);
    const { standIn, workbook, calls } = openRecordedWorkbook(fixture.recording);
    const report = await refreshAll(workbook, { calls, ...fast, settleTimeoutMs: 5_000, clearCache: () => {} });
    expect(report.cells).toBe(4);
    expect(report.running).toBe(0);
    expect(report.ms).toBeLessThan(2_000);
    expect(standIn.cell("Comps", "B2").value).toBe(200);
  });

  it("says how many calls are still running when the wait runs out", async () => {
    const fixture = comps(500);
    const { standIn, workbook, calls } = openRecordedWorkbook(fixture.recording);
    const report = await refreshAll(workbook, { calls, ...fast, settleTimeoutMs: 40, clearCache: () => {} });
    expect(report.running).toBe(3);
    expect(refreshSummary(report)).toMatch(/3 MD calls still running; their cells fill in when they finish/);
    await standIn.idle();
  });

  it("tells when no call started at all", async () => {
    let now = 0;
    const clock: Clock = { now: () => now, sleep: async (ms) => void (now += ms) };
    const tracker = new CallTracker();
    const outcome = await waitForCalls(tracker, tracker.counts(), {
      clock,
      expected: 3,
      deadline: 60_000,
      noStartMs: 5_000,
      quietMs: 2_000,
      pollMs: 200,
      maxPollMs: 1_000,
    });
    expect(outcome).toEqual({ kind: "no-calls" });
    expect(now).toBeGreaterThanOrEqual(5_000);
    expect(now).toBeLessThan(6_000);
  });
});

describe("freeze freezes only settled results", () => {
  it("waits for running calls, then freezes the fresh value rather than the one on screen", async () => {
    const fixture = comps(120);
    const { standIn, workbook, calls } = openRecordedWorkbook(fixture.recording);
    // The user re-enters B2: its function runs; Excel keeps showing 100 until the new value lands.
    standIn.edit("Comps", "B2", latest("eth"));
    expect(calls.inFlight).toBe(1);
    expect(standIn.cell("Comps", "B2").value).toBe(100);

    const report = await freezeToValues(workbook, "sheet", { calls, pollMs: 5 });
    expect(report.running).toBe(0);
    expect(standIn.cell("Comps", "B2")).toMatchObject({ formula: null, value: 200 });
    expect(report.records.map((r) => r.address)).toEqual(["B2", "B3", "B4"]);
    expect(report.recorded).toBe(true);
  });

  it("freezes nothing, and says why, when calls are still running after the wait", async () => {
    const fixture = comps(20);
    const { standIn, workbook, calls } = openRecordedWorkbook(fixture.recording);
    const never = calls.begin(); // a call that does not settle in time
    const report = await freezeToValues(workbook, "sheet", { calls, waitMs: 40, pollMs: 5 });
    expect(report.running).toBe(1);
    expect(report.formulas).toBe(0);
    expect(report.message).toMatch(/1 MD call\(s\) are still running.*Nothing was frozen/);
    expect(standIn.log.valueWrites).toEqual([]);
    never();
  });
});
