/**
 * What answered each MD call: one record per normalized call (the function and
 * its arguments as the add-in read them), kept in the shared runtime beside the
 * call tracker so functions.js and the pane read the same records.
 *
 * A record holds the call's state (pending, done, failed), when it started and
 * settled, its error, the series windows it asked the client for, and what the
 * function knew of the value it returned (ValueFacts: the reading's date or the
 * window's days, settled or not, the source, when fetched, any correction).
 * `forCall` joins a record with the client's answer log (src/api/answer-log.ts):
 * the request(s) that answered each pair (address without key or token, when,
 * how long, service or the firm gateway's cache) or this computer's store, the
 * days covered and settled, the points the answer checks dropped and why, and
 * the corrections the store applied.
 *
 * Nothing here sends a request; memory is bounded: the last MAX_CALL_RECORDS
 * calls (a workbook's MD cells, recalculated, reuse their keys), with at most
 * MAX_ASKED windows each. A call is keyed when the records are read, not as it
 * starts; while nobody reads them, the most recent MAX_CALL_RECORDS runs are
 * kept. Listeners hear of every start and settlement, and `summary()` counts
 * the calls by state (MD.STATUS reads it once a turn).
 */
import type { AnswerLogView, PairAnswer, Revision } from "../api";
import { plainArgument } from "../core/excel-input";
import type { Provenance } from "../core/provenance";

export type CallState = "pending" | "done" | "failed";

/** One series window a call asked the client for. */
export interface SeriesAsked {
  symbol: string;
  metric: string;
  granularity?: string;
  start?: string;
  end?: string;
}

/** Where a value came from, as the add-in knew when it returned it (core/provenance.ts, src/functions/provenance.ts). */
export type ValueFacts = Provenance;

export interface CallRecord {
  /** The normalized call, e.g. `MD.LATEST("btc","PRICE",,)`. */
  readonly key: string;
  /** The function's name without the prefix, e.g. `LATEST`. */
  readonly fn: string;
  /** The arguments as the add-in read them, as formula text. */
  readonly args: readonly string[];
  state: CallState;
  /** ms since the epoch. */
  startedAt: number;
  settledAt?: number;
  /** A failure's message. */
  error?: string;
  /** The series windows the call asked for, in order (at most MAX_ASKED). */
  asked: SeriesAsked[];
  /** What the value's provenance was, for the values that carry one. */
  facts?: ValueFacts[];
}

/** A record joined with what answered it: the client's answers of its pairs over its windows, and their corrections. */
export interface CallTrace extends CallRecord {
  answers: readonly PairAnswer[];
  revisions: readonly Revision[];
}

export interface CallSummary {
  /** Calls recorded (distinct keys, the most recent MAX_CALL_RECORDS). */
  total: number;
  pending: number;
  failed: number;
  done: number;
  /** When the last call settled, ms since the epoch (0: none yet). */
  lastSettledAt: number;
}

/** What a running call reports into its record. */
export interface CallHandle {
  readonly key: string;
  /** A series window the call asks the client for. */
  asked(window: SeriesAsked): void;
  /** The provenance of a value the call returns. */
  facts(facts: ValueFacts): void;
  /** Settles the record: done, or failed with the error's message. Only the latest run of a key settles it. */
  settle(error?: unknown): void;
}

export const MAX_CALL_RECORDS = 5000;
export const MAX_ASKED = 16;
const MAX_FACTS = 64;

/** A read argument as formula text: text quoted, numbers as they are, an omitted one empty, a range as an array constant. */
export function argumentText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    if (value.length === 1 && Array.isArray(value[0]) && value[0].length === 1) return argumentText(value[0][0]);
    return `{${value.map((row) => (Array.isArray(row) ? row.map(argumentText).join(",") : argumentText(row))).join(";")}}`;
  }
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/** An argument as the add-in reads it (a data type's plain value: core/excel-input.ts), as formula text. */
function readArgumentText(value: unknown): string {
  try {
    return argumentText(plainArgument(value, "argument"));
  } catch {
    return argumentText(value);
  }
}

/** The normalized call: `MD.FN(arg,arg,…)`, each argument as the add-in read it, omitted ones kept as empty places. */
export function callKey(fn: string, args: readonly unknown[]): string {
  return keyOf(fn.toUpperCase(), args.map(readArgumentText));
}

function keyOf(fn: string, texts: readonly string[]): string {
  return `MD.${fn}(${texts.join(",")})`;
}

/**
 * One run of a call: the handle the running call fills its record through, one object a call (every cell has one).
 * Its key and argument texts are worked out when first read (CallRecords keys the runs it holds in batches: see
 * `fresh`), not as the call starts: a cell's own work comes first.
 */
class Run implements CallHandle {
  state: CallState = "pending";
  settledAt?: number;
  error?: string;
  /**
   * The windows asked and the values' facts: the first of each held as it is, the rest in an array made only for
   * them (most calls ask one window and return one value; every cell keeps its run).
   */
  private window?: SeriesAsked;
  private moreWindows?: SeriesAsked[];
  private fact?: ValueFacts;
  private moreFacts?: ValueFacts[];
  /** Whether this run still owns its record: false once a later run of its key began, or it was forgotten. */
  current = true;
  private texts?: string[];
  private normalized?: string;

  constructor(
    private readonly name: string,
    private readonly raw: readonly unknown[],
    readonly startedAt: number,
    private readonly records: CallRecords,
  ) {}

  get fn(): string {
    return this.name.toUpperCase();
  }

  get args(): readonly string[] {
    return (this.texts ??= this.raw.map(readArgumentText));
  }

  get key(): string {
    return (this.normalized ??= keyOf(this.fn, this.args));
  }

  asked(window: SeriesAsked): void {
    if (!this.window) {
      this.window = window;
      return;
    }
    const more = (this.moreWindows ??= []);
    if (more.length + 1 >= MAX_ASKED || sameWindow(this.window, window)) return;
    for (const held of more) if (sameWindow(held, window)) return;
    more.push(window);
  }

  facts(facts: ValueFacts): void {
    if (!this.fact) this.fact = facts;
    else if ((this.moreFacts ??= []).length + 1 < MAX_FACTS) this.moreFacts.push(facts);
  }

  /** The windows asked, in order. */
  windows(): SeriesAsked[] {
    return this.window ? [this.window, ...(this.moreWindows ?? [])] : [];
  }

  settle(error?: unknown): void {
    this.records.settleRun(this, error);
  }

  /** The run as its record reads, as it is now. */
  record(): CallRecord {
    const record: CallRecord = {
      key: this.key,
      fn: this.fn,
      args: this.args,
      state: this.state,
      startedAt: this.startedAt,
      asked: this.windows(),
    };
    if (this.settledAt !== undefined) record.settledAt = this.settledAt;
    if (this.error !== undefined) record.error = this.error;
    if (this.fact) record.facts = [this.fact, ...(this.moreFacts ?? [])];
    return record;
  }
}

export class CallRecords {
  /** The runs keyed, by key: the latest run of each call, oldest first. */
  private readonly records = new Map<string, Run>();
  /**
   * The runs begun since the last keying, in order: keyed in one go when something reads the records, so that a
   * recalculation's cells do not each work out their key as they start. Bounded: see forgetOlderThanFresh.
   */
  private fresh: Run[] = [];
  private readonly listeners = new Set<(record: CallRecord) => void>();
  private readonly counts = { pending: 0, failed: 0, done: 0 };
  private lastSettledAt = 0;

  /** `answers`: the client's answer log (absent: traces carry no answers). */
  constructor(
    private readonly answers: () => AnswerLogView | undefined,
    private readonly now: () => number = Date.now,
    private readonly max = MAX_CALL_RECORDS,
  ) {}

  /** A call starts: its record (new, or the key's earlier one started again) and the handle that fills it. */
  begin(fn: string, args: readonly unknown[]): CallHandle {
    const run = new Run(fn, args, this.now(), this);
    this.fresh.push(run);
    this.counts.pending += 1;
    if (this.fresh.length >= 2 * this.max) this.forgetOlderThanFresh();
    if (this.listeners.size > 0) this.tell(run);
    return run;
  }

  /**
   * Twice `max` runs wait and nobody read the records: the records keep the most recent `max` runs, unkeyed as
   * they are, and forget the rest (and every keyed record: they are older still).
   */
  private forgetOlderThanFresh(): void {
    for (const run of this.records.values()) this.drop(run);
    this.records.clear();
    for (const run of this.fresh.splice(0, this.fresh.length - this.max)) this.drop(run);
  }

  /**
   * The runs begun since the last keying, keyed in the order they began: a run takes its key's record from an
   * earlier run (whose count goes, and whose end changes nothing any more); then the oldest past `max` go.
   */
  private keyFresh(): void {
    const fresh = this.fresh;
    this.fresh = [];
    for (const run of fresh) {
      let key: string;
      try {
        key = run.key;
      } catch {
        this.drop(run);
        continue;
      }
      const earlier = this.records.get(key);
      if (earlier) {
        this.drop(earlier);
        this.records.delete(key);
      }
      this.records.set(key, run);
    }
    // The oldest past `max` go, in one walk from the oldest.
    let excess = this.records.size - this.max;
    for (const [key, run] of this.records) {
      if (excess-- <= 0) break;
      this.drop(run);
      this.records.delete(key);
    }
  }

  /** A run no longer counted: a later run of its call owns the record, or it was forgotten. */
  private drop(run: Run): void {
    this.counts[run.state] -= 1;
    run.current = false;
  }

  /** A run's end (Run.settle). */
  settleRun(run: Run, error: unknown): void {
    // A later run of the same call owns the key now; an abandoned run's end changes nothing.
    if (!run.current || run.state !== "pending") return;
    this.counts.pending -= 1;
    run.state = error === undefined ? "done" : "failed";
    this.counts[run.state] += 1;
    if (error !== undefined) run.error = error instanceof Error ? error.message : String(error);
    run.settledAt = this.lastSettledAt = this.now();
    if (this.listeners.size > 0) this.tell(run);
  }

  private tell(run: Run): void {
    const record = run.record();
    for (const listener of this.listeners) {
      try {
        listener(record);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  /** The record of a normalized call (callKey) joined with its answers; undefined when not recorded. */
  forCall(key: string): CallTrace | undefined {
    this.keyFresh();
    const record = this.records.get(key)?.record();
    if (!record) return undefined;
    const log = this.answers();
    const answers: PairAnswer[] = [];
    const revisions: Revision[] = [];
    const pairs = new Set<string>();
    for (const window of record.asked) {
      const pair = `${window.symbol} ${window.metric}`;
      if (pairs.has(pair) || !log) continue;
      pairs.add(pair);
      for (const answer of log.answers(window.symbol, window.metric))
        if (record.asked.some((asked) => overlaps(asked, answer))) answers.push(answer);
      for (const revision of log.revisions(window.symbol, window.metric))
        if (record.asked.some((asked) => covers(asked, window, revision.date))) revisions.push(revision);
    }
    answers.sort((a, b) => a.fetchedAt - b.fetchedAt);
    // The record is the run as it is now (Run.record): its windows already a copy.
    return { ...record, answers, revisions };
  }

  /** The records, oldest first. */
  all(): readonly CallRecord[] {
    this.keyFresh();
    return [...this.records.values()].map((run) => run.record());
  }

  summary(): CallSummary {
    this.keyFresh();
    return { total: this.records.size, ...this.counts, lastSettledAt: this.lastSettledAt };
  }

  /** Hears every start and settlement; returns the unsubscribe. */
  subscribe(listener: (record: CallRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    for (const run of this.records.values()) run.current = false;
    for (const run of this.fresh) run.current = false;
    this.records.clear();
    this.fresh = [];
    this.counts.pending = this.counts.failed = this.counts.done = 0;
  }
}

function sameWindow(a: SeriesAsked, b: SeriesAsked): boolean {
  return (
    a.symbol === b.symbol &&
    a.metric === b.metric &&
    a.start === b.start &&
    a.end === b.end &&
    a.granularity === b.granularity
  );
}

function overlaps(asked: SeriesAsked, answer: PairAnswer): boolean {
  if (asked.symbol !== answer.symbol || asked.metric !== answer.metric) return false;
  if (asked.start !== undefined && answer.to !== undefined && answer.to < asked.start) return false;
  if (asked.end !== undefined && answer.from !== undefined && answer.from > asked.end) return false;
  return true;
}

function covers(asked: SeriesAsked, pair: SeriesAsked, date: string): boolean {
  if (asked.symbol !== pair.symbol || asked.metric !== pair.metric) return false;
  return (asked.start === undefined || asked.start <= date) && (asked.end === undefined || date <= asked.end);
}
