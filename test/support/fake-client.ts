/**
 * The one MarketDataClient stand-in for the tests above the client (the real
 * client is tested against the sandbox and a fake service in test/api/).
 *
 * Every method is a `Controlled` call: recorded with its arguments and call
 * options, and pending until the test settles it — or answered at once from an
 * answer the test set. A fired AbortSignal rejects a pending call as the real
 * client does.
 *
 * - The pane's component tests use `new FakeClient()`: nothing answers until
 *   the test says so, so they can show loading states and races.
 * - The functions' orchestration tests use `FakeClient.answering()`: series
 *   follow `fakePoints` (simple rules a test recomputes on its own), catalogs
 *   and feeds are empty until the test sets an answer. `seriesCalls`,
 *   `otherCalls`, `answerSeries` and `failWith` are their shorthands.
 */
import { CancelledError } from "../../src/api/errors";
import type {
  CallOptions,
  CancelSignal,
  ClientCounters,
  FlowsRequest,
  MarketDataClient,
  SeriesRequest,
  StoreStatus,
} from "../../src/api/types";
import type {
  AssetRecord,
  FlowsResult,
  InsightCard,
  MetricDescriptor,
  Reading,
  SeriesResult,
} from "../../src/core/domain";
import { addDays, epochDayOf } from "../../src/core/calendar";
import type { CallContext } from "../../src/functions/call-context";

export interface Call<A, T> {
  args: A;
  opts: CallOptions | undefined;
  signal: CancelSignal | undefined;
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
    for (const call of this.calls) if (!call.settled) settleWith(call, fn);
  }

  fail(error: unknown): void {
    this.answer(() => Promise.reject(error));
  }

  get last(): Call<A, T> {
    const call = this.calls[this.calls.length - 1];
    if (!call) throw new Error("no call was made");
    return call;
  }

  /** Records the call; `failure`, when given, rejects it at once whatever the answer. */
  invoke(args: A, opts?: CallOptions, failure?: { error: unknown }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const call: Call<A, T> = {
        args,
        opts,
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
      else if (failure) call.reject(failure.error);
      else if (this.auto) settleWith(call, this.auto);
    });
  }
}

function settleWith<A, T>(call: Call<A, T>, fn: (args: A) => T | Promise<T>): void {
  Promise.resolve()
    .then(() => fn(call.args))
    .then(call.resolve, call.reject);
}

export interface SeriesCall {
  req: SeriesRequest;
  opts?: CallOptions;
}

export interface OtherCall {
  method: "getFlows" | "getAssets" | "getMetrics" | "getInsights";
  args: unknown[];
  opts?: CallOptions;
}

export const TODAY = "2024-05-10"; // a Friday

/** The value the fake service reports for a pair on a date: easy to recompute in a test. */
export function fakeValue(symbol: string, metric: string, date: string): number {
  let seed = 0;
  for (const ch of `${symbol}|${metric}`) seed = (seed * 31 + ch.charCodeAt(0)) % 997;
  return seed * 10_000 + ((epochDayOf(date) ?? 0) % 10_000);
}

const QUARTER_ENDS = ["03-31", "06-30", "09-30", "12-31"];

/** Every day (or every calendar quarter end for QUARTER) from start to end, up to `lastDay`. */
export function fakePoints(
  symbol: string,
  metric: string,
  start: string,
  end: string,
  granularity = "DAY",
  lastDay = TODAY,
): Reading[] {
  const points: Reading[] = [];
  const until = end < lastDay ? end : lastDay;
  for (let date = start; date <= until; date = addDays(date, 1)) {
    if (granularity === "QUARTER" && !QUARTER_ENDS.includes(date.slice(5))) continue;
    points.push({ date, val: fakeValue(symbol, metric, date) });
  }
  return points;
}

export class FakeClient implements MarketDataClient {
  readonly series = new Controlled<SeriesRequest, SeriesResult>();
  readonly flows = new Controlled<FlowsRequest, FlowsResult>();
  readonly assets = new Controlled<void, AssetRecord[]>();
  readonly metrics = new Controlled<string, MetricDescriptor[]>();
  readonly insights = new Controlled<string, InsightCard[]>();
  readonly connection = new Controlled<void, { ok: true; ms: number }>();
  /** The catalog, flows and insight requests, in the order they were made. */
  readonly otherCalls: OtherCall[] = [];
  /** When set, every data request (series, flows, catalogs, feeds) fails with it. */
  failWith?: unknown;
  clears = 0;
  counterValues: ClientCounters = { requests: 0, cacheHits: 0, retries: 0, failures: 0, bytes: 0, dropped: 0 };

  /** Answers at once: series from `fakePoints` (2018 on, up to TODAY), no flows, empty catalogs and feeds. */
  static answering(): FakeClient {
    const client = new FakeClient();
    client.answerSeries = (req) => ({
      kind: "points",
      points: fakePoints(req.symbol, req.metric, req.start ?? "2018-01-01", req.end ?? TODAY, req.granularity),
    });
    client.flows.answer(() => ({}));
    client.assets.answer(() => []);
    client.metrics.answer(() => []);
    client.insights.answer(() => []);
    client.connection.answer(() => ({ ok: true, ms: 1 }));
    return client;
  }

  /** Series requests in order, as `{ req, opts }`. */
  get seriesCalls(): SeriesCall[] {
    return this.series.calls.map((c) => ({ req: c.args, opts: c.opts }));
  }

  /** How series are answered from now on (`series.answer`). */
  set answerSeries(fn: (req: SeriesRequest) => SeriesResult | Promise<SeriesResult>) {
    this.series.answer(fn);
  }

  private failure(): { error: unknown } | undefined {
    return this.failWith === undefined ? undefined : { error: this.failWith };
  }

  getSeries(req: SeriesRequest, opts?: CallOptions) {
    return this.series.invoke(req, opts, this.failure());
  }
  getFlows(req: FlowsRequest, opts?: CallOptions) {
    this.otherCalls.push({ method: "getFlows", args: [req], opts });
    return this.flows.invoke(req, opts, this.failure());
  }
  getAssets(opts?: CallOptions) {
    this.otherCalls.push({ method: "getAssets", args: [], opts });
    return this.assets.invoke(undefined, opts, this.failure());
  }
  getMetrics(symbol: string, opts?: CallOptions) {
    this.otherCalls.push({ method: "getMetrics", args: [symbol], opts });
    return this.metrics.invoke(symbol, opts, this.failure());
  }
  getInsights(feed: string, opts?: CallOptions) {
    this.otherCalls.push({ method: "getInsights", args: [feed], opts });
    return this.insights.invoke(feed, opts, this.failure());
  }
  testConnection(opts?: CallOptions) {
    return this.connection.invoke(undefined, opts);
  }
  clear(): void {
    this.clears++;
  }
  /** Clear stored data / Reload everything: counted, and the stored figures emptied. */
  storedClears = 0;
  /** What `storage()` reports; tests set it to show the pane stored data or an offline notice. */
  storeValues: StoreStatus = {
    backend: "indexeddb",
    series: 0,
    bytes: 0,
    maxBytes: 200 * 1024 * 1024,
    hits: 0,
    bytesSaved: 0,
    offlineSince: null,
  };
  async clearStored(): Promise<void> {
    this.storedClears++;
    this.storeValues = { ...this.storeValues, series: 0, bytes: 0, offlineSince: null };
  }
  counters(): ClientCounters {
    return { ...this.counterValues };
  }
  storage(): StoreStatus {
    return { ...this.storeValues };
  }
}

/** A function call's context over an answering fake client, on TODAY. */
export function fakeContext(
  client = FakeClient.answering(),
  call: CallOptions = {},
): CallContext & { client: FakeClient } {
  return { client, today: TODAY, call };
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

/** A catalog entry that only matters for how it aggregates. */
export function descriptor(name: string, aggregation: string): MetricDescriptor {
  return metric(name, { aggregation_type: aggregation });
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
