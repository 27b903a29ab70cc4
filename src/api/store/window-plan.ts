/**
 * Which parts of a caller's window the persistent store answers and which
 * must be asked of the service, decided on what it knows of the series
 * (series-data.ts) by the store's trust policy (trust.ts; no IndexedDB, no
 * clock, no network here):
 *
 * - `dueSettled`: the settled days whose trust has run out, for the cheap
 *   recheck (coarse-recheck.ts) before `planWindow` fetches them daily.
 * - `planWindow`: which parts of a caller's window the store answers and which
 *   must be asked of the service (missing, unsettled and no longer fresh, or
 *   settled but older than the revalidation age), and what the store could
 *   show instead if the service cannot be reached.
 */
import type { DatedWindow } from "../../core/domain";
import { dayAfter, dayBefore, EMPTY_SERIES, firstRangeEndingOnOrAfter, pointsIn } from "./series-data";
import { dueForRecheck, trusted, type TrustMoment } from "./trust";
import type { SeriesData, StoredPoint } from "./types";

export interface PlanOptions extends TrustMoment {
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

/**
 * The stretches of settled days with points (not a message's) inside `window`
 * that are due for recheck (trust.ts dueForRecheck): in date order,
 * neighbours joined.
 */
export function dueSettled(data: SeriesData | undefined, window: DatedWindow, options: PlanOptions): DatedWindow[] {
  const out: DatedWindow[] = [];
  for (const range of (data ?? EMPTY_SERIES).ranges) {
    if (range.end < window.start) continue;
    if (range.start > window.end) break;
    if (range.message !== undefined || !dueForRecheck(range, options)) continue;
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
    if (range.message === undefined || !dueForRecheck(range, options)) continue;
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
    if (range.message !== undefined || !trusted(range, options)) return false;
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
    if (trusted(range, options)) {
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
