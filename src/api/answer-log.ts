/**
 * What answered each series pair, as the client saw it: the request that
 * carried it (its address without key or token, when, how long, whether the
 * firm gateway's cache or the service answered), or the persistent store; the
 * days it covered and up to which day they had settled; the points the answer
 * checks dropped (http/responses.ts `soundPoints`) and the corrections the
 * store applied when a recheck brought a different value for a day it held.
 *
 * Written as the answers arrive (series/batcher.ts, store/read-through.ts),
 * read by the office layer's call records (src/office/call-records.ts). It
 * adds no request and keeps a bounded amount: the last ANSWERS_PER_PAIR
 * answers of the last MAX_PAIRS pairs.
 */
import type { SeriesWindow } from "../core/domain";
import type { DroppedPoints, SeriesTable } from "./http/responses";

/** Where an answer came from: the service, the firm gateway's cache, or this computer's store. */
export type AnswerSource = "service" | "gateway-cache" | "store";

/** One request as sent: its address (no key, no token), when it was answered, and how long it took. */
export interface AnsweringRequest {
  address: string;
  /** When the answer arrived, ms since the epoch. */
  at: number;
  ms: number;
  /** The gateway's `X-Cache-Status` (HIT, MISS, STALE, …) when it sent one. */
  cacheStatus?: string;
}

/** A day's value the store held and a recheck replaced. */
export interface Revision {
  date: string;
  was: number;
  now: number;
  /** When the earlier value had been fetched, and when the correction arrived (ms since the epoch). */
  wasFetchedAt: number;
  at: number;
}

/** One answer for one pair. */
export interface PairAnswer {
  symbol: string;
  metric: string;
  granularity?: string;
  source: AnswerSource;
  /** When the data was fetched from the service (for the store: when it was stored), ms since the epoch. */
  fetchedAt: number;
  /** The days covered (the window asked), YYYY-MM-DD; `to` absent for an open end. */
  from?: string;
  to?: string;
  /** The last settled day of those covered, when known. */
  settledThrough?: string;
  /** The request that carried it (absent for the store). */
  request?: AnsweringRequest;
  /** Points the answer checks dropped, by reason (`outside the window: 2`). */
  dropped?: Readonly<Record<string, number>>;
  /** The store's answer: the known ranges it read (each fetched at its own time), at most STORE_RANGES_KEPT. */
  ranges?: readonly StoredRange[];
  /** Corrections the store applied with this answer: the first REVISIONS_SHOWN, and how many days in all. */
  revisions?: readonly Revision[];
  revisedDays?: number;
}

/** Days the store held, fetched together at `fetchedAt`, settled or not. */
export interface StoredRange {
  start: string;
  end: string;
  fetchedAt: number;
  settled: boolean;
}

export const ANSWERS_PER_PAIR = 6;
export const STORE_RANGES_KEPT = 16;
export const MAX_PAIRS = 5000;
/** Corrections kept per pair (a methodology change revises every day: the most recent days are kept). */
export const REVISIONS_PER_PAIR = 2000;
export const REVISIONS_SHOWN = 20;

function pairKey(symbol: string, metric: string): string {
  return `${symbol}\u0000${metric}`;
}

/** What readers may ask of the log (MarketDataClient.answers). */
export interface AnswerLogView {
  answers(symbol: string, metric: string): readonly PairAnswer[];
  revision(symbol: string, metric: string, date: string): Revision | undefined;
  revisions(symbol: string, metric: string): readonly Revision[];
}

/** The answers of the most recently answered pairs. */
export class AnswerLog implements AnswerLogView {
  private readonly pairs = new Map<string, PairAnswer[]>();
  private readonly revised = new Map<string, Map<string, Revision>>();

  note(answer: PairAnswer): void {
    const key = pairKey(answer.symbol, answer.metric);
    let answers = this.pairs.get(key);
    // The store handing out days this session fetched: the answers that fetched them stay the ones that answered.
    if (answer.source === "store" && answers && fetchedThisSession(answers, answer)) return;
    if (answers) {
      this.pairs.delete(key);
      answers.push(answer);
      if (answers.length > ANSWERS_PER_PAIR) answers.shift();
    } else {
      // Most pairs are answered once a recalculation: an array the size of one answer, grown when another comes.
      answers = [answer];
    }
    this.pairs.set(key, answers);
    if (this.pairs.size > MAX_PAIRS) this.pairs.delete(this.pairs.keys().next().value!);
  }

  /**
   * A fetched range kept in the store (store/read-through.ts): the pair's latest answer from the service takes the
   * store's fetch time and learns up to which day its days had settled, and the corrections it brought are kept.
   */
  kept(
    symbol: string,
    metric: string,
    fetched: { fetchedAt: number; settledThrough: string; start: string; end: string },
    revisions: readonly Revision[] | undefined,
  ): void {
    const key = pairKey(symbol, metric);
    const answers = this.pairs.get(key) ?? [];
    let answer: PairAnswer | undefined;
    for (let i = answers.length - 1; i >= 0 && !answer; i--) {
      const held = answers[i]!;
      if (held.source !== "store" && held.settledThrough === undefined && holds(held, fetched.start, fetched.end))
        answer = held;
    }
    if (answer) {
      answer.settledThrough = fetched.settledThrough;
      answer.fetchedAt = fetched.fetchedAt;
    }
    if (!revisions?.length) return;
    this.noteRevisions(key, revisions);
    const shown = answer ?? answers.at(-1);
    if (shown && shown.source !== "store") {
      const all = [...(shown.revisions ?? []), ...revisions];
      shown.revisedDays = (shown.revisedDays ?? 0) + revisions.length;
      shown.revisions = all.length > REVISIONS_SHOWN ? all.slice(0, REVISIONS_SHOWN) : all;
    }
  }

  /** Every correction seen for a pair is kept while the pair is (a later answer from the store does not hide it). */
  private noteRevisions(key: string, revisions: readonly Revision[]): void {
    const kept = this.revised.get(key) ?? new Map<string, Revision>();
    this.revised.delete(key);
    for (const revision of revisions) {
      kept.delete(revision.date);
      kept.set(revision.date, revision);
      if (kept.size > REVISIONS_PER_PAIR) kept.delete(kept.keys().next().value!);
    }
    this.revised.set(key, kept);
    if (this.revised.size > MAX_PAIRS) this.revised.delete(this.revised.keys().next().value!);
  }

  /** A pair's recent answers, oldest first. */
  answers(symbol: string, metric: string): readonly PairAnswer[] {
    return this.pairs.get(pairKey(symbol, metric)) ?? [];
  }

  /** The latest correction of a pair's day, if a recheck brought one. */
  revision(symbol: string, metric: string, date: string): Revision | undefined {
    // Most sessions see no correction: no key is built to find none.
    if (this.revised.size === 0) return undefined;
    return this.revised.get(pairKey(symbol, metric))?.get(date);
  }

  /** Corrections of a pair's days, in the order they arrived. */
  revisions(symbol: string, metric: string): readonly Revision[] {
    if (this.revised.size === 0) return [];
    const kept = this.revised.get(pairKey(symbol, metric));
    return kept ? [...kept.values()] : [];
  }

  clear(): void {
    this.pairs.clear();
    this.revised.clear();
  }
}

/** One series answer's pairs, recorded as the batcher reads it (series/batcher.ts); nothing when there is no log. */
export class SeriesAnswerRecorder {
  private droppedOf: Map<string, DroppedPoints> | undefined;

  private readonly log: AnswerLog | undefined;

  constructor(
    private readonly deps: { answers?: AnswerLog; counters: { dropped: number }; log: (line: string) => void },
    private readonly window: SeriesWindow,
  ) {
    this.log = deps.answers;
  }

  /** Points an answer held that broke a rule (http/responses.ts `soundPoints`): counted for the pane, named in the log, recorded. */
  dropped(symbol: string, metric: string, dropped: DroppedPoints): void {
    let total = 0;
    const why: string[] = [];
    for (const [reason, count] of Object.entries(dropped)) {
      total += count;
      why.push(`${count} ${reason}`);
    }
    this.deps.counters.dropped += total;
    const { start, end } = this.window;
    this.deps.log(`${symbol} ${metric} ${start ?? ""}…${end ?? ""}: ${total} point(s) dropped (${why.join(", ")})`);
    if (this.log) (this.droppedOf ??= new Map()).set(`${symbol} ${metric}`, dropped);
  }

  /** Each pair of the answer: the request that carried it, its days, what the checks dropped. */
  answered(sent: { address?: string; ms?: number; cacheStatus?: string }, table: SeriesTable, at: number): void {
    const log = this.log;
    if (!log) return;
    const window = this.window;
    const request: AnsweringRequest = { address: sent.address ?? "", at, ms: sent.ms ?? 0 };
    if (sent.cacheStatus !== undefined) request.cacheStatus = sent.cacheStatus;
    const source = sourceOfCacheStatus(sent.cacheStatus);
    for (const [symbol, row] of table) {
      for (const metric of row.keys()) {
        const answer: PairAnswer = { symbol, metric, source, fetchedAt: at, request };
        if (window.start !== undefined) answer.from = window.start;
        if (window.end !== undefined) answer.to = window.end;
        if (window.granularity !== undefined) answer.granularity = window.granularity;
        const dropped = this.droppedOf?.get(`${symbol} ${metric}`);
        if (dropped) answer.dropped = dropped;
        log.note(answer);
      }
    }
  }
}

/** An answer's days hold `start` to `end` (an open end holds everything after its start). */
function holds(answer: PairAnswer, start: string | undefined, end: string | undefined): boolean {
  return (
    (answer.from === undefined || (start !== undefined && answer.from <= start)) &&
    (answer.to === undefined || (end !== undefined && end <= answer.to))
  );
}

/** The request of this session that fetched the stored days `range` holds, if one did (same fetch time, its days). */
export function fetchOf(answers: readonly PairAnswer[], range: StoredRange, date?: string): PairAnswer | undefined {
  for (let i = answers.length - 1; i >= 0; i--) {
    const held = answers[i]!;
    if (held.source === "store" || held.fetchedAt !== range.fetchedAt) continue;
    if (date !== undefined ? holds(held, date, date) : holds(held, range.start, range.end)) return held;
  }
  return undefined;
}

function fetchedThisSession(answers: readonly PairAnswer[], stored: PairAnswer): boolean {
  return stored.ranges !== undefined && stored.ranges.every((range) => fetchOf(answers, range) !== undefined);
}

/** Whether the firm gateway's cache answered, from its `X-Cache-Status` (nginx's $upstream_cache_status). */
export function sourceOfCacheStatus(status: string | undefined): "service" | "gateway-cache" {
  if (!status) return "service";
  const said = status.toUpperCase();
  return said === "HIT" || said === "STALE" || said === "UPDATING" || said === "REVALIDATED"
    ? "gateway-cache"
    : "service";
}
