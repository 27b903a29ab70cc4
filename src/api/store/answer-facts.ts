/**
 * What the answer log (../answer-log.ts) is told of the store's part in an
 * answer: the days it answered, when they were fetched and up to which day
 * they had settled; and the corrections a fetched range brings to the days the
 * store held (a recheck that found a different value). Pure: no IndexedDB, no
 * clock.
 */
import { type AnswerLog, type PairAnswer, type Revision, STORE_RANGES_KEPT, type StoredRange } from "../answer-log";
import { lowerBound } from "./series-data";
import type { SeriesData, StoredPoint } from "./types";

/** The store answered `symbol metric` from `from` to `to` out of `data`: recorded with its fetch time and settled days. */
export function noteStoreAnswer(
  log: AnswerLog | undefined,
  symbol: string,
  metric: string,
  data: SeriesData | undefined,
  from: string,
  to: string,
): void {
  if (!log || !data || from > to) return;
  let fetchedAt = 0;
  let settledThrough: string | undefined;
  let settledSoFar = true;
  // The ranges are in date order and disjoint: those that meet from…to are one run of them.
  let first = -1;
  let last = -1;
  for (let i = 0; i < data.ranges.length; i++) {
    const range = data.ranges[i]!;
    if (range.end < from || range.start > to) continue;
    if (first < 0) first = i;
    last = i;
    if (range.fetchedAt > fetchedAt) fetchedAt = range.fetchedAt;
    if (settledSoFar && range.settled) settledThrough = range.end < to ? range.end : to;
    else settledSoFar = false;
  }
  // The store's own ranges (series-data.ts replaces a series' ranges on every change and never alters one).
  const ranges: StoredRange[] =
    first < 0 ? [] : data.ranges.slice(first, Math.min(last + 1, first + STORE_RANGES_KEPT));
  const answer: PairAnswer = { symbol, metric, source: "store", fetchedAt, from, to, granularity: "DAY", ranges };
  if (settledThrough !== undefined) answer.settledThrough = settledThrough;
  log.note(answer);
}

/** The store's part of a mixed answer: the days of the stored points. */
export function noteStoredPoints(
  log: AnswerLog | undefined,
  symbol: string,
  metric: string,
  data: SeriesData | undefined,
  stored: readonly StoredPoint[],
): void {
  if (log && stored.length > 0) noteStoreAnswer(log, symbol, metric, data, stored[0]!.date, stored.at(-1)!.date);
}

/**
 * The days whose value a fetched range changes: held with a value before,
 * answered now with another. Read before the range is written.
 */
export function revisionsOf(
  data: SeriesData | undefined,
  points: readonly StoredPoint[],
  at: number,
): Revision[] | undefined {
  if (!data || data.dates.length === 0) return undefined;
  let revisions: Revision[] | undefined;
  for (const point of points) {
    if (point.val === null) continue;
    const i = lowerBound(data.dates, point.date);
    if (data.dates[i] !== point.date) continue;
    const was = data.vals[i];
    if (was === null || was === undefined || was === point.val) continue;
    (revisions ??= []).push({ date: point.date, was, now: point.val, wasFetchedAt: fetchedAtOf(data, point.date), at });
  }
  return revisions;
}

function fetchedAtOf(data: SeriesData, date: string): number {
  for (const range of data.ranges) if (range.start <= date && date <= range.end) return range.fetchedAt;
  return 0;
}
