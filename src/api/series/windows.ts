/**
 * Splitting a long window into requests the service will answer in full, and
 * merging the pieces back. The service returns at most 1,000 points per
 * series, so a daily window of ten years must be asked for in parts, or the
 * caller silently gets a truncated series.
 *
 * Points are counted per calendar period of the granularity, conservatively:
 * a window "touches" every period it overlaps, even partly, and each touched
 * period may be one point. Cuts fall on period boundaries, so no period (a
 * week or a month being summed server-side) is split between two requests.
 * Weeks are taken as Monday-based (ISO); a service that starts weeks on
 * another day sees one extra partial week per cut at most, which is why a
 * weekly part holds 999 weeks, not 1,000.
 */
import { epochDayOfParts, isoOfEpochDay, partsOfEpochDay, toEpochDay } from "../../core/calendar";
import type { DataPoint, DateWindow, Granularity, SeriesResult } from "../../core/domain";
import { MAX_POINTS_PER_SERIES } from "../http/requests";

/** 1970-01-05 was a Monday: day 4 of the epoch. */
const FIRST_MONDAY = 4;

/** The index of the period containing `day` (an epoch day), counted from an arbitrary origin. */
function periodIndex(day: number, granularity: Granularity): number {
  if (granularity === "DAY") return day;
  if (granularity === "WEEK") return Math.floor((day - FIRST_MONDAY) / 7);
  const { year, month } = partsOfEpochDay(day);
  if (granularity === "MONTH") return year * 12 + (month - 1);
  if (granularity === "QUARTER") return year * 4 + Math.floor((month - 1) / 3);
  return year;
}

/** The first epoch day of period `index`. */
function periodStart(index: number, granularity: Granularity): number {
  if (granularity === "DAY") return index;
  if (granularity === "WEEK") return index * 7 + FIRST_MONDAY;
  const months = granularity === "MONTH" ? index : granularity === "QUARTER" ? index * 3 : index * 12;
  const year = Math.floor(months / 12);
  return epochDayOfParts(year, months - year * 12 + 1, 1);
}

/** The most points a window can hold at a granularity (periods touched, inclusive). */
export function countPeriods(start: string, end: string, granularity: Granularity): number {
  const first = periodIndex(toEpochDay(start), granularity);
  const last = periodIndex(toEpochDay(end), granularity);
  return Math.max(0, last - first + 1);
}

function periodsPerPart(granularity: Granularity, maxPoints: number): number {
  return granularity === "WEEK" ? maxPoints - 1 : maxPoints;
}

/**
 * The windows to request for one caller's window, in date order. A window
 * without a start date is one request (the service decides what "all" is).
 * A window with a start but no end runs to `today`; its last part keeps the
 * open end, so nothing newer than the client's clock is cut off.
 */
export function splitWindow(
  window: DateWindow,
  granularity: Granularity | undefined,
  today: string,
  maxPoints = MAX_POINTS_PER_SERIES,
): DateWindow[] {
  const { start, end } = window;
  if (start === undefined) return [window];
  const gran = granularity ?? "DAY";
  const through = end ?? (today > start ? today : start);
  const per = periodsPerPart(gran, maxPoints);
  const first = periodIndex(toEpochDay(start), gran);
  const last = periodIndex(toEpochDay(through), gran);
  if (last - first + 1 <= per) return [window];

  const parts: DateWindow[] = [];
  for (let from = first; from <= last; from += per) {
    const to = Math.min(from + per - 1, last);
    const partStart = from === first ? start : isoOfEpochDay(periodStart(from, gran));
    const isLast = to === last;
    const partEnd = isLast ? end : isoOfEpochDay(periodStart(to + 1, gran) - 1);
    parts.push(partEnd === undefined ? { start: partStart } : { start: partStart, end: partEnd });
  }
  return parts;
}

/**
 * Joins the parts of a split window in order. A date already seen is
 * dropped, so parts that overlap at a boundary cannot duplicate a row. A part
 * answered with a message (no data in that stretch) does not hide the points
 * of the others; only when every part is a message is the result one.
 */
export function mergeParts(parts: readonly SeriesResult[]): SeriesResult {
  if (parts.length === 1) return parts[0]!;
  const withPoints = parts.filter((p): p is { kind: "points"; points: DataPoint[] } => p.kind === "points");
  if (withPoints.length === 0) return parts[0]!;
  const points: DataPoint[] = [];
  let lastDate = "";
  for (const part of withPoints) {
    for (const point of part.points) {
      if (point.date > lastDate) {
        points.push(point);
        lastDate = point.date;
      }
    }
  }
  return { kind: "points", points };
}
