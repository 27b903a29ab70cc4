/**
 * The Artemis view's workbook access against the recorded workbook
 * stand-in: the scan of every sheet (formulas only, sheet by sheet, row by
 * row, with or without getSpecialCells), and formula replacement that re-reads
 * each cell in its own batch, leaves edited cells alone, reports cells Excel
 * refuses, and asks for one undo group where the host has ExcelApi 1.20 (the
 * stand-in's undo plays Ctrl+Z).
 */
import { convertArtemisFormula, hasArtemisCall } from "../../../src/core/artemis";
import { excelMigrationWorkbook, migrationWorkbookForHost } from "../../../src/office/workbook/formula-migration";
import type { ExcelRunner } from "../../../src/office/workbook/excel-batch";
import { openRecordedWorkbook } from "../../support/open-workbook";
import type { OtherAddIn, WorkbookRecording } from "../../support/workbook-stand-in";
import { resolve } from "../../core/artemis-cases";

function recording(overrides: Partial<WorkbookRecording> = {}): WorkbookRecording {
  return {
    sheets: [
      {
        name: "Prices",
        cells: {
          B2: { formula: '=ART("BTC","PRICE")', value: "#NAME?" },
          A5: { formula: '=IFERROR(ARTRANGE("ETH","FEES","2024-01-01","2024-01-31"),0)', value: 0 },
          A1: { formula: '=ARTINFO("ALL","SYMBOLS")', value: "#NAME?" },
          // Not Artemis formulas: text that looks like one, an ordinary formula, a spill's cells.
          C1: { value: '=ART("BTC","PRICE")' },
          C2: { formula: "=SUM(1,2)", value: 3 },
          D1: {
            formula: '=MD.SERIES("eth","PRICE","-2D")',
            spill: [
              ["Date", "eth PRICE"],
              ['=ART("BTC","PRICE")', 1],
            ],
          },
        },
      },
      { name: "Empty", cells: {} },
      { name: "Q2 comps", cells: { C3: { formula: '=ART("ETH","L30_FEES")*2', value: "#NAME?" } } },
    ],
    activeSheet: "Prices",
    selection: { sheet: "Prices", areas: ["A1"] },
    results: {},
    ...overrides,
  };
}

function open(overrides: Partial<WorkbookRecording> = {}) {
  const { standIn, globals } = openRecordedWorkbook(recording(overrides));
  const office = globals.Office as { context: { requirements: { isSetSupported(n: string, v?: string): boolean } } };
  const book = excelMigrationWorkbook(globals.Excel as ExcelRunner, office.context.requirements);
  return { standIn, book };
}

const EXPECTED = [
  { sheet: "Prices", address: "A1", formula: '=ARTINFO("ALL","SYMBOLS")' },
  { sheet: "Prices", address: "B2", formula: '=ART("BTC","PRICE")' },
  { sheet: "Prices", address: "A5", formula: '=IFERROR(ARTRANGE("ETH","FEES","2024-01-01","2024-01-31"),0)' },
  { sheet: "Q2 comps", address: "C3", formula: '=ART("ETH","L30_FEES")*2' },
];

describe("the workbook scan for Artemis formulas", () => {
  it("finds every sheet's Artemis formulas in reading order, and nothing else", async () => {
    const { book } = open();
    expect(await book.findFormulas(hasArtemisCall)).toEqual(EXPECTED);
  });

  it("finds the same on a host without getSpecialCells (ExcelApi 1.8)", async () => {
    const { book, standIn } = open({ excelApi: "1.8" });
    expect(await book.findFormulas(hasArtemisCall)).toEqual(EXPECTED);
    expect(standIn.log.unsupportedCalls).toEqual([]);
  });
});

describe("Artemis formulas as Excel saves them (the stand-in's other add-ins: custom-functions.ts)", () => {
  // Artemis for Excel is an Office add-in: its functions are namespaced, and read `_xldudf_…` while it is not loaded.
  const ARTEMIS = (state: Partial<OtherAddIn>): OtherAddIn => ({
    namespace: "ARTEMIS",
    functions: ["ART", "ARTRANGE", "ARTINFO"],
    loaded: false,
    ...state,
  });
  const typed = {
    sheets: [
      {
        name: "Comps",
        cells: {
          A1: { formula: '=ARTEMIS.ART("BTC","PRICE")', value: 60000 },
          A2: { formula: '=IFERROR(ARTEMIS.ARTRANGE("ETH","FEES","2024-01-01","2024-01-31"),0)', value: 0 },
          A3: { formula: '=ARTEMIS.ARTINFO("BTC","ASSET-NAME")', value: "Bitcoin" },
        },
      },
    ],
    activeSheet: "Comps",
    selection: { sheet: "Comps", areas: ["A1"] },
  };

  it.each([
    ["loaded", ARTEMIS({ loaded: true }), "ARTEMIS."],
    ["not loaded (office-js #3558)", ARTEMIS({}), "_xldudf_ARTEMIS_"],
    [
      "not loaded, saved beside a COM add-in (office-js #2568)",
      ARTEMIS({ linkPrefix: "[2]!" }),
      "[2]!_xldudf_ARTEMIS_",
    ],
  ])("an add-in %s: found, converted and replaced whole", async (_state, addIn, prefix) => {
    const { book, standIn } = open({ ...typed, otherAddIns: [addIn] });
    const found = await book.findFormulas(hasArtemisCall);
    expect(found.map((f) => f.formula)).toEqual([
      `=${prefix}ART("BTC","PRICE")`,
      `=IFERROR(${prefix}ARTRANGE("ETH","FEES","2024-01-01","2024-01-31"),0)`,
      `=${prefix}ARTINFO("BTC","ASSET-NAME")`,
    ]);
    const changes = found.map((f) => {
      const conversion = convertArtemisFormula(f.formula, resolve);
      if (!conversion.ok) throw new Error(conversion.reason);
      return { ...f, from: f.formula, to: conversion.formula };
    });
    const outcome = await book.replaceFormulas(changes);
    expect(outcome.written.map((w) => w.formula)).toEqual([
      '=MD.LATEST("btc","PRICE")',
      '=IFERROR(MD.SERIES("eth","FEES","2024-01-01","2024-01-31"),0)',
      '=MD.ASSET("btc")',
    ]);
    expect(standIn.cell("Comps", "A1").formula).toBe('=MD.LATEST("btc","PRICE")');
  });
});

describe("replacing formulas", () => {
  it("writes in one Excel.run and one undo group, and an undo restores exactly", async () => {
    const { book, standIn } = open();
    const runs = standIn.log.runs;
    const outcome = await book.replaceFormulas([
      { sheet: "Prices", address: "B2", from: '=ART("BTC","PRICE")', to: '=MD.LATEST("btc","PRICE")' },
      { sheet: "Q2 comps", address: "C3", from: '=ART("ETH","L30_FEES")*2', to: '=MD.LATEST("eth","L30_FEES")*2' },
    ]);
    expect(standIn.log.runs - runs).toBe(1);
    expect(standIn.log.runOptions.at(-1)).toEqual({ mergeUndoGroup: true, delayForCellEdit: true });
    expect(outcome).toEqual({
      written: [
        { sheet: "Prices", address: "B2", formula: '=MD.LATEST("btc","PRICE")' },
        { sheet: "Q2 comps", address: "C3", formula: '=MD.LATEST("eth","L30_FEES")*2' },
      ],
      changed: [],
      refused: [],
      skipped: [],
    });
    const undone = await book.replaceFormulas(
      outcome.written.map((w) => ({
        ...w,
        from: w.formula,
        to: EXPECTED.find((e) => e.sheet === w.sheet && e.address === w.address)!.formula,
      })),
    );
    expect(undone.written).toHaveLength(2);
    expect(standIn.cell("Prices", "B2").formula).toBe('=ART("BTC","PRICE")');
    expect(standIn.cell("Q2 comps", "C3").formula).toBe('=ART("ETH","L30_FEES")*2');
  });

  it("is one step of Excel's own undo where the host groups a batch (ExcelApi 1.20)", async () => {
    const { book, standIn } = open();
    const saves = standIn.log.settingsSaves;
    await book.replaceFormulas([
      { sheet: "Prices", address: "B2", from: '=ART("BTC","PRICE")', to: '=MD.LATEST("btc","PRICE")' },
      { sheet: "Q2 comps", address: "C3", from: '=ART("ETH","L30_FEES")*2', to: '=MD.LATEST("eth","L30_FEES")*2' },
    ]);
    // Nothing that clears the user's undo stack (saving document settings does: office-js #3141).
    expect(standIn.log.settingsSaves).toBe(saves);
    expect(standIn.undo()).toBe(true);
    expect(standIn.cell("Prices", "B2").formula).toBe('=ART("BTC","PRICE")');
    expect(standIn.cell("Q2 comps", "C3").formula).toBe('=ART("ETH","L30_FEES")*2');
    expect(standIn.undo()).toBe(false);
  });

  it("leaves a cell edited since alone, and skips a protected sheet with its reason", async () => {
    const { book, standIn } = open();
    standIn.edit("Prices", "B2", "=1+1");
    standIn.protect("Q2 comps", true);
    const outcome = await book.replaceFormulas([
      { sheet: "Prices", address: "B2", from: '=ART("BTC","PRICE")', to: '=MD.LATEST("btc","PRICE")' },
      { sheet: "Prices", address: "A1", from: '=ARTINFO("ALL","SYMBOLS")', to: "=MD.ASSETS()" },
      { sheet: "Q2 comps", address: "C3", from: '=ART("ETH","L30_FEES")*2', to: '=MD.LATEST("eth","L30_FEES")*2' },
    ]);
    expect(outcome.written).toEqual([{ sheet: "Prices", address: "A1", formula: "=MD.ASSETS()" }]);
    expect(outcome.changed).toEqual([{ sheet: "Prices", address: "B2" }]);
    expect(outcome.refused).toEqual([]);
    expect(outcome.skipped).toEqual([{ sheet: "Q2 comps", cells: 1, reason: expect.stringMatching(/protected/) }]);
    expect(standIn.cell("Prices", "B2").formula).toBe("=1+1");
    expect(standIn.cell("Q2 comps", "C3").formula).toBe('=ART("ETH","L30_FEES")*2');
  });

  it("a constant that reads like the formula is not overwritten", async () => {
    const { book, standIn } = open();
    standIn.edit("Prices", "B2", `'=ART("BTC","PRICE")`);
    const outcome = await book.replaceFormulas([
      { sheet: "Prices", address: "B2", from: '=ART("BTC","PRICE")', to: '=MD.LATEST("btc","PRICE")' },
    ]);
    expect(outcome.changed).toEqual([{ sheet: "Prices", address: "B2" }]);
    expect(standIn.cell("Prices", "B2")).toMatchObject({ formula: null, value: '=ART("BTC","PRICE")' });
  });

  it("asks for no undo group on a host without ExcelApi 1.20", async () => {
    const { book, standIn } = open({ excelApi: "1.19" });
    await book.replaceFormulas([
      { sheet: "Prices", address: "A1", from: '=ARTINFO("ALL","SYMBOLS")', to: "=MD.ASSETS()" },
    ]);
    expect(standIn.log.runOptions.at(-1)).toEqual({ delayForCellEdit: true });
  });
});

describe("outside Excel", () => {
  it("there is no workbook to scan", async () => {
    const book = migrationWorkbookForHost(null, {});
    expect(book.available).toBe(false);
    await expect(book.findFormulas(hasArtemisCall)).rejects.toThrow(/open this pane in Excel/);
  });
});
