/**
 * Stand-ins for everything a view gets from PaneServices: a MarketDataClient
 * whose answers the test hands out when it chooses (each call is a pending
 * promise until resolved or rejected, and a fired AbortSignal rejects it as the
 * real client does), the real SettingsStore over in-memory storage, and a
 * workbook that records what was written.
 */
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { configure, render, type RenderResult } from "@testing-library/react";
import type { ReactElement, ReactNode } from "react";
import { CancelledError } from "../../../src/api/errors";
import type { AssetRecord, FlowsResult, InsightCard, MetricDescriptor, SeriesResult } from "../../../src/core/domain";
import type {
  CallOptions,
  ClientCounters,
  FlowsRequest,
  MarketDataClient,
  SeriesRequest,
} from "../../../src/api/types";
import { SettingsStore, type KeyValueStorage } from "../../../src/office/settings";
import type { PaneRefreshActions, PaneRefreshResult, PaneRefreshStatus } from "../../../src/refresh/pane-actions";
import { ServicesProvider, type PaneServices } from "../../../src/taskpane/pane-services";
import type { WorkbookActions } from "../../../src/office/pane-workbook";
import { installDomStubs } from "./dom";

installDomStubs();
// waitFor/findBy give up after 1 s by default; on a loaded two-core machine a view's first render alone can take longer.
configure({ asyncUtilTimeout: 10_000 });

export interface Call<A, T> {
  args: A;
  signal: AbortSignal | undefined;
  resolve(value: T): void;
  reject(error: unknown): void;
  settled: boolean;
}

/** One client method: every call waits until the test settles it, unless an automatic answer is set. */
export class Controlled<A, T> {
  readonly calls: Call<A, T>[] = [];
  private auto: ((args: A) => T | Promise<T>) | null = null;

  /** Answer every call from now on (and any pending one) with this. */
  answer(fn: (args: A) => T | Promise<T>): void {
    this.auto = fn;
    for (const call of this.calls) if (!call.settled) Promise.resolve(fn(call.args)).then(call.resolve, call.reject);
  }

  fail(error: unknown): void {
    this.answer(() => Promise.reject(error));
  }

  get last(): Call<A, T> {
    const call = this.calls[this.calls.length - 1];
    if (!call) throw new Error("no call was made");
    return call;
  }

  invoke(args: A, opts?: CallOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const call: Call<A, T> = {
        args,
        signal: opts?.signal,
        settled: false,
        resolve: (v) => {
          if (call.settled) return;
          call.settled = true;
          resolve(v);
        },
        reject: (e) => {
          if (call.settled) return;
          call.settled = true;
          reject(e);
        },
      };
      this.calls.push(call);
      opts?.signal?.addEventListener("abort", () => call.reject(new CancelledError()));
      if (opts?.signal?.aborted) call.reject(new CancelledError());
      else if (this.auto) Promise.resolve(this.auto(args)).then(call.resolve, call.reject);
    });
  }
}

export class FakeClient implements MarketDataClient {
  readonly series = new Controlled<SeriesRequest, SeriesResult>();
  readonly flows = new Controlled<FlowsRequest, FlowsResult>();
  readonly assets = new Controlled<void, AssetRecord[]>();
  readonly metrics = new Controlled<string, MetricDescriptor[]>();
  readonly insights = new Controlled<string, InsightCard[]>();
  readonly connection = new Controlled<void, { ok: true; ms: number }>();
  clears = 0;
  counterValues: ClientCounters = { requests: 0, cacheHits: 0, retries: 0, failures: 0, bytes: 0 };

  getSeries(req: SeriesRequest, opts?: CallOptions) {
    return this.series.invoke(req, opts);
  }
  getFlows(req: FlowsRequest, opts?: CallOptions) {
    return this.flows.invoke(req, opts);
  }
  getAssets(opts?: CallOptions) {
    return this.assets.invoke(undefined, opts);
  }
  getMetrics(symbol: string, opts?: CallOptions) {
    return this.metrics.invoke(symbol, opts);
  }
  getInsights(feed: string, opts?: CallOptions) {
    return this.insights.invoke(feed, opts);
  }
  testConnection(opts?: CallOptions) {
    return this.connection.invoke(undefined, opts);
  }
  clear(): void {
    this.clears++;
  }
  counters(): ClientCounters {
    return { ...this.counterValues };
  }
}

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
}

/** Refresh actions whose results the test decides; records what was asked. State changes when the test publishes one. */
export function fakeRefresh(overrides: Partial<PaneRefreshActions> = {}) {
  const asked: string[] = [];
  let onOpen = false;
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
    getRefreshOnOpen: async () => onOpen,
    setRefreshOnOpen: async (enabled) => {
      asked.push(`setRefreshOnOpen(${enabled})`);
      onOpen = enabled;
    },
    freezeToValues: async (scope) => {
      asked.push(`freeze(${scope})`);
      return { cells: 3, ms: 200 };
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getState: () => state,
    checkKey: async () => {
      asked.push("checkKey");
    },
    ...overrides,
  };
  return { actions, asked, publish };
}

export const TEST_TODAY = "2024-06-15";

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
  /** What a same-origin gateway answers about its key mode (see src/office/gateway.ts). */
  gatewayKeyMode?: "firm" | "pass-through" | null;
  /** The locale typed dates follow; default en-US (01/15/2025), whatever the machine's. */
  dateLocale?: string;
}

export function makeHarness(options: HarnessOptions = {}): Harness {
  const client = new FakeClient();
  const storage = new MemoryStorage();
  for (const [k, v] of Object.entries(options.stored ?? {})) storage.data.set(k, v);
  const defaults = options.defaults ?? { apiKey: "", baseUrl: "https://api.example.test" };
  const gatewayKeyMode = options.gatewayKeyMode;
  const settings = new SettingsStore(storage, defaults, gatewayKeyMode === undefined ? undefined : async () => gatewayKeyMode);
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
    today: () => TEST_TODAY,
    dateLocale: options.dateLocale ?? "en-US",
    host: options.inExcel === false ? null : "Excel",
    version: "0.0.0-test",
  };
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

export function asset(symbol: string, title: string, extra: Partial<AssetRecord> = {}): AssetRecord {
  return { platform_id: symbol, symbol, aggregator_id: null, title, color: "#336699", ...extra };
}

export function metric(name: string, extra: Partial<MetricDescriptor> = {}): MetricDescriptor {
  return {
    name,
    label: name.toLowerCase().replace(/_/g, " "),
    description: `${name} description`,
    tags: [],
    aggregation_type: "LAST",
    unit: "CURRENCY",
    internal_data_source: "internal",
    source: "Example source",
    base_metric: null,
    accepts_date: true,
    cuts: [],
    thumbnail_url: null,
    source_link: null,
    methodology: null,
    ...extra,
  };
}

export function card(extra: Partial<InsightCard> = {}): InsightCard {
  return {
    DOMAIN: "crypto",
    ENTITY_ID: "eth",
    METRIC_NAME: "PRICE",
    FLAG: "streak_weekly",
    UNIT: "CURRENCY",
    METRIC_TYPE: "level",
    DURATION: 6,
    DATE_RANGE: "2024-04-01 to 2024-05-13",
    START_VALUE: 100,
    END_VALUE: 150,
    PERIOD_START_DATE: "2024-04-01",
    PERIOD_END_DATE: "2024-05-13",
    FISCAL_YEAR_END: null,
    FISCAL_PERIOD_END: null,
    LATEST_REPORT_DATE: null,
    SPARKLINE: [
      { date: "2024-04-01", value: 100 },
      { date: "2024-04-22", value: 120 },
      { date: "2024-05-13", value: 150 },
    ],
    ...extra,
  };
}

/** Disabled as a user meets it: the native attribute, or Fluent's aria-disabled. */
export function isDisabled(element: HTMLElement): boolean {
  return element.hasAttribute("disabled") || element.getAttribute("aria-disabled") === "true";
}
