/**
 * A MarketDataClient stand-in for orchestration tests: records every call and
 * answers from small deterministic rules the tests can recompute on their own.
 */
import type {
  AssetRecord,
  Reading,
  FlowsResult,
  InsightCard,
  MetricDescriptor,
  SeriesResult,
} from "../../src/core/domain";
import type { CallOptions, ClientCounters, FlowsRequest, MarketDataClient, SeriesRequest } from "../../src/api/types";
import { addDays, epochDayOf } from "../../src/core/calendar";
import type { CallContext } from "../../src/functions/call-context";

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

export interface SeriesCall {
  req: SeriesRequest;
  opts?: CallOptions;
}

export class FakeClient implements MarketDataClient {
  readonly seriesCalls: SeriesCall[] = [];
  readonly otherCalls: { method: string; args: unknown[]; opts?: CallOptions }[] = [];
  /** Replace to change how series are answered; the default follows fakePoints from 2018 on. */
  answerSeries: (req: SeriesRequest) => SeriesResult | Promise<SeriesResult> = (req) => ({
    kind: "points",
    points: fakePoints(req.symbol, req.metric, req.startDate ?? "2018-01-01", req.endDate ?? TODAY, req.granularity),
  });
  flows: FlowsResult = {};
  assets: AssetRecord[] = [];
  metrics: Record<string, MetricDescriptor[]> = {};
  insights: Record<string, InsightCard[]> = {};
  failWith?: unknown;

  async getSeries(req: SeriesRequest, opts?: CallOptions): Promise<SeriesResult> {
    this.seriesCalls.push({ req, opts });
    if (this.failWith) throw this.failWith;
    return this.answerSeries(req);
  }
  async getFlows(req: FlowsRequest, opts?: CallOptions): Promise<FlowsResult> {
    this.otherCalls.push({ method: "getFlows", args: [req], opts });
    if (this.failWith) throw this.failWith;
    return this.flows;
  }
  async getAssets(opts?: CallOptions): Promise<AssetRecord[]> {
    this.otherCalls.push({ method: "getAssets", args: [], opts });
    if (this.failWith) throw this.failWith;
    return this.assets;
  }
  async getMetrics(symbol: string, opts?: CallOptions): Promise<MetricDescriptor[]> {
    this.otherCalls.push({ method: "getMetrics", args: [symbol], opts });
    if (this.failWith) throw this.failWith;
    return this.metrics[symbol] ?? [];
  }
  async getInsights(feed: string, opts?: CallOptions): Promise<InsightCard[]> {
    this.otherCalls.push({ method: "getInsights", args: [feed], opts });
    if (this.failWith) throw this.failWith;
    return this.insights[feed] ?? [];
  }
  async testConnection(): Promise<{ ok: true; ms: number }> {
    return { ok: true, ms: 1 };
  }
  clear(): void {}
  counters(): ClientCounters {
    return {
      requests: this.seriesCalls.length + this.otherCalls.length,
      cacheHits: 0,
      retries: 0,
      failures: 0,
      bytes: 0,
    };
  }
}

export function fakeContext(client = new FakeClient(), call: CallOptions = {}): CallContext & { client: FakeClient } {
  return { client, today: TODAY, call };
}

export function descriptor(name: string, aggregation: string): MetricDescriptor {
  return {
    name,
    label: name.toLowerCase(),
    description: `${name} description`,
    tags: [],
    aggregation_type: aggregation,
    unit: "NOMINAL",
    internal_data_source: "fake",
    source: "Fake",
    base_metric: null,
    accepts_date: true,
    cuts: [],
    thumbnail_url: null,
    source_link: null,
    methodology: null,
  };
}
