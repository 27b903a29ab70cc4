/** @jest-environment jsdom */
/**
 * The pane's side of warm workbooks: the stored data's figures beside the
 * counters, "Clear stored data" in Settings, "Reload everything" in the
 * Refresh section, and the offline notice above every view.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../../src/taskpane/app";
import { CountersPanel, storedDataText } from "../../src/taskpane/settings/counters-panel";
import { RefreshSection } from "../../src/taskpane/refresh/refresh-section";
import { NOTICE_POLL_MS } from "../../src/taskpane/shared/stored-data-notice";
import { formatBytes } from "../../src/taskpane/shared/value-format";
import { fakeRefresh, makeHarness, renderWith } from "../support/pane-fakes";

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
  it("runs the reload and reports it", async () => {
    const harness = makeHarness();
    const refresh = fakeRefresh();
    harness.services.refresh = refresh.actions;
    renderWith(harness, <RefreshSection />);
    fireEvent.click(screen.getByRole("button", { name: "Reload everything" }));
    expect((await screen.findByTestId("refresh-outcome")).textContent).toBe("Reloaded 12 cells in 2.5 s.");
    expect(refresh.asked).toEqual(["reloadAll"]);
  });

  it("sits beside Refresh all, which does not drop the stored data", async () => {
    const harness = makeHarness();
    const refresh = fakeRefresh();
    harness.services.refresh = refresh.actions;
    renderWith(harness, <RefreshSection />);
    fireEvent.click(screen.getByRole("button", { name: "Refresh all MD formulas" }));
    expect((await screen.findByTestId("refresh-outcome")).textContent).toBe("Refreshed 12 cells in 1.5 s.");
    expect(refresh.asked).toEqual(["refreshAll"]);
    expect(screen.getByRole("button", { name: "Reload everything" })).toBeTruthy();
  });
});

describe("offline notice", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("appears above every view while cells show stored data, and goes after a refresh", async () => {
    const harness = makeHarness();
    render(<App services={harness.services} initialView="insights" />);
    // The Settings view (mounted, hidden) reads the stored settings and the workbook's switches on mount.
    await waitFor(() => {
      expect(screen.getByTestId("key-storage-note")).toBeTruthy();
      for (const name of [/^Refresh MD formulas when this workbook opens/, /^Don't ask people without the add-in/])
        expect((screen.getByRole("switch", { name, hidden: true }) as HTMLInputElement).disabled).toBe(false);
    });
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
