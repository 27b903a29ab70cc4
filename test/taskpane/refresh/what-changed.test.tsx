/** @jest-environment jsdom */
/**
 * What changed on the last Refresh all (src/taskpane/refresh/what-changed.tsx):
 * the cells whose value changed (old → new, by how much), the ones that became
 * errors, the history a recheck revised, each cell selectable in the workbook;
 * kept by the refresh actions, so it shows again after the pane re-renders.
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { RefreshChanges } from "../../../src/refresh/refresh-changes";
import { MAX_REVISED_LISTED, WhatChanged } from "../../../src/taskpane/refresh/what-changed";
import { fakeTrace } from "../../support/fake-trace";
import { fakeRefresh, makeHarness, renderWith } from "../../support/pane-fakes";

const STARTED = Date.UTC(2024, 4, 10, 12);

function setUp(changes: RefreshChanges | null) {
  const harness = makeHarness();
  const world = fakeTrace(() => STARTED + 10);
  harness.services.trace = world.trace;
  let kept = changes;
  const { actions, publish } = fakeRefresh({ lastChanges: () => kept });
  harness.services.refresh = actions;
  renderWith(harness, <WhatChanged />);
  return {
    world,
    /** A refresh (the pane's or the ribbon's) ends with these changes. */
    refreshed(next: RefreshChanges) {
      kept = next;
      act(() => publish({ busy: null, progress: null, signInRequired: false }));
    },
  };
}

describe("What changed on the last refresh", () => {
  it("shows nothing before a refresh", () => {
    setUp(null);
    expect(screen.queryByTestId("what-changed")).toBeNull();
  });

  it("says so when the last refresh changed nothing", async () => {
    const { refreshed } = setUp(null);
    refreshed({ startedAt: STARTED, cells: [] });
    expect((await screen.findByTestId("what-changed")).textContent).toMatch(/No MD cell changed/);
  });

  it("lists changed values by how much, new errors and revised history; each cell can be selected", async () => {
    const { world, refreshed } = setUp(null);
    // A recheck during that refresh corrected a stored day of a table's history.
    const call = world.records.begin("SERIES", ["eth", "PRICE", "-1Y", null, null, null]);
    call.asked({ symbol: "eth", metric: "PRICE", start: "2023-05-10", end: "2024-05-10" });
    world.log.note({
      symbol: "eth",
      metric: "PRICE",
      source: "service",
      fetchedAt: STARTED + 1,
      from: "2023-05-10",
      to: "2024-05-10",
    });
    world.log.kept(
      "eth",
      "PRICE",
      { fetchedAt: STARTED + 1, settledThrough: "2024-05-09", start: "2023-05-10", end: "2024-05-10" },
      [{ date: "2024-01-02", was: 2000, now: 2100, wasFetchedAt: 1, at: STARTED + 1 }],
    );
    call.settle();
    refreshed({
      startedAt: STARTED,
      cells: [
        { sheet: "Q1 comps", address: "B1", was: 100, now: 110, by: 10 },
        { sheet: "Q1 comps", address: "B3", was: 7, now: "#N/A", error: true },
      ],
    });

    const list = await screen.findByTestId("what-changed");
    const items = within(list)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items).toEqual([
      expect.stringMatching(/'Q1 comps'!B1: 100 → 110 \(\+10 \(\+10%\)\)/),
      expect.stringMatching(/'Q1 comps'!B3: 7 → #N\/A \(became an error\)/),
      expect.stringMatching(/MD\.SERIES\("eth","PRICE","-1Y",,,\) 2024-01-02: 2,000 → 2,100 \(revised by a recheck\)/),
    ]);
    fireEvent.click(within(list).getByRole("button", { name: "Select 'Q1 comps'!B3" }));
    await waitFor(() => expect(world.selected).toEqual(["Q1 comps!B3"]));
  });
  it("a recheck that revised more history than is listed says how many more, and in how many calls", async () => {
    const { world, refreshed } = setUp(null);
    const call = world.records.begin("SERIES", ["eth", "PRICE", "-1Y", null, null, null]);
    call.asked({ symbol: "eth", metric: "PRICE", start: "2023-05-10", end: "2024-05-10" });
    world.log.note({ symbol: "eth", metric: "PRICE", source: "service", fetchedAt: STARTED + 1, from: "2023-05-10" });
    const days = Array.from({ length: MAX_REVISED_LISTED + 5 }, (_, i) => `2024-01-${String(i + 1).padStart(2, "0")}`);
    world.log.kept(
      "eth",
      "PRICE",
      { fetchedAt: STARTED + 1, settledThrough: "2024-05-09", start: "2023-05-10", end: "2024-05-10" },
      days.map((date) => ({ date, was: 1, now: 2, wasFetchedAt: 1, at: STARTED + 1 })),
    );
    call.settle();
    refreshed({ startedAt: STARTED, cells: [] });
    const items = within(await screen.findByTestId("what-changed")).getAllByRole("listitem");
    expect(items.filter((li) => /revised by a recheck\)$/.test(li.textContent ?? ""))).toHaveLength(MAX_REVISED_LISTED);
    expect(items.at(-1)?.textContent).toBe(
      "… and 5 more history value(s) revised by the recheck, in 1 call(s) (each call's Trace lists them).",
    );
  });

  it("a spilled table's cells say which table they belong to, each selectable; the table's line counts what is not listed", async () => {
    const { world, refreshed } = setUp(null);
    refreshed({
      startedAt: STARTED,
      cells: [{ sheet: "Model", address: "E3", was: 11, now: 11.5, by: 0.5, table: "D2" }],
      tables: [
        { sheet: "Model", anchor: "D2", changed: 1, rowsIn: 1, rowsOut: 1 },
        { sheet: "Model", anchor: "H2", changed: 30, rowsIn: 0, rowsOut: 0 },
      ],
    });
    const list = await screen.findByTestId("what-changed");
    const items = within(list)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items).toEqual([
      expect.stringMatching(/^Model!E3 \(in the table D2 spills\): 11 → 11\.5 \(\+0\.5 /),
      "The table Model!D2 spills: 1 value(s) changed, 1 new row(s), 1 row(s) no longer there.",
      "The table Model!H2 spills: 30 value(s) changed (10 more than listed).",
    ]);
    fireEvent.click(within(list).getByRole("button", { name: "Select Model!E3" }));
    await waitFor(() => expect(world.selected).toEqual(["Model!E3"]));
  });
});
