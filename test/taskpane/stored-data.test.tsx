/** @jest-environment jsdom */
/**
 * The pane's side of warm workbooks: the stored data's figures beside the
 * counters, "Clear stored data" in Settings, "Reload everything" in the
 * Refresh section, and the offline notice above every view.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../../src/taskpane/app";
import { CountersPanel, storedDataText } from "../../src/taskpane/counters-panel";
import type { RefreshActions } from "../../src/taskpane/refresh-actions";
import { RefreshSection } from "../../src/taskpane/refresh-section";
import { NOTICE_POLL_MS } from "../../src/taskpane/stored-data-notice";
import { formatBytes } from "../../src/taskpane/value-format";
import { makeHarness, renderWith } from "./support/fakes";

const MB = 1024 * 1024;

describe("Settings: stored data", () => {
  it("shows where the data is kept, its size, hits and bytes saved", async () => {
    const harness = makeHarness();
    harness.client.storeValues = {
      ...harness.client.storeValues,
      series: 1234,
      bytes: 42 * MB,
      hits: 987,
      bytesSaved: 3 * MB,
    };
    renderWith(harness, <CountersPanel active />);
    await waitFor(() =>
      expect(within(screen.getByTestId("counter-storeHits")).getByRole("definition").textContent).toBe("987"),
    );
    expect(within(screen.getByTestId("counter-bytesSaved")).getByRole("definition").textContent).toBe(
      formatBytes(3 * MB),
    );
    expect(screen.getByTestId("stored-data").textContent).toBe(
      "Stored data: 1,234 series, 42.0 MB of 200.0 MB on this computer",
    );
  });

  it.each([
    [
      { backend: "memory" as const, reason: "IndexedDB is not available here" },
      "this session only: IndexedDB is not available here",
    ],
    [{ backend: "opening" as const }, "(opening the store on this computer)"],
    [{ backend: "off" as const }, "Not kept"],
  ])("says when the data is not kept on this computer (%o)", (patch, text) => {
    const harness = makeHarness();
    expect(storedDataText({ ...harness.client.storeValues, ...patch })).toContain(text);
  });

  it("“Clear stored data” drops the stored data and confirms", async () => {
    const harness = makeHarness();
    harness.client.storeValues = { ...harness.client.storeValues, series: 10, bytes: MB };
    renderWith(harness, <CountersPanel active />);
    fireEvent.click(screen.getByRole("button", { name: "Clear stored data" }));
    await screen.findByText("Stored data cleared: the next calculation fetches everything again.");
    expect(harness.client.storedClears).toBe(1);
    expect(harness.client.clears).toBe(0);
    expect(screen.getByTestId("stored-data").textContent).toMatch(/^Stored data: 0 series, 0 B/);
  });
});

describe("Refresh section: Reload everything", () => {
  function actions(asked: string[]): RefreshActions {
    return {
      refreshAll: async () => (asked.push("refreshAll"), { cells: 3, ms: 40 }),
      reloadAll: async () => (asked.push("reloadAll"), { cells: 12, ms: 1500 }),
      getRefreshOnOpen: async () => false,
      setRefreshOnOpen: async () => undefined,
      freezeToValues: async () => ({ cells: 0, ms: 0 }),
    };
  }

  it("runs the reload and reports it", async () => {
    const asked: string[] = [];
    const harness = makeHarness();
    harness.services.refresh = actions(asked);
    renderWith(harness, <RefreshSection />);
    fireEvent.click(screen.getByRole("button", { name: "Reload everything" }));
    expect((await screen.findByTestId("refresh-outcome")).textContent).toBe("Reloaded 12 cells in 1.5 s.");
    expect(asked).toEqual(["reloadAll"]);
  });

  it("is not offered by refresh logic without it", () => {
    const harness = makeHarness();
    const { reloadAll: _omitted, ...older } = actions([]);
    harness.services.refresh = older;
    renderWith(harness, <RefreshSection />);
    expect(screen.getByRole("button", { name: "Refresh all MD formulas" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Reload everything" })).toBeNull();
  });
});

describe("offline notice", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("appears above every view while cells show stored data, and goes after a refresh", () => {
    const harness = makeHarness();
    render(<App services={harness.services} initialView="insights" />);
    expect(screen.queryByTestId("offline-notice")).toBeNull();
    harness.client.storeValues = { ...harness.client.storeValues, offlineSince: "2025-06-15" };
    act(() => {
      jest.advanceTimersByTime(NOTICE_POLL_MS);
    });
    expect(screen.getByTestId("offline-notice").textContent).toBe(
      "The market-data service cannot be reached: showing stored data from 2025-06-15. Refresh once it is reachable again.",
    );
    harness.client.storeValues = { ...harness.client.storeValues, offlineSince: null };
    act(() => {
      jest.advanceTimersByTime(NOTICE_POLL_MS);
    });
    expect(screen.queryByTestId("offline-notice")).toBeNull();
  });
});
