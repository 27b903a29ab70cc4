/** @jest-environment jsdom */
// jsdom: the freeze log is written and read with the DOM's XML parser and serializer, as in the pane's page.
import { FREEZE_LOG_NAMESPACE, parseFreezeLog } from "../../src/office/workbook/workbook";
import type { Clock } from "../../src/refresh/clock";
import { freezeToValues } from "../../src/refresh/freeze";
import { build, latest, type LabelledCell } from "../support/recordings";
import { openRecordedWorkbook } from "../support/open-workbook";

const FROZEN_AT = "2025-03-03T09:30:00.000Z";
const clock: Clock = { now: () => Date.parse(FROZEN_AT), sleep: async () => {} };

const SPILL = [
  ["date", "eth PRICE"],
  [45000, 1800],
  [45001, "n/a"],
];

function reportWorkbook(options: { protectedReport?: boolean } = {}) {
  const cells: LabelledCell[] = [
    { sheet: "Report", address: "B2", cell: { formula: latest("eth"), value: 1800.5 }, md: true },
    // Text that Excel would read as a number if written back without care.
    { sheet: "Report", address: "C2", cell: { formula: '=MD.LATEST("eq-coin","TICKER")', value: "00123" }, md: true },
    { sheet: "Report", address: "C3", cell: { formula: latest("nope"), value: "#N/A" }, md: true },
    { sheet: "Report", address: "D2", cell: { formula: "=B2*2", value: 3601 }, md: false },
    { sheet: "Report", address: "A4", cell: { formula: '=MD.SERIES("eth","PRICE","-2D")', spill: SPILL }, md: true },
    { sheet: "Report", address: "E2", cell: { formula: latest("btc"), value: "#BUSY!" }, md: true },
    { sheet: "Other", address: "A1", cell: { formula: latest("sol"), value: 150 }, md: true },
  ];
  const fixture = build([{ name: "Report", protected: options.protectedReport }, { name: "Other" }], cells);
  return { fixture, ...openRecordedWorkbook(fixture.recording) };
}

const freezeLog = (standIn: ReturnType<typeof reportWorkbook>["standIn"]) =>
  standIn.customXmlParts().filter((p) => p.namespace === FREEZE_LOG_NAMESPACE);

describe("freeze to values", () => {
  it("replaces every MD formula on the active sheet with its values, spills included, and nothing else", async () => {
    const { fixture, standIn, workbook } = reportWorkbook();
    const report = await freezeToValues(workbook, "sheet", { clock });

    // Frozen: the cell keeps the value it showed, as the same type, and no longer holds a formula.
    for (const c of fixture.md.filter((cell) => cell.sheet === "Report" && cell.cell.value !== "#BUSY!")) {
      const now = standIn.cell("Report", c.address);
      expect({ address: c.address, formula: now.formula }).toEqual({ address: c.address, formula: null });
      if (!c.cell.spill) expect(now.value).toBe(c.cell.value);
    }
    expect(standIn.cell("Report", "C2").type).toBe("String");
    expect(standIn.cell("Report", "C3").type).toBe("Error");
    SPILL.forEach((line, r) =>
      line.forEach((value, col) => {
        const cell = standIn.cell("Report", `${"AB"[col]}${4 + r}`);
        expect([cell.formula, cell.value]).toEqual([null, value]);
      }),
    );
    // Not frozen: another formula, a formula still calculating, another sheet.
    expect(standIn.cell("Report", "D2").formula).toBe("=B2*2");
    expect(standIn.cell("Report", "E2").formula).toBe(latest("btc"));
    expect(standIn.cell("Other", "A1").formula).toBe(latest("sol"));

    expect(report.formulas).toBe(4);
    expect(report.cells).toBe(3 + SPILL.length * SPILL[0].length);
    expect(report.stillCalculating).toEqual(["E2"]);
    expect(report.message).toMatch(/Froze 4 MD formula/);
  });

  it("records each frozen formula, where its values went and when, in the workbook's freeze log", async () => {
    const { fixture, standIn, workbook } = reportWorkbook();
    await freezeToValues(workbook, "sheet", { clock });

    const parts = freezeLog(standIn);
    expect(parts).toHaveLength(1);
    const frozen = fixture.md.filter((c) => c.sheet === "Report" && c.cell.value !== "#BUSY!");
    expect(parseFreezeLog(parts[0].xml)).toEqual(
      frozen.map((c) => ({
        sheet: "Report",
        address: c.address,
        range: c.cell.spill ? `A4:B${3 + SPILL.length}` : c.address,
        formula: c.cell.formula,
        frozenAt: FROZEN_AT,
        valuesHash: expect.stringMatching(/^\d+x\d+:[0-9a-f]{8}$/),
      })),
    );
    // Nothing but these fields: no key, no values (a short hash of them, for Undo freeze, but not the values).
    const doc = new DOMParser().parseFromString(parts[0].xml, "application/xml");
    const attributes = new Set(
      Array.from(doc.getElementsByTagNameNS(FREEZE_LOG_NAMESPACE, "frozen")).flatMap((e) => e.getAttributeNames()),
    );
    expect([...attributes].sort()).toEqual(["address", "encoding", "frozenAt", "range", "sheet", "valuesHash"]);
    expect(parts[0].xml).not.toContain("1800.5");
  });

  it("freezes only what the selection touches, a whole table when part of it is selected", async () => {
    const { standIn, workbook } = reportWorkbook();
    standIn.select("Report", ["A5", "C2:C2"]);
    const report = await freezeToValues(workbook, "selection", { clock });

    expect(report.records.map((r) => [r.address, r.range])).toEqual([
      ["C2", "C2"],
      ["A4", "A4:B6"],
    ]);
    expect(standIn.cell("Report", "A4").formula).toBeNull();
    expect(standIn.cell("Report", "B6").value).toBe("n/a");
    expect(standIn.cell("Report", "B2").formula).toBe(latest("eth"));
    expect(standIn.cell("Report", "C3").formula).toBe(latest("nope"));
  });

  it("appends to the log on a second freeze", async () => {
    const { standIn, workbook } = reportWorkbook();
    standIn.select("Report", ["B2"]);
    const first = await freezeToValues(workbook, "selection", { clock });
    const second = await freezeToValues(workbook, "sheet", { clock });
    const logged = parseFreezeLog(freezeLog(standIn)[0].xml);
    expect(logged.map((r) => r.address)).toEqual([...first.records, ...second.records].map((r) => r.address));
    expect(new Set(logged.map((r) => r.address)).size).toBe(logged.length);
  });

  it("leaves a protected sheet alone and says why", async () => {
    const { standIn, workbook } = reportWorkbook({ protectedReport: true });
    const report = await freezeToValues(workbook, "sheet", { clock });
    expect(report.protected).toBe(true);
    expect(report.message).toMatch(/protected/);
    expect(standIn.log.valueWrites).toEqual([]);
    expect(freezeLog(standIn)).toEqual([]);
  });

  it("says there is nothing to freeze when the selection holds no MD formula", async () => {
    const { standIn, workbook } = reportWorkbook();
    standIn.select("Report", ["D2"]);
    const report = await freezeToValues(workbook, "selection", { clock });
    expect(report.formulas).toBe(0);
    expect(report.message).toMatch(/No MD formulas to freeze in the selection/);
    expect(standIn.log.valueWrites).toEqual([]);
  });
});
