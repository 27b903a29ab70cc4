/** @jest-environment jsdom */
// jsdom: the freeze log is written and read with the DOM's XML parser and serializer, as in the pane's page.
/**
 * Undo freeze over a recorded workbook through the Excel adapter: the last
 * freeze's formulas go back where their cells still hold the frozen values,
 * spills included; a cell the user changed since is never overwritten (and is
 * reported); restored records leave the log, the others stay.
 */
import { FREEZE_LOG_NAMESPACE, parseFreezeLog, serializeFreezeLog } from "../../src/office/workbook/workbook";
import type { Clock } from "../../src/refresh/clock";
import { freezeToValues, undoLastFreeze, valuesHash } from "../../src/refresh/freeze";
import { build, latest, type LabelledCell } from "../support/recordings";
import { openRecordedWorkbook } from "../support/open-workbook";

const SPILL = [
  ["Date", "eth PRICE"],
  [45000, 1800],
  [45001, "n/a"],
];
const SERIES = '=MD.SERIES("eth","PRICE","-2D")';

function workbookWithFormulas() {
  const cells: LabelledCell[] = [
    { sheet: "Report", address: "B2", cell: { formula: latest("eth"), value: 1800.5 }, md: true },
    { sheet: "Report", address: "C2", cell: { formula: '=MD.LATEST("eq-coin","TICKER")', value: "00123" }, md: true },
    { sheet: "Report", address: "C3", cell: { formula: latest("nope"), value: "#N/A" }, md: true },
    { sheet: "Report", address: "A4", cell: { formula: SERIES, spill: SPILL }, md: true },
  ];
  const fixture = build([{ name: "Report" }], cells);
  return openRecordedWorkbook(fixture.recording);
}

const at = (iso: string): Clock => ({ now: () => Date.parse(iso), sleep: async () => {} });
const logOf = (standIn: ReturnType<typeof workbookWithFormulas>["standIn"]) =>
  parseFreezeLog(standIn.customXmlParts().find((p) => p.namespace === FREEZE_LOG_NAMESPACE)?.xml ?? "<x/>");

describe("undo freeze", () => {
  it("restores every formula of the last freeze, spills included, and empties the log", async () => {
    const { standIn, workbook } = workbookWithFormulas();
    await freezeToValues(workbook, "sheet", { clock: at("2025-03-03T09:30:00.000Z") });
    expect(standIn.cell("Report", "A4").formula).toBeNull();

    const report = await undoLastFreeze(workbook);
    expect(report.restored.sort()).toEqual(["Report!A4", "Report!B2", "Report!C2", "Report!C3"]);
    expect(report.changed).toEqual([]);
    expect(standIn.cell("Report", "B2").formula).toBe(latest("eth"));
    expect(standIn.cell("Report", "A4").formula).toBe(SERIES);
    // The spill's other cells were cleared for the formula to spill into.
    expect(standIn.cell("Report", "B6").formula).toBeNull();
    await standIn.idle();
    expect(standIn.cell("Report", "A4").value).not.toBe("#SPILL!");
    expect(logOf(standIn)).toEqual([]);
    expect(report.message).toBe("Restored 4 MD formula(s) frozen at 2025-03-03T09:30:00.000Z.");
  });

  it("never overwrites a cell changed since the freeze: it is reported and its record stays in the log", async () => {
    const { standIn, workbook } = workbookWithFormulas();
    await freezeToValues(workbook, "sheet", { clock: at("2025-03-03T09:30:00.000Z") });
    standIn.edit("Report", "B2", "1900"); // a typed value
    standIn.edit("Report", "B5", "1799"); // inside the frozen table
    standIn.edit("Report", "C3", "=SUM(1,2)"); // a formula of the user's

    const report = await undoLastFreeze(workbook);
    expect(report.restored).toEqual(["Report!C2"]);
    expect(report.changed.sort()).toEqual(["Report!A4", "Report!B2", "Report!C3"]);
    expect(standIn.cell("Report", "B2")).toMatchObject({ formula: null, value: 1900 });
    expect(standIn.cell("Report", "B5")).toMatchObject({ formula: null, value: 1799 });
    expect(standIn.cell("Report", "C3").formula).toBe("=SUM(1,2)");
    expect(standIn.cell("Report", "C2").formula).toBe('=MD.LATEST("eq-coin","TICKER")');
    expect(
      logOf(standIn)
        .map((r) => r.address)
        .sort(),
    ).toEqual(["A4", "B2", "C3"]);
    expect(report.message).toMatch(/^Restored 1 MD formula\(s\) .* 3 left as they are: changed since the freeze/);
  });

  it("undoes only the last freeze; the one before stays frozen and logged", async () => {
    const { standIn, workbook } = workbookWithFormulas();
    standIn.select("Report", ["B2"]);
    await freezeToValues(workbook, "selection", { clock: at("2025-03-03T09:00:00.000Z") });
    standIn.select("Report", ["A4"]);
    await freezeToValues(workbook, "selection", { clock: at("2025-03-03T10:00:00.000Z") });

    const report = await undoLastFreeze(workbook);
    expect(report.frozenAt).toBe("2025-03-03T10:00:00.000Z");
    expect(report.restored).toEqual(["Report!A4"]);
    expect(standIn.cell("Report", "B2").formula).toBeNull();
    expect(logOf(standIn).map((r) => [r.address, r.frozenAt])).toEqual([["B2", "2025-03-03T09:00:00.000Z"]]);
  });

  it("a record from before the log kept a values hash is left alone and said so; an empty log says there is nothing", async () => {
    const { standIn, workbook } = workbookWithFormulas();
    expect((await undoLastFreeze(workbook)).message).toBe(
      "There is no freeze to undo: this workbook's freeze log is empty.",
    );
    standIn.edit("Report", "B2", "1800.5");
    await workbook.writeFreezeLog([
      { sheet: "Report", address: "B2", range: "B2", formula: latest("eth"), frozenAt: "2025-01-01T00:00:00.000Z" },
    ]);
    const report = await undoLastFreeze(workbook);
    expect(report.restored).toEqual([]);
    expect(report.unverified).toEqual(["Report!B2"]);
    expect(standIn.cell("Report", "B2").formula).toBeNull();
    expect(logOf(standIn)).toHaveLength(1);
  });

  it("a protected sheet: nothing restored, Excel's reason reported, the log kept", async () => {
    const { standIn, workbook } = workbookWithFormulas();
    await freezeToValues(workbook, "sheet", { clock: at("2025-03-03T09:30:00.000Z") });
    standIn.protect("Report", true);
    const report = await undoLastFreeze(workbook);
    expect(report.restored).toEqual([]);
    expect(report.refused.length).toBe(4);
    expect(report.refused[0].reason).toMatch(/protected/);
    expect(logOf(standIn)).toHaveLength(4);
  });

  it("the values hash: the same values hash alike, any change does not, and it holds no value", () => {
    const values = [
      ["Date", "eth PRICE"],
      [45000, 1800.5],
      [45001, "#N/A"],
    ];
    expect(valuesHash(values)).toBe(valuesHash(JSON.parse(JSON.stringify(values))));
    expect(valuesHash(values)).toMatch(/^3x2:[0-9a-f]{8}$/);
    expect(
      valuesHash([
        ["Date", "eth PRICE"],
        [45000, 1800.51],
        [45001, "#N/A"],
      ]),
    ).not.toBe(valuesHash(values));
    expect(valuesHash([[1800.5]])).not.toBe(valuesHash([["1800.5"]]));
    const xml = serializeFreezeLog([
      { sheet: "S", address: "A1", range: "A1", formula: "=x", frozenAt: "t", valuesHash: valuesHash(values) },
    ]);
    expect(xml).not.toContain("1800.5");
    expect(parseFreezeLog(xml)[0].valuesHash).toBe(valuesHash(values));
  });
});
