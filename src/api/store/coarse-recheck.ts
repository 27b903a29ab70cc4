/**
 * The cheap recheck of stored settled days (DESIGN "Budgets": a week of daily
 * reopens stays within the next-day budget). When a stretch of a series'
 * settled days is due for recheck (its trust period has passed, or a refresh
 * was told to recheck history), the store does not download it again day by
 * day: it asks the service for the same stretch at a coarse granularity and
 * compares each period with the stored days rolled up the same way.
 *
 * The rule:
 *
 * - **Which stretches.** Settled days due for recheck, in stretches of at
 *   least `minDays` (31) days inside the caller's window, or the window's
 *   settled head of at least `minWindowHeadDays` (7) days (a 30-day window's
 *   settled days); shorter stretches (the day or two settled at each next-day
 *   open, next to the unsettled tail that is fetched anyway) are fetched
 *   daily as before.
 * - **Granularity.** The finest of MONTH, QUARTER and YEAR that cuts the
 *   stretch into at most `maxPeriods` (24) periods: a year is rechecked by its
 *   13 months, three years by their 13 quarters, ten years by their 11 years.
 *   The request is the stretch's own dates, so it is batched like any series
 *   request: the series rechecked on the same open share their requests.
 * - **Aggregation.** The metric's aggregation type (the metric catalog's
 *   `aggregation_type`, core/metric-knowledge.ts where the catalog has none):
 *   SUM and AVERAGE only. A period's SUM or AVERAGE moves when any one of its
 *   days moves, so comparing it checks every day. LAST shows only a period's
 *   last day, so a correction inside a period would pass unseen: LAST
 *   metrics, and metrics whose type is unknown, are rechecked day by day.
 * - **Periods.** The service rolls up only the days inside the window asked
 *   for, and labels a period by its first day (sandbox/aggregate.ts,
 *   core/periods.ts); the stored days are rolled up over the same stretch, so
 *   a partial first or last period is compared over the same days on both
 *   sides. A period with no point on either side agrees.
 * - **Tolerance.** Two values agree when |a − b| ≤ 1e-9 × max(|a|, |b|): the
 *   two sums add the same numbers in a possibly different order and scale.
 *   A correction smaller than that share of its period's total, or two
 *   corrections of one period that cancel exactly, would go unseen.
 * - **Messages.** Settled days the service answered with a message (the pair
 *   unsupported, no data there) are asked at the same coarse granularity,
 *   whatever their length and aggregation: the same message re-confirms them
 *   (a day with data would roll up into a period); anything else, and they
 *   are asked again as they were.
 * - **Outcome.** The days of the periods that agree are re-confirmed: stored
 *   again as they are, fetched now, trusted for another trust period. The
 *   periods that differ, a period missing on one side, a value that is not a
 *   number, and a stretch the service answered with a message are fetched
 *   daily as before.
 *
 * The pure parts (which stretches, granularity, aggregation, comparison) come
 * first; `recheckCoarsely` makes the recheck through the read-through's way
 * to the service and writes what it re-confirms to the store.
 */
import { addDays, daysBetween } from "../../core/calendar";
import type { DataPoint, DatedWindow, Granularity, SeriesResult, SeriesWindow } from "../../core/domain";
import { periodEndOf, periodStartOf } from "../../core/periods";
import type { CallOptions } from "../types";
import { NotCachedError } from "../errors";
import { isUnreachable } from "./offline";
import { mergeFetched, storedPointsIn } from "./series-data";
import type { SeriesId, PersistentSeriesStore, SeriesData, StoredPoint } from "./types";
import { dueMessages, dueSettled, type PlanOptions } from "./window-plan";

export const COARSE_RECHECK = {
  /** Shorter stretches are fetched daily (the day or two settled at a long window's edge)… */
  minDays: 31,
  /** …unless the stretch is the head of the caller's window and at least this long (a 30-day lookup's settled days). */
  minWindowHeadDays: 7,
  /** The finest granularity with at most this many periods over the stretch. */
  maxPeriods: 24,
  /** Relative tolerance of a period's comparison. */
  relativeTolerance: 1e-9,
} as const;

export type CoarseAggregation = "SUM" | "AVERAGE";
export type CoarseGranularity = "MONTH" | "QUARTER" | "YEAR";

/** The aggregation a coarse recheck can trust, from the catalog's `aggregation_type`; null: recheck day by day. */
export function coarseAggregation(type: string | undefined): CoarseAggregation | null {
  const t = (type ?? "").trim().toUpperCase();
  return t === "SUM" || t === "AVERAGE" ? t : null;
}

/** Whether a stretch is long enough to be rechecked coarsely. */
export function worthCoarseRecheck(stretch: DatedWindow): boolean {
  return daysBetween(stretch.start, stretch.end) + 1 >= COARSE_RECHECK.minDays;
}

/**
 * Whether a stretch due inside the caller's window is rechecked coarsely:
 * long enough (worthCoarseRecheck), or the window's own settled head of at
 * least `minWindowHeadDays` days — a short window (MD.LATEST's and L30_'s 30
 * days) has no stretch of 31 days, and its settled days would otherwise be
 * downloaded again day by day at every recheck. The 31-day rule is for the
 * day or two settled at a long window's edge, next to the unsettled tail that
 * is fetched daily anyway.
 */
export function worthCoarseRecheckIn(stretch: DatedWindow, window: DatedWindow): boolean {
  if (worthCoarseRecheck(stretch)) return true;
  return (
    stretch.start === window.start && daysBetween(stretch.start, stretch.end) + 1 >= COARSE_RECHECK.minWindowHeadDays
  );
}

/** The finest of MONTH, QUARTER, YEAR that cuts the stretch into at most `maxPeriods` periods. */
export function coarseGranularity(stretch: DatedWindow): CoarseGranularity {
  for (const granularity of ["MONTH", "QUARTER"] as const) {
    if (periodsIn(stretch, granularity).length <= COARSE_RECHECK.maxPeriods) return granularity;
  }
  return "YEAR";
}

/** The periods touching the stretch, each clipped to it, labelled by its first day. */
function periodsIn(stretch: DatedWindow, granularity: Granularity): { label: string; start: string; end: string }[] {
  const out: { label: string; start: string; end: string }[] = [];
  let label = periodStartOf(stretch.start, granularity);
  while (label <= stretch.end) {
    const last = periodEndOf(label, granularity);
    out.push({
      label,
      start: label < stretch.start ? stretch.start : label,
      end: last > stretch.end ? stretch.end : last,
    });
    label = addDays(last, 1);
  }
  return out;
}

export function agree(a: number, b: number): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= COARSE_RECHECK.relativeTolerance * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * The parts of `stretch` (one per period, clipped to it) whose stored days
 * roll up to what the service answered for that period. `stored` are the
 * store's points inside the stretch, in date order; `answer` the service's
 * coarse points for exactly the stretch.
 */
export function agreeingPeriods(
  stretch: DatedWindow,
  granularity: CoarseGranularity,
  aggregation: CoarseAggregation,
  stored: readonly StoredPoint[],
  answer: readonly DataPoint[],
): DatedWindow[] {
  const service = new Map<string, number | null>();
  for (const point of answer) {
    // A label sent twice cannot be read: the period is fetched daily.
    service.set(point.date, service.has(point.date) ? Number.NaN : point.val);
  }
  const out: DatedWindow[] = [];
  let i = 0;
  for (const period of periodsIn(stretch, granularity)) {
    let sum = 0;
    let count = 0;
    let sound = true;
    for (; i < stored.length && stored[i]!.date <= period.end; i++) {
      const point = stored[i]!;
      if (point.date < period.start) continue;
      if (point.val === null || !Number.isFinite(point.val)) sound = false;
      else sum += point.val;
      count += 1;
    }
    if (!sound) continue;
    const theirs = service.get(period.label);
    if (count === 0) {
      if (theirs === undefined) out.push({ start: period.start, end: period.end });
      continue;
    }
    if (typeof theirs !== "number" || !Number.isFinite(theirs)) continue;
    const ours = aggregation === "SUM" ? sum : sum / count;
    if (agree(ours, theirs)) out.push({ start: period.start, end: period.end });
  }
  return out;
}

/** What the recheck asks and writes through (read-through.ts's options give them). */
export interface RecheckDeps {
  store: Pick<PersistentSeriesStore, "write">;
  /** The client's ordinary way to a window: batched, chunked, isolated, cached in memory. */
  fetchWindow: (symbol: string, metric: string, window: SeriesWindow, opts: CallOptions) => Promise<SeriesResult>;
  log: (line: string) => void;
  /**
   * The metric's aggregation type for this symbol (the metric catalog's
   * `aggregation_type`), for the cheap recheck of settled days. Absent, or
   * undefined: days due for recheck are fetched daily.
   */
  aggregationType?: (symbol: string, metric: string, opts: CallOptions) => Promise<string | undefined>;
}

/**
 * The cheap recheck made: the stretches of settled days due
 * for recheck are asked for at a coarse granularity and compared period by
 * period; the days of the periods that agree are stored again as they are,
 * fetched now. Returns the store's knowledge after that, or null when
 * nothing was re-confirmed (the days due are then fetched daily). A service
 * that cannot be reached (or a value preview) throws as a daily fetch
 * would; any other refusal of the coarse request falls back to the daily
 * fetch.
 */
export async function recheckCoarsely(
  deps: RecheckDeps,
  id: SeriesId,
  data: SeriesData | undefined,
  window: DatedWindow,
  planOptions: PlanOptions,
  opts: CallOptions,
  settledThrough: string,
): Promise<SeriesData | null> {
  const stretches = dueSettled(data, window, planOptions).filter((stretch) => worthCoarseRecheckIn(stretch, window));
  // Settled days the service answered with a message: one coarse request says whether it still has nothing there.
  const said = dueMessages(data, window, planOptions);
  if (stretches.length === 0 && said.length === 0) return null;
  const { symbol, metric } = id;
  let aggregation: CoarseAggregation | null = null;
  if (stretches.length > 0 && deps.aggregationType) {
    try {
      aggregation = coarseAggregation(await deps.aggregationType(symbol, metric, opts));
    } catch (error) {
      if (error instanceof NotCachedError || isUnreachable(error)) throw error;
      // The catalog cannot say: the days due are fetched daily.
    }
  }
  const asked: { stretch: DatedWindow; granularity: CoarseGranularity; message?: string }[] = [
    ...(aggregation ? stretches : []).map((stretch) => ({ stretch, granularity: coarseGranularity(stretch) })),
    ...said.map(({ message, ...stretch }) => ({ stretch, granularity: coarseGranularity(stretch), message })),
  ];
  if (asked.length === 0) return null;
  let answers: SeriesResult[];
  try {
    answers = await Promise.all(
      asked.map(({ stretch, granularity }) => deps.fetchWindow(symbol, metric, { ...stretch, granularity }, opts)),
    );
  } catch (error) {
    if (error instanceof NotCachedError || isUnreachable(error)) throw error;
    deps.log(`coarse recheck of ${symbol} ${metric} refused; fetched daily`);
    return null;
  }
  let next = data;
  let confirmed = 0;
  const confirm = (period: DatedWindow, message: string | undefined) => {
    const fetched = {
      ...period,
      fetchedAt: planOptions.now,
      settledThrough,
      points: message === undefined ? storedPointsIn(next, period) : [],
      ...(message === undefined ? {} : { message }),
    };
    deps.store.write(id, fetched);
    next = mergeFetched(next, fetched);
    confirmed += 1;
  };
  asked.forEach(({ stretch, granularity, message }, i) => {
    const answer = answers[i]!;
    if (message !== undefined) {
      // The same message for the stretch at a coarse granularity: still nothing there (a day with data would roll up).
      if (answer.kind === "message" && answer.message === message) confirm(stretch, message);
      return;
    }
    if (answer.kind !== "points" || !aggregation) return;
    const stored = storedPointsIn(next, stretch);
    const agreeing = agreeingPeriods(stretch, granularity, aggregation, stored, answer.points);
    deps.log(
      `recheck ${symbol} ${metric} ${stretch.start}…${stretch.end} by ${granularity}: ${agreeing.length} period(s) re-confirmed`,
    );
    for (const period of agreeing) confirm(period, undefined);
  });
  return confirmed === 0 ? null : (next ?? null);
}
