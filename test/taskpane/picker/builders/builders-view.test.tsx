/** @jest-environment jsdom */
/**
 * The builders for MD.AGG, MD.SUPPLY, MD.SNAPSHOT and MD.FLOWS in the pane:
 * each shows the formula its fields make, refuses what the function would
 * refuse (and offers nothing to insert then), previews the function's own
 * answer, and inserts the formula (a dated table with a chart, in Excel).
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { AssetFormulaBuilder } from "../../../../src/taskpane/picker/asset-formula-builder";
import { PickerView } from "../../../../src/taskpane/picker/picker-view";
import { fakePoints, metric } from "../../../support/fake-client";
import { isDisabled, makeHarness, renderWith, type Harness } from "../../../support/pane-fakes";

function harness(options: Parameters<typeof makeHarness>[0] = {}): Harness {
  const h = makeHarness(options);
  h.client.answerSeries = (req) => ({
    kind: "points",
    points: fakePoints(
      req.symbol,
      req.metric,
      req.start ?? "2024-01-01",
      req.end ?? "2024-06-15",
      req.granularity,
      "2024-06-15",
    ),
  });
  h.client.flows.answer((req) =>
    Object.fromEntries(
      req.flowTypes.map((t) => [t, Object.fromEntries(req.sourceChains.map((c, i) => [c, (i + 1) * 1000]))]),
    ),
  );
  h.client.assets.answer(() => []);
  h.client.metrics.answer(() => []);
  return h;
}

const formula = () => screen.getByTestId("formula-text").textContent;
const insertButton = () => screen.getByRole("button", { name: /^Insert the formula/ });

async function previewTable(): Promise<string[][]> {
  const table = await screen.findByTestId("function-preview-table", {}, { timeout: 10_000 });
  return Array.from(table.querySelectorAll("tbody tr")).map((tr) =>
    Array.from(tr.querySelectorAll("td")).map((td) => td.textContent ?? ""),
  );
}

/**
 * Waits for the preview to hold its answer for the formula shown (its data-key is the call's key once
 * the answer is current), so the test does not end while the preview is still updating.
 */
async function previewSettled(): Promise<void> {
  await waitFor(() => expect(screen.getByTestId("function-preview").getAttribute("data-key")).not.toBe(""), {
    timeout: 10_000,
  });
}

describe("MD.AGG builder", () => {
  it("builds the formula, previews the statistic and inserts it", async () => {
    const h = harness();
    renderWith(h, <AssetFormulaBuilder symbol="eth" metric={metric("FEES", { aggregation_type: "SUM" })} />);
    fireEvent.click(screen.getByRole("radio", { name: "MD.AGG (a statistic over a window)" }));
    expect(formula()).toBe('=MD.AGG("eth","FEES","30D")');
    fireEvent.click(screen.getByRole("button", { name: "YTD" }));
    fireEvent.change(screen.getByTestId("agg-stat"), { target: { value: "MAX" } });
    fireEvent.change(screen.getByTestId("agg-as-of"), { target: { value: "05/31/2024" } });
    expect(formula()).toBe('=MD.AGG("eth","FEES","YTD","MAX","2024-05-31")');
    // MAX of the fake daily values from 2024-01-01 to 2024-05-31: the last day's.
    const value = await screen.findByTestId("function-preview-value", {}, { timeout: 10_000 });
    const expected = Math.max(
      ...fakePoints("eth", "FEES", "2024-01-01", "2024-05-31", "DAY", "2024-06-15").map((p) => p.val),
    );
    expect(value.getAttribute("data-value")).toBe(JSON.stringify(expected));
    fireEvent.click(insertButton());
    await screen.findByText("Inserted into Sheet1!B2.");
    expect(h.workbook.written).toEqual(['=MD.AGG("eth","FEES","YTD","MAX","2024-05-31")']);
  });

  it.each([
    ["FEES", { aggregation_type: "SUM" }, "Default (SUM for FEES)"],
    ["PRICE", { aggregation_type: "LAST" }, "Default (LAST for PRICE)"],
    ["TVL", { aggregation_type: "AVERAGE" }, "Default (LAST for TVL)"],
    ["L30_FEES", {}, "Default (LAST for L30_FEES)"],
  ])("names the statistic Default stands for: %s", async (name, fields, text) => {
    renderWith(harness(), <AssetFormulaBuilder symbol="eth" metric={metric(name, fields)} />);
    fireEvent.click(screen.getByRole("radio", { name: "MD.AGG (a statistic over a window)" }));
    const select = screen.getByTestId("agg-stat") as HTMLSelectElement;
    expect(select.value).toBe("");
    expect(select.options[select.selectedIndex].textContent).toBe(text);
    await previewSettled();
  });

  it("a window the function refuses is shown under Window and leaves nothing to insert", async () => {
    const h = harness();
    renderWith(h, <AssetFormulaBuilder symbol="eth" metric={metric("FEES")} />);
    fireEvent.click(screen.getByRole("radio", { name: "MD.AGG (a statistic over a window)" }));
    fireEvent.change(screen.getByTestId("agg-window"), { target: { value: "30 days" } });
    expect(await screen.findByText(/"30 days" is not a window/)).toBeTruthy();
    expect(formula()).toBe("Fix the fields above to build the formula.");
    expect(isDisabled(insertButton())).toBe(true);
  });
});

describe("MD.ASSET in the picker", () => {
  it('writes =MD.ASSET("sym") into the selected cell', async () => {
    const h = harness();
    renderWith(h, <AssetFormulaBuilder symbol="eq-aapl" metric={metric("PRICE")} />);
    fireEvent.click(screen.getByRole("radio", { name: /^MD\.ASSET/ }));
    expect(screen.getByTestId("asset-card-builder")).toBeTruthy();
    expect(formula()).toBe('=MD.ASSET("eq-aapl")');
    fireEvent.click(insertButton());
    await screen.findByText("Inserted into Sheet1!B2.");
    expect(h.workbook.written).toEqual(['=MD.ASSET("eq-aapl")']);
  });
});

describe("MD.ASSET in an Excel without entities", () => {
  it("says a card shows #VALUE! there until Refresh All, and offers the property/value table", async () => {
    const h = harness();
    renderWith(h, <AssetFormulaBuilder symbol="eth" metric={metric("PRICE")} />);
    fireEvent.click(screen.getByRole("radio", { name: /^MD\.ASSET/ }));
    expect(screen.getByTestId("asset-card-builder").textContent).toMatch(
      /Excel 2021 and older have no cards: there a card cell shows #VALUE! until Data › Refresh All/,
    );
    fireEvent.click(screen.getByRole("checkbox", { name: /A property\/value table instead of a card/ }));
    expect(formula()).toBe('=MD.ASSET("eth",,"table=true")');
    fireEvent.click(insertButton());
    await screen.findByText("Inserted into Sheet1!B2.");
    expect(h.workbook.written).toEqual(['=MD.ASSET("eth",,"table=true")']);
  });
});

describe("MD.SUPPLY builder", () => {
  it("previews the supply table and inserts it with a line chart of its shape", async () => {
    const h = harness();
    renderWith(h, <AssetFormulaBuilder symbol="usdc" metric={metric("STABLECOIN_SUPPLY_CIRCULATING")} />);
    fireEvent.click(screen.getByRole("radio", { name: /^MD\.SUPPLY/ }));
    fireEvent.change(screen.getByTestId("supply-start"), { target: { value: "2024-06-10" } });
    fireEvent.change(screen.getByTestId("supply-end"), { target: { value: "2024-06-14" } });
    fireEvent.change(screen.getByTestId("supply-granularity"), { target: { value: "DAY" } });
    expect(formula()).toBe('=MD.SUPPLY("usdc","2024-06-10","2024-06-14")');
    const rows = await previewTable();
    expect(rows[0]).toEqual(["Date", "Total", "Bridged", "Premint", "Peg stability", "Other locked", "Circulating"]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([
      "2024-06-10",
      "2024-06-11",
      "2024-06-12",
      "2024-06-13",
      "2024-06-14",
    ]);
    const withChart = await screen.findByRole("button", {
      name: "Insert with a line chart the formula for usdc supply",
    });
    await waitFor(() => expect(isDisabled(withChart)).toBe(false));
    fireEvent.click(withChart);
    await screen.findByText("Inserted into Sheet1!B2, with a line chart beside the table.");
    expect(h.workbook.charted).toEqual([
      {
        formula: '=MD.SUPPLY("usdc","2024-06-10","2024-06-14")',
        table: { rows: 6, columns: 7, title: "usdc supply", newestFirst: false },
      },
    ]);
  });

  it.each([
    ["eth", ["PRICE", "DEX_VOLUMES", "STABLECOIN_SUPPLY_TOTAL"], "the supply of all stablecoins on eth, by bucket"],
    ["usdc", ["PRICE", "STABLECOIN_SUPPLY_TOTAL", "STABLECOIN_SUPPLY_CIRCULATING"], "usdc's own supply, by bucket"],
    ["btc", undefined, "a stablecoin's supply by bucket, or that of all stablecoins on a chain"],
  ])("says what it returns for %s (a chain: its stablecoins; a stablecoin: its own)", async (symbol, offered, text) => {
    renderWith(harness(), <AssetFormulaBuilder symbol={symbol} metric={metric("PRICE")} offered={offered} />);
    fireEvent.click(screen.getByRole("radio", { name: `MD.SUPPLY (${text})` }));
    expect(screen.getByTestId("supply-description").textContent).toBe(
      `Returns ${text}: Total, Bridged, Premint, Peg stability, Other locked and Circulating, per date.`,
    );
    await previewSettled();
  });

  it("outside Excel there is no chart button: Insert copies", async () => {
    const h = harness({ inExcel: false });
    renderWith(h, <AssetFormulaBuilder symbol="usdc" metric={metric("STABLECOIN_SUPPLY_CIRCULATING")} />);
    fireEvent.click(screen.getByRole("radio", { name: /^MD\.SUPPLY/ }));
    await previewTable();
    expect(screen.queryByTestId("insert-with-chart")).toBeNull();
  });
});

describe("MD.SNAPSHOT builder (Picker ▸ A comps table)", () => {
  it("builds a comps table of the typed assets and metrics, previews it and inserts it", async () => {
    const h = harness();
    renderWith(h, <PickerView active />);
    fireEvent.click(screen.getByRole("radio", { name: /^A comps table/ }));
    fireEvent.change(screen.getByTestId("snapshot-symbols"), { target: { value: "eth, sol" } });
    fireEvent.change(screen.getByTestId("snapshot-metrics"), { target: { value: "price, tvl" } });
    fireEvent.change(screen.getByTestId("snapshot-as-of"), { target: { value: "2024-06-14" } });
    expect(formula()).toBe('=MD.SNAPSHOT("eth, sol","price, tvl","2024-06-14")');
    const rows = await previewTable();
    expect(rows[0]).toEqual(["Symbol", "PRICE", "TVL"]);
    expect(rows.map((r) => r[0])).toEqual(["Symbol", "eth", "sol"]);
    fireEvent.click(screen.getByRole("switch", { name: "Transpose (assets across)" }));
    expect(formula()).toBe('=MD.SNAPSHOT("eth, sol","price, tvl","2024-06-14","transpose=true")');
    await waitFor(async () => expect((await previewTable()).map((r) => r[0])).toEqual(["Symbol", "PRICE", "TVL"]));
    fireEvent.click(insertButton());
    await screen.findByText("Inserted into Sheet1!B2.");
    expect(h.workbook.written).toEqual(['=MD.SNAPSHOT("eth, sol","price, tvl","2024-06-14","transpose=true")']);
    // Not a dated table: no chart offered.
    expect(screen.queryByTestId("insert-with-chart")).toBeNull();
  });

  it("a metric name the functions refuse is shown under Metrics", async () => {
    renderWith(harness(), <PickerView active />);
    fireEvent.click(screen.getByRole("radio", { name: /^A comps table/ }));
    fireEvent.change(screen.getByTestId("snapshot-metrics"), { target: { value: "PRICE, market cap" } });
    expect(await screen.findByText(/market cap/)).toBeTruthy();
    expect(isDisabled(insertButton())).toBe(true);
  });
});

describe("MD.FLOWS builder (Picker ▸ Capital flows)", () => {
  it("ticking chains and flows builds the formula; the preview is the function's table, largest first", async () => {
    const h = harness();
    renderWith(h, <PickerView active />);
    fireEvent.click(screen.getByRole("radio", { name: /^Capital flows/ }));
    expect(formula()).toBe('=MD.FLOWS("ethereum, solana, arbitrum, base","-1M","TODAY")');
    const chains = screen.getByRole("group", { name: "Source chains" });
    fireEvent.click(within(chains).getByRole("checkbox", { name: "solana" }));
    fireEvent.click(within(chains).getByRole("checkbox", { name: "base" }));
    fireEvent.change(screen.getByTestId("flows-other-chains"), { target: { value: "Tron" } });
    const flows = screen.getByRole("group", { name: "Flows" });
    fireEvent.click(within(flows).getByRole("checkbox", { name: "Inflow" }));
    fireEvent.change(screen.getByTestId("flows-top"), { target: { value: "2" } });
    const text = '=MD.FLOWS("ethereum, arbitrum, tron","-1M","TODAY",,"NETFLOW, INFLOW","top=2")';
    expect(formula()).toBe(text);
    const rows = await previewTable();
    // The fake answers 1000 × the chain's position in the request: tron (3rd) is largest. The flows are in
    // USD: shown as the cells format them.
    expect(rows).toEqual([
      ["Chain", "Netflow (USD)", "Inflow (USD)"],
      ["tron", "$3,000.00", "$3,000.00"],
      ["arbitrum", "$2,000.00", "$2,000.00"],
    ]);
    fireEvent.click(insertButton());
    await screen.findByText("Inserted into Sheet1!B2.");
    expect(h.workbook.written).toEqual([text]);
  });

  it("no chain ticked: says so, and nothing to insert", async () => {
    renderWith(harness(), <PickerView active />);
    fireEvent.click(screen.getByRole("radio", { name: /^Capital flows/ }));
    const chains = screen.getByRole("group", { name: "Source chains" });
    for (const name of ["ethereum", "solana", "arbitrum", "base"])
      fireEvent.click(within(chains).getByRole("checkbox", { name }));
    expect(await screen.findByText("Choose at least one chain.")).toBeTruthy();
    expect(isDisabled(insertButton())).toBe(true);
  });
});
