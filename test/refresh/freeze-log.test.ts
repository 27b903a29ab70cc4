/**
 * @jest-environment jsdom
 *
 * Freeze's log can never lose a formula: the record is saved before the value
 * replaces the formula, a log that cannot be read or parsed stops the freeze,
 * and any character of a formula survives the trip through XML.
 */
import fc from "fast-check";
import { FREEZE_LOG_NAMESPACE, parseFreezeLog, serializeFreezeLog } from "../../src/office/workbook/workbook";
import type { Clock } from "../../src/refresh/clock";
import { freezeToValues } from "../../src/refresh/freeze";
import type { FreezeRecord, WorkbookAdapter } from "../../src/refresh/workbook-adapter";
import { openRecordedWorkbook } from "../support/open-workbook";
import { build, latest, type LabelledCell } from "../support/recordings";
import type { WorkbookRecording } from "../support/workbook-stand-in";

const clock: Clock = { now: () => Date.parse("2025-03-03T09:30:00.000Z"), sleep: async () => {} };
const record = (formula: string, sheet = "Report"): FreezeRecord => ({
  sheet,
  address: "B2",
  range: "B2",
  formula,
  frozenAt: "2025-03-03T09:30:00.000Z",
});

function report(extra: Partial<WorkbookRecording> = {}) {
  const cells: LabelledCell[] = [
    { sheet: "Report", address: "B2", cell: { formula: latest("eth"), value: 1800.5 }, md: true },
    { sheet: "Report", address: "C2", cell: { formula: latest("btc"), value: 60000 }, md: true },
  ];
  const fixture = build([{ name: "Report" }], cells);
  return { fixture, ...openRecordedWorkbook({ ...fixture.recording, ...extra }) };
}

const logOf = (parts: { namespace: string; xml: string }[]) =>
  parts.filter((p) => p.namespace === FREEZE_LOG_NAMESPACE);

describe("the freeze log keeps any character", () => {
  it.each([
    ["control characters XML 1.0 cannot hold", '=MD.LATEST("eth\u0001\u0008\u000b\u001f","PRICE")'],
    ["NUL", '=MD.LATEST("a\u0000b","PRICE")'],
    ["U+FFFE and U+FFFF", '=MD.LATEST("\ufffe\uffff","PRICE")'],
    ["a lone surrogate", '=MD.LATEST("\ud800","PRICE")'],
    ["line breaks and tabs", '=MD.SERIES("eth","PRICE",,,,"headers=false;\r\norder=desc\t")'],
    ["markup, quotes and backslashes", `=MD.ASSETS("<b>&amp;</b> ]]> 'x' ""y"" \\ \\u0041 \\\\")`],
    ["non-BMP text", '=MD.ASSETS("📈 Ξ")'],
  ])("%s", (_, formula) => {
    const records = [record(formula, "Sheet\u0007 'odd'"), record(latest("eth"))];
    expect(parseFreezeLog(serializeFreezeLog(records))).toEqual(records);
  });

  it("leaves ordinary text readable as it is in the .xlsx package", () => {
    const xml = serializeFreezeLog([record(latest("eth"), "Q1 comps")]);
    expect(xml).toContain('sheet="Q1 comps" address="B2"');
    expect(xml).toContain('>=MD.LATEST("eth","PRICE")<');
  });

  it("for any text at all", () => {
    const anyText = fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
      .map((codes) => String.fromCharCode(...codes));
    fc.assert(
      fc.property(fc.array(fc.record({ formula: anyText, sheet: anyText }), { maxLength: 5 }), (entries) => {
        const records = entries.map((e) => record(e.formula, e.sheet));
        expect(parseFreezeLog(serializeFreezeLog(records))).toEqual(records);
      }),
    );
  });

  it("still reads a log written before fields were encoded", () => {
    const old = `<freezeLog xmlns="${FREEZE_LOG_NAMESPACE}"><frozen sheet="Report" address="B2" range="B2" frozenAt="2025-01-01T00:00:00.000Z">=MD.LATEST("eth","PRICE")</frozen></freezeLog>`;
    expect(parseFreezeLog(old)).toEqual([{ ...record(latest("eth")), frozenAt: "2025-01-01T00:00:00.000Z" }]);
  });
});

describe("freeze records first and writes second", () => {
  it("saves the log before any value replaces a formula", async () => {
    const { workbook, standIn } = report();
    const order: string[] = [];
    const watched: WorkbookAdapter = {
      ...workbook,
      readFreezeLog: async () => (order.push("read log"), workbook.readFreezeLog()),
      writeFreezeLog: async (records) => (
        order.push(`write log (${records.length})`),
        workbook.writeFreezeLog(records)
      ),
      writeValues: async (sheet, blocks) => (order.push("write values"), workbook.writeValues(sheet, blocks)),
    };
    const result = await freezeToValues(watched, "sheet", { clock });
    expect(order).toEqual(["read log", "write log (2)", "write values"]);
    expect(result.formulas).toBe(2);
    expect(parseFreezeLog(logOf(standIn.customXmlParts())[0].xml).map((r) => r.formula)).toEqual([
      latest("eth"),
      latest("btc"),
    ]);
  });

  it.each([
    [
      "cannot be read",
      { customXmlFails: "The custom XML part could not be opened." },
      /could not be read.*could not be opened/,
    ],
    [
      "is not valid XML",
      {
        customXmlParts: [
          { namespace: FREEZE_LOG_NAMESPACE, xml: `<freezeLog xmlns="${FREEZE_LOG_NAMESPACE}"><frozen` },
        ],
      },
      /could not be read.*not valid XML/,
    ],
    [
      "has a damaged entry",
      {
        customXmlParts: [
          {
            namespace: FREEZE_LOG_NAMESPACE,
            // A backslash the log's escaping never writes alone.
            xml: `<freezeLog xmlns="${FREEZE_LOG_NAMESPACE}"><frozen encoding="escaped" sheet="Report" address="B2" range="B2" frozenAt="x">=MD.LATEST("\\x")</frozen></freezeLog>`,
          },
        ],
      },
      /could not be read.*damaged \(entry 1\)/,
    ],
  ] as const)("a log that %s stops the freeze: nothing is written, every formula stays", async (_, extra, message) => {
    const { workbook, standIn } = report(extra as Partial<WorkbookRecording>);
    const before = standIn.customXmlParts();
    const result = await freezeToValues(workbook, "sheet", { clock });
    expect(result.message).toMatch(message);
    expect(result.message).toMatch(/Nothing was frozen.*Every MD formula is still in its cell/);
    expect(result).toMatchObject({ formulas: 0, cells: 0, records: [], recorded: false });
    expect(standIn.log.valueWrites).toEqual([]);
    expect(standIn.cell("Report", "B2").formula).toBe(latest("eth"));
    expect(standIn.customXmlParts()).toEqual(before);
  });

  it("when Excel refuses the values, takes the new records out of the log again", async () => {
    const earlier = serializeFreezeLog([record(latest("sol"), "Older")]);
    const { workbook, standIn } = report({
      customXmlParts: [{ namespace: FREEZE_LOG_NAMESPACE, xml: earlier }],
      refuseWrites: [{ sheet: "Report", address: "C2" }],
    });
    const result = await freezeToValues(workbook, "sheet", { clock });
    expect(result.message).toMatch(/Nothing was frozen: Excel refused to write the values/);
    expect(standIn.cell("Report", "C2").formula).toBe(latest("btc"));
    expect(parseFreezeLog(logOf(standIn.customXmlParts())[0].xml)).toEqual([record(latest("sol"), "Older")]);
  });
});
