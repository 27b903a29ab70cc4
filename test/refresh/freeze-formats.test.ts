/** @jest-environment jsdom */
// jsdom: the freeze log is written and read with the DOM's XML parser and serializer, as in the pane's page.
/**
 * Freeze keeps what the user sees: a formatted MD result (a date, a price in
 * `$#,##0.00`, a percentage) carries its format in its value, as an Excel
 * data type, and `Range.values` drops it. After a freeze every cell must show
 * the same number in the same format, on a host with `valuesAsJson` (ExcelApi
 * 1.16; Double with numberFormat from 1.19, FormattedNumber before) and on
 * one without it (the format set on the cells is kept). Undo still restores
 * the formulas.
 */
import { FREEZE_LOG_NAMESPACE, parseFreezeLog } from "../../src/office/workbook/workbook";
import type { Clock } from "../../src/refresh/clock";
import { freezeToValues, undoLastFreeze } from "../../src/refresh/freeze";
import { build, latest, type LabelledCell } from "../support/recordings";
import { openRecordedWorkbook } from "../support/open-workbook";

const clock: Clock = { now: () => Date.parse("2025-03-03T09:30:00.000Z"), sleep: async () => {} };
const SERIES = '=MD.SERIES("eth","PRICE,PRICE_PCT","-2D")';
const DATE = "yyyy-mm-dd";
const PRICE = "$#,##0.00";
const PERCENT = "0.00%";

type Host = { excelApi: string; kind: "Double" | "FormattedNumber" | null };
const HOSTS: [string, Host][] = [
  ["ExcelApi 1.19+ (Double with numberFormat)", { excelApi: "1.20", kind: "Double" }],
  ["ExcelApi 1.16 (FormattedNumber)", { excelApi: "1.16", kind: "FormattedNumber" }],
  ["ExcelApi 1.15 (no valuesAsJson: plain numbers, formats set on the cells)", { excelApi: "1.15", kind: null }],
];

/** A number as the host's MD functions return it: a data type carrying its format, or plain where there are none. */
const shown = (host: Host, basicValue: number, numberFormat: string) =>
  host.kind ? { type: host.kind, basicValue, numberFormat } : basicValue;

/** Where each value cell ends up and the format the user sees in it. */
const TABLE: { address: string; value: unknown; format: string }[] = [
  { address: "A1", value: "Date", format: "General" },
  { address: "B1", value: "eth PRICE", format: "General" },
  { address: "C1", value: "eth PRICE_PCT", format: "General" },
  { address: "A2", value: 45719, format: DATE },
  { address: "B2", value: 2553.26, format: PRICE },
  { address: "C2", value: 0.0123, format: PERCENT },
  { address: "A3", value: 45720, format: DATE },
  { address: "B3", value: "#N/A", format: "General" },
  { address: "C3", value: -0.004, format: PERCENT },
  { address: "E2", value: 1800.5, format: PRICE },
  { address: "F2", value: 0.25, format: "0.0" },
  // A formatted result in a cell the user formatted themselves: their format wins (Excel data types: core concepts).
  { address: "G2", value: 95000.5, format: "0.0" },
];

function formattedWorkbook(host: Host) {
  const spill = [
    ["Date", "eth PRICE", "eth PRICE_PCT"],
    [shown(host, 45719, DATE), shown(host, 2553.26, PRICE), shown(host, 0.0123, PERCENT)],
    [shown(host, 45720, DATE), "#N/A", shown(host, -0.004, PERCENT)],
  ];
  const cells: LabelledCell[] = [
    { sheet: "Report", address: "A1", cell: { formula: SERIES, spill }, md: true },
    { sheet: "Report", address: "E2", cell: { formula: latest("eth"), value: shown(host, 1800.5, PRICE) }, md: true },
    // A plain result in a cell the user formatted: the cell's own format stays.
    { sheet: "Report", address: "F2", cell: { formula: latest("eth", "RATIO"), value: 0.25 }, md: true },
    // The value carries $#,##0.00, and the user applied 0.0 to the cell: Excel shows 0.0.
    { sheet: "Report", address: "G2", cell: { formula: latest("btc"), value: shown(host, 95000.5, PRICE) }, md: true },
  ];
  // Without data types in values, users format the cells themselves (README: "in older Excel, format the date column").
  const numberFormats: Record<string, string> = host.kind
    ? { F2: "0.0", G2: "0.0" }
    : { "A2:A3": DATE, B2: PRICE, E2: PRICE, "C2:C3": PERCENT, F2: "0.0", G2: "0.0" };
  const fixture = build([{ name: "Report" }], cells, { excelApi: host.excelApi });
  fixture.recording.sheets[0].numberFormats = numberFormats;
  return openRecordedWorkbook(fixture.recording);
}

const seen = (standIn: ReturnType<typeof formattedWorkbook>["standIn"]) =>
  TABLE.map(({ address }) => {
    const cell = standIn.cell("Report", address);
    return {
      address,
      formula: cell.formula !== null,
      value: cell.value,
      format: standIn.display("Report", address).format,
    };
  });

describe.each(HOSTS)("freeze keeps every cell's format: %s", (_, host) => {
  it("the workbook shows each value in its format before the freeze (the fixture is what the user sees)", () => {
    const { standIn } = formattedWorkbook(host);
    expect(seen(standIn).map(({ address, value, format }) => ({ address, value, format }))).toEqual(TABLE);
  });

  it("after Freeze sheet to values, every cell shows the same value in the same format, and no formula is left", async () => {
    const { standIn, workbook } = formattedWorkbook(host);
    const report = await freezeToValues(workbook, "sheet", { clock });

    expect(report.formulas).toBe(4);
    expect(seen(standIn)).toEqual(TABLE.map((cell) => ({ ...cell, formula: false })));
    // Plain numbers now, with the format on the cell: what a colleague's Excel (of any age) shows.
    expect(standIn.display("Report", "B2").json).toEqual({ type: "Double", basicValue: 2553.26 });
    expect(standIn.log.unsupportedCalls).toEqual([]);
  });

  it("Freeze selection to values keeps the formats of the table it freezes", async () => {
    const { standIn, workbook } = formattedWorkbook(host);
    standIn.select("Report", ["B3"]);
    await freezeToValues(workbook, "selection", { clock });
    const table = seen(standIn).filter(({ address }) => !["E2", "F2", "G2"].includes(address));
    expect(table).toEqual(
      TABLE.filter(({ address }) => !["E2", "F2", "G2"].includes(address)).map((c) => ({ ...c, formula: false })),
    );
    expect(standIn.cell("Report", "E2").formula).toBe(latest("eth"));
  });

  it("the freeze log records each formula, and Undo last freeze puts every formula back", async () => {
    const { standIn, workbook } = formattedWorkbook(host);
    await freezeToValues(workbook, "sheet", { clock });
    const part = standIn.customXmlParts().find((p) => p.namespace === FREEZE_LOG_NAMESPACE);
    expect(parseFreezeLog(part!.xml).map((r) => [r.address, r.range])).toEqual([
      ["A1", "A1:C3"],
      ["E2", "E2"],
      ["F2", "F2"],
      ["G2", "G2"],
    ]);

    const undo = await undoLastFreeze(workbook);
    expect(undo.restored.sort()).toEqual(["Report!A1", "Report!E2", "Report!F2", "Report!G2"]);
    expect(undo.changed).toEqual([]);
    expect(standIn.cell("Report", "A1").formula).toBe(SERIES);
    expect(standIn.cell("Report", "E2").formula).toBe(latest("eth"));
    // The user's format is still the one shown once the formula is back.
    expect(standIn.display("Report", "G2").format).toBe("0.0");
  });
});

describe("freeze without valuesAsJson (ExcelApi 1.15)", () => {
  it("keeps the cells' own formats; a format carried only in a value cannot be read there (the documented limitation)", async () => {
    // A workbook a newer Excel calculated (values carry formats), frozen in an Excel without ExcelApi 1.16.
    const { standIn, workbook } = formattedWorkbook({ excelApi: "1.15", kind: "Double" });
    await freezeToValues(workbook, "sheet", { clock });
    expect(standIn.cell("Report", "B2")).toMatchObject({ formula: null, value: 2553.26 });
    expect(standIn.display("Report", "B2").format).toBe("General");
    expect(standIn.display("Report", "F2").format).toBe("0.0");
    expect(standIn.log.unsupportedCalls).toEqual([]);
  });
});
