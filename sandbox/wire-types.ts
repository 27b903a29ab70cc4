/**
 * The bodies the sandbox sends, as the interface description (market-data-api.md)
 * writes them. The sandbox stands in for the service, so it owns its wire
 * shapes and depends on no add-in code: a change to the client's types cannot
 * quietly change what the sandbox serves, and the tests that compare the two
 * keep comparing two independent things.
 */

/** 2.6: one record of `{ assets: [...] }`. */
export interface AssetRecordWire {
  platform_id: string;
  symbol: string;
  aggregator_id: string | null;
  title: string;
  color: string;
}

/** 2.5: the value of a `{ NAME: descriptor }` entry of `{ metrics: [...] }`, every field present (the newer reference). */
export interface MetricDescriptorWire {
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
  currency_type: string | null;
  earliest_fiscal_period: string | null;
  latest_fiscal_period: string | null;
  priority: number | null;
}

/** 2.7: one row of an insight feed's `{ rows: [...] }`. */
export interface InsightCardWire {
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
}
