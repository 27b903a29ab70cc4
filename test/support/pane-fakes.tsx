/**
 * Stand-ins for everything a view gets from PaneServices: the shared fake
 * client (test/support/fake-client.ts) whose answers the test hands out when
 * it chooses, the real SettingsStore over in-memory storage (its changes wired
 * to the client and the refresh actions as the runtime wires them), a workbook
 * that records what was written, and refresh actions that record what was asked.
 */
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { configure, render, type RenderResult } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { SettingsStore, type KeyValueStorage } from "../../src/office/settings";
import { clearCacheOnSettingsChange, recheckKeyOnSettingsChange } from "../../src/office/settings-changes";
import type { PaneRefreshActions, PaneRefreshResult, PaneRefreshStatus } from "../../src/refresh/pane-actions";
import type { ChartTableShape, WorkbookActions } from "../../src/office/workbook/pane-workbook";
import type { SheetPlan } from "../../src/office/workbook/sheet-insert";
import { ServicesProvider, type PaneServices } from "../../src/taskpane/shared/pane-services";
import { FakeClient } from "./fake-client";
import { PANE_TODAY } from "./today";
import { installDomStubs } from "./dom";

export { PANE_TODAY };

installDomStubs();
// waitFor/findBy give up after 1 s by default; on a loaded two-core machine a view's first render alone can take longer.
configure({ asyncUtilTimeout: 10_000 });
// A component test renders Fluent UI in jsdom several times over: seconds on an idle machine, past jest's 30 s under load.
jest.setTimeout(120_000);

/** KeyValueStorage over a Map, with every write kept for inspection. */
export class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, string>();
  readonly writes: { op: "set" | "remove"; key: string; value?: string }[] = [];
  async getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  async setItem(key: string, value: string) {
    this.writes.push({ op: "set", key, value });
    this.data.set(key, value);
  }
  async removeItem(key: string) {
    this.writes.push({ op: "remove", key });
    this.data.delete(key);
  }
}

export class FakeWorkbook implements WorkbookActions {
  readonly written: string[] = [];
  failWith: Error | null = null;
  constructor(
    readonly canInsert: boolean,
    private readonly address = "Sheet1!B2",
  ) {}
  async insertFormula(formula: string) {
    if (!this.canInsert) throw new Error("There is no workbook");
    if (this.failWith) throw this.failWith;
    this.written.push(formula);
    return { address: this.address };
  }
  readonly charted: { formula: string; table: ChartTableShape }[] = [];
  async insertWithChart(formula: string, table: ChartTableShape) {
    if (!this.canInsert) throw new Error("There is no workbook");
    if (this.failWith) throw this.failWith;
    this.written.push(formula);
    this.charted.push({ formula, table });
    return { address: this.address };
  }
  /** Sheet plans inserted, in order; each answers with the plan's own sheet name. */
  readonly sheets: SheetPlan[] = [];
  async insertSheet(plan: SheetPlan) {
    if (!this.canInsert) throw new Error("There is no workbook");
    if (this.failWith) throw this.failWith;
    this.sheets.push(plan);
    return { sheet: plan.sheetName };
  }
}

/** Refresh actions whose results the test decides; records what was asked. State changes when the test publishes one. */
export function fakeRefresh(overrides: Partial<PaneRefreshActions> = {}) {
  const asked: string[] = [];
  let onOpen = false;
  let trustOff = false;
  let state: PaneRefreshStatus = { busy: null, progress: null, signInRequired: false };
  const listeners = new Set<() => void>();
  const publish = (next: PaneRefreshStatus) => {
    state = next;
    listeners.forEach((listener) => listener());
  };
  const actions: PaneRefreshActions = {
    refreshAll: async (): Promise<PaneRefreshResult> => {
      asked.push("refreshAll");
      return { cells: 12, ms: 1500 };
    },
    reloadAll: async (): Promise<PaneRefreshResult> => {
      asked.push("reloadAll");
      return { cells: 12, ms: 2500 };
    },
    getRefreshOnOpen: async () => onOpen,
    setRefreshOnOpen: async (enabled) => {
      asked.push(`setRefreshOnOpen(${enabled})`);
      onOpen = enabled;
    },
    freezeToValues: async (scope) => {
      asked.push(`freeze(${scope})`);
      return { cells: 3, ms: 200 };
    },
    undoLastFreeze: async () => {
      asked.push("undoLastFreeze");
      return {
        cells: 2,
        ms: 50,
        failures: [{ address: "Sheet1!C4", message: "changed since the freeze: left as it is" }],
        note: "Restored 2 MD formula(s) frozen at 2025-03-03T09:30:00.000Z. 1 left as they are: changed since the freeze (Sheet1!C4).",
      };
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getState: () => state,
    checkKey: async () => {
      asked.push("checkKey");
    },
    getTrustPromptOff: async () => trustOff,
    setTrustPromptOff: async (off) => {
      asked.push(`setTrustPromptOff(${off})`);
      trustOff = off;
    },
    lastChanges: () => null,
    ...overrides,
  };
  return { actions, asked, publish };
}

export interface Harness {
  client: FakeClient;
  storage: MemoryStorage;
  settings: SettingsStore;
  workbook: FakeWorkbook;
  copied: string[];
  services: PaneServices;
}

export interface HarnessOptions {
  inExcel?: boolean;
  defaults?: { apiKey: string; baseUrl: string };
  copyAllowed?: boolean;
  stored?: Record<string, string>;
  /** What a same-origin gateway answers about its key mode (see src/office/sign-in/gateway.ts). */
  gatewayKeyMode?: "firm" | "pass-through" | null;
  /** The locale typed dates follow; default en-US (01/15/2025), whatever the machine's. */
  dateLocale?: string;
  /** Whether the host shows the cells' number formats; absent: the service is left out (it does). */
  cellFormats?: boolean;
}

export function makeHarness(options: HarnessOptions = {}): Harness {
  const client = new FakeClient();
  const storage = new MemoryStorage();
  for (const [k, v] of Object.entries(options.stored ?? {})) storage.data.set(k, v);
  const defaults = options.defaults ?? { apiKey: "", baseUrl: "https://api.example.test" };
  const gatewayKeyMode = options.gatewayKeyMode;
  const settings = new SettingsStore(
    storage,
    defaults,
    gatewayKeyMode === undefined ? undefined : async () => gatewayKeyMode,
  );
  const workbook = new FakeWorkbook(options.inExcel ?? true);
  const copied: string[] = [];
  const copyAllowed = options.copyAllowed ?? true;
  const services: PaneServices = {
    client,
    settings,
    defaults,
    workbook,
    copyText: async (text) => {
      if (!copyAllowed) return false;
      copied.push(text);
      return true;
    },
    refresh: fakeRefresh().actions,
    today: () => PANE_TODAY,
    dateLocale: options.dateLocale ?? "en-US",
    ...(options.cellFormats === undefined ? {} : { cellFormats: () => options.cellFormats! }),
    host: options.inExcel === false ? null : "Excel",
    version: "0.0.0-test",
  };
  // As the runtime does: a write reaches the client and the refresh actions (which a test may replace after this).
  clearCacheOnSettingsChange(settings, client);
  recheckKeyOnSettingsChange(settings, { checkKey: () => services.refresh.checkKey() });
  return { client, storage, settings, workbook, copied, services };
}

/** Renders inside the pane's providers; `rerender` keeps them. */
export function renderWith(harness: Harness, ui: ReactElement): RenderResult {
  function Providers({ children }: { children: ReactNode }) {
    return (
      <FluentProvider theme={webLightTheme}>
        <ServicesProvider services={harness.services}>{children}</ServicesProvider>
      </FluentProvider>
    );
  }
  return render(ui, { wrapper: Providers });
}

/** Disabled as a user meets it: the native attribute, or Fluent's aria-disabled. */
export function isDisabled(element: HTMLElement): boolean {
  return element.hasAttribute("disabled") || element.getAttribute("aria-disabled") === "true";
}
