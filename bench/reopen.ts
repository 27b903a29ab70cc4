/**
 * The "reopen" run (DESIGN "Budgets": a workbook reopened sends zero requests
 * for settled days already fetched; the next day, only the new days, bytes
 * under 2% of a cold refresh of a year of daily data).
 *
 * The benchmark workbook: the 1,000 MD.LATEST-style lookups of bench/run.ts
 * (30-day windows to today and to the last quarter end) and a year of daily
 * history, MD.SERIES-style, for 50 symbols × 5 metrics. Each step is a new
 * runtime — a new client over a new store instance on the same IndexedDB
 * (fake-indexeddb: IndexedDB's code path, not a browser's speed) — as when
 * Excel opens the workbook again:
 *
 *   cold          an empty store
 *   same day      reopened a minute later (unsettled days still fresh: 5 min)
 *   later today   reopened three hours later (the unsettled days are asked again)
 *   next day      reopened the next day, windows moved on by a day
 *   the week      reopened once a day for a week (days 2 to 7 after the next
 *                 day's), with a correction of history from day 3 on (the
 *                 sandbox revises one day, 100 days back, by 1 % in every
 *                 series: a wrong value fixed): each day's bytes include the
 *                 stored series whose recheck day it is (store/trust.ts:
 *                 one day in every 6 by a hash of the symbol, never the day
 *                 after the fetch, at most 7 days after it), rechecked month
 *                 by month where the metric sums or averages
 *                 (store/coarse-recheck.ts) and day by day where it keeps the
 *                 last value (PRICE, MC), so the week shows what rechecks and
 *                 corrections cost
 *
 * Every series request is recorded (window, granularity, bytes, points,
 * pairs answered with a message), so each reopen's bytes are broken down by
 * call shape and by cause: the unsettled and new days, settled days compared
 * by month, settled days asked again daily.
 *
 * The history alone is run the same way for the DESIGN budget's "year of
 * daily data". The client's clock is its `now` option; the sandbox's data
 * runs to the next day and every window has explicit dates, so the service
 * answers the same whatever day the client believes it is.
 */
import { availableParallelism } from "node:os";
import { IDBFactory, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";
import { createClient } from "../src/api/client";
import { openSeriesStore } from "../src/api/store/persistent-store";
import type { SeriesRequest } from "../src/api/types";
import { addDays } from "../src/core/calendar";
import type { SeriesResult } from "../src/core/domain";
import { OFF as REALISTIC_OFF } from "../sandbox/realistic";
import { DEMO_API_KEY, startSandbox, type SandboxHandle } from "../sandbox/server";
import { busyCpu } from "../harness/busy-cpu";
import { slowReads, type SlowReads } from "../harness/slow-idb";

const DAY_MS = 86_400_000;
export const HISTORY_METRICS = ["PRICE", "MC", "FEES", "DAU", "TXNS"];
export const HISTORY_SYMBOLS = 50;
export const HISTORY_DAYS = 365;
/** The DESIGN budget: the next day's bytes for a year of daily data, as a share of a cold refresh. */
export const NEXT_DAY_SHARE_LIMIT = 0.02;
/** The DESIGN budget: the benchmark workbook's bytes the next day, as a share of its cold open. */
export const WORKBOOK_NEXT_DAY_SHARE_LIMIT = 0.015;

export interface ReopenStep {
  name: string;
  requests: number;
  kb: number;
  wallMs: number;
  /** Series calls answered wholly from the store. */
  storeHits: number;
  /** Read requests made of IndexedDB (IDBObjectStore.get and getAll), the store's own work on the runtime's thread. */
  idbReads: number;
  /** Distinct series windows asked for, "start…end". */
  windows: string[];
  failures: number;
  /** Every series request sent: its window, granularity, symbols × metrics and the bytes it received. */
  sent: SentRequest[];
}

export interface SentRequest {
  start: string;
  end: string;
  granularity: string;
  symbols: number;
  metrics: string[];
  bytes: number;
  /** Points in the answer, and pairs answered with a message. */
  points: number;
  messages: number;
}

/** The week of daily reopens: the day a correction of history starts, and its size. */
export const WEEK_DAYS = 7;
export const CORRECTION_FROM_DAY = 3;
export const CORRECTION = 0.01;
/** The day corrected: this many days before the cold open. */
export const CORRECTED_DAYS_BACK = 100;

export interface WeekDay {
  day: number;
  step: ReopenStep;
}

export interface ReopenRun {
  date: string;
  latencyMs: number;
  calls: number;
  workbook: { cold: ReopenStep; sameDay: ReopenStep; laterToday: ReopenStep; nextDay: ReopenStep };
  /**
   * The workbook under a person's own key (settings' `who`, as the add-in sends it with a pass-through key or a
   * sign-in): the store serves stored answers only once the service accepted that key in the session
   * (src/api/store/acceptance.ts), so a reopen answered wholly from the store sends the one request that shows it.
   */
  person: { cold: ReopenStep; sameDay: ReopenStep };
  history: { cold: ReopenStep; nextDay: ReopenStep };
  /** The workbook cold and the next day against a service whose today is null and yesterday null or 0. */
  placeholders: { cold: ReopenStep; nextDay: ReopenStep; mismatches: number };
  /** What the next day must fetch: the days still unsettled the day before, and the new day. */
  newDaysWindow: string;
  /** Next-day answers that differ from a client without a store (must be 0). */
  mismatches: number;
  /** Day 1 (the next day) to day 7, one reopen a day. */
  week: WeekDay[];
  /** Day 7's answers that still differ from a client without a store (corrections not yet asked for). */
  weekMismatches: number;
  /** Answers of days 2 to 7 that differ from a client without a store other than by the corrected day's value (must be 0). */
  weekOtherMismatches: number;
  store: { series: number; mb: number };
}

/** Points and message pairs in a series answer's body. */
function countAnswer(body: ArrayBuffer): { points: number; messages: number } {
  let points = 0;
  let messages = 0;
  try {
    const json = JSON.parse(new TextDecoder().decode(body)) as { data?: { symbols?: unknown } };
    const symbols = json.data?.symbols;
    if (typeof symbols === "string") return { points: 0, messages: 1 };
    for (const series of Object.values((symbols ?? {}) as Record<string, Record<string, unknown>>)) {
      for (const value of Object.values(series ?? {})) {
        if (Array.isArray(value)) points += value.length;
        else if (typeof value === "string") messages += 1;
      }
    }
  } catch {
    // An unreadable body counts nothing.
  }
  return { points, messages };
}

/** A year of daily history ending `today` for each symbol × metric. */
export function history(tokens: string[], today: string): SeriesRequest[] {
  const start = addDays(today, -(HISTORY_DAYS - 1));
  return tokens.flatMap((symbol) => HISTORY_METRICS.map((metric) => ({ symbol, metric, start, end: today })));
}

async function step(
  name: string,
  sandbox: SandboxHandle,
  factory: globalThis.IDBFactory,
  startMs: number,
  requests: SeriesRequest[],
  revise: { date: string; by: number } | null = null,
  world: (sandbox: SandboxHandle) => void = () => undefined,
  who: string | null = null,
): Promise<{ step: ReopenStep; results: PromiseSettledResult<SeriesResult>[]; series: number; bytes: number }> {
  sandbox.reset();
  sandbox.setReviseDay(revise);
  world(sandbox);
  // A browser's IndexedDB comes with IDBKeyRange beside it (the store reads many records a page at a time with it).
  (globalThis as { IDBKeyRange?: unknown }).IDBKeyRange ??= IDBKeyRange;
  const store = openSeriesStore({ indexedDB: factory });
  const began = Date.now();
  const sent: SentRequest[] = [];
  const client = createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url, who }),
    store,
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      const body = await response.arrayBuffer();
      const q = new URL(url).searchParams;
      if (new URL(url).pathname.startsWith("/data/api/")) {
        const counted = countAnswer(body);
        sent.push({
          ...counted,
          start: q.get("startDate") ?? "",
          end: q.get("endDate") ?? "",
          granularity: q.get("granularity") ?? "DAY",
          symbols: (q.get("symbols") ?? "").split(",").filter(Boolean).length,
          metrics: decodeURIComponent(new URL(url).pathname.slice("/data/api/".length).replace(/\/$/, "")).split(","),
          bytes: body.byteLength,
        });
      }
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
    // The runtime's clock starts at `startMs` and runs: the batch window is timed by it.
    now: () => startMs + (Date.now() - began),
  });
  const started = performance.now();
  let idbReads = 0;
  const { get, getAll } = IDBObjectStore.prototype;
  IDBObjectStore.prototype.get = function (this: IDBObjectStore, ...args: Parameters<typeof get>) {
    idbReads += 1;
    return get.apply(this, args);
  };
  // The store reads most of what it holds with one getAll when a reopened workbook asks for it: one read too.
  IDBObjectStore.prototype.getAll = function (this: IDBObjectStore, ...args: Parameters<typeof getAll>) {
    idbReads += 1;
    return getAll.apply(this, args);
  };
  let results: PromiseSettledResult<SeriesResult>[];
  try {
    results = await Promise.allSettled(requests.map((r) => client.getSeries(r)));
  } finally {
    Object.assign(IDBObjectStore.prototype, { get, getAll });
  }
  const wallMs = performance.now() - started;
  await store.flush();
  const counters = client.counters();
  const storage = client.storage();
  store.close();
  const windows = new Set<string>();
  for (const entry of sandbox.requestLog()) {
    if (!entry.path.startsWith("/data/api/")) continue;
    const q = new URLSearchParams(entry.query);
    windows.add(`${q.get("startDate") ?? ""}…${q.get("endDate") ?? ""}`);
  }
  return {
    step: {
      name,
      requests: counters.requests,
      kb: counters.bytes / 1024,
      wallMs,
      storeHits: storage.hits,
      idbReads,
      windows: [...windows].sort(),
      failures: results.filter((r) => r.status === "rejected").length,
      sent,
    },
    results,
    series: storage.series,
    bytes: storage.bytes,
  };
}

/** The history's symbols: filler tokens, which carry all five metrics (core categories and stablecoins answer messages for some). */
async function fillerTokens(sandbox: SandboxHandle): Promise<string[]> {
  const catalog = await createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
  }).getAssets();
  const tokens = catalog
    .map((a) => a.symbol)
    .filter((s) => s.startsWith("sbx"))
    .slice(0, HISTORY_SYMBOLS);
  if (tokens.length < HISTORY_SYMBOLS) {
    throw new Error(`reopen: the sandbox's catalog has ${tokens.length} filler tokens, ${HISTORY_SYMBOLS} needed`);
  }
  return tokens;
}

export async function runReopen(
  symbols: string[],
  lookups: (symbols: string[], today: string) => SeriesRequest[],
  latencyMs: number,
): Promise<ReopenRun> {
  const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  const next = addDays(today, 1);
  const noon = Date.parse(`${today}T12:00:00Z`);
  // The benchmark's catalog: its 200 symbols and the filler tokens the sandbox serves only when asked for them.
  // Data runs to the last day of the week; every window has explicit dates, so that changes no answer.
  const sandbox = await startSandbox({
    port: 0,
    today: addDays(today, WEEK_DAYS),
    latencyMs,
    insightFirstCallDelayMs: 0,
    assetCount: 2000,
  });
  const reference = (requests: SeriesRequest[]) =>
    Promise.allSettled(
      requests.map((r) =>
        createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }) }).getSeries(r),
      ),
    );
  try {
    const tokens = await fillerTokens(sandbox);
    const workbook = (day: string) => [...lookups(symbols, day), ...history(tokens, day)];

    const factory = new IDBFactory();
    const cold = await step("cold (empty store)", sandbox, factory, noon, workbook(today));
    const sameDay = await step(
      "reopened the same day, a minute later",
      sandbox,
      factory,
      noon + 60_000,
      workbook(today),
    );
    const laterToday = await step(
      "reopened the same day, three hours later",
      sandbox,
      factory,
      noon + 3 * 3_600_000,
      workbook(today),
    );
    const nextDay = await step("reopened the next day", sandbox, factory, noon + DAY_MS, workbook(next));

    // Under a person's own key: a store of its own (the partition is the key's), the same day a minute later.
    const personFactory = new IDBFactory();
    const who = "key:bench-person";
    const asPerson = (name: string, at: number) =>
      step(name, sandbox, personFactory, at, workbook(today), null, undefined, who);
    const personCold = await asPerson("cold, under a person's own key", noon);
    const personSameDay = await asPerson(
      "reopened the same day, a minute later, under a person's own key",
      noon + 60_000,
    );

    // The same next-day workbook from a client without a store: the answers must be the same.
    const nextReference = await reference(workbook(next));
    const mismatches = nextDay.results.filter((r, i) => JSON.stringify(r) !== JSON.stringify(nextReference[i])).length;

    // The rest of the week, on the same store: one reopen a day, history corrected from day 3 on.
    const week: WeekDay[] = [{ day: 1, step: nextDay.step }];
    let last = nextDay;
    const correction = { date: addDays(today, -CORRECTED_DAYS_BACK), by: CORRECTION };
    // Each day's answers against a client without a store: the same, but for the corrected day's value where
    // the series has not reached its recheck day since the correction.
    const withoutCorrectedDay = (r: PromiseSettledResult<SeriesResult>) =>
      JSON.stringify(
        r.status === "fulfilled" && r.value.kind === "points"
          ? { ...r.value, points: r.value.points.filter((p) => p.date !== correction.date) }
          : r,
      );
    let otherMismatches = 0;
    let weekMismatches = 0;
    for (let day = 2; day <= WEEK_DAYS; day++) {
      const revise = day >= CORRECTION_FROM_DAY ? correction : null;
      last = await step(`day ${day}`, sandbox, factory, noon + day * DAY_MS, workbook(addDays(today, day)), revise);
      week.push({ day, step: last.step });
      sandbox.setReviseDay(revise);
      const dayReference = await reference(workbook(addDays(today, day)));
      sandbox.setReviseDay(null);
      const results = last.results;
      weekMismatches = results.filter((r, i) => JSON.stringify(r) !== JSON.stringify(dayReference[i])).length;
      otherMismatches += results.filter(
        (r, i) => withoutCorrectedDay(r) !== withoutCorrectedDay(dayReference[i]!),
      ).length;
    }

    const historyFactory = new IDBFactory();
    const historyCold = await step("a year of daily data, cold", sandbox, historyFactory, noon, history(tokens, today));
    const historyNext = await step(
      "a year of daily data, the next day",
      sandbox,
      historyFactory,
      noon + DAY_MS,
      history(tokens, next),
    );

    // The same workbook against a service whose newest days are placeholders, as the real one's often are
    // (real-service.md): its last day with data is the client's today, today null, yesterday null or 0.
    const placeholders = (day: string) => (s: SandboxHandle) => {
      s.setToday(day);
      // The sandbox's realistic behaviours all off but its unsettled newest days.
      s.setRealistic({ ...REALISTIC_OFF, unsettledDays: true });
    };
    const placeholderFactory = new IDBFactory();
    const placeholderCold = await step(
      "cold, newest days placeholders",
      sandbox,
      placeholderFactory,
      noon,
      workbook(today),
      null,
      placeholders(today),
    );
    const placeholderNext = await step(
      "the next day, newest days placeholders",
      sandbox,
      placeholderFactory,
      noon + DAY_MS,
      workbook(next),
      null,
      placeholders(next),
    );
    placeholders(next)(sandbox);
    const placeholderReference = await reference(workbook(next));
    sandbox.reset();
    const placeholderMismatches = placeholderNext.results.filter(
      (r, i) => JSON.stringify(r) !== JSON.stringify(placeholderReference[i]),
    ).length;

    if (historyCold.step.requests === 0 || historyCold.step.failures > 0) {
      throw new Error("reopen: the cold year of daily data was not fetched; the next-day figures would mean nothing");
    }

    return {
      date: today,
      latencyMs,
      calls: workbook(today).length,
      workbook: { cold: cold.step, sameDay: sameDay.step, laterToday: laterToday.step, nextDay: nextDay.step },
      person: { cold: personCold.step, sameDay: personSameDay.step },
      history: { cold: historyCold.step, nextDay: historyNext.step },
      placeholders: { cold: placeholderCold.step, nextDay: placeholderNext.step, mismatches: placeholderMismatches },
      newDaysWindow: `${today}…${next}`,
      mismatches,
      week,
      weekMismatches,
      weekOtherMismatches: otherMismatches,
      store: { series: nextDay.series, mb: nextDay.bytes / (1024 * 1024) },
    };
  } finally {
    await sandbox.close();
  }
}

/** The next day's bytes as a share of the cold run's. */
export function share(next: ReopenStep, cold: ReopenStep): number {
  return cold.kb > 0 ? next.kb / cold.kb : 0;
}

export function reopenTable(r: ReopenRun): string {
  const { cold, sameDay, laterToday, nextDay } = r.workbook;
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  const row = (s: ReopenStep, ofCold: string) =>
    `| ${s.name} | ${s.requests} | ${s.kb.toFixed(1)} | ${ofCold} | ${Math.round(s.wallMs)} | ${s.storeHits} | ${s.idbReads} | ${s.windows.length === 0 ? "none" : s.windows.length <= 3 ? s.windows.join(", ") : `${s.windows.length} windows`} |`;
  return [
    "| run | requests | KB received | of cold | wall ms | calls answered from the store | IndexedDB reads | series windows fetched |",
    "|---|---:|---:|---:|---:|---:|---:|---|",
    row(cold, "100 %"),
    row(sameDay, pct(share(sameDay, cold))),
    row(laterToday, pct(share(laterToday, cold))),
    row(nextDay, pct(share(nextDay, cold))),
    row(r.person.cold, "100 %"),
    row(r.person.sameDay, pct(share(r.person.sameDay, r.person.cold))),
    row(r.history.cold, "100 %"),
    row(r.history.nextDay, pct(share(r.history.nextDay, r.history.cold))),
    row(r.placeholders.cold, "100 %"),
    row(r.placeholders.nextDay, pct(share(r.placeholders.nextDay, r.placeholders.cold))),
  ].join("\n");
}

export function reopenSummary(r: ReopenRun): string {
  const whole = share(r.workbook.nextDay, r.workbook.cold);
  return [
    `The whole workbook the next day: ${(whole * 100).toFixed(2)} % of its cold bytes. Every window ending today asks only for yesterday's day (today when it was fetched, so never final) and the new day; the day before yesterday came with real values and settled, the quarter-end windows and the year's settled days are not asked, and the pairs the service answers with a message are remembered in the store and asked again only for those same two days (breakdown below). The year of daily data alone fetches 2 of 365 days.`,
    `${r.calls.toLocaleString("en-US")} series calls (the 1,000 lookups, and a year of daily history for ${HISTORY_SYMBOLS} symbols × ${HISTORY_METRICS.length} metrics), sandbox latency ${r.latencyMs} ms.`,
    `Store after the next day: ${r.store.series.toLocaleString("en-US")} series, ${r.store.mb.toFixed(1)} MB (estimated, as the store counts it against its 200 MB cap).`,
    `Next-day answers identical to a client without a store: ${r.mismatches === 0 ? "yes" : `no, ${r.mismatches} differ`}; against the service with placeholders: ${r.placeholders.mismatches === 0 ? "yes" : `no, ${r.placeholders.mismatches} differ`}.`,
    `Against a service whose newest days are placeholders (today null, yesterday null or 0, as the real service's often are), yesterday cannot settle when it is fetched: the next day asks three days per series instead of two, ${(share(r.placeholders.nextDay, r.placeholders.cold) * 100).toFixed(2)} % of that cold open.`,
  ].join("\n");
}

/** Why a request was sent: the window-ending-today tail, a coarse recheck, or settled days asked again daily. */
export type Cause =
  "unsettled and new days" | "settled days compared by month (SUM, AVERAGE)" | "settled days asked again daily";
const CAUSES: Cause[] = [
  "unsettled and new days",
  "settled days compared by month (SUM, AVERAGE)",
  "settled days asked again daily",
];

function causeOf(sent: SentRequest, today: string): Cause {
  if (sent.granularity !== "DAY") return "settled days compared by month (SUM, AVERAGE)";
  if (sent.end === today && sent.start >= addDays(today, -2)) return "unsettled and new days";
  return "settled days asked again daily";
}

/** Which of the workbook's call shapes a request serves, by its window. */
function shapeOf(sent: SentRequest, today: string): string {
  if (sent.end === today && sent.start >= addDays(today, -2))
    return "every window ending today (30-day lookups, the year)";
  const d = new Date(`${today}T00:00:00Z`);
  const quarterEnd = new Date(Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1) - DAY_MS)
    .toISOString()
    .slice(0, 10);
  if (sent.end <= quarterEnd && sent.start > addDays(quarterEnd, -40)) return "30-day lookups to the quarter end";
  if (sent.start < addDays(today, -40)) return "a year of daily history";
  return "30-day lookups to today";
}

/** Bytes of one reopen by cause: KB. */
export function bytesByCause(s: ReopenStep, today: string): Record<Cause, number> {
  const out = Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>;
  for (const sent of s.sent) out[causeOf(sent, today)] += sent.bytes / 1024;
  return out;
}

/** One reopen's requests by call shape and cause: requests, KB, share of the cold bytes, points and message pairs. */
export function breakdownTable(s: ReopenStep, cold: ReopenStep, today: string): string {
  const rows = new Map<string, { requests: number; kb: number; points: number; messages: number }>();
  for (const sent of s.sent) {
    const key = `${shapeOf(sent, today)} | ${causeOf(sent, today)}`;
    const row = rows.get(key) ?? { requests: 0, kb: 0, points: 0, messages: 0 };
    row.requests += 1;
    row.kb += sent.bytes / 1024;
    row.points += sent.points;
    row.messages += sent.messages;
    rows.set(key, row);
  }
  return [
    "| call shape | cause | requests | KB received | of cold | points | pairs answered with a message |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...[...rows.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([key, row]) =>
          `| ${key} | ${row.requests} | ${row.kb.toFixed(1)} | ${((row.kb / cold.kb) * 100).toFixed(2)} % | ${row.points.toLocaleString("en-US")} | ${row.messages} |`,
      ),
  ].join("\n");
}

/** The next day's breakdown. */
export function nextDayBreakdown(r: ReopenRun): string {
  return breakdownTable(r.workbook.nextDay, r.workbook.cold, addDays(r.date, 1));
}

/** The week of daily reopens, bytes per day against the cold open, by cause. */
export function weekTable(r: ReopenRun): string {
  const cold = r.workbook.cold;
  const rows = r.week.map(({ day, step: s }) => {
    const corrected = day >= CORRECTION_FROM_DAY ? "yes" : "no";
    const by = bytesByCause(s, addDays(r.date, day));
    const causes = CAUSES.map((c) => by[c].toFixed(1)).join(" | ");
    return `| ${day} | ${corrected} | ${s.requests} | ${s.kb.toFixed(1)} | ${(share(s, cold) * 100).toFixed(2)} % | ${causes} | ${s.windows.length} |`;
  });
  const total = r.week.reduce((sum, { step: s }) => sum + s.kb, 0);
  const worst = r.week.reduce((max, { step: s }) => Math.max(max, share(s, cold)), 0);
  return [
    `| day | history corrected | requests | KB received | of cold | KB: ${CAUSES.join(" | KB: ")} | series windows fetched |`,
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    `| 0 (cold) | no | ${cold.requests} | ${cold.kb.toFixed(1)} | 100 % | | | | ${cold.windows.length} |`,
    ...rows,
    "",
    `The week (days 1 to ${WEEK_DAYS}): ${total.toFixed(1)} KB, ${((total / cold.kb) * 100).toFixed(1)} % of one cold open; the dearest day ${(worst * 100).toFixed(2)} %. Each symbol's settled days fall due on its recheck day (one day in every 6, by a hash of the symbol; store/trust.ts), never the day after they were fetched and never more than 7 days after: days 2 to 7 each recheck about a sixth of the symbols — month by month for the metrics that sum or average (FEES, DAU, TXNS; only a month that differs, such as the one holding the corrected day, is fetched again daily), day by day for those that keep their last value (PRICE, MC: a month's LAST shows only its last day, so nothing cheaper checks the other days). Day ${WEEK_DAYS}'s answers that still differ from a client without a store (the ${CORRECTION * 100} % correction of ${CORRECTED_DAYS_BACK} days back, from day ${CORRECTION_FROM_DAY} on, not yet asked for: symbols rechecked on day 2, before it, are trusted until their next recheck day, day 8): ${r.weekMismatches} of ${r.calls}. Answers of days 2 to ${WEEK_DAYS} that differ from a client without a store in anything but that value: ${r.weekOtherMismatches}.`,
  ].join("\n");
}

/** Reopens in the busy run: each a new runtime on the same store, the same day. */
export const BUSY_REOPENS = 3;
/**
 * IndexedDB as a busy computer answers in a browser, where it runs in its own
 * process and threads (harness/slow-idb.ts; fake-indexeddb answers on this
 * thread, so here other processes slow it and the runtime alike): 4 ms per
 * kilobyte read, a year of daily data in one request 2 s late.
 */
export const BUSY_IDB: SlowReads = { msPerRequest: 5, msPerKb: 4 };

export interface BusyReopenRun {
  /** Busy child processes running beside each reopen. */
  busy: number;
  cores: number;
  /** The reopens' IndexedDB answered as a busy computer's (BUSY_IDB), or fake-indexeddb's own speed. */
  slowIdb: boolean;
  cold: ReopenStep;
  reopens: ReopenStep[];
}

/**
 * A year of daily data for the history's symbols, fetched cold, then reopened
 * BUSY_REOPENS times the same day (a minute apart) with `busy` CPU-bound
 * processes running beside each reopen (harness/busy-cpu.ts): every day is
 * stored, so each reopen should send no request.
 */
export async function runBusyReopen(busy: number, latencyMs: number, slowIdb: boolean): Promise<BusyReopenRun> {
  const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  const noon = Date.parse(`${today}T12:00:00Z`);
  const sandbox = await startSandbox({ port: 0, today, latencyMs, insightFirstCallDelayMs: 0, assetCount: 2000 });
  try {
    const workbook = history(await fillerTokens(sandbox), today);
    const factory = new IDBFactory();
    const cold = await step("a year of daily data, cold", sandbox, factory, noon, workbook);
    const reopens: ReopenStep[] = [];
    for (let i = 1; i <= BUSY_REOPENS; i++) {
      const spinning = busyCpu(busy);
      try {
        const name = `reopened the same day beside ${busy} busy process(es), ${i} of ${BUSY_REOPENS}`;
        const reopened = slowIdb ? slowReads(factory, BUSY_IDB) : factory;
        reopens.push((await step(name, sandbox, reopened, noon + i * 60_000, workbook)).step);
      } finally {
        await spinning.stop();
      }
    }
    return { busy, cores: availableParallelism(), slowIdb, cold: cold.step, reopens };
  } finally {
    await sandbox.close();
  }
}

export function busyReopenTable(r: BusyReopenRun): string {
  const row = (s: ReopenStep) =>
    `| ${s.name} | ${s.requests} | ${s.kb.toFixed(1)} | ${Math.round(s.wallMs)} | ${s.storeHits} | ${s.idbReads} |`;
  const sent = r.reopens.filter((s) => s.requests > 0).length;
  const idb = r.slowIdb
    ? `IndexedDB answering as a busy computer's (${BUSY_IDB.msPerKb} ms per KB read)`
    : "fake-indexeddb at its own speed";
  return [
    `${r.busy} CPU-bound process(es) beside the runtime on ${r.cores} core(s), ${idb}; reopens that sent a request for stored settled days: ${sent} of ${r.reopens.length}.`,
    "",
    "| run | requests | KB received | wall ms | calls answered from the store | IndexedDB reads |",
    "|---|---:|---:|---:|---:|---:|",
    row(r.cold),
    ...r.reopens.map(row),
  ].join("\n");
}

/**
 * `npx tsx bench/reopen.ts --busy N [--slow-idb]`: the busy reopen run alone
 * (the rest of this file runs under bench/run.ts and bench/budgets.ts).
 */
if (require.main === module) {
  const at = process.argv.indexOf("--busy");
  const busy = at >= 0 ? Number(process.argv[at + 1]) : 0;
  if (!Number.isInteger(busy) || busy < 0) {
    console.error("usage: npx tsx bench/reopen.ts --busy N [--slow-idb]   (N busy child processes beside each reopen)");
    process.exitCode = 2;
  } else {
    runBusyReopen(busy, 100, process.argv.includes("--slow-idb")).then(
      (r) => console.log(busyReopenTable(r)),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exitCode = 1;
      },
    );
  }
}
