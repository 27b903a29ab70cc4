/**
 * What the add-in knows about metrics without asking the service: the
 * filing-period financials, the free-cash-flow ratios whose short windows come
 * back sparse, and the aggregation type of well-known metrics (used only when
 * the metric catalog does not describe a metric).
 */
import type { DataPoint, Granularity } from "./domain";
import { DAYS_PER_PERIOD, daysBetween, dayOfWeek, epochDayOf } from "./calendar";

/** Reported per fiscal quarter; the service refuses any granularity but QUARTER. */
export const FINANCIAL_METRICS: readonly string[] = [
  "TOTAL_REVENUE",
  "NET_INCOME",
  "EBITDA",
  "OPERATING_INCOME",
  "FREE_CASH_FLOW",
  "BASIC_EPS",
  "DILUTED_EPS",
];

/** Daily ratios that depend on the latest fiscal free cash flow: sparse or empty in short windows. */
export const FCF_DERIVED_RATIOS: readonly string[] = [
  "ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW",
  "MARKET_CAP_DIVIDE_FREE_CASH_FLOW",
  "FCF_YIELD",
];

const financials = new Set(FINANCIAL_METRICS);
const fcfRatios = new Set(FCF_DERIVED_RATIOS);

export function isFinancial(metric: string): boolean {
  return financials.has(metric);
}

export function isFcfDerived(metric: string): boolean {
  return fcfRatios.has(metric);
}

/** The granularity a metric is read at when the user gives none. */
export function naturalGranularity(metric: string): Granularity {
  return isFinancial(metric) ? "QUARTER" : "DAY";
}

/**
 * Aggregation types of documented metrics, as the catalog reports them. Only a
 * fallback: the catalog's `aggregation_type` wins whenever it describes the metric.
 */
const KNOWN_AGGREGATION: Record<string, string> = {
  STABLECOIN_SUPPLY_TOTAL: "LAST",
  STABLECOIN_SUPPLY: "LAST",
  STABLECOIN_SUPPLY_CIRCULATING: "LAST",
  STABLECOIN_SUPPLY_BRIDGED: "LAST",
  STABLECOIN_SUPPLY_PREMINT: "LAST",
  STABLECOIN_SUPPLY_PEG_STABILITY: "LAST",
  STABLECOIN_TRANSFER_VOLUME: "SUM",
  STABLECOIN_DAILY_TXNS: "SUM",
  STABLECOIN_DAU: "AVERAGE",
  PRICE: "LAST",
  TOTAL_REVENUE: "SUM",
  NET_INCOME: "SUM",
  EBITDA: "SUM",
  OPERATING_INCOME: "SUM",
  FREE_CASH_FLOW: "SUM",
  BASIC_EPS: "SUM",
  DILUTED_EPS: "SUM",
  ENTERPRISE_VALUE_DIVIDE_TOTAL_REVENUE: "LAST",
  ENTERPRISE_VALUE_DIVIDE_NET_INCOME: "LAST",
  ENTERPRISE_VALUE_DIVIDE_EBITDA: "LAST",
  ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW: "LAST",
  MARKET_CAP_DIVIDE_FREE_CASH_FLOW: "LAST",
  EARNINGS_YIELD: "LAST",
  FCF_YIELD: "LAST",
};

export function knownAggregationType(metric: string): string | undefined {
  return KNOWN_AGGREGATION[metric];
}

/**
 * Whether a free-cash-flow ratio's answer looks like the service's short-window
 * quirk rather than the data: empty, starting well after the window does (the
 * service only computes the ratio from the first fiscal period end inside the
 * window), or holding fewer than half the readings the window should (equity
 * ratios are read on weekdays, so a daily window expects one per weekday).
 */
export function looksSparse(
  points: readonly DataPoint[],
  start: string,
  end: string,
  granularity: Granularity,
): boolean {
  if (points.length === 0) return true;
  // A long weekend (or one period at coarser granularities) may pass before the first reading.
  const slack = granularity === "DAY" ? 5 : Math.ceil(DAYS_PER_PERIOD[granularity] * 1.5);
  if (daysBetween(start, points[0].date) > slack) return true;
  const expected =
    granularity === "DAY"
      ? weekdaysBetween(start, end)
      : Math.floor((daysBetween(start, end) + 1) / DAYS_PER_PERIOD[granularity]);
  return points.length < expected / 2;
}

function weekdaysBetween(start: string, end: string): number {
  const first = epochDayOf(start);
  const last = epochDayOf(end);
  if (first === null || last === null || last < first) return 0;
  const days = last - first + 1;
  let weekdays = Math.floor(days / 7) * 5;
  const startWeekday = dayOfWeek(start);
  for (let i = 0; i < days % 7; i++) {
    const weekday = (startWeekday + i) % 7;
    if (weekday !== 0 && weekday !== 6) weekdays++;
  }
  return weekdays;
}
