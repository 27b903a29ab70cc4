/** @jest-environment jsdom */
/**
 * The pane's shell (heading, host line, tabs, which view starts requests
 * when), its theme from Office or the system, and the Settings view's Refresh
 * section against stand-in refresh actions.
 */
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App, type ViewId } from "../../src/taskpane/app";
import type { PaneRefreshActions, PaneRefreshResult, PaneRefreshStatus } from "../../src/refresh/pane-actions";
import { RefreshSection } from "../../src/taskpane/refresh/refresh-section";
import { matchMediaWhere } from "../support/dom";
import { asset } from "../support/fake-client";
import {
  fakeRefresh,
  isDisabled,
  makeHarness,
  renderWith,
  type Harness,
  type HarnessOptions,
} from "../support/pane-fakes";

function renderApp(
  options: HarnessOptions & { initialView?: ViewId; officeTheme?: Parameters<typeof App>[0]["officeTheme"] } = {},
) {
  const harness = makeHarness(options);
  const view = render(
    <App services={harness.services} initialView={options.initialView} officeTheme={options.officeTheme ?? null} />,
  );
  return { harness, view };
}

const panel = (name: string) => document.getElementById(`panel-${name}`) as HTMLElement;

describe("the pane's shell", () => {
  it("has the Market Data heading and says where it runs", async () => {
    renderApp({ inExcel: false, initialView: "settings" });
    expect(screen.getByRole("heading", { level: 1, name: "Market Data" })).toBeTruthy();
    expect(screen.getByTestId("host").textContent).toBe("Running outside Office · version 0.0.0-test");
    await screen.findByTestId("key-status");
  });

  it.each<[ViewId, string]>([
    ["settings", "Settings"],
    ["picker", "Picker"],
    ["insights", "Insights"],
  ])("opens on %s when asked: its tab is selected and only its panel shows", async (view, label) => {
    renderApp({ initialView: view });
    expect(screen.getByRole("tab", { name: label }).getAttribute("aria-selected")).toBe("true");
    for (const other of ["settings", "picker", "insights"]) expect(panel(other).hidden).toBe(other !== view);
    expect(panel(view).getAttribute("aria-labelledby")).toBe(`tab-${view}`);
    await act(async () => undefined);
  });

  it("fetches the catalog only when the Picker is shown, and a feed only when Insights is shown", async () => {
    const { harness } = renderApp({ initialView: "settings" });
    await screen.findByTestId("key-status");
    expect(harness.client.assets.calls).toHaveLength(0);
    expect(harness.client.insights.calls).toHaveLength(0);

    fireEvent.click(screen.getByRole("tab", { name: "Picker" }));
    await waitFor(() => expect(harness.client.assets.calls).toHaveLength(1));
    expect(harness.client.insights.calls).toHaveLength(0);
    expect(panel("picker").hidden).toBe(false);
    expect(panel("settings").hidden).toBe(true);

    fireEvent.click(screen.getByRole("tab", { name: "Insights" }));
    await waitFor(() => expect(harness.client.insights.calls.map((c) => c.args)).toEqual(["streaks"]));
  });

  it("the tab list is in a navigation landmark; only the selected tab is in the Tab order; arrows, Home and End select", async () => {
    renderApp({ initialView: "picker" });
    const nav = screen.getByRole("navigation", { name: "Market Data views" });
    const tabs = within(nav).getAllByRole("tab");
    expect(tabs.map((t) => [t.textContent, t.tabIndex, t.getAttribute("aria-controls")])).toEqual([
      ["Settings", -1, "panel-settings"],
      ["Picker", 0, "panel-picker"],
      ["Insights", -1, "panel-insights"],
      ["Templates", -1, "panel-templates"],
      ["Artemis", -1, "panel-migrate"],
      ["Trace", -1, "panel-trace"],
    ]);
    const selected = () => within(nav).getByRole("tab", { selected: true });
    const press = (key: string) => fireEvent.keyDown(selected(), { key });
    press("ArrowRight");
    expect(selected().textContent).toBe("Insights");
    expect(document.activeElement).toBe(selected());
    expect(panel("insights").hidden).toBe(false);
    press("ArrowRight");
    press("ArrowRight");
    expect(selected().textContent).toBe("Artemis");
    press("ArrowRight");
    expect(selected().textContent).toBe("Trace");
    press("ArrowRight");
    expect(selected().textContent).toBe("Settings");
    press("ArrowLeft");
    expect(selected().textContent).toBe("Trace");
    press("Home");
    expect(selected().textContent).toBe("Settings");
    expect(selected().tabIndex).toBe(0);
    press("End");
    expect(selected().textContent).toBe("Trace");
    expect(
      within(nav)
        .getAllByRole("tab")
        .filter((t) => t.tabIndex === 0),
    ).toEqual([selected()]);
    await act(async () => undefined);
  });

  it("keeps a view's state while another tab is shown (views stay mounted)", async () => {
    const { harness } = renderApp({ initialView: "picker" });
    harness.client.assets.answer(() => [asset("eth", "Ethereum"), asset("btc", "Bitcoin")]);
    fireEvent.change(await screen.findByRole("combobox", { name: "Search assets" }), { target: { value: "bit" } });
    await waitFor(() => expect(screen.getByTestId("asset-count").textContent).toBe("1 of 2"));
    fireEvent.click(screen.getByRole("tab", { name: "Settings" }));
    fireEvent.click(screen.getByRole("tab", { name: "Picker" }));
    expect(screen.getByTestId("asset-count").textContent).toBe("1 of 2");
    expect(harness.client.assets.calls).toHaveLength(1);
  });

  // axe's heading-order: under the pane's h1, each view's headings go down one level at a time. (The
  // Templates gallery has no bundled catalog under jest: templates-view.test.tsx finds its cards' h2s.)
  it.each<ViewId>(["settings", "picker", "insights", "migrate"])(
    "%s: headings go down one level at a time from the pane's h1",
    async (view) => {
      renderApp({ initialView: view });
      await screen.findByTestId("key-status");
      const levels = [1, ...headingLevels(panel(view))];
      const skips = levels.flatMap((level, i) =>
        i > 0 && level > levels[i - 1] + 1 ? [`h${levels[i - 1]} → h${level}`] : [],
      );
      expect(levels.length).toBeGreaterThan(1);
      expect(skips).toEqual([]);
    },
  );
});

/** The levels of the headings in `root`, in document order (h1–h6 and role="heading" with aria-level). */
function headingLevels(root: HTMLElement): number[] {
  return Array.from(root.querySelectorAll<HTMLElement>("h1, h2, h3, h4, h5, h6, [role='heading']")).map((h) =>
    h.getAttribute("role") === "heading" ? Number(h.getAttribute("aria-level") ?? 2) : Number(h.tagName.slice(1)),
  );
}

describe("the pane's theme", () => {
  const theme = () => document.querySelector(".fui-FluentProvider")?.getAttribute("data-theme");
  const realMatchMedia = window.matchMedia;
  afterEach(() => {
    window.matchMedia = realMatchMedia;
  });

  function systemPrefersDark(dark: boolean) {
    window.matchMedia = matchMediaWhere((query) => dark && query.includes("dark"));
  }

  it.each([
    ["Office says dark", "dark", { isDarkTheme: true, bodyBackgroundColor: "#ffffff" }, false],
    [
      "Office says light, whatever the system prefers",
      "light",
      { isDarkTheme: false, bodyBackgroundColor: "#000000" },
      true,
    ],
    ["an older host's dark body colour", "dark", { bodyBackgroundColor: "#262626" }, false],
    ["an older host's light body colour", "light", { bodyBackgroundColor: "#F3F2F1" }, true],
    ["no Office theme, the system prefers dark", "dark", null, true],
    ["no Office theme, the system prefers light", "light", null, false],
  ])("%s → %s", async (_, expected, officeTheme, systemDark) => {
    systemPrefersDark(systemDark as boolean);
    renderApp({ initialView: "settings", officeTheme: officeTheme as Parameters<typeof App>[0]["officeTheme"] });
    expect(theme()).toBe(expected);
    await screen.findByTestId("key-status");
  });
});

function renderRefresh(actions: PaneRefreshActions, inExcel = true): Harness {
  const harness = makeHarness({ inExcel });
  harness.services.refresh = actions;
  renderWith(harness, <RefreshSection />);
  return harness;
}

const outcome = () => screen.findByTestId("refresh-outcome");

describe("Settings: the Refresh section", () => {
  it("outside Excel it says to open the pane in Excel, and offers no buttons", () => {
    renderRefresh(fakeRefresh().actions, false);
    expect(screen.getByTestId("refresh-unavailable").textContent).toBe(
      "Open this pane in Excel to refresh or freeze MD formulas.",
    );
    expect(screen.queryByRole("button", { name: /Refresh all/ })).toBeNull();
  });

  it.each<[string, PaneRefreshResult, string]>([
    ["a clean refresh", { cells: 12, ms: 1500 }, "Refreshed 12 cells in 1.5 s."],
    ["one cell, quickly", { cells: 1, ms: 40 }, "Refreshed 1 cell in 40 ms."],
    ["a note from the refresh logic wins", { cells: 0, ms: 0, note: "Sign in to refresh." }, "Sign in to refresh."],
  ])("Refresh all shows %s", async (_, result, text) => {
    const { actions, asked } = fakeRefresh({ refreshAll: async () => result });
    renderRefresh(actions);
    fireEvent.click(screen.getByRole("button", { name: "Refresh all MD formulas" }));
    expect((await outcome()).textContent).toBe(text);
    expect(asked).toEqual([]); // the override answered; nothing else was called
  });

  it("Refresh all rechecks stored history only when the box is ticked", async () => {
    const options: unknown[] = [];
    const { actions } = fakeRefresh({
      refreshAll: async (o) => {
        options.push(o);
        return { cells: 2, ms: 10 };
      },
    });
    renderRefresh(actions);
    const button = screen.getByRole("button", { name: "Refresh all MD formulas" });
    fireEvent.click(button);
    await outcome();
    fireEvent.click(screen.getByRole("checkbox", { name: "Recheck stored history when refreshing" }));
    await waitFor(() => expect(isDisabled(button)).toBe(false));
    fireEvent.click(button);
    await waitFor(() => expect(options).toHaveLength(2));
    expect(options).toEqual([undefined, { recheckHistory: true }]);
  });

  it("lists the cells that failed, by address, with their messages as text", async () => {
    const failures = [
      { address: "Sheet1!B4", message: "#N/A No data for <b>eth</b>" },
      { address: "'Q1 comps'!C7", message: "#VALUE! granularity: use QUARTER" },
    ];
    renderRefresh(fakeRefresh({ refreshAll: async () => ({ cells: 40, ms: 2500, failures }) }).actions);
    fireEvent.click(screen.getByRole("button", { name: "Refresh all MD formulas" }));
    const bar = await outcome();
    expect(bar.textContent).toContain("Refreshed 40 cells in 2.5 s; 2 failed.");
    const items = within(bar)
      .getAllByRole("listitem")
      .map((li) => li.textContent);
    expect(items).toEqual(failures.map((f) => `${f.address}: ${f.message}`));
    expect(bar.querySelector("b")).toBeNull();
  });

  it("a refresh that throws is shown as an error, and the buttons come back", async () => {
    renderRefresh(
      fakeRefresh({ refreshAll: async () => Promise.reject(new Error("Excel is busy editing a cell.")) }).actions,
    );
    const button = screen.getByRole("button", { name: "Refresh all MD formulas" });
    fireEvent.click(button);
    expect((await outcome()).textContent).toBe("Excel is busy editing a cell.");
    expect(isDisabled(button)).toBe(false);
  });

  it.each([
    ["Freeze selection to values", "freeze(selection)"],
    ["Freeze sheet to values", "freeze(sheet)"],
  ])("%s asks for that scope and reports the cells frozen", async (label, call) => {
    const { actions, asked } = fakeRefresh();
    renderRefresh(actions);
    fireEvent.click(screen.getByRole("button", { name: label }));
    expect((await outcome()).textContent).toBe("Froze 3 cells in 200 ms.");
    expect(asked).toEqual([call]);
  });

  it("Undo last freeze asks the refresh logic, says what was restored and lists the cells left alone", async () => {
    const { actions, asked } = fakeRefresh();
    renderRefresh(actions);
    fireEvent.click(screen.getByRole("button", { name: "Undo last freeze" }));
    const shown = await outcome();
    expect(shown.textContent).toContain(
      "Restored 2 MD formula(s) frozen at 2025-03-03T09:30:00.000Z. 1 left as they are: changed since the freeze (Sheet1!C4).",
    );
    expect(shown.querySelector("li")?.textContent).toBe("Sheet1!C4: changed since the freeze: left as it is");
    expect(asked).toEqual(["undoLastFreeze"]);
  });

  it("the refresh-on-open switch shows the workbook's setting and writes a change", async () => {
    const { actions, asked } = fakeRefresh({ getRefreshOnOpen: async () => true });
    renderRefresh(actions);
    const toggle = screen.getByRole("switch", { name: /when this workbook opens/ }) as HTMLInputElement;
    await waitFor(() => expect(toggle.checked).toBe(true));
    fireEvent.click(toggle);
    expect((await outcome()).textContent).toBe("Refresh on open is off for this workbook.");
    expect(asked).toEqual(["setRefreshOnOpen(false)"]);
    expect(toggle.checked).toBe(false);
  });

  it("shows live state from the refresh logic: progress, and “sign in” after a skipped refresh", async () => {
    let state: PaneRefreshStatus = { busy: null, progress: null, signInRequired: false };
    const listeners = new Set<() => void>();
    const publish = (next: PaneRefreshStatus) => {
      state = next;
      listeners.forEach((l) => l());
    };
    const { actions } = fakeRefresh({
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      getState: () => state,
    });
    renderRefresh(actions);
    expect(screen.queryByTestId("refresh-sign-in")).toBeNull();

    act(() => publish({ busy: "refresh", progress: { phase: "writing", done: 5, total: 20 }, signInRequired: false }));
    expect(screen.getByText("Rewriting formulas… 5 of 20")).toBeTruthy();

    act(() => publish({ busy: null, progress: null, signInRequired: true }));
    expect(screen.getByTestId("refresh-sign-in").textContent).toMatch(/^Sign in to refresh: save your API key/);

    // A gateway that lets in only signed-in people: the remedy is signing in, not a key.
    act(() => publish({ busy: null, progress: null, signInRequired: true, signInWith: "gateway" }));
    expect(screen.getByTestId("refresh-sign-in").textContent).toBe(
      "Sign in to Market Data (Settings ▸ Sign in) to refresh. The values saved in the workbook are kept.",
    );

    act(() => publish({ busy: null, progress: null, signInRequired: false, notice: "Not refreshed on open." }));
    expect(screen.getByTestId("refresh-notice").textContent).toBe("Not refreshed on open.");
    await act(async () => undefined);
  });

  it("offers the trust-prompt switch with what people without the add-in will see", async () => {
    let off = false;
    const { actions, asked } = fakeRefresh({
      getTrustPromptOff: async () => off,
      setTrustPromptOff: async (value) => {
        asked.push(`setTrustPromptOff(${value})`);
        off = value;
      },
    });
    renderRefresh(actions);
    const toggle = screen.getByRole("switch", {
      name: /Don't ask people without the add-in to trust it/,
    }) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(false);
    expect(screen.getByTestId("trust-prompt-explained").textContent).toMatch(/see the values saved in it.*#NAME\?/);
    fireEvent.click(toggle);
    expect((await outcome()).textContent).toBe("People without the add-in will not be asked to trust it.");
    expect(asked).toEqual(["setTrustPromptOff(true)"]);
    expect(toggle.checked).toBe(true);
  });
});
