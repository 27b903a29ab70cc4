/**
 * Rolls daily points up to a coarser granularity by the metric's aggregation
 * type. A period is labelled by its first calendar day (Monday for weeks, the
 * 1st for months, quarters and years) and aggregates only the points that fall
 * inside the requested window, so the first and last periods of a window that
 * cuts through them are partial.
 */
import { type Granularity, periodStart } from "./dates";

export type AggregationType = "SUM" | "LAST" | "AVERAGE";

export interface DayPoint {
  day: number;
  val: number;
}

export function aggregate(points: readonly DayPoint[], granularity: Granularity, type: AggregationType): DayPoint[] {
  if (granularity === "DAY") return points.slice();
  const out: DayPoint[] = [];
  let bucket = Number.NaN;
  let sum = 0;
  let count = 0;
  let last = 0;
  const flush = () => {
    if (count === 0) return;
    const val = type === "SUM" ? sum : type === "AVERAGE" ? sum / count : last;
    out.push({ day: bucket, val });
  };
  for (const point of points) {
    const start = periodStart(point.day, granularity);
    if (start !== bucket) {
      flush();
      bucket = start;
      sum = 0;
      count = 0;
    }
    sum += point.val;
    last = point.val;
    count++;
  }
  flush();
  return out;
}
