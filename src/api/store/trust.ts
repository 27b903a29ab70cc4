/**
 * The persistent store's trust policy, in one place (as TanStack Query's
 * persister states how long stored data is trusted with one `maxAge` and one
 * predicate): when a stored day settles, how long what the store holds is
 * trusted, and when settled days are asked again. The rest of the store asks
 * this file; nothing else decides.
 *
 * 1. **When a day settles** (`StoreTrust.settledThrough`, `settlesIfValuedThrough`,
 *    `settledEndOf`). A day fetched on UTC day f is settled when it is
 *    `unsettledDays` (2) or more before f and its value was not null (a null
 *    stays unsettled: the service fills it in later), or when it was
 *    yesterday at the fetch, came with a real value (not null, not 0: the
 *    service's placeholders for a day not final yet) or inside a message, and
 *    the fetch was not in the first `YESTERDAY_SETTLES_AFTER_MS` of day f.
 *    Everything else is unsettled. (The cells' own reading of the newest days,
 *    core/readings.ts `UNSETTLED_DAYS`, is a display rule: which 0s to show
 *    blank. It reckons in the user's calendar, so it takes a day more.)
 * 2. **How long it is trusted** (`trusted`, the one predicate). Settled days
 *    until their trust end (below), unless fetched before a refresh told to
 *    recheck history. Unsettled days for `recentFreshMs` after the fetch,
 *    unless fetched before the last refresh; a message for unsettled days for
 *    the rest of its UTC day. Nothing fetched "in the future" (a clock moved
 *    back). A stored catalog or feed answer for its freshness less its age
 *    (`StoreTrust.answerFreshFor`).
 * 3. **When settled days are rechecked** (`dueForRecheck`): on their first use
 *    after their trust has run out, cheaply where it can be (coarse-recheck.ts
 *    compares them period by period), else fetched daily.
 *
 * The trust end of settled days, for a period P of two days or more (the
 * option `revalidateAfterMs`, 7 days by default; the service revises history
 * after methodology changes, real-service.md, and a correction reaches the
 * workbook on the first use after it, without "Reload everything"):
 *
 * - **Recheck days.** Each symbol has its recheck days: one UTC day in every
 *   cycle of P − 1 whole days (6 by default), which one fixed by a hash of
 *   the base address and the symbol (the same every session, on every
 *   machine).
 * - **Trust.** Settled days fetched on UTC day f are trusted until midnight
 *   UTC starting the symbol's first recheck day on or after f + 2: never
 *   longer than P (at most P − 1 days after the end of day f), and never
 *   asked again the day after they were fetched.
 * - **Spread.** Whenever the days were fetched, a symbol's settled days fall
 *   due on its own recheck days, together: a workbook's symbols, fetched on
 *   one morning, are rechecked a sixth of them on each of the following
 *   days (from the second on), then a sixth each day for as long as the
 *   workbook is opened daily, so no single open pays for it all.
 *
 * A period under two days is a grid of P offset by the hash: trusted until
 * the first grid instant after the fetch (at most P).
 *
 * By symbol, not by series: a request asks for every metric of every symbol
 * in it (symbols × metrics, series/batch-plan.ts), so the metrics of one
 * symbol rechecked on different days would each bring the others along.
 *
 * Every cell asks this on its way through the store (the hot path): the
 * fetch day's dates and each symbol's trust end are worked out once and
 * remembered, and the predicate allocates nothing.
 */
import { addDays, utcDateOf } from "../../core/calendar";
import type { FetchedRange, KnownRange, StoredAnswer } from "./types";

const DAY_MS = 86_400_000;

/** Into the UTC day, a fetch settles yesterday's real values only after this long (a clock ahead of the service's). */
export const YESTERDAY_SETTLES_AFTER_MS = 2 * 3_600_000;

/** Symbols whose trust end is remembered; more, and the memory starts afresh. */
const TRUST_RULES_HELD = 10_000;

export interface TrustOptions {
  /**
   * The newest days that may still change: with 2, today and yesterday (and
   * yesterday settles where the service sent a real value for it).
   */
  unsettledDays: number;
  /** The longest trust of settled days; each symbol's recheck days are spread below it. */
  revalidateAfterMs: number;
  /** Unsettled days fetched less than this long ago are answered from the store. */
  recentFreshMs: number;
}

/** What the store trusts by at one instant: the policy's options and the refreshes so far. */
export interface TrustMoment {
  /** Milliseconds since the epoch. */
  now: number;
  /** Settled days fetched longer ago than this are asked again (the service may have revised them), unless `trustEnd` says. */
  revalidateAfterMs: number;
  /** The instant until which settled days fetched at a time are trusted; default `revalidateAfterMs` after it. */
  trustEnd?: (fetchedAt: number) => number;
  /** Settled days fetched before this instant are asked again whatever their age (a refresh told to recheck history). Default 0. */
  settledStaleBefore?: number;
  /** Unsettled days fetched less than this long ago are answered from the store. */
  recentFreshMs: number;
  /** Unsettled days fetched before this instant are stale whatever their age (a refresh asked for current data). */
  staleBefore: number;
}

/** Whether the store answers the days of `range` itself at `at` (the policy's one predicate). */
export function trusted(range: KnownRange, at: TrustMoment): boolean {
  const age = at.now - range.fetchedAt;
  if (age < 0) return false; // fetched "in the future": a clock moved back; trust nothing
  if (range.settled) {
    const until = at.trustEnd ? at.trustEnd(range.fetchedAt) : range.fetchedAt + at.revalidateAfterMs;
    return at.now < until && range.fetchedAt >= (at.settledStaleBefore ?? 0);
  }
  if (range.fetchedAt < at.staleBefore) return false;
  // A message for days not settled yet holds for the rest of its UTC day: the pair is asked again at most daily.
  if (range.message !== undefined) return Math.floor(at.now / DAY_MS) === Math.floor(range.fetchedAt / DAY_MS);
  return age < at.recentFreshMs;
}

/**
 * Whether `range` holds settled days due for recheck only because of their
 * age (the trust period passed, or a refresh told to recheck history fetched
 * after them). A range fetched "in the future" (a clock moved back) is not:
 * it is fetched again whole.
 */
export function dueForRecheck(range: KnownRange, at: TrustMoment): boolean {
  return range.settled && at.now >= range.fetchedAt && !trusted(range, at);
}

/** Whether a value inside a fetched window's settled days settles: a null stays unsettled (the service fills it in later). */
export function settlesAsSent(val: number | null): boolean {
  return val !== null;
}

/** The last settled day of a fetched window: `settledThrough`, then each next day with a real value (or a message). */
export function settledEndOf(fetched: FetchedRange): string {
  let through = fetched.settledThrough;
  const until = fetched.settledIfValuedThrough;
  if (until === undefined || until <= through) return through;
  if (fetched.message !== undefined) return until;
  const byDate = new Map<string, number | null>();
  for (const point of fetched.points)
    if (point.date > through && point.date <= until) byDate.set(point.date, point.val);
  for (let day = addDays(through, 1); day <= until; day = addDays(day, 1)) {
    const val = byDate.get(day);
    if (val === undefined || val === null || val === 0) break;
    through = day;
  }
  return through;
}

/** One UTC day and the dates reckoned from it. */
interface FetchDay {
  epochDay: number;
  /** YYYY-MM-DD. */
  date: string;
  /** Its first instant, ms since the epoch. */
  startMs: number;
  /** The last day settled on it (the day minus the unsettled days). */
  settledThrough: string;
  yesterday: string;
}

/**
 * The policy as one store applies it, with what it remembers for the cells
 * asking (the fetch day's dates, each symbol's trust end) and the refreshes
 * made (which reset what is trusted).
 */
export class StoreTrust {
  private staleBefore = 0;
  /** Settled days fetched before this are asked again on their next use (a refresh told to recheck history). */
  private settledStaleBefore = 0;
  private fetchDay: FetchDay | undefined;
  /** Each symbol's trust end, its hash taken once a session. */
  private readonly trustEnds = new Map<string, { maxMs: number; end: (fetchedAt: number) => number }>();

  constructor(private readonly o: TrustOptions) {}

  /** The UTC day of an instant and the dates reckoned from it, kept for the day: every cell asks them. */
  private dayOf(ms: number): FetchDay {
    const epochDay = Math.floor(ms / DAY_MS);
    if (this.fetchDay?.epochDay !== epochDay) {
      const date = utcDateOf(ms);
      this.fetchDay = {
        epochDay,
        date,
        startMs: epochDay * DAY_MS,
        settledThrough: addDays(date, -this.o.unsettledDays),
        yesterday: addDays(date, -1),
      };
    }
    return this.fetchDay;
  }

  /** The UTC date of an instant (YYYY-MM-DD). */
  today(ms: number): string {
    return this.dayOf(ms).date;
  }

  /** The last day settled for a fetch at `fetchedAt` (its day minus the unsettled days). */
  settledThrough(fetchedAt: number): string {
    return this.dayOf(fetchedAt).settledThrough;
  }

  /**
   * Yesterday settles with a real value (the service's placeholders are null or 0) when it is the only unsettled
   * day before today, and not in the first hours of the UTC day: a clock a little ahead of the service's would
   * take the service's today, still filling in, for yesterday. Undefined: no day after `settledThrough` settles.
   */
  settlesIfValuedThrough(fetchedAt: number): string | undefined {
    const day = this.dayOf(fetchedAt);
    return this.o.unsettledDays === 2 && fetchedAt - day.startMs >= YESTERDAY_SETTLES_AFTER_MS
      ? day.yesterday
      : undefined;
  }

  /** What the store trusts `symbol`'s days by at `now`. */
  at(baseUrl: string, symbol: string, now: number): TrustMoment {
    const maxMs = this.o.revalidateAfterMs;
    return {
      now,
      revalidateAfterMs: maxMs,
      trustEnd: this.trustEndOf(baseUrl, symbol, maxMs),
      recentFreshMs: this.o.recentFreshMs,
      staleBefore: this.staleBefore,
      settledStaleBefore: this.settledStaleBefore,
    };
  }

  private trustEndOf(baseUrl: string, symbol: string, maxMs: number): (fetchedAt: number) => number {
    const key = `${baseUrl} ${symbol}`;
    let held = this.trustEnds.get(key);
    if (!held || held.maxMs !== maxMs) {
      if (this.trustEnds.size >= TRUST_RULES_HELD) this.trustEnds.clear();
      held = { maxMs, end: settledTrustEndOf(baseUrl, symbol, maxMs) };
      this.trustEnds.set(key, held);
    }
    return held.end;
  }

  /**
   * How long a stored catalog or feed answer is still fresh at `now`, in
   * milliseconds: its freshness (`ttlMs`, the catalogs' hour) less its age,
   * and 0 once that has passed or when it was fetched before the last refresh.
   */
  answerFreshFor(answer: StoredAnswer, ttlMs: number, now: number): number {
    const age = now - answer.fetchedAt;
    if (age < 0 || answer.fetchedAt < this.staleBefore) return 0;
    return Math.max(0, ttlMs - age);
  }

  /**
   * A refresh at `now`: unsettled days fetched before it are no longer
   * trusted; with `recheckHistory`, settled days fetched before it neither.
   */
  refresh(now: number, recheckHistory: boolean): void {
    this.staleBefore = now;
    if (recheckHistory) this.settledStaleBefore = this.staleBefore;
  }
}

/** The instant (ms since the epoch) until which settled days of `symbol` fetched at `fetchedAt` are trusted; at most `maxMs` later. */
export function settledTrustEnd(baseUrl: string, symbol: string, fetchedAt: number, maxMs: number): number {
  return trustEndOfShare(symbolShare(baseUrl, symbol), fetchedAt, maxMs);
}

/**
 * `settledTrustEnd` for one symbol, its hash taken once: a plan asks it of
 * every known range of the series.
 */
export function settledTrustEndOf(baseUrl: string, symbol: string, maxMs: number): (fetchedAt: number) => number {
  const share = symbolShare(baseUrl, symbol);
  if (Math.floor(maxMs / DAY_MS) < 2) return (fetchedAt) => trustEndOfShare(share, fetchedAt, maxMs);
  // A period of two days or more: the end depends only on the UTC day of the fetch, and a series' ranges were
  // mostly fetched on the same few days. The last day's end is remembered.
  let lastDay = NaN;
  let lastEnd = 0;
  return (fetchedAt) => {
    const day = Math.floor(fetchedAt / DAY_MS);
    if (day !== lastDay) {
      lastEnd = trustEndOfShare(share, fetchedAt, maxMs);
      lastDay = day;
    }
    return lastEnd;
  };
}

/** The symbol's place in [0, 1): which of the cycle's days are its recheck days. */
function symbolShare(baseUrl: string, symbol: string): number {
  return unitHash(JSON.stringify([baseUrl, symbol]));
}

function trustEndOfShare(share: number, fetchedAt: number, maxMs: number): number {
  const days = Math.floor(maxMs / DAY_MS);
  if (days >= 2) {
    const cycle = days - 1;
    const slot = Math.floor(share * cycle);
    const earliest = Math.floor(fetchedAt / DAY_MS) + 2;
    const wait = (((slot - earliest) % cycle) + cycle) % cycle;
    return (earliest + wait) * DAY_MS;
  }
  const offset = share * maxMs;
  return offset + (Math.floor((fetchedAt - offset) / maxMs) + 1) * maxMs;
}

/** The symbol's recheck day within its cycle, 0 … cycle − 1 (days since the epoch modulo the cycle), for periods of two days or more. */
export function recheckSlot(baseUrl: string, symbol: string, maxMs: number): number {
  const cycle = Math.max(1, Math.floor(maxMs / DAY_MS) - 1);
  return Math.floor(unitHash(JSON.stringify([baseUrl, symbol])) * cycle);
}

/** FNV-1a over the key's UTF-16 code units, as a fraction in [0, 1). */
function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 0x1_0000_0000;
}
