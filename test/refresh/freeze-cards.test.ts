/** @jest-environment jsdom */
// jsdom: the freeze log is written and read with the DOM's XML parser and serializer, as in the pane's page.
/**
 * MD.ASSET cards through Freeze, Undo freeze and Refresh all, on the sheet an
 * analyst has: cards, `=A1.Price` beside them, a formatted table and cells
 * the user formatted. An entity's `Range.values` is "#VALUE!" and its
 * `valueTypes` "Error" (Microsoft Learn, Excel.EntityCellValue.basicValue /
 * basicType); only `Range.valuesAsJson` returns the card. A freeze must keep
 * the card (written back through `valuesAsJson`, without the add-in's
 * provider), or its text where Excel refuses the card, and say which; Refresh
 * all must not count a card as a failure.
 */
import { FREEZE_LOG_NAMESPACE, parseFreezeLog } from "../../src/office/workbook/workbook";
import type { Clock } from "../../src/refresh/clock";
import { freezeToValues, undoLastFreeze } from "../../src/refresh/freeze";
import { refreshAll } from "../../src/refresh/refresh-all";
import { openRecordedWorkbook } from "../support/open-workbook";
import { assetCard, CARDS_SHEET, cardsWorkbook, latest } from "../support/recordings";
import type { WorkbookRecording, WorkbookStandIn } from "../support/workbook-stand-in";

const clock: Clock = { now: () => Date.parse("2025-03-03T09:30:00.000Z"), sleep: async () => {} };
const { PRICE, DATE, ETH, SERIES } = CARDS_SHEET;
const ETH_CARD = assetCard("Ethereum", "eth", 2553.26);
const LINK_CARD = assetCard("Chainlink", "link", 14.2);
/** What the frozen cell holds: the card without the add-in's provider. */
const staticCard = ({ provider: _provider, ...rest }: ReturnType<typeof assetCard>) => rest;
const deskWorkbook = (extra: Partial<WorkbookRecording> = {}) => openRecordedWorkbook(cardsWorkbook(extra).recording);

/** What the user sees in each cell: formula or not, the value `Range.values` reads, the format shown. */
const seen = (standIn: WorkbookStandIn, address: string) => {
  const cell = standIn.cell("Desk", address);
  return { formula: cell.formula, value: cell.value, format: standIn.display("Desk", address).format };
};
const logOf = (standIn: WorkbookStandIn) =>
  parseFreezeLog(standIn.customXmlParts().find((p) => p.namespace === FREEZE_LOG_NAMESPACE)!.xml);

describe("MD.ASSET cards as Excel reads them (the stand-in's model)", () => {
  it("an entity's values read #VALUE!, its valueTypes Error, and only valuesAsJson returns the card", () => {
    const { standIn } = deskWorkbook();
    expect(standIn.cell("Desk", "A1")).toEqual({ formula: ETH, value: "#VALUE!", type: "Error" });
    expect(standIn.display("Desk", "A1").json).toEqual({ ...ETH_CARD, basicType: "Error", basicValue: "#VALUE!" });
  });
});

describe("Freeze sheet to values with MD.ASSET cards, a formatted table and the user's formats", () => {
  it("keeps each card as a static card, the table's values and formats, and the user's format", async () => {
    const { standIn, workbook } = deskWorkbook();
    const report = await freezeToValues(workbook, "sheet", { clock });

    expect(report.formulas).toBe(4);
    for (const [address, entity] of [
      ["A1", ETH_CARD],
      ["A2", LINK_CARD],
    ] as const) {
      // No formula, and the cell holds the card itself (its properties, for =A1.Price), not the text #VALUE!.
      expect(standIn.cell("Desk", address).formula).toBeNull();
      expect(standIn.display("Desk", address).json).toEqual({
        ...staticCard(entity),
        basicType: "Error",
        basicValue: "#VALUE!",
      });
    }
    expect(standIn.log.valueWrites.filter((w) => w.value === "#VALUE!")).toEqual([]);
    // The formulas that read the cards are untouched.
    expect(standIn.cell("Desk", "B1").formula).toBe("=A1.Price");
    expect(standIn.cell("Desk", "B2").formula).toBe("=A2.Price");
    expect(["D1", "E1", "D2", "E2", "G1"].map((a) => seen(standIn, a))).toEqual([
      { formula: null, value: "Date", format: "General" },
      { formula: null, value: "eth PRICE", format: "General" },
      { formula: null, value: 45718, format: DATE },
      { formula: null, value: 2553.26, format: PRICE },
      { formula: null, value: 95000.5, format: "0.0" },
    ]);
    expect(report.cards).toEqual({ asCards: ["A1", "A2"], asText: [], reason: null });
    expect(report.message).toMatch(/2 MD\.ASSET card\(s\) kept as cards/);
    expect(
      logOf(standIn)
        .map((r) => [r.address, r.frozenAs ?? null])
        .sort(),
    ).toEqual([
      ["A1", "card"],
      ["A2", "card"],
      ["D1", null],
      ["G1", null],
    ]);
  });

  it("Undo freeze puts every formula back: the cards calculate again, the formats stay", async () => {
    const { standIn, workbook } = deskWorkbook();
    await freezeToValues(workbook, "sheet", { clock });
    const undo = await undoLastFreeze(workbook);

    expect(undo.changed).toEqual([]);
    expect(undo.restored.sort()).toEqual(["Desk!A1", "Desk!A2", "Desk!D1", "Desk!G1"]);
    await standIn.idle();
    expect(standIn.cell("Desk", "A1").formula).toBe(ETH);
    expect(standIn.display("Desk", "A1").json).toMatchObject({ type: "Entity", text: "Ethereum", provider: {} });
    expect(standIn.cell("Desk", "D1").formula).toBe(SERIES);
    expect(seen(standIn, "G1")).toMatchObject({ formula: latest("btc"), format: "0.0" });
  });

  it("where Excel refuses the card, freezes its text, says so, and Undo freeze still restores it", async () => {
    const { standIn, workbook } = deskWorkbook({ refuseDataTypeWrites: "This data type cannot be written." });
    const report = await freezeToValues(workbook, "sheet", { clock });

    expect(report.formulas).toBe(4);
    expect(standIn.cell("Desk", "A1")).toEqual({ formula: null, value: "Ethereum", type: "String" });
    expect(standIn.cell("Desk", "A2")).toEqual({ formula: null, value: "Chainlink", type: "String" });
    expect(seen(standIn, "G1")).toEqual({ formula: null, value: 95000.5, format: "0.0" });
    expect(report.cards).toEqual({ asCards: [], asText: ["A1", "A2"], reason: "This data type cannot be written." });
    expect(report.message).toMatch(
      /2 MD\.ASSET card\(s\) frozen as their text \(Excel refused the card: This data type cannot be written\.\)/,
    );
    expect(Object.fromEntries(logOf(standIn).map((r) => [r.address, r.frozenAs ?? null]))).toEqual({
      A1: "text",
      A2: "text",
      D1: null,
      G1: null,
    });

    const undo = await undoLastFreeze(workbook);
    expect(undo.changed).toEqual([]);
    expect(undo.restored.sort()).toEqual(["Desk!A1", "Desk!A2", "Desk!D1", "Desk!G1"]);
    expect(standIn.cell("Desk", "A1").formula).toBe(ETH);
  });
});

describe("Refresh all with MD.ASSET cards", () => {
  it("counts a card as a value, not a failure", async () => {
    const { workbook, calls } = deskWorkbook();
    const report = await refreshAll(workbook, {
      calls,
      clearCache: () => {},
      pollMs: 5,
      maxPollMs: 20,
      noStartMs: 300,
      quietMs: 50,
    });
    expect(report.cells).toBe(4);
    expect(report.failed).toEqual([]);
  });
});
