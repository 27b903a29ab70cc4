/**
 * The domain vocabulary: what the market-data service talks about, as every
 * layer of the add-in uses it (custom functions, the task pane, the client).
 * Shapes follow the service's interface description (market-data-api.md); the
 * client validates every body against them before anyone else sees it.
 */

export type Granularity = "DAY" | "WEEK" | "MONTH" | "QUARTER" | "YEAR";

/** Every granularity the service knows, finest first: the one list the add-in offers and checks against. */
export const GRANULARITIES: readonly Granularity[] = ["DAY", "WEEK", "MONTH", "QUARTER", "YEAR"];

/**
 * A stretch of days, both ends included, as `YYYY-MM-DD` dates (compared as
 * strings: that order is the calendar's). An omitted start is the whole
 * history, an omitted end today. The one vocabulary from a cell's arguments
 * to the request builder (api/http/requests.ts), the one place that writes
 * the service's query names for it. The client checks a window once, where it
 * enters (api/client.ts); everything past that trusts it.
 */
export interface DateWindow {
  start?: string;
  end?: string;
}

/** A window with both ends given: a part of a series the client sends, a stretch the store knows. */
export type DatedWindow = Required<DateWindow>;

/** A window of a series read at a granularity (omitted: none is sent, and the service answers daily). */
export interface SeriesWindow extends DateWindow {
  granularity?: Granularity;
}

/**
 * One reading of a series (2.2). `date` is `YYYY-MM-DD`. `val` is null where
 * the service has no value for the date (yet: the newest days are often null
 * until they settle). A null is never a zero: tables show a blank, latest
 * values and statistics skip it.
 */
export interface DataPoint {
  date: string;
  val: number | null;
}

/** A point that carries a value. */
export type Reading = DataPoint & { val: number };

/**
 * What one (symbol, metric) pair came back as. The service may answer a
 * message string in place of a series inside a 200 response (an unsupported
 * pair); that is not a failure of the other pairs of the same request.
 */
export type SeriesResult = { kind: "points"; points: DataPoint[] } | { kind: "message"; message: string };

export type FlowType = "netflow" | "inflow" | "outflow";

export const FLOW_TYPES: readonly FlowType[] = ["netflow", "inflow", "outflow"];

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
