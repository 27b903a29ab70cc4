/**
 * Readings and the gaps between them. The service sends `val: null` for a
 * date it has no value for, and its newest one or two days are often not
 * final yet: null, or a 0 placeholder filled in later (real-service.md). A
 * null is never a zero: tables show a blank, latest values and statistics
 * use the readings that carry a value.
 */
import { addDays } from "./calendar";
import type { DataPoint, Reading } from "./domain";

export function hasValue(point: DataPoint): point is Reading {
  return point.val !== null;
}

/** The points that carry a value, in their order. */
export function readingsOf(points: readonly DataPoint[]): Reading[] {
  return points.filter(hasValue);
}

/**
 * How many days, today included, the service may still be filling in. One
 * production pipeline reads only up to today minus two days; three days also
 * covers a user whose calendar date is a day ahead of the service's (UTC).
 * This is how cells read the newest days; when a day the persistent store
 * holds counts as settled is the store's trust policy (api/store/trust.ts).
 */
export const UNSETTLED_DAYS = 3;

/**
 * The points (ascending by date) with the unsettled days' 0 placeholders as
 * null. A 0 dated within the last UNSETTLED_DAYS days before `today` counts as
 * a placeholder when the last settled reading before those days is not 0: a
 * series that really is 0 (a stablecoin's premint supply) stays 0. Returns
 * the same array when nothing changes.
 */
export function withoutPlaceholders(points: readonly DataPoint[], today: string): readonly DataPoint[] {
  const firstUnsettled = addDays(today, -(UNSETTLED_DAYS - 1));
  let tail = points.length;
  while (tail > 0 && points[tail - 1].date >= firstUnsettled) tail--;
  if (tail === points.length) return points;
  let settled: number | null = null;
  for (let i = tail - 1; i >= 0 && settled === null; i--) settled = points[i].val;
  if (settled === 0) return points;
  if (!points.slice(tail).some((point) => point.val === 0)) return points;
  return points.map((point, i) => (i >= tail && point.val === 0 ? { date: point.date, val: null } : point));
}
