/** @jest-environment jsdom */
/**
 * The Trace view (src/taskpane/trace/): the selected cell's MD calls as the
 * add-in read them and what answered each (request address, when, how long,
 * source, days covered and settled, points dropped, corrections), from the
 * runtime's records, with no request; the copy of a pinned formula.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { TraceView } from "../../../src/taskpane/trace/trace-view";
import { fakeTrace } from "../../support/fake-trace";
import { makeHarness, renderWith } from "../../support/pane-fakes";

function setUp(withTrace = true) {
  const harness = makeHarness();
  const world = fakeTrace();
  if (withTrace) harness.services.trace = world.trace;
  renderWith(harness, <TraceView active />);
  return { harness, world };
}

function answerBtc(world: ReturnType<typeof fakeTrace>) {
  const call = world.records.begin("LATEST", ["btc", "PRICE", null, null]);
  call.asked({ symbol: "btc", metric: "PRICE", start: "2024-05-01", end: "2024-05-10" });
  world.log.note({
    symbol: "btc",
    metric: "PRICE",
    source: "gateway-cache",
    fetchedAt: Date.UTC(2024, 4, 10, 9, 30),
    from: "2024-05-01",
    to: "2024-05-10",
    settledThrough: "2024-05-09",
    request: {
      address: "https://md.example/data/api/PRICE/?symbols=btc",
      at: Date.UTC(2024, 4, 10, 9, 30),
      ms: 42,
      cacheStatus: "HIT",
    },
    dropped: { "outside the window": 2 },
  });
  // The store kept the answer's days and corrected one it held (store/read-through.ts).
  world.log.kept(
    "btc",
    "PRICE",
    { fetchedAt: Date.UTC(2024, 4, 10, 9, 30), settledThrough: "2024-05-09", start: "2024-05-01", end: "2024-05-10" },
    [{ date: "2024-05-03", was: 100, now: 101, wasFetchedAt: 1, at: 2 }],
  );
  call.facts({
    symbol: "btc",
    metric: "PRICE",
    date: "2024-05-09",
    settled: true,
    source: "gateway-cache",
    fetchedAt: 5,
  });
  call.settle();
}

describe("the Trace view", () => {
  it("without a workbook, says to open the pane in Excel (or the demo workbook)", () => {
    setUp(false);
    expect(screen.getByTestId("trace-unavailable").textContent).toMatch(/Open this pane in Excel/);
  });

  it("asks for a cell until one is selected", () => {
    setUp();
    expect(screen.getByTestId("trace-cell").textContent).toMatch(/Select a cell/);
  });

  it("shows what answered the selected MD cell, without a request, and copies the pinned formula", async () => {
    const { harness, world } = setUp();
    // The runtime records the call while the view is open: it follows them (an update React is told of).
    act(() => answerBtc(world));
    act(() =>
      world.select({
        sheet: "Model",
        address: "B2",
        formulaCell: "B2",
        formula: '=MD.LATEST("btc","PRICE")',
        spilled: false,
      }),
    );
    const card = await screen.findByTestId("trace-call");
    const text = card.textContent ?? "";
    expect(text).toContain('MD.LATEST("btc","PRICE",,)');
    expect(text).toContain("https://md.example/data/api/PRICE/?symbols=btc");
    expect(text).toContain("Firm gateway's cache (HIT)");
    expect(text).toContain("42 ms");
    expect(text).toContain("2024-05-01 to 2024-05-10");
    expect(text).toContain("settled through 2024-05-09");
    expect(text).toContain("2 outside the window");
    expect(text).toContain("2024-05-03: 100 → 101");
    expect([harness.client.seriesCalls, harness.client.otherCalls]).toEqual([[], []]);
    fireEvent.click(screen.getByRole("button", { name: /Copy a formula that reproduces/ }));
    await waitFor(() => expect(harness.copied).toEqual(['=MD.LATEST("btc","PRICE","2024-05-09")']));
  });

  it("follows a spilled cell to its anchor's formula", async () => {
    const { world } = setUp();
    act(() =>
      world.select({
        sheet: "Model",
        address: "C9",
        formulaCell: "A3",
        formula: '=MD.SERIES("eth","PRICE","-1Y")',
        spilled: true,
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId("trace-cell").textContent).toMatch(/Model!C9 is part of the table A3 spills/),
    );
    expect(screen.getByTestId("trace-call").textContent).toMatch(/not computed since the add-in started/i);
  });

  it("says when the cell holds no MD formula", async () => {
    const { world } = setUp();
    act(() => world.select({ sheet: "Model", address: "A1", formulaCell: "A1", formula: null, spilled: false }));
    await waitFor(() => expect(screen.getByTestId("trace-cell").textContent).toMatch(/Model!A1 holds no MD formula/));
    expect(screen.queryByTestId("trace-call")).toBeNull();
  });
});
