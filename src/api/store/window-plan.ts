/**
 * The persistent series store's knowledge of one series, and the pure
 * decisions made on it (no IndexedDB, no clock, no network here):
 *
 * - `mergeFetched`: what the store knows after the service answered a window.
 *   A date is *settled* when it was already older than the settling window
 *   when it was fetched (the service finalises a day within about two days,
 *   real-service.md) and its value was not null, or when it was yesterday at
 *   the fetch and came with a real value (the service's not-yet-final days
 *   are null or 0 placeholders) or inside a message; everything else the
 *   store keeps as *unsettled*, good for a short while and for offline reading.
 *   A window the service answered with a message (the pair unsupported, no
 *   data there) is known the same way: days without points, with the message.
 * - `dueSettled`: the settled days whose trust has run out, for the cheap
 *   recheck (coarse-recheck.ts) before `planWindow` fetches them daily.
 * - `planWindow`: which parts of a caller's window the store answers and which
 *   must be asked of the service (missing, unsettled and no longer fresh, or
 *   settled but older than the revalidation age), and what the store could
 *   show instead if the service cannot be reached.
 *
 * Dates are `YYYY-MM-DD` strings, compared as strings (that order is the
 * calendar's).
 */
import { addDays } from "../../core/calendar";
import type { DatedWindow } from "../../core/domain";

/** One stored reading. `val` is null where the service answered null (never settled). */
export interface StoredPoint {
  date: string;
  val: number | null;
}

/** Days whose every point the store holds as the service answered them at `fetchedAt`. */
export interface KnownRange extends DatedWindow {
  /** Milliseconds since the epoch. */
  fetchedAt: number;
  /** Every day in it had settled when it was fetched, and none was null. */
  settled: boolean;
  /** The service answered these days with this message instead of points (none are stored there). */
  message?: string;
}

/** What the store knows of one series: its known ranges and the points inside them. */
export interface SeriesData {
  /** In date order, disjoint. */
  ranges: KnownRange[];
  /** Ascending, unique; only days inside a range. */
  dates: string[];
  /** `vals[i]` is the value on `dates[i]`. */
  vals: (number | null)[];
}

/** One answer of the service to store: the window asked for and the points it held. */
export interface FetchedRange extends DatedWindow {
  fetchedAt: number;
  /** The last day that had settled when this was fetched (fetch day minus the settling window). */
  settledThrough: string;
  /**
   * Days after `settledThrough` up to this one settle too where the service
   * sent a real value (not null, not 0: its placeholders for a day not final
   * yet) or a message; the first day without one ends it. Default none.
   */
  settledIfValuedThrough?: string;
  /** In date order. Points outside the window are ignored. */
  points: readonly StoredPoint[];
  /** The service answered the window with this message: no points, the days known to have none. */
  message?: string;
}

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
function dayAfter(date: string): string {
  return addDays(date, 1);
}

function dayBefore(date: string): string {
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
  const settledThrough = valuedThrough(fetched);
  const settledEnd = settledThrough < end ? settledThrough : end;
  let cursor = start;
  if (start <= settledEnd) {
    // Nulls inside the settled part stay unsettled: the service fills them in later.
    for (const point of inDateOrder(fetched.points)) {
      if (point.val !== null || point.date < cursor || point.date > settledEnd) continue;
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

/** The last settled day of a fetched window: `settledThrough`, then each next day with a real value (or a message). */
function valuedThrough(fetched: FetchedRange): string {
  let through = fetched.settledThrough;
  const until = fetched.settledIfValuedThrough;
  if (until === undefined || until <= through) return through;
  if (fetched.message !== undefined) return until;
  const byDate = new Map<string, number | null>();
  for (const point of fetched.points)
    if (point.date > through && point.date <= until) byDate.set(point.date, point.val);
  for (let day = dayAfter(through); day <= until; day = dayAfter(day)) {
    const val = byDate.get(day);
    if (val === undefined || val === null || val === 0) break;
    through = day;
  }
  return through;
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
function firstRangeEndingOnOrAfter(ranges: readonly KnownRange[], date: string): number {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ranges[mid]!.end < date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface PlanOptions {
  /** Milliseconds since the epoch. */
  now: number;
  /** Settled days fetched longer ago than this are asked again (the service may have revised them), unless `trustEnd` says. */
  revalidateAfterMs: number;
  /** The instant until which settled days fetched at a time are trusted (store/trust-period.ts); default `revalidateAfterMs` after it. */
  trustEnd?: (fetchedAt: number) => number;
  /** Settled days fetched before this instant are asked again whatever their age (a refresh told to recheck history). Default 0. */
  settledStaleBefore?: number;
  /** Unsettled days fetched less than this long ago are answered from the store. */
  recentFreshMs: number;
  /** Unsettled days fetched before this instant are stale whatever their age (a refresh asked for current data). */
  staleBefore: number;
  /** At most this many separate windows are fetched; the closest are joined. Default 2. */
  maxFetches?: number;
}

export interface WindowPlan {
  /** Points the store answers, in date order (none of them inside a fetched window); copied when first read. */
  readonly stored: StoredPoint[];
  /** Windows to ask the service for, in date order, disjoint. Empty: the store answers everything. */
  fetch: DatedWindow[];
  /**
   * What the store can show for the whole window if the service cannot be
   * reached: every point it holds there, and the oldest fetch time among the
   * stale parts shown. Null when the store lacks a part of the window that
   * the service had answered before it (a never-fetched head or gap); days
   * after everything it ever fetched count as not published yet. Its points are copied when first read.
   */
  fallback: { readonly points: StoredPoint[]; fetchedAt: number } | null;
  /** The messages of the stored days answered (ranges the service answered with a message), distinct. */
  messages: string[];
  /** Some stored days answered are known without a message (with points, or none). */
  plainServed: boolean;
}

const DAY_MS = 86_400_000;

function usable(range: KnownRange, options: PlanOptions): boolean {
  const age = options.now - range.fetchedAt;
  if (age < 0) return false; // fetched "in the future": a clock moved back; trust nothing
  if (range.settled) {
    const until = options.trustEnd ? options.trustEnd(range.fetchedAt) : range.fetchedAt + options.revalidateAfterMs;
    return options.now < until && range.fetchedAt >= (options.settledStaleBefore ?? 0);
  }
  if (range.fetchedAt < options.staleBefore) return false;
  // A message for days not settled yet holds for the rest of its UTC day: the pair is asked again at most daily.
  if (range.message !== undefined) return Math.floor(options.now / DAY_MS) === Math.floor(range.fetchedAt / DAY_MS);
  return age < options.recentFreshMs;
}

/**
 * The stretches of settled days with points (not a message's) inside `window` that are due for recheck only
 * because of their age (the trust period passed, or a refresh told to recheck
 * history fetched after them): in date order, neighbours joined. A range
 * fetched "in the future" (a clock moved back) is not among them: it is
 * fetched again whole.
 */
export function dueSettled(data: SeriesData | undefined, window: DatedWindow, options: PlanOptions): DatedWindow[] {
  const out: DatedWindow[] = [];
  for (const range of (data ?? EMPTY_SERIES).ranges) {
    if (range.end < window.start) continue;
    if (range.start > window.end) break;
    if (!range.settled || range.message !== undefined || options.now < range.fetchedAt || usable(range, options))
      continue;
    const s = range.start > window.start ? range.start : window.start;
    const e = range.end < window.end ? range.end : window.end;
    const previous = out[out.length - 1];
    if (previous && dayAfter(previous.end) === s) previous.end = e;
    else out.push({ start: s, end: e });
  }
  return out;
}

/**
 * The stretches of settled days the service answered with a message inside
 * `window` that are due for recheck (as `dueSettled`), each with its
 * message; neighbours with the same message joined.
 */
export function dueMessages(
  data: SeriesData | undefined,
  window: DatedWindow,
  options: PlanOptions,
): (DatedWindow & { message: string })[] {
  const out: (DatedWindow & { message: string })[] = [];
  for (const range of (data ?? EMPTY_SERIES).ranges) {
    if (range.end < window.start) continue;
    if (range.start > window.end) break;
    if (!range.settled || range.message === undefined || options.now < range.fetchedAt || usable(range, options))
      continue;
    const s = range.start > window.start ? range.start : window.start;
    const e = range.end < window.end ? range.end : window.end;
    const previous = out[out.length - 1];
    if (previous && previous.message === range.message && dayAfter(previous.end) === s) previous.end = e;
    else out.push({ start: s, end: e, message: range.message });
  }
  return out;
}

/**
 * Whether the store answers the whole of `window` itself, as `planWindow`
 * would, without anything to fetch or to decide: every day of it inside
 * known ranges that are usable now and carry no message. Then the answer is
 * the points held in the window (`planWindow`'s `stored`); otherwise the
 * plan decides. The common case of a reopened workbook, asked by every cell:
 * no plan, no copies.
 */
export function heldWhole(data: SeriesData, window: DatedWindow, options: PlanOptions): boolean {
  const { start, end } = window;
  if (start > end) return false;
  let cursor = start;
  for (const range of data.ranges) {
    if (range.end < start) continue;
    // A day before this range that no range holds (ranges are in date order and disjoint).
    if (range.start > cursor) return false;
    if (range.message !== undefined || !usable(range, options)) return false;
    if (range.end >= end) return true;
    cursor = dayAfter(range.end);
  }
  return false;
}

/** Splits `window` into what the store answers and what must be fetched. */
export function planWindow(data: SeriesData | undefined, window: DatedWindow, options: PlanOptions): WindowPlan {
  const { start, end } = window;
  if (start > end) return { stored: [], fetch: [], fallback: null, messages: [], plainServed: false };
  const series = data ?? EMPTY_SERIES;

  const fetch: DatedWindow[] = [];
  const served: DatedWindow[] = [];
  const addFetch = (s: string, e: string) => {
    const previous = fetch[fetch.length - 1];
    if (previous && dayAfter(previous.end) === s) previous.end = e;
    else fetch.push({ start: s, end: e });
  };

  let cursor = start;
  let staleAt = Infinity;
  let newestAt = -Infinity;
  let coveredEnd: string | null = null; // last day of the last range touching the window
  let gapBeforeCoverage = false; // a day the store lacks, before a day it holds
  const messages: string[] = [];
  let plainServed = false;
  const ranges = series.ranges;
  for (let i = firstRangeEndingOnOrAfter(ranges, start); i < ranges.length; i++) {
    const range = ranges[i]!;
    if (range.start > end) break;
    const s = range.start > start ? range.start : start;
    const e = range.end < end ? range.end : end;
    if (s > cursor) {
      addFetch(cursor, dayBefore(s));
      gapBeforeCoverage = true;
    }
    newestAt = Math.max(newestAt, range.fetchedAt);
    if (usable(range, options)) {
      served.push({ start: s, end: e });
      if (range.message === undefined) plainServed = true;
      else if (!messages.includes(range.message)) messages.push(range.message);
    } else {
      addFetch(s, e);
      staleAt = Math.min(staleAt, range.fetchedAt);
    }
    coveredEnd = e;
    cursor = dayAfter(e);
  }
  if (cursor <= end) addFetch(cursor, end);

  const joined = joinClosest(fetch, options.maxFetches ?? 2);
  // The points are copied out of the series when first read, not here: a cell waiting for the rest of its window
  // holds its plan meanwhile, and the series it was made from never changes (a merge makes a new one).
  const fallback =
    coveredEnd !== null && !gapBeforeCoverage
      ? new HeldPoints(series, start, end, Number.isFinite(staleAt) ? staleAt : newestAt)
      : null;
  if (served.length === 0) return { stored: [], fetch: joined, fallback, messages, plainServed };
  return new PartlyStoredPlan(series, served, joined, fallback, messages, plainServed);
}

/**
 * A plan whose stored points are copied out of the series when first read.
 * Classes, not object literals with getters: V8 keeps an object literal with
 * accessors as a dictionary, several hundred bytes per waiting cell.
 */
class PartlyStoredPlan implements WindowPlan {
  private points: StoredPoint[] | undefined;

  constructor(
    private readonly series: SeriesData,
    private readonly served: DatedWindow[],
    readonly fetch: DatedWindow[],
    readonly fallback: WindowPlan["fallback"],
    readonly messages: string[],
    readonly plainServed: boolean,
  ) {}

  get stored(): StoredPoint[] {
    return (this.points ??= pointsIn(this.series, this.served, this.fetch));
  }
}

/** Every point the store holds in a window, copied out of the series when first read (see PartlyStoredPlan). */
class HeldPoints {
  private held: StoredPoint[] | undefined;

  constructor(
    private readonly series: SeriesData,
    private readonly start: string,
    private readonly end: string,
    readonly fetchedAt: number,
  ) {}

  get points(): StoredPoint[] {
    return (this.held ??= pointsIn(this.series, [{ start: this.start, end: this.end }], []));
  }
}

/** Joins the fetch windows separated by the smallest gaps until at most `max` remain. */
function joinClosest(fetch: DatedWindow[], max: number): DatedWindow[] {
  const out = fetch.map((r) => ({ ...r }));
  while (out.length > Math.max(1, max)) {
    let best = 0;
    let bestGap = Infinity;
    for (let i = 0; i + 1 < out.length; i++) {
      const gap = daysBetween(out[i]!.end, out[i + 1]!.start);
      if (gap < bestGap) {
        bestGap = gap;
        best = i;
      }
    }
    out.splice(best, 2, { start: out[best]!.start, end: out[best + 1]!.end });
  }
  return out;
}

function daysBetween(a: string, b: string): number {
  return (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;
}

/** The stored points inside `ranges` and outside `excluded`, in date order. */
function pointsIn(series: SeriesData, ranges: readonly DatedWindow[], excluded: readonly DatedWindow[]): StoredPoint[] {
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
