/**
 * The days a windowed answer covers (MD.AGG, the prefixed metrics such as
 * `L30_FEES` wherever they are read, MD.SNAPSHOT, MD.ASSET's card), decided
 * here once:
 *
 * - `as_of` omitted: the window ends on the latest day the pair has data, not
 *   on today. The service's newest one or two days are not settled yet
 *   (null, or a 0 placeholder), so a window ending today would hold two days
 *   fewer than it says; ending on the latest data, `MD.AGG(…, "30D")` covers
 *   30 days of data and equals `L30_…` (what Artemis's `L30_` means).
 * - `as_of` given: the window is the calendar window ending on as_of, whatever
 *   it holds; a window missing days says so where a note can be shown.
 *
 * One request serves a sheet of cells: the window ending today is fetched with
 * a margin of days before it (the unsettled days, and a little more), then
 * trimmed to the window that ends on the latest data. Only a pair whose latest
 * data is older than the margin asks again.
 */
import { type AggWindow, windowStart } from "./agg-window";
import { addDays, daysBetween } from "./calendar";
import type { DataPoint, Granularity } from "./domain";

/** Days fetched before the window ending today, so that the window ending on the latest data is inside the answer. */
export function anchorMarginDays(granularity: Granularity): number {
  return granularity === "QUARTER" ? 120 : 7;
}

/** How a window's last day is chosen: the latest data (as_of omitted), or as_of itself. */
export type WindowEnd = { kind: "latest-data"; today: string } | { kind: "as-of"; date: string };

export function windowEndOf(asOf: string | undefined, today: string): WindowEnd {
  return asOf === undefined ? { kind: "latest-data", today } : { kind: "as-of", date: asOf };
}

/** The date a window's reading is looked up on or before: as_of, or today. */
export function lookupDate(end: WindowEnd): string {
  return end.kind === "as-of" ? end.date : end.today;
}

/**
 * The range one request fetches for a window. `reach` moves a window's first
 * day back to the first day its computation needs (a rolling `L30_` sum needs
 * the 30 days before it). Cells with the same window and end share it.
 */
export function fetchRange(
  window: AggWindow,
  end: WindowEnd,
  granularity: Granularity,
  reach: (start: string) => string = (start) => start,
): { from: string; to: string } {
  if (end.kind === "as-of") return { from: reach(windowStart(window, end.date)), to: end.date };
  // Window starts only move back as the end does: this start is at or before that of any end in the margin.
  return {
    from: reach(windowStart(window, addDays(end.today, -anchorMarginDays(granularity)))),
    to: end.today,
  };
}

/** The last date on or before `date` with a value; undefined when there is none. */
export function latestDataDate(points: readonly DataPoint[], date: string): string | undefined {
  for (let i = points.length - 1; i >= 0; i--) {
    const point = points[i];
    if (point.date <= date && point.val !== null) return point.date;
  }
  return undefined;
}

/** A window's first and last days, both included. */
export interface WindowSpan {
  start: string;
  end: string;
  /** How the last day was chosen. */
  endsOn: WindowEnd["kind"];
}

/**
 * The window to summarise. `latest`: the pair's latest date with data on or
 * before today (used only when as_of is omitted; undefined: none found).
 * Returns null when as_of is omitted and the pair has no data to end on.
 */
export function windowSpan(window: AggWindow, end: WindowEnd, latest: string | undefined): WindowSpan | null {
  if (end.kind === "as-of") return { start: windowStart(window, end.date), end: end.date, endsOn: "as-of" };
  if (latest === undefined) return null;
  return { start: windowStart(window, latest), end: latest, endsOn: "latest-data" };
}

/** What a daily window holds: its calendar days and the days with a value among them. */
export interface WindowCoverage {
  days: number;
  daysWithData: number;
}

export function windowCoverage(points: readonly DataPoint[], span: WindowSpan): WindowCoverage {
  let daysWithData = 0;
  for (const point of points)
    if (point.date >= span.start && point.date <= span.end && point.val !== null) daysWithData++;
  return { days: daysBetween(span.start, span.end) + 1, daysWithData };
}

/**
 * What a window covers, in words: "2026-10-23 to 2026-11-21", and for a daily
 * window missing days, "; 28 of 30 days have data". `daily`: whether the
 * readings are days (a quarterly metric's window holds quarters, not days).
 */
export function coverageText(span: WindowSpan, coverage: WindowCoverage | null): string {
  const range = span.start === span.end ? span.end : `${span.start} to ${span.end}`;
  if (!coverage || coverage.daysWithData >= coverage.days) return range;
  const noun = coverage.days === 1 ? "day has" : "days have";
  return `${range}; ${coverage.daysWithData} of ${coverage.days} ${noun} data`;
}

/** The readings inside a span. */
export function pointsIn(points: readonly DataPoint[], span: WindowSpan): DataPoint[] {
  return points.filter((point) => point.date >= span.start && point.date <= span.end);
}
