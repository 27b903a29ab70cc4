/**
 * The shared client's public contract: what custom functions and the task pane
 * may ask of it. Wire shapes follow the service's interface description
 * (market-data-api.md); the client validates every body against them.
 */

export type Granularity = "DAY" | "WEEK" | "MONTH" | "QUARTER" | "YEAR";

/** One reading of a series (2.2). `date` is `YYYY-MM-DD`. */
export interface DataPoint {
  date: string;
  val: number;
}

/**
 * What one (symbol, metric) pair came back as. The service may answer a
 * message string in place of a series inside a 200 response (an unsupported
 * pair); that is not a failure of the other pairs of the same request.
 */
export type SeriesResult =
  | { kind: "points"; points: DataPoint[] }
  | { kind: "message"; message: string };

/** One caller's question: a single symbol × metric over a window. */
export interface SeriesRequest {
  symbol: string; // lowercase, as sent
  metric: string; // uppercase, as sent
  startDate?: string; // YYYY-MM-DD
  endDate?: string; // YYYY-MM-DD
  granularity?: Granularity; // omitted → not sent (service default DAY)
}

export interface CallOptions {
  /** Excel's cancellation, or the pane's. Drops the caller; a shared request is aborted once nobody waits. */
  signal?: AbortSignal;
  /**
   * Answer only from the cache or a request already in flight; never start a
   * new request (formula value preview). Rejects with a NotCachedError otherwise.
   */
  cacheOnly?: boolean;
}

export type FlowType = "netflow" | "inflow" | "outflow";

export interface FlowsRequest {
  sourceChains: string[];
  startDate?: string;
  endDate?: string;
  granularity?: Granularity;
  flowTypes: FlowType[]; // one request per flow type; the service answers one key per flowType
}

/** 2.8: chain → number, per requested flow type. */
export type FlowsResult = Partial<Record<FlowType, Record<string, number>>>;

/** 2.6 */
export interface AssetRecord {
  platform_id: string;
  symbol: string;
  aggregator_id: string | null;
  title: string;
  color: string;
}

/** 2.5, flattened: `name` is the descriptor's single key. */
export interface MetricDescriptor {
  name: string;
  label: string;
  description: string;
  tags: { value: string; label: string }[];
  aggregation_type: string;
  unit: string;
  internal_data_source: string;
  source: string;
  base_metric: string | null;
  accepts_date: boolean;
  cuts: { granularity: string; dimension_type: string }[];
  thumbnail_url: string | null;
  source_link: string | null;
  methodology: string | null;
  currency_type?: string | null;
  earliest_fiscal_period?: string | null;
  latest_fiscal_period?: string | null;
  priority?: number | null;
}

/** 2.7 */
export interface InsightCard {
  DOMAIN: string;
  ENTITY_ID: string;
  METRIC_NAME: string;
  FLAG: string;
  UNIT: string;
  METRIC_TYPE: string;
  DURATION: number;
  DATE_RANGE: string;
  START_VALUE: number;
  END_VALUE: number;
  PERIOD_START_DATE: string;
  PERIOD_END_DATE: string;
  FISCAL_YEAR_END: string | null;
  FISCAL_PERIOD_END: string | null;
  LATEST_REPORT_DATE: string | null;
  SPARKLINE: { date: string; value: number }[];
  /** Other feeds carry fields not described; they are kept. */
  [extra: string]: unknown;
}

/** Where the client gets its key and base URL; read before every request so a change applies on the next calculation. */
export interface ClientSettings {
  apiKey: string;
  baseUrl: string;
  /** The base URL is a gateway that adds the firm's key: send none, ask for none. */
  keyManagedByGateway?: boolean;
}
export type SettingsSource = () => Promise<ClientSettings>;

export interface ClientCounters {
  requests: number; // HTTP requests sent (each attempt counts)
  cacheHits: number; // answered from cache or an in-flight request
  retries: number;
  failures: number; // requests that finally failed
  bytes: number; // response bytes received
}

export interface MarketDataClient {
  getSeries(req: SeriesRequest, opts?: CallOptions): Promise<SeriesResult>;
  getFlows(req: FlowsRequest, opts?: CallOptions): Promise<FlowsResult>;
  getAssets(opts?: CallOptions): Promise<AssetRecord[]>;
  getMetrics(symbol: string, opts?: CallOptions): Promise<MetricDescriptor[]>;
  /** `feed` is the path segment: "streaks", "decline-streaks", or another feed name. */
  getInsights(feed: string, opts?: CallOptions): Promise<InsightCard[]>;
  /** A cheap authenticated request that proves the key and base URL work. */
  testConnection(opts?: CallOptions): Promise<{ ok: true; ms: number }>;
  /** Drop every cached answer (refresh). In-flight requests are left to finish. */
  clear(): void;
  counters(): ClientCounters;
}
