/**
 * What the persistent series store knows of one series (SeriesData: its known
 * ranges and the points inside them) and how an answer of the service joins
 * it (`mergeFetched`), with the look-ups the store's decisions make on it. No
 * IndexedDB, no clock, no network here.
 *
 * A fetched window's days are known as *settled* or *unsettled* as the
 * store's trust policy says (trust.ts); a window the service answered with a
 * message (the pair unsupported, no data there) is known the same way: days
 * without points, with the message.
 *
 * Dates are `YYYY-MM-DD` strings, compared as strings (that order is the
 * calendar's).
 */
import { addDays } from "../../core/calendar";
import type { DatedWindow } from "../../core/domain";
import { settledEndOf, settlesAsSent } from "./trust";
import type { FetchedRange, KnownRange, SeriesData, StoredPoint } from "./types";

export const EMPTY_SERIES: SeriesData = { ranges: [], dates: [], vals: [] };

/** The store's knowledge after `fetched`: its window replaces whatever was known of those days. */
export function mergeFetched(data: SeriesData | undefined, fetched: FetchedRange): SeriesData {
  const base = data ?? EMPTY_SERIES;
  const { start, end } = fetched;
  if (start > end) return base;

  // The known ranges are in date order and disjoint: what is kept of them before the window, the window's, what is kept after.
  // Those wholly before the window are taken as they are, found by halving; then the ones it touches, cut.
  const known = base.ranges;
  const first = firstRangeEndingOnOrAfter(known, start);
  const ordered: KnownRange[] = known.slice(0, first);
  let next = first;
  let cutAfter: KnownRange | undefined;
  for (; next < known.length && known[next]!.start <= end; next++) {
    const range = known[next]!;
    if (range.start < start) ordered.push({ ...range, end: dayBefore(start) });
    if (range.end > end) cutAfter = { ...range, start: dayAfter(end) };
  }
  for (const range of fetchedRanges(fetched)) ordered.push(range);
  if (cutAfter) ordered.push(cutAfter);
  const ranges = coalesce(next < known.length ? ordered.concat(known.slice(next)) : ordered);

  const from = lowerBound(base.dates, start);
  const to = lowerBound(base.dates, dayAfter(end));
  const windowDates: string[] = [];
  const windowVals: (number | null)[] = [];
  let last = "";
  for (const point of inDateOrder(fetched.points)) {
    if (point.date < start || point.date > end || point.date <= last) continue;
    windowDates.push(point.date);
    windowVals.push(point.val);
    last = point.date;
  }
  // Copied in three blocks (before, the window's, after), not point by point.
  const dates = base.dates.slice(0, from).concat(windowDates, base.dates.slice(to));
  const vals = base.vals.slice(0, from).concat(windowVals, base.vals.slice(to));
  return { ranges, dates, vals };
}

/** Neighbouring days (the calendar remembers recent conversions: core/calendar.ts). */
export function dayAfter(date: string): string {
  return addDays(date, 1);
}

export function dayBefore(date: string): string {
  return addDays(date, -1);
}

function inDateOrder(points: readonly StoredPoint[]): readonly StoredPoint[] {
  for (let i = 1; i < points.length; i++) {
    if (points[i]!.date < points[i - 1]!.date) return [...points].sort((a, b) => (a.date < b.date ? -1 : 1));
  }
  return points;
}

/** The fetched window as known ranges: settled up to `settledThrough` except null days, unsettled after. */
function fetchedRanges(fetched: FetchedRange): KnownRange[] {
  const { start, end, fetchedAt } = fetched;
  const message = fetched.message;
  const out: KnownRange[] = [];
  const push = (s: string, e: string, settled: boolean) => {
    if (s <= e) out.push({ start: s, end: e, fetchedAt, settled, ...(message !== undefined ? { message } : {}) });
  };
  const settledThrough = settledEndOf(fetched);
  const settledEnd = settledThrough < end ? settledThrough : end;
  let cursor = start;
  if (start <= settledEnd) {
    // Nulls inside the settled part stay unsettled: the service fills them in later.
    for (const point of inDateOrder(fetched.points)) {
      if (settlesAsSent(point.val) || point.date < cursor || point.date > settledEnd) continue;
      push(cursor, dayBefore(point.date), true);
      push(point.date, point.date, false);
      cursor = dayAfter(point.date);
    }
    push(cursor, settledEnd, true);
    cursor = dayAfter(settledEnd);
  }
  push(cursor > start ? cursor : start, end, false);
  return out;
}

/**
 * Joins neighbours of the same kind. Unsettled neighbours take the older
 * fetch time (they are asked again within minutes anyway). Settled ones join
 * only when fetched at the same time: each keeps its own trust period, so a
 * stretch asked again is trusted again from then on — joined with an older
 * neighbour it would take that neighbour's age and be asked again on every
 * use. A settled range fetched on another day sits next to the unsettled
 * tail that is fetched anyway, so its recheck joins that request.
 */
function coalesce(ranges: KnownRange[]): KnownRange[] {
  const out: KnownRange[] = [];
  for (const range of ranges) {
    const previous = out[out.length - 1];
    if (
      previous &&
      previous.settled === range.settled &&
      previous.message === range.message &&
      (!range.settled || previous.fetchedAt === range.fetchedAt) &&
      dayAfter(previous.end) === range.start
    ) {
      out[out.length - 1] = {
        ...previous,
        end: range.end,
        fetchedAt: Math.min(previous.fetchedAt, range.fetchedAt),
      };
    } else {
      // Known ranges are never changed once made (a join makes a new one): shared, not copied.
      out.push(range);
    }
  }
  return out;
}

/** The index of the first of the date-ordered, disjoint `ranges` that ends on or after `date` (their length if none). */
export function firstRangeEndingOnOrAfter(ranges: readonly KnownRange[], date: string): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ranges[mid]!.end < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The stored points inside `ranges` and outside `excluded`, in date order. */
export function pointsIn(
  series: SeriesData,
  ranges: readonly DatedWindow[],
  excluded: readonly DatedWindow[],
): StoredPoint[] {
  const out: StoredPoint[] = [];
  for (const range of ranges) {
    let i = lowerBound(series.dates, range.start);
    for (; i < series.dates.length && series.dates[i]! <= range.end; i++) {
      const date = series.dates[i]!;
      if (excluded.some((x) => date >= x.start && date <= x.end)) continue;
      out.push({ date, val: series.vals[i]! });
    }
  }
  return out;
}

/** The first index whose date is > `date`. */
export function upperBound(dates: readonly string[], date: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! <= date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose date is ≥ `date`. */
export function lowerBound(dates: readonly string[], date: string): number {
  let lo = 0;
  let hi = dates.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (dates[mid]! < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The message the service answered for every day of the window the store
 * knows, when they all carry the same one and no point is held there;
 * otherwise undefined (offline reading, value preview).
 */
export function messageOver(data: SeriesData | undefined, window: DatedWindow): string | undefined {
  let message: string | undefined;
  for (const range of (data ?? EMPTY_SERIES).ranges) {
    if (range.end < window.start) continue;
    if (range.start > window.end) break;
    if (range.message === undefined || (message !== undefined && message !== range.message)) return undefined;
    message = range.message;
  }
  return message;
}

/** Every point the store holds in the window (offline reading, value preview). */
export function storedPointsIn(data: SeriesData | undefined, window: DatedWindow): StoredPoint[] {
  return pointsIn(data ?? EMPTY_SERIES, [window], []);
}
