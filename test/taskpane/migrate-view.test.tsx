/**
 * @jest-environment jsdom
 *
 * The Artemis view's states the browser suite does not reach: outside
 * Excel, a catalog that cannot be read (every symbol then "could not be
 * checked", and Try again converts), a metric the symbol's metric catalog
 * does not know (listed with "Did you mean"), formulas as Excel saves them,
 * a scan that fails, a workbook with no Artemis formulas, and two
 * conversions undone together, and a protected sheet skipped (named, with
 * its reason). The workbooks are
 * stand-ins of MigrationWorkbook.
 */
import { fireEvent, screen, waitFor } from "@testing-library/react";
import type { AssetRecord } from "../../src/core/domain";
import type { FormulaChange, MigrationWorkbook, WorkbookFormula } from "../../src/office/workbook/formula-migration";
import { MigrateView } from "../../src/taskpane/migrate/migrate-view";
import { descriptor } from "../support/fake-client";
import { makeHarness, renderWith, type Harness } from "../support/pane-fakes";

const BTC: AssetRecord = {
  symbol: "btc",
  platform_id: "bitcoin",
  aggregator_id: "bitcoin",
  title: "Bitcoin",
  color: "#f00",
};

function workbookHolding(found: WorkbookFormula[] | Error): MigrationWorkbook & { scans: number } {
  const book = {
    available: true,
    scans: 0,
    findFormulas: async () => {
      book.scans += 1;
      if (found instanceof Error) throw found;
      return found;
    },
    replaceFormulas: async () => ({ written: [], changed: [], refused: [], skipped: [] }),
  };
  return book;
}

/** Cells in memory: a replacement applies where the cell still holds `from`, as the Excel one does; a protected sheet is skipped. */
function memoryWorkbook(cells: Map<string, string>, protectedSheet?: string): MigrationWorkbook {
  const at = (sheet: string, address: string) => `${sheet}!${address}`;
  return {
    available: true,
    findFormulas: async (keep) =>
      [...cells]
        .filter(([, f]) => keep(f))
        .map(([k, formula]) => {
          const [sheet, address] = k.split("!");
          return { sheet, address, formula };
        }),
    replaceFormulas: async (all: readonly FormulaChange[]) => {
      const changes = all.filter((c) => c.sheet !== protectedSheet);
      const locked = all.length - changes.length;
      const written = changes.filter((c) => cells.get(at(c.sheet, c.address)) === c.from);
      for (const c of written) cells.set(at(c.sheet, c.address), c.to);
      return {
        written: written.map((c) => ({ sheet: c.sheet, address: c.address, formula: c.to })),
        changed: changes.filter((c) => !written.includes(c)).map((c) => ({ sheet: c.sheet, address: c.address })),
        refused: [],
        skipped: locked ? [{ sheet: protectedSheet!, cells: locked, reason: "the sheet is protected" }] : [],
      };
    },
  };
}

/** The metric catalogs of every symbol: the names of BTC's. */
function answerMetrics(harness: Harness): void {
  harness.client.metrics.answer(() => ["PRICE", "FEES", "MC"].map((name) => descriptor(name, "SUM")));
}

/** The view, with the pane's services reaching `book` as the Artemis view's workbook. */
function renderMigrate(harness: Harness, book: MigrationWorkbook, active = true) {
  harness.services.migration = book;
  return renderWith(harness, <MigrateView active={active} />);
}

describe("the Artemis view", () => {
  it("outside Excel says there is no workbook to scan, and asks nothing", () => {
    const harness = makeHarness({ inExcel: false });
    renderWith(harness, <MigrateView active />);
    expect(screen.getByText(/Running outside Excel: open this pane in Excel to scan a workbook/)).toBeTruthy();
    expect(harness.client.assets.calls).toHaveLength(0);
  });

  it("waits until it is first shown", () => {
    const harness = makeHarness();
    const book = workbookHolding([]);
    renderMigrate(harness, book, false);
    expect(book.scans).toBe(0);
    expect(harness.client.assets.calls).toHaveLength(0);
  });

  it("a catalog that cannot be read: each symbol could not be checked; Try again converts", async () => {
    const harness = makeHarness();
    harness.client.assets.fail(new Error("The market-data service failed (HTTP 503)."));
    const book = workbookHolding([{ sheet: "Sheet1", address: "B2", formula: '=ART("BTC","PRICE")' }]);
    renderMigrate(harness, book);
    expect(await screen.findByText(/The asset catalog could not be read/)).toBeTruthy();
    expect(
      await screen.findByText(/symbol "BTC" could not be checked against the asset catalog: .*HTTP 503/),
    ).toBeTruthy();
    expect(screen.getByRole("heading", { name: "To convert (0)" })).toBeTruthy();

    harness.client.assets.answer(() => [BTC]);
    answerMetrics(harness);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    const box = await screen.findByRole("checkbox", { name: "Sheet1!B2" });
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId("migrate-converted").textContent).toBe('=MD.LATEST("btc","PRICE")');
  });

  it("a metric the symbol's catalog lacks is not converted: it is listed with Did you mean, as Excel saved it", async () => {
    const harness = makeHarness();
    harness.client.assets.answer(() => [BTC]);
    answerMetrics(harness);
    const book = workbookHolding([
      { sheet: "Comps", address: "A1", formula: '=_xldudf_ARTEMIS_ART("BTC","FEEZ")' },
      { sheet: "Comps", address: "A2", formula: '=ARTEMIS.ART("BTC","L30_FEES")' },
      { sheet: "Comps", address: "A3", formula: '=[2]!_xldudf_ARTEMIS_ART("BTC","PRICE")*2' },
    ]);
    renderMigrate(harness, book);
    expect(await screen.findByRole("heading", { name: "Cannot convert (1)" })).toBeTruthy();
    const refused = screen.getByTestId("migrate-refused");
    expect(refused.textContent).toContain('=_xldudf_ARTEMIS_ART("BTC","FEEZ")');
    expect(screen.getByTestId("migrate-reason").textContent).toBe(
      "metric FEEZ is not in the metric catalog of btc. Did you mean FEES?",
    );
    expect(screen.getAllByTestId("migrate-converted").map((e) => e.textContent)).toEqual([
      '=MD.LATEST("btc","L30_FEES")',
      '=MD.LATEST("btc","PRICE")*2',
    ]);
    // One catalog for the one symbol, however many formulas name it.
    expect(harness.client.metrics.calls.map((c) => c.args)).toEqual(["btc"]);
  });

  it("a metric catalog that cannot be read leaves that symbol's metrics unchecked, with the reason; Scan again asks again", async () => {
    const harness = makeHarness();
    harness.client.assets.answer(() => [BTC]);
    harness.client.metrics.fail(new Error("The market-data service failed (HTTP 503)."));
    renderMigrate(harness, workbookHolding([{ sheet: "Sheet1", address: "B2", formula: '=ART("BTC","PRICE")' }]));
    expect(
      await screen.findByText(/metric PRICE could not be checked against the metric catalog of btc: .*HTTP 503/),
    ).toBeTruthy();

    // Scan again asks again.
    answerMetrics(harness);
    fireEvent.click(screen.getByRole("button", { name: "Scan again" }));
    expect((await screen.findByTestId("migrate-converted")).textContent).toBe('=MD.LATEST("btc","PRICE")');
  });

  it("a scan that fails says so", async () => {
    const harness = makeHarness();
    harness.client.assets.answer(() => [BTC]);
    renderMigrate(harness, workbookHolding(new Error("The sheet is busy.")));
    expect(await screen.findByText("The workbook could not be scanned: The sheet is busy.")).toBeTruthy();
  });

  it("a workbook without Artemis formulas says so, and Scan again reads it anew", async () => {
    const harness = makeHarness();
    harness.client.assets.answer(() => [BTC]);
    const book = workbookHolding([]);
    renderMigrate(harness, book);
    expect(await screen.findByText("No ART, ARTRANGE or ARTINFO formulas in this workbook.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Scan again" }));
    await waitFor(() => expect(book.scans).toBe(2));
  });

  it("two conversions before an undo are undone together", async () => {
    const harness = makeHarness();
    harness.client.assets.answer(() => [BTC]);
    answerMetrics(harness);
    const cells = new Map([
      ["Sheet1!A1", '=ART("BTC","PRICE")'],
      ["Sheet1!A2", '=ART("BTC","FEES")'],
    ]);
    renderMigrate(harness, memoryWorkbook(cells));
    fireEvent.click(await screen.findByRole("checkbox", { name: "Sheet1!A2" }));
    fireEvent.click(screen.getByRole("button", { name: "Convert 1 formula" }));
    expect(await screen.findByText("Converted 1 formula.")).toBeTruthy();
    fireEvent.click(await screen.findByRole("button", { name: "Convert 1 formula" }));
    await waitFor(() => expect(cells.get("Sheet1!A2")).toBe('=MD.LATEST("btc","FEES")'));
    expect(cells.get("Sheet1!A1")).toBe('=MD.LATEST("btc","PRICE")');

    fireEvent.click(await screen.findByRole("button", { name: "Undo conversion (2 formulas)" }));
    expect(await screen.findByText("Restored 2 original formulas.")).toBeTruthy();
    expect([...cells.values()]).toEqual(['=ART("BTC","PRICE")', '=ART("BTC","FEES")']);
  });

  it("a protected sheet is skipped: the result names it and says why, and how many formulas stay", async () => {
    const harness = makeHarness();
    harness.client.assets.answer(() => [BTC]);
    answerMetrics(harness);
    const cells = new Map([
      ["Sheet1!A1", '=ART("BTC","PRICE")'],
      ["Locked!A1", '=ART("BTC","FEES")'],
      ["Locked!A2", '=ART("BTC","PRICE")'],
    ]);
    renderMigrate(harness, memoryWorkbook(cells, "Locked"));
    fireEvent.click(await screen.findByRole("button", { name: "Convert 3 formulas" }));
    expect(
      await screen.findByText(
        "Converted 1 formula. Sheet Locked skipped (2 formulas left as they are): the sheet is protected.",
      ),
    ).toBeTruthy();
    expect(cells.get("Locked!A1")).toBe('=ART("BTC","FEES")');
  });
});
