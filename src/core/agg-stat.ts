/**
 * The statistics MD.AGG computes over a window's readings, and the rolling sums
 * and averages behind the Artemis-style prefixed metrics.
 */
import type { DataPoint, Reading } from "./domain";
import { type AggWindow, type PrefixAggregation, windowStart } from "./agg-window";
import { parseKeyword } from "./arguments";
import { type CellValue, errorCell, numberCell } from "./cell";

export type Stat = "SUM" | "AVG" | "MIN" | "MAX" | "FIRST" | "LAST" | "CHANGE" | "PCT_CHANGE";

const STAT_NAMES: Record<string, Stat> = {
  SUM: "SUM",
  AVG: "AVG",
  AVERAGE: "AVG",
  MEAN: "AVG",
  MIN: "MIN",
  MAX: "MAX",
  FIRST: "FIRST",
  LAST: "LAST",
  CHANGE: "CHANGE",
  PCT_CHANGE: "PCT_CHANGE",
};

export const STAT_FORMS = "SUM, AVG, MIN, MAX, FIRST, LAST, CHANGE or PCT_CHANGE";

/** Omitted → undefined: the default depends on the metric (see defaultStat). */
export function parseStat(value: unknown, argument = "stat"): Stat | undefined {
  return parseKeyword<Stat | "">(value, argument, STAT_NAMES, STAT_FORMS, "") || undefined;
}

/** Flows (aggregation type SUM) add up over a window; levels (LAST, AVERAGE) are read at its end. */
export function defaultStat(aggregationType: string): Stat {
  return aggregationType.trim().toUpperCase() === "SUM" ? "SUM" : "LAST";
}

/**
 * One statistic over readings in date order (at least one). CHANGE is last −
 * first; PCT_CHANGE is that change over |first| as a fraction (format the cell
 * as a percentage), #DIV/0! when the first reading is 0.
 */
export function computeStat(stat: Stat, values: readonly number[]): CellValue {
  const value = statValue(stat, values);
  return typeof value === "number" ? numberCell(value, `The ${stat} of the window`) : value;
}

function statValue(stat: Stat, values: readonly number[]): CellValue {
  if (values.length === 0) throw new RangeError("computeStat needs at least one value");
  const first = values[0];
  const last = values[values.length - 1];
  switch (stat) {
    case "SUM":
      return sum(values);
    case "AVG":
      return sum(values) / values.length;
    case "MIN":
      return values.reduce((a, b) => (b < a ? b : a));
    case "MAX":
      return values.reduce((a, b) => (b > a ? b : a));
    case "FIRST":
      return first;
    case "LAST":
      return last;
    case "CHANGE":
      return last - first;
    case "PCT_CHANGE":
      return first === 0
        ? errorCell("#DIV/0!", "The first value in the window is 0.")
        : (last - first) / Math.abs(first);
  }
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/**
 * For each reading dated from `from` to `to`, the readings of the window
 * ending on its date summed (a SUM metric) or averaged over the days with a
 * value (an AVERAGE metric): the daily series an Artemis `L30_FEES` or
 * `L30_DAU` names. `points` must be in ascending date order and reach back far
 * enough. A date without a value (null) adds nothing, counts as no day, and
 * has no value of its own.
 */
export function rollingAggregates(
  points: readonly DataPoint[],
  window: AggWindow,
  from: string,
  to: string,
  aggregation: PrefixAggregation,
): Reading[] {
  const sums = new Float64Array(points.length + 1);
  const days = new Uint32Array(points.length + 1);
  for (let i = 0; i < points.length; i++) {
    const val = points[i].val;
    sums[i + 1] = sums[i] + (val ?? 0);
    days[i + 1] = days[i] + (val === null ? 0 : 1);
  }
  const result: Reading[] = [];
  for (let i = 0; i < points.length; i++) {
    const date = points[i].date;
    if (date < from || date > to || points[i].val === null) continue;
    const first = lowerBound(points, windowStart(window, date));
    const total = sums[i + 1] - sums[first];
    result.push({ date, val: aggregation === "AVERAGE" ? total / (days[i + 1] - days[first]) : total });
  }
  return result;
}

/** The readings dated from `from` to `to` summed, or averaged over the days with a value; undefined when none has one. */
export function aggregateBetween(
  points: readonly DataPoint[],
  from: string,
  to: string,
  aggregation: PrefixAggregation,
): number | undefined {
  let total = 0;
  let days = 0;
  for (const point of points) {
    if (point.date < from || point.date > to || point.val === null) continue;
    total += point.val;
    days++;
  }
  if (days === 0) return undefined;
  return aggregation === "AVERAGE" ? total / days : total;
}

/** Index of the first point dated on or after `date`. */
export function lowerBound(points: readonly DataPoint[], date: string): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid].date < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index of the date-ordered `points` dated after `date` (their length if none). */
export function upperBound(points: readonly DataPoint[], date: string): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid].date <= date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
