/** @jest-environment jsdom */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { AuthError, NotFoundError, ServerError } from "../../../src/api/errors";
import type { AssetRecord, MetricDescriptor, Reading } from "../../../src/core/domain";
import { PickerView } from "../../../src/taskpane/picker/picker-view";
import { OUTSIDE_EXCEL_COPIED, OUTSIDE_EXCEL_NOT_COPIED } from "../../../src/taskpane/shared/place-formula";
import { asset, metric } from "../../support/fake-client";
import {
  isDisabled,
  makeHarness,
  PANE_TODAY,
  renderWith,
  type Harness,
  type HarnessOptions,
} from "../../support/pane-fakes";

const CATALOG: AssetRecord[] = [
  asset("btc", "Bitcoin", { color: "#f7931a" }),
  asset("eth", "Ethereum", { color: "#627eea" }),
  asset("steth", "Lido Staked Ether"),
  asset("eq-aapl", "Apple Inc."),
  asset("eq-msft", "Microsoft Corporation"),
  asset("eq-ethe", "Grayscale Ethereum Trust"),
  asset("sol", "Solana"),
];

function renderPicker(options: HarnessOptions = {}): Harness {
  const harness = makeHarness(options);
  renderWith(harness, <PickerView active />);
  return harness;
}

function shownSymbols(): string[] {
  return screen.queryAllByRole("option").map((o) => o.getAttribute("data-symbol") ?? "");
}

/** Every word of the query in the symbol or title, case-insensitively: the catalog rows a user expects to see. */
function expectedMatches(query: string, kind: "all" | "crypto" | "equity"): string[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return CATALOG.filter((a) => kind === "all" || (kind === "equity") === a.symbol.startsWith("eq-"))
    .filter((a) => words.every((w) => a.symbol.toLowerCase().includes(w) || a.title.toLowerCase().includes(w)))
    .map((a) => a.symbol);
}

async function pickAsset(harness: Harness, symbol: string) {
  const option = await waitFor(() => {
    const found = screen.getAllByRole("option").find((o) => o.getAttribute("data-symbol") === symbol);
    if (!found) throw new Error(`no option ${symbol}`);
    return found;
  });
  fireEvent.click(option);
  await waitFor(() => expect(harness.client.metrics.calls.length).toBeGreaterThan(0));
}

async function pickMetric(name: string) {
  const list = await screen.findByRole("listbox", { name: /^Metrics for / });
  const option = within(list)
    .getAllByRole("option")
    .find((o) => o.getAttribute("data-metric") === name);
  if (!option) throw new Error(`no metric ${name}`);
  fireEvent.click(option);
  return screen.findByTestId("metric-details");
}

describe("Picker: the asset catalog", () => {
  it("shows progress while the catalog loads, then the list", async () => {
    const { client } = renderPicker();
    expect(screen.getByText("Loading the asset catalog…")).toBeTruthy();
    expect(client.assets.calls).toHaveLength(1);
    act(() => client.assets.last.resolve(CATALOG));
    await screen.findByRole("listbox", { name: "Assets" });
    expect(screen.queryByText("Loading the asset catalog…")).toBeNull();
    expect(screen.getByTestId("asset-count").textContent).toBe(`${CATALOG.length} assets`);
    expect(shownSymbols()).toEqual(CATALOG.map((a) => a.symbol));
  });

  it("does not fetch the catalog until the view is first shown, and keeps it when hidden again", async () => {
    const harness = makeHarness();
    const view = renderWith(harness, <PickerView active={false} />);
    await act(async () => undefined);
    expect(harness.client.assets.calls).toHaveLength(0);
    view.rerender(<PickerView active />);
    await waitFor(() => expect(harness.client.assets.calls).toHaveLength(1));
    act(() => harness.client.assets.last.resolve(CATALOG));
    await screen.findByRole("listbox", { name: "Assets" });
    view.rerender(<PickerView active={false} />);
    await act(async () => undefined);
    expect(harness.client.assets.calls).toHaveLength(1);
    expect(screen.getByRole("listbox", { name: "Assets" })).toBeTruthy();
  });

  it.each([
    ["auth", new AuthError("The API key was rejected (HTTP 401).")],
    ["server", new ServerError("The market-data service failed (HTTP 500).")],
  ])("a %s error shows the message and “Try again” fetches again", async (_kind, error) => {
    const { client } = renderPicker();
    act(() => client.assets.last.reject(error));
    await screen.findByText(`Could not load the asset catalog: ${error.message}`);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(client.assets.calls).toHaveLength(2));
    act(() => client.assets.last.resolve(CATALOG));
    await screen.findByRole("listbox", { name: "Assets" });
    expect(screen.queryByText(/Could not load the asset catalog/)).toBeNull();
  });

  it("an empty catalog says so", async () => {
    const { client } = renderPicker();
    act(() => client.assets.last.resolve([]));
    await screen.findByText("The service lists no assets.");
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it.each([
    { query: "eth", kind: "all" as const },
    { query: "ETHER", kind: "all" as const },
    { query: "eth", kind: "crypto" as const },
    { query: "eth", kind: "equity" as const },
    { query: "", kind: "equity" as const },
    { query: "", kind: "crypto" as const },
    { query: "corp micro", kind: "all" as const },
    { query: "apple", kind: "crypto" as const },
    { query: "zzz", kind: "all" as const },
  ])("search “$query” with the $kind filter shows exactly the matching assets", async ({ query, kind }) => {
    const { client } = renderPicker();
    client.assets.answer(() => CATALOG);
    const search = await screen.findByRole("combobox", { name: "Search assets" });
    if (kind !== "all") fireEvent.click(screen.getByRole("radio", { name: kind === "equity" ? "Equity" : "Crypto" }));
    fireEvent.change(search, { target: { value: query } });
    const expected = expectedMatches(query, kind);
    const total = expectedMatches("", kind).length;
    await waitFor(() => expect([...shownSymbols()].sort()).toEqual([...expected].sort()));
    expect(screen.getByTestId("asset-count").textContent).toBe(
      expected.length === total ? `${total} assets` : `${expected.length} of ${total}`,
    );
    if (expected.length === 0) {
      expect(screen.getByTestId("asset-list").textContent).toBe(
        query ? `No assets match “${query}”.` : "No assets of this type.",
      );
    }
  });

  it("is keyboard-usable: arrows move the active option, Enter picks it", async () => {
    const { client } = renderPicker();
    client.assets.answer(() => CATALOG);
    const search = await screen.findByRole("combobox", { name: "Search assets" });
    const activeSymbol = () => {
      const id = search.getAttribute("aria-activedescendant");
      return id ? document.getElementById(id)?.getAttribute("data-symbol") : null;
    };
    await waitFor(() => expect(activeSymbol()).toBe(CATALOG[0].symbol));
    fireEvent.keyDown(search, { key: "ArrowDown" });
    fireEvent.keyDown(search, { key: "ArrowDown" });
    expect(activeSymbol()).toBe(CATALOG[2].symbol);
    fireEvent.keyDown(search, { key: "ArrowUp" });
    expect(activeSymbol()).toBe(CATALOG[1].symbol);
    fireEvent.keyDown(search, { key: "ArrowUp" });
    fireEvent.keyDown(search, { key: "ArrowUp" });
    expect(activeSymbol()).toBe(CATALOG[0].symbol);
    const selected = screen.getAllByRole("option").filter((o) => o.getAttribute("aria-selected") === "true");
    expect(selected.map((o) => o.getAttribute("data-symbol"))).toEqual([CATALOG[0].symbol]);
    fireEvent.keyDown(search, { key: "ArrowDown" });
    fireEvent.keyDown(search, { key: "Enter" });
    await waitFor(() => expect(client.metrics.calls).toHaveLength(1));
    expect(client.metrics.last.args).toBe(CATALOG[1].symbol);
    expect(within(screen.getByTestId("chosen-asset")).getByText(CATALOG[1].title)).toBeTruthy();
  });

  it("marks equities with a badge and shows each asset's colour swatch", async () => {
    const { client } = renderPicker();
    client.assets.answer(() => CATALOG);
    await screen.findByRole("listbox", { name: "Assets" });
    for (const option of screen.getAllByRole("option")) {
      const record = CATALOG.find((a) => a.symbol === option.getAttribute("data-symbol"))!;
      expect(within(option).queryByText("Equity") !== null).toBe(record.symbol.startsWith("eq-"));
      expect(option.querySelector("[data-color]")?.getAttribute("data-color")).toBe(record.color);
    }
  });

  it("renders a 20,000-asset catalog as a window of rows, the best matches first", async () => {
    const big: AssetRecord[] = Array.from({ length: 20_000 }, (_, i) =>
      asset(i % 4 === 0 ? `eq-t${i}` : `c${i}`, `Asset number ${i}`),
    );
    const { client } = renderPicker();
    client.assets.answer(() => big);
    await screen.findByRole("listbox", { name: "Assets" });
    expect(screen.getByTestId("asset-count").textContent).toBe("20,000 assets");
    const rendered = shownSymbols();
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(40);
    expect(rendered).toEqual(big.slice(0, rendered.length).map((a) => a.symbol));
    expect(screen.getAllByRole("option")[0].getAttribute("aria-setsize")).toBe("20000");

    // "c1999": exactly that symbol first, then the symbols it prefixes (c19990..c19999, minus equities).
    fireEvent.change(screen.getByRole("combobox", { name: "Search assets" }), { target: { value: "c1999" } });
    const prefixed = big.filter((a) => a.symbol.startsWith("c1999") && a.symbol !== "c1999").map((a) => a.symbol);
    await waitFor(() => expect(shownSymbols()[0]).toBe("c1999"));
    expect(shownSymbols().slice(1)).toEqual(prefixed);
  });
});

describe("Picker: choosing an asset and a metric", () => {
  async function toMetrics(options: HarnessOptions = {}) {
    const harness = renderPicker(options);
    harness.client.assets.answer(() => CATALOG);
    await pickAsset(harness, "eth");
    return harness;
  }

  it("selecting an asset asks for its metrics and shows progress", async () => {
    const { client } = await toMetrics();
    expect(client.metrics.last.args).toBe("eth");
    expect(screen.getByText("Loading the metrics for eth…")).toBeTruthy();
    expect(within(screen.getByTestId("chosen-asset")).getByText("Ethereum")).toBeTruthy();
    act(() => client.metrics.last.resolve([metric("PRICE"), metric("MARKET_CAP")]));
    const list = await screen.findByRole("listbox", { name: "Metrics for eth" });
    expect(
      within(list)
        .getAllByRole("option")
        .map((o) => o.getAttribute("data-metric")),
    ).toEqual(["PRICE", "MARKET_CAP"]);
  });

  it.each([
    ["not found", new NotFoundError("The service does not know the asset eth.")],
    ["auth", new AuthError("The API key was rejected (HTTP 403).")],
  ])("a %s error loading metrics shows the message; “Try again” retries", async (_kind, error) => {
    const { client } = await toMetrics();
    act(() => client.metrics.last.reject(error));
    await screen.findByText(`Could not load the metrics for eth: ${error.message}`);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(client.metrics.calls).toHaveLength(2));
    act(() => client.metrics.last.resolve([metric("PRICE")]));
    await screen.findByRole("listbox", { name: "Metrics for eth" });
  });

  it("an asset with no metrics says so", async () => {
    const { client } = await toMetrics();
    act(() => client.metrics.last.resolve([]));
    await screen.findByText("No metrics are listed for eth.");
  });

  it("“Change” goes back to the asset list, keeping the build hidden; Escape brings it back", async () => {
    const { client } = await toMetrics();
    act(() => client.metrics.last.resolve([metric("PRICE")]));
    await pickMetric("PRICE");
    fireEvent.click(screen.getByRole("button", { name: "Change" }));
    await screen.findByRole("listbox", { name: "Assets" });
    expect(screen.getByTestId("metric-details").closest("[hidden]")).not.toBeNull();
    expect(screen.queryByTestId("chosen-asset")).toBeNull();
    fireEvent.keyDown(screen.getByRole("combobox", { name: "Search assets" }), { key: "Escape" });
    await screen.findByTestId("chosen-asset");
    expect(screen.getByTestId("metric-details").closest("[hidden]")).toBeNull();
    expect(screen.getByRole("option", { name: /PRICE/, selected: true })).toBeTruthy();
  });

  it("a metric's HTML-looking service text renders as inert text", async () => {
    const hostile = metric("PRICE", {
      label: '<img src=x onerror="window.__pwned=1">Price',
      description: "<b>bold</b><script>window.__pwned=2</script>",
      methodology: '<a href="javascript:alert(1)">click</a>',
      source: "<iframe src=//evil.example></iframe>",
      tags: [{ value: "t", label: "<em>tag</em>" }],
    });
    const { client } = await toMetrics();
    act(() => client.metrics.last.resolve([hostile]));
    const details = await pickMetric("PRICE");
    for (const tag of ["img", "b", "script", "a", "iframe", "em"]) expect(details.querySelector(tag)).toBeNull();
    expect(within(details).getByRole("heading", { level: 3 }).textContent).toBe(hostile.label);
    for (const text of [hostile.description, hostile.methodology!, hostile.source, "<em>tag</em>"])
      expect(details.textContent).toContain(text);
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it.each([
    { link: "https://docs.example.com/price", anchor: true },
    { link: "http://docs.example.com/price?a=1", anchor: true },
    { link: "javascript:alert(1)", anchor: false },
    { link: " JavaScript:alert(1)", anchor: false },
    { link: "data:text/html,<script>alert(1)</script>", anchor: false },
    { link: "ftp://docs.example.com/price", anchor: false },
    { link: "/relative/path", anchor: false },
    { link: null, anchor: false },
  ])("source link $link → anchor: $anchor", async ({ link, anchor }) => {
    const { client } = await toMetrics();
    act(() => client.metrics.last.resolve([metric("PRICE", { source: "Example source", source_link: link })]));
    const details = await pickMetric("PRICE");
    const anchors = within(details).queryAllByRole("link");
    if (anchor) {
      expect(anchors).toHaveLength(1);
      expect(anchors[0].getAttribute("href")).toBe(new URL(link!).href);
      expect(anchors[0].textContent).toBe("Example source");
      expect(anchors[0].getAttribute("rel")).toContain("noopener");
    } else {
      expect(anchors).toHaveLength(0);
      expect(details.querySelector("a")).toBeNull();
      expect(within(details).getByText("Example source")).toBeTruthy();
    }
  });

  it.each([
    { name: "TOTAL_REVENUE", financial: true },
    { name: "DILUTED_EPS", financial: true },
    { name: "PRICE", financial: false },
  ])("$name: granularity forced to QUARTER = $financial", async ({ name, financial }) => {
    const { client } = await toMetrics();
    act(() => client.metrics.last.resolve([metric(name)]));
    const details = await pickMetric(name);
    const select = screen.getByTestId("granularity") as HTMLSelectElement;
    const enabled = [...select.options].filter((o) => !o.disabled).map((o) => o.value);
    if (financial) {
      expect(select.value).toBe("QUARTER");
      expect(enabled).toEqual(["QUARTER"]);
      expect(within(details).getByText("Fiscal quarters (QUARTER granularity only)")).toBeTruthy();
      expect(screen.getByTestId("formula-text").textContent).toBe(
        `=MD.SERIES("eth","${name}","-1Y","TODAY","QUARTER")`,
      );
      await waitFor(() => expect(client.series.calls.length).toBeGreaterThan(0));
      expect(client.series.last.args.granularity).toBe("QUARTER");
    } else {
      expect(select.value).toBe("DAY");
      expect(enabled).toEqual(["DAY", "WEEK", "MONTH", "QUARTER", "YEAR"]);
      fireEvent.change(select, { target: { value: "WEEK" } });
      expect(screen.getByTestId("formula-text").textContent).toBe(`=MD.SERIES("eth","${name}","-1Y","TODAY","WEEK")`);
    }
  });
});

describe("Picker: preview and formula", () => {
  const POINTS: Reading[] = Array.from({ length: 8 }, (_, i) => ({ date: `2024-06-0${i + 1}`, val: 1000 + i * 10.5 }));

  async function toBuilder(options: HarnessOptions = {}, metrics: MetricDescriptor[] = [metric("PRICE")]) {
    const harness = renderPicker(options);
    harness.client.assets.answer(() => CATALOG);
    await pickAsset(harness, "eth");
    harness.client.metrics.answer(() => metrics);
    await pickMetric(metrics[0].name);
    return harness;
  }

  /** The preview's rows as shown (header row included): what the cell will spill, first rows. */
  function previewRows(): string[][] {
    const table = screen.getByTestId("function-preview-table");
    return within(table)
      .getAllByRole("row")
      .map((r) =>
        within(r)
          .getAllByRole("cell")
          .map((c) => c.textContent ?? ""),
      );
  }

  /** Waits until the preview shows the answer to `formula` (its debounce keeps the previous one for a moment). */
  async function previewOf(formula: string): Promise<HTMLElement> {
    const preview = screen.getByTestId("function-preview");
    await waitFor(() => expect(preview.getAttribute("data-key")).toBe(formula));
    return preview;
  }

  it("in a host that shows no number formats, the preview's numbers are plain, as the cells' are; dates stay dates", async () => {
    const { client } = await toBuilder({ cellFormats: false });
    await waitFor(() => expect(client.series.calls).toHaveLength(1));
    act(() => client.series.last.resolve({ kind: "points", points: POINTS }));
    await previewOf('=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")');
    const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });
    expect(previewRows().slice(1, 3)).toEqual(POINTS.slice(0, 2).map((p) => [p.date, plain.format(p.val)]));
  });

  it("asks for the window the fields describe and shows what MD.SERIES will spill: order and last=N included", async () => {
    const { client } = await toBuilder();
    expect(screen.getByText("Loading preview…")).toBeTruthy();
    await waitFor(() => expect(client.series.calls).toHaveLength(1));
    // The 1Y preset covers one year ending today (2024-06-15), both ends included: from the day after its date a year ago.
    const oneYearBack = "2023-06-16";
    expect(client.series.last.args).toEqual({
      symbol: "eth",
      metric: "PRICE",
      start: oneYearBack,
      end: PANE_TODAY,
      granularity: "DAY",
    });
    client.series.answer(() => ({ kind: "points", points: POINTS }));
    act(() => client.series.last.resolve({ kind: "points", points: POINTS }));
    await previewOf('=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")');
    // PRICE is in USD (the catalog's unit): the cells read $1,010.50.
    const usd = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    // A header row (Date, the series' name), then the readings oldest first; the preview shows the first six rows
    // of data (docs/taskpane.md), the header row above them.
    expect(previewRows()).toEqual([
      ["Date", "eth PRICE"],
      ...POINTS.slice(0, 6).map((p) => [p.date, `$${usd.format(p.val)}`]),
    ]);
    // The size counts the rows of data; the header row is named apart.
    expect(screen.getByText(`${POINTS.length} rows (and a header row) × 2 columns; the first 6 shown`)).toBeTruthy();
    expect(
      screen.getByRole("img", { name: /^Line chart of eth PRICE: 8 readings from 2024-06-01 to 2024-06-08/ }),
    ).toBeTruthy();

    // Order and "last N" are the function's options: the preview is its answer to the new formula.
    fireEvent.change(screen.getByRole("combobox", { name: "Order" }), { target: { value: "desc" } });
    await previewOf('=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY","order=desc")');
    expect(previewRows().map((r) => r[0])).toEqual([
      "Date",
      ...[...POINTS]
        .reverse()
        .slice(0, 6)
        .map((p) => p.date),
    ]);
    fireEvent.change(screen.getByTestId("last-rows"), { target: { value: "3" } });
    await previewOf('=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY","order=desc; last=3")');
    expect(previewRows().map((r) => r[0])).toEqual([
      "Date",
      ...POINTS.slice(-3)
        .reverse()
        .map((p) => p.date),
    ]);
    expect(screen.getByText("3 rows (and a header row) × 2 columns")).toBeTruthy();
    // The line still runs oldest to newest, over the rows kept.
    expect(
      screen.getByRole("img", { name: /^Line chart of eth PRICE: 3 readings from 2024-06-06 to 2024-06-08/ }),
    ).toBeTruthy();
    expect(screen.getByTestId("formula-text").textContent).toBe(
      '=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY","order=desc; last=3")',
    );
  });

  it("MD.LATEST's preview is the one value the cell will hold: the last reading on or before as_of", async () => {
    const { client } = await toBuilder();
    client.series.answer(() => ({ kind: "points", points: POINTS }));
    fireEvent.click(screen.getByRole("radio", { name: "MD.LATEST (one value)" }));
    fireEvent.change(screen.getByTestId("as-of"), { target: { value: "2024-06-05" } });
    const preview = await previewOf('=MD.LATEST("eth","PRICE","2024-06-05")');
    const value = within(preview).getByTestId("function-preview-value");
    expect(value.getAttribute("data-value")).toBe(JSON.stringify(POINTS[4].val));
    // One value: nothing to chart.
    expect(screen.queryByTestId("preview-chart")).toBeNull();
    expect(screen.queryByRole("button", { name: /^Insert with a line chart/ })).toBeNull();
  });

  it.each([
    {
      name: "a message in place of a series",
      answer: { kind: "message" as const, message: "PRICE is not available for eth" },
      text: "eth PRICE: PRICE is not available for eth",
    },
    {
      name: "an empty series",
      answer: { kind: "points" as const, points: [] },
      text: "No data for eth PRICE from 2023-06-16 to 2024-06-15.",
    },
  ])("the preview shows $name as the cell will: #N/A with the message, nothing to retry", async ({ answer, text }) => {
    const { client } = await toBuilder();
    await waitFor(() => expect(client.series.calls).toHaveLength(1));
    act(() => client.series.last.resolve(answer));
    const preview = await previewOf('=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")');
    expect(within(preview).getByTestId("function-preview-value").textContent).toBe("#N/A");
    expect(within(preview).getByTestId("function-preview-message").textContent).toContain(text);
    expect(within(preview).queryByRole("button", { name: "Try again" })).toBeNull();
    expect(screen.queryByTestId("function-preview-table")).toBeNull();
  });

  it("a failure worth retrying shows the cell's error with its message, and Try again asks again", async () => {
    const { client } = await toBuilder();
    await waitFor(() => expect(client.series.calls).toHaveLength(1));
    act(() => client.series.last.reject(new ServerError("The market-data service failed (HTTP 502).")));
    const preview = await previewOf('=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")');
    expect(within(preview).getByTestId("function-preview-value").textContent).toBe("#N/A");
    expect(within(preview).getByTestId("function-preview-message").textContent).toContain(
      "The market-data service failed (HTTP 502).",
    );
    fireEvent.click(within(preview).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(client.series.calls).toHaveLength(2));
    act(() => client.series.last.resolve({ kind: "points", points: POINTS }));
    await screen.findByTestId("function-preview-table");
  });

  it("an invalid start date names the problem and disables insert", async () => {
    await toBuilder();
    fireEvent.change(screen.getByTestId("window-start"), { target: { value: "not-a-date" } });
    expect(screen.getByTestId("formula-text").textContent).toBe("Fix the fields above to build the formula.");
    expect(isDisabled(screen.getByRole("button", { name: /^Insert the formula/ }))).toBe(true);
    expect(screen.getByText("The preview appears once the fields above are valid.")).toBeTruthy();
  });

  it("Insert writes the formula through the workbook actions", async () => {
    const { workbook, copied } = await toBuilder();
    fireEvent.click(screen.getByRole("button", { name: "Insert the formula for eth PRICE into the selected cell" }));
    await screen.findByText("Inserted into Sheet1!B2.");
    expect(workbook.written).toEqual(['=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")']);
    expect(copied).toEqual([]);
  });

  it("when Excel refuses the write, the formula is copied instead", async () => {
    const { workbook, copied } = await toBuilder();
    workbook.failWith = new Error("The cell is being edited");
    fireEvent.click(screen.getByRole("button", { name: /^Insert the formula for eth PRICE/ }));
    await screen.findByText("Excel did not accept the formula (The cell is being edited). Formula copied instead.");
    expect(copied).toEqual(['=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")']);
  });

  it("Copy puts the formula on the clipboard", async () => {
    const { workbook, copied } = await toBuilder();
    fireEvent.click(screen.getByRole("button", { name: "Copy the formula for eth PRICE" }));
    await screen.findByText("Formula copied.");
    expect(copied).toEqual(['=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")']);
    expect(workbook.written).toEqual([]);
  });

  it.each([
    { locale: "en-US", start: "01/15/2023", end: "6/30/2023" },
    { locale: "en-GB", start: "15/01/2023", end: "30/06/2023" },
    { locale: "de-DE", start: "15.01.2023", end: "30.6.2023" },
    { locale: "ja-JP", start: "2023/01/15", end: "2023/6/30" },
  ])(
    "$locale: dates typed the user's way ($start … $end) become YYYY-MM-DD in the formula and the preview",
    async ({ locale, start, end }) => {
      const { client } = await toBuilder({ dateLocale: locale });
      await waitFor(() => expect(client.series.calls).toHaveLength(1));
      fireEvent.change(screen.getByTestId("window-start"), { target: { value: start } });
      fireEvent.change(screen.getByTestId("window-end"), { target: { value: end } });
      expect(screen.getByTestId("formula-text").textContent).toBe(
        '=MD.SERIES("eth","PRICE","2023-01-15","2023-06-30","DAY")',
      );
      await waitFor(() =>
        expect(client.series.last.args).toEqual({
          symbol: "eth",
          metric: "PRICE",
          start: "2023-01-15",
          end: "2023-06-30",
          granularity: "DAY",
        }),
      );
    },
  );

  it("the builder says which date form it wants, and refuses a date written in another order", async () => {
    await toBuilder({ dateLocale: "en-GB" });
    expect(screen.getByTestId("date-forms").textContent).toContain("Dates: 15/01/2025 (DD/MM/YYYY), YYYY-MM-DD, TODAY");
    fireEvent.change(screen.getByTestId("window-start"), { target: { value: "01/15/2025" } });
    expect(
      screen.getByText(
        '"01/15/2025" is not a date written DD/MM/YYYY (e.g. 15/01/2025). Use that, YYYY-MM-DD, TODAY, or -30D, -12W, -6M, -2Q, -1Y.',
      ),
    ).toBeTruthy();
    expect(screen.getByTestId("formula-text").textContent).toBe("Fix the fields above to build the formula.");
    expect(isDisabled(screen.getByRole("button", { name: /^Insert the formula/ }))).toBe(true);
  });

  it("the formula offers a line break after every comma and adds no character to what is copied", async () => {
    const { copied } = await toBuilder();
    fireEvent.change(screen.getByRole("combobox", { name: "Order" }), { target: { value: "desc" } });
    const element = screen.getByTestId("formula-text");
    const formula = '=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY","order=desc")';
    expect(element.textContent).toBe(formula);
    expect(element.querySelectorAll("wbr")).toHaveLength(formula.split(",").length - 1);
    for (const wbr of Array.from(element.querySelectorAll("wbr")))
      expect(wbr.previousSibling?.textContent?.endsWith(",")).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Copy the formula for eth PRICE" }));
    await screen.findByText("Formula copied.");
    expect(copied).toEqual([formula]);
  });

  it("MD.LATEST takes a typed as-of date too", async () => {
    await toBuilder();
    fireEvent.click(screen.getByRole("radio", { name: "MD.LATEST (one value)" }));
    fireEvent.change(screen.getByTestId("as-of"), { target: { value: "1/31/2024" } });
    expect(screen.getByTestId("formula-text").textContent).toBe('=MD.LATEST("eth","PRICE","2024-01-31")');
  });

  it("MD.LATEST builds its formula with the as-of date", async () => {
    const { workbook } = await toBuilder();
    fireEvent.click(screen.getByRole("radio", { name: "MD.LATEST (one value)" }));
    fireEvent.change(screen.getByTestId("as-of"), { target: { value: "2024-01-31" } });
    expect(screen.getByTestId("formula-text").textContent).toBe('=MD.LATEST("eth","PRICE","2024-01-31")');
    fireEvent.click(screen.getByRole("button", { name: /^Insert the formula/ }));
    await screen.findByText("Inserted into Sheet1!B2.");
    expect(workbook.written).toEqual(['=MD.LATEST("eth","PRICE","2024-01-31")']);
  });

  it.each([
    { copyAllowed: true, message: OUTSIDE_EXCEL_COPIED },
    { copyAllowed: false, message: OUTSIDE_EXCEL_NOT_COPIED },
  ])("outside Excel, Insert copies (copy allowed: $copyAllowed)", async ({ copyAllowed, message }) => {
    const { workbook, copied } = await toBuilder({ inExcel: false, copyAllowed });
    expect(
      screen.getByText("Running outside Excel: Insert copies the formula instead of writing it into a cell."),
    ).toBeTruthy();
    const insert = screen.getByRole("button", { name: "Insert the formula for eth PRICE" });
    expect(insert.textContent).toBe("Insert");
    fireEvent.click(insert);
    await screen.findByText(message);
    expect(workbook.written).toEqual([]);
    expect(copied).toEqual(copyAllowed ? ['=MD.SERIES("eth","PRICE","-1Y","TODAY","DAY")'] : []);
  });
});
