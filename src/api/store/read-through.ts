/**
 * Warm workbooks (DESIGN "Persistent cache"): a caller's series window is
 * answered from the persistent store where the store holds it settled, and
 * only the rest is fetched — through the client's ordinary path, so the
 * fetched parts are batched, chunked and isolated exactly as before. It sits
 * beside the in-memory cache, in front of the batcher; the functions know
 * nothing of it.
 *
 * What is stored and reused: daily series over windows with a start date.
 * Not stored (fetched as before): other granularities, whose first and last
 * periods the service sums only over the part inside the window, so a period
 * depends on the window that asked for it; the free-cash-flow ratios, whose
 * readings start at the first fiscal period end inside the window; windows
 * without a start (the service decides what "everything" is).
 *
 * Offline: when the service cannot be reached (network, timeout, 5xx after the
 * retries), a window the store holds (possibly with unsettled days fetched
 * earlier) is answered from it, and the client reports "showing stored data
 * from <date>" until the next refresh.
 *
 * Whose: each series is kept under who asked for it (settings' `who`), and
 * what the store answers goes out only through the gate (acceptance.ts):
 * once the network accepted that account or key in this session.
 */
import { utcDateOf } from "../../core/calendar";
import type { DataPoint, DatedWindow, SeriesResult, SeriesWindow } from "../../core/domain";
import { isFcfDerived } from "../../core/metric-knowledge";
import { NotCachedError } from "../errors";
import { recheckCoarsely, type RecheckDeps } from "./coarse-recheck";
import { isUnreachable } from "./offline";
import type { AnswerLog } from "../answer-log";
import { noteStoreAnswer, noteStoredPoints, revisionsOf } from "./answer-facts";
import { messageOver } from "./series-data";
import type { CredentialAcceptance } from "./acceptance";
import { StoreTrust, type TrustOptions } from "./trust";
import type { FetchedRange, PersistentSeriesStore, SeriesData, SeriesId, StoredAnswer } from "./types";
import { asPoints, heldWindow, mergeByDate, pointBytes, storedAnswer } from "./window-answer";
import { heldWhole, planWindow, type PlanOptions, type WindowPlan } from "./window-plan";
import type { CallOptions, StoreStatus } from "../types";

export interface SeriesReadThroughOptions extends RecheckDeps, TrustOptions {
  store: PersistentSeriesStore;
  now: () => number;
  /** The base address the answers come from and who asks (the settings, read as the client reads them). */
  settings: () => Promise<{ baseUrl: string; who?: string | null }>;
  /** When a stored answer may go out for who asks (acceptance.ts); absent: at once. */
  gate?: Pick<CredentialAcceptance, "pass" | "isOpen">;
  /** Where the store's answers and corrections are recorded (../answer-log.ts): absent, nothing is. */
  answers?: AnswerLog;
}

/** One call of the planned path (SeriesReadThrough.planned): what it asked, its plan, and how its fetched ranges are kept. */
interface PlannedCall {
  id: SeriesId;
  data: SeriesData | undefined;
  window: SeriesWindow;
  start: string;
  end: string;
  opts: CallOptions;
  /** The plan the parts are fetched by: the initial one, or the one after the coarse recheck. */
  plan: WindowPlan;
  initial: WindowPlan;
  fetchedAt: number;
  settledThrough: string;
  valuedThrough: string | undefined;
}

/**
 * The read-through in front of the batcher: a caller's window answered from
 * the persistent store (PersistentSeriesStore, persistent-store.ts) where it
 * may, the rest fetched and kept there. It holds no series itself.
 */
export class SeriesReadThrough {
  /** When a day settles and how long what is stored is trusted (trust.ts). */
  private readonly trust: StoreTrust;
  private hits = 0;
  private bytesSaved = 0;
  private offlineSince: number | null = null;
  /** Calls reading the store now: while any is, a request may yet go out (the gate's `busy`). */
  private reading = 0;

  constructor(private readonly o: SeriesReadThroughOptions) {
    this.trust = new StoreTrust(o);
  }

  /** Whether a window is answered through the store (see the module comment for what is not). */
  handles(metric: string, window: SeriesWindow): boolean {
    return window.start !== undefined && (window.granularity ?? "DAY") === "DAY" && !isFcfDerived(metric);
  }

  /**
   * A caller's window: straight from the points the store holds where it
   * answers all of it (most cells of a reopened workbook), otherwise as the
   * plan says. No closure here, so the common answer does not allocate the
   * planned path's.
   */
  async get(symbol: string, metric: string, window: SeriesWindow, opts: CallOptions): Promise<SeriesResult> {
    const start = window.start!;
    const today = this.trust.today(this.o.now());
    // As splitWindow reads an open end: today, or the start if that is later.
    const end = window.end ?? (today > start ? today : start);
    let id: SeriesId;
    let data: SeriesData | undefined;
    this.reading += 1;
    try {
      const { baseUrl, who } = await this.o.settings();
      id = who ? { baseUrl, symbol, metric, granularity: "DAY", who } : { baseUrl, symbol, metric, granularity: "DAY" };
      data = await this.o.store.read(id);
    } finally {
      this.reading -= 1;
    }
    // Value preview starts no request, the gate's neither: what is stored shows once the credential was accepted.
    if (opts.cacheOnly && !this.isOpen(id.who)) throw new NotCachedError();
    const planOptions: PlanOptions = this.trust.at(id.baseUrl, symbol, this.o.now());
    const range = { start, end };
    // Every day of the window held and usable, none with a message: what the plan would answer, without it.
    if (data && heldWhole(data, range, planOptions)) {
      const gate = this.o.gate?.pass(id.who);
      if (gate && !(await this.passed(id.who, gate))) return this.get(symbol, metric, window, opts);
      const held = heldWindow(data, start, end);
      noteStoreAnswer(this.o.answers, symbol, metric, data, start, end);
      this.hits += 1;
      this.bytesSaved += held.bytes;
      return { kind: "points", points: held.points };
    }
    return this.planned(id, data, window, range, planOptions, opts);
  }

  /** Whether a call is reading the store now (a request may yet follow). */
  busy(): boolean {
    return this.reading > 0;
  }

  /**
   * A window the store does not answer whole: the plan's parts fetched, kept,
   * and joined with what the store answers. A promise chain over one record of
   * the call (PlannedCall) rather than an async function with closures: every
   * cell of a cold workbook waits here at once, and a suspended frame keeps all
   * its locals and closures while it waits.
   */
  private planned(
    id: SeriesId,
    data: SeriesData | undefined,
    window: SeriesWindow,
    { start, end }: DatedWindow,
    planOptions: PlanOptions,
    opts: CallOptions,
  ): Promise<SeriesResult> {
    let call: PlannedCall;
    try {
      const initial = planWindow(data, { start, end }, planOptions);
      const fetchedAt = planOptions.now;
      call = {
        id,
        data,
        window,
        start,
        end,
        opts,
        plan: initial,
        initial,
        fetchedAt,
        settledThrough: this.trust.settledThrough(fetchedAt),
        valuedThrough: this.trust.settlesIfValuedThrough(fetchedAt),
      };
      if (initial.fetch.length === 0) return Promise.resolve(this.fromStore(call, initial));
    } catch (error) {
      return Promise.reject(error);
    }
    // Settled days due for recheck: compared period by period first, so only the periods that differ are fetched daily.
    return recheckCoarsely(this.o, id, data, { start, end }, planOptions, opts, call.settledThrough)
      .then((rechecked) => {
        if (rechecked) call.plan = planWindow(rechecked, { start, end }, planOptions);
        const { symbol, metric } = id;
        return Promise.all(
          call.plan.fetch.map((range) => this.o.fetchWindow(symbol, metric, this.requestFor(range, window, end), opts)),
        );
      })
      .then(
        (results) => this.joined(call, results),
        (error: unknown) => this.unfetched(call, error),
      );
  }

  /** The plan's parts fetched: each kept, and the answer joined with what the store holds. */
  private joined(call: PlannedCall, results: SeriesResult[]): SeriesResult | Promise<SeriesResult> {
    const plan = call.plan;
    // Every day due was re-confirmed by the coarse recheck.
    if (plan.fetch.length === 0) return this.fromStore(call, plan);
    const fetchedPoints: DataPoint[] = [];
    plan.fetch.forEach((range, i) => {
      const result = results[i]!;
      this.keep(call, range, result);
      // One at a time: spreading 150,000 points into push() passes them as arguments and overflows the stack.
      if (result.kind === "points") for (const point of result.points) fetchedPoints.push(point);
    });
    if (plan.stored.length === 0) {
      const answer = storedAnswer(plan, results);
      if (answer === "ask") return this.whole(call);
      if (answer.kind === "message") return answer;
    }
    const merged = (): SeriesResult => {
      if (plan.stored.length > 0) {
        this.bytesSaved += pointBytes(plan.stored);
        noteStoredPoints(this.o.answers, call.id.symbol, call.id.metric, call.data, plan.stored);
      }
      return { kind: "points", points: mergeByDate(asPoints(plan.stored), fetchedPoints) };
    };
    // Stored days go out through the gate too (open already, unless the fetched parts came from memory).
    const gate = plan.stored.length > 0 ? this.o.gate?.pass(call.id.who) : null;
    return gate ? gate.then(merged) : merged();
  }

  /** The recheck or a fetch failed: what the store holds where that may stand in, else the failure. */
  private unfetched(call: PlannedCall, error: unknown): SeriesResult {
    const { symbol, metric } = call.id;
    const { start, end } = call;
    const fallback = call.initial.fallback;
    const said = fallback && fallback.points.length === 0 ? messageOver(call.data, { start, end }) : undefined;
    const shown: SeriesResult | null = !fallback
      ? null
      : said !== undefined
        ? { kind: "message", message: said }
        : { kind: "points", points: asPoints(fallback.points) };
    // Value preview: what the store holds, rather than nothing, once this credential was accepted.
    if (error instanceof NotCachedError && shown && (this.o.gate?.isOpen(call.id.who) ?? true)) return shown;
    if (fallback && shown && isUnreachable(error)) {
      this.noteOffline(fallback.fetchedAt);
      this.o.log(
        `service unreachable: ${symbol} ${metric} ${start}…${end} answered from data stored ${new Date(fallback.fetchedAt).toISOString()}`,
      );
      return shown;
    }
    throw error;
  }

  /** A fetched range kept in the store; built field by field rather than spread (V8 gives spread copies a hidden class each). */
  private keep(call: PlannedCall, range: DatedWindow, result: SeriesResult): void {
    const fetched: FetchedRange = {
      start: range.start,
      end: range.end,
      fetchedAt: call.fetchedAt,
      settledThrough: call.settledThrough,
      points: result.kind === "points" ? result.points : [],
    };
    if (call.valuedThrough !== undefined) fetched.settledIfValuedThrough = call.valuedThrough;
    if (result.kind === "message") fetched.message = result.message;
    const answers = this.o.answers;
    if (answers) {
      const revisions = revisionsOf(call.data, fetched.points, call.fetchedAt);
      const kept = {
        fetchedAt: call.fetchedAt,
        settledThrough: call.settledThrough,
        start: range.start,
        end: range.end,
      };
      answers.kept(call.id.symbol, call.id.metric, kept, revisions);
    }
    this.o.store.write(call.id, fetched);
  }

  /** The whole window asked again: what the store knew of it could not say what the service answers now. */
  private whole(call: PlannedCall): Promise<SeriesResult> {
    const { start, end } = call;
    return this.o
      .fetchWindow(call.id.symbol, call.id.metric, this.requestFor({ start, end }, call.window, end), call.opts)
      .then((result) => {
        this.keep(call, { start, end }, result);
        return result;
      });
  }

  /** Nothing to fetch: the answer is what the store holds (or, where that cannot say, the whole window again). */
  private fromStore(call: PlannedCall, held: WindowPlan): SeriesResult | Promise<SeriesResult> {
    const gate = this.o.gate?.pass(call.id.who);
    if (gate)
      return this.passed(call.id.who, gate).then((still) =>
        still ? this.fromStore(call, held) : this.get(call.id.symbol, call.id.metric, call.window, call.opts),
      );
    const answer = storedAnswer(held, []);
    if (answer === "ask") return this.whole(call);
    this.hits += 1;
    this.bytesSaved += pointBytes(held.stored);
    noteStoredPoints(this.o.answers, call.id.symbol, call.id.metric, call.data, held.stored);
    return answer;
  }

  /** The request for a part to fetch; the window's open end stays open (nothing newer than the clock is cut off). */
  private requestFor(range: DatedWindow, window: SeriesWindow, end: string): SeriesWindow {
    const openEnd = window.end === undefined && range.end === end;
    return {
      start: range.start,
      ...(openEnd ? {} : { end: range.end }),
      ...(window.granularity ? { granularity: window.granularity } : {}),
    };
  }

  // ------------------------------------------------ catalogs and insight feeds

  /** A stored catalog or insight-feed answer, however old (the client decides what it may serve, through `pass`). */
  readAnswer(key: string): Promise<StoredAnswer | undefined> {
    return this.o.store.readAnswer(key);
  }

  /**
   * Whether stored answers of `who` may go out, once the gate lets them: false when someone else asks by then (an
   * account signed out and another signed in while they waited), whose answers they are not: the caller asks again
   * under the new settings, as an answer to a request sent under older settings is asked again (settings-reader.ts).
   * `gate`: the gate's wait for `who` (`pass`), where it was not open.
   */
  private async passed(who: string | undefined, gate: Promise<void>): Promise<boolean> {
    await gate;
    return ((await this.o.settings()).who ?? undefined) === who;
  }

  /** The gate for stored answers of `who` (acceptance.ts `pass`): null when open now. */
  pass(who: string | null | undefined): Promise<void> | null {
    return this.o.gate?.pass(who) ?? null;
  }

  /** Whether stored answers of `who` may go out now. */
  isOpen(who: string | null | undefined): boolean {
    return this.o.gate?.isOpen(who) ?? true;
  }

  /**
   * How long a stored answer is still fresh, in milliseconds: its freshness
   * (`ttlMs`, the catalogs' hour) less its age, and 0 once that has passed or
   * when it was fetched before the last refresh.
   */
  freshFor(answer: StoredAnswer, ttlMs: number): number {
    return this.trust.answerFreshFor(answer, ttlMs, this.o.now());
  }

  /** Keeps a catalog or feed answer the service just gave, for reopening and for offline reading. */
  keepAnswer(key: string, value: unknown, fetchedAt: number, bytes: number): void {
    this.o.store.writeAnswer(key, value, fetchedAt, bytes);
  }

  /** The stored answer to show when a request failed because the service cannot be reached (noted for the pane). */
  offlineAnswer(answer: StoredAnswer | undefined, error: unknown): StoredAnswer | undefined {
    if (!answer || !isUnreachable(error)) return undefined;
    this.noteOffline(answer.fetchedAt);
    return answer;
  }

  /** Cells show data stored at `fetchedAt` because the service could not be reached. */
  noteOffline(fetchedAt: number): void {
    this.offlineSince = Math.min(this.offlineSince ?? Infinity, fetchedAt);
  }

  /**
   * A refresh: unsettled days fetched before now are asked again; the offline
   * notice goes. With `recheckHistory`, settled days fetched before now are
   * asked again too, on their next use: the series the refreshed formulas
   * read are fetched whole once, the rest of the store is left alone.
   */
  refresh(recheckHistory = false): void {
    this.trust.refresh(this.o.now(), recheckHistory);
    this.offlineSince = null;
  }

  /** Reload everything, Clear stored data. */
  async clear(): Promise<void> {
    this.refresh();
    await this.o.store.clear();
  }

  status(): StoreStatus {
    return {
      ...this.o.store.info(),
      hits: this.hits,
      bytesSaved: this.bytesSaved,
      offlineSince: this.offlineSince === null ? null : utcDateOf(this.offlineSince),
    };
  }
}

export const NO_STORE_STATUS: StoreStatus = {
  backend: "off",
  series: 0,
  bytes: 0,
  maxBytes: 0,
  hits: 0,
  bytesSaved: 0,
  offlineSince: null,
};
