/**
 * The client's benchmark against the in-process sandbox with added latency
 * (DESIGN.md "Budgets"). Prints figures, asserts nothing unless `--check`.
 *
 *   npm run bench                         markdown table on stdout
 *   npm run bench -- --json out.json      also the figures as JSON (CI reads them)
 *   npm run bench -- --check              exit 1 when a budget is exceeded
 *   npm run bench -- --latency 100        server latency per request, ms (default 100)
 *
 * (a) 1,000 MD.LATEST-style lookups over 200 symbols × 3 metrics through the
 *     batched client; (a′) the same with the calls arriving one per macrotask,
 *     as Excel delivers a recalculation; (b) the same lookups with batching
 *     off (one symbol and one metric per request, same concurrency);
 * (c) shaping 50 symbols × 5 metrics × 1,000 points into MD.SERIES's
 *     date-union table (src/core/series-table), and the client's merge of a
 *     split window;
 * (d) one MD.SNAPSHOT of 200 symbols × 5 metrics beside the same 1,000 pairs
 *     as MD.LATEST cells (src/functions, each run with a fresh client).
 * (e) "reopen": the lookups and a year of daily history calculated cold,
 *     then by new runtimes over the same persistent store the same day and
 *     the next day (bench/reopen.ts).
 */
import { writeFileSync } from "node:fs";
import { CLIENT_DEFAULTS, createClient, type Client, type ClientOptions } from "../src/api/client";
import { mergeParts, splitWindow } from "../src/api/series/windows";
import type { SeriesResult } from "../src/core/domain";
import type { SeriesRequest } from "../src/api/types";
import { parseOptions } from "../src/core/options";
import { readingsOf } from "../src/core/readings";
import { SERIES_OPTIONS, seriesHeader, shapeSeriesTable, type SeriesColumn } from "../src/core/series-table";
import type { CallContext } from "../src/functions/call-context";
import { latestValue as latestCell } from "../src/functions/latest";
import { snapshotTable } from "../src/functions/snapshot";
import { DEMO_API_KEY, startSandbox, type SandboxHandle } from "../sandbox/server";
import { median } from "./stats";
import { ASSET_CARDS, assetCardsText, runAssetCards } from "./asset-cards";
import {
  NEXT_DAY_SHARE_LIMIT,
  WORKBOOK_NEXT_DAY_SHARE_LIMIT,
  nextDayBreakdown,
  reopenSummary,
  reopenTable,
  runReopen,
  share,
  weekTable,
} from "./reopen";

interface Args {
  json?: string;
  check: boolean;
  latencyMs: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { check: false, latencyMs: 100 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--check") args.check = true;
    else if (arg === "--json") args.json = required(argv[++i], "--json needs a file path");
    else if (arg === "--latency") args.latencyMs = Number(required(argv[++i], "--latency needs a number of ms"));
    else throw new Error(`Unknown argument ${arg}. Use --json <file>, --check, --latency <ms>.`);
  }
  if (!Number.isFinite(args.latencyMs) || args.latencyMs < 0) throw new Error("--latency must be a number of ms ≥ 0");
  return args;
}

function required(value: string | undefined, message: string): string {
  if (value === undefined || value.startsWith("--")) throw new Error(message);
  return value;
}

export const LOOKUPS = 1000;
export const SYMBOLS = 200;
export const METRICS = ["PRICE", "FEES", "DAU"];
export const SYMBOLS_PER_REQUEST = 50;
const DAY_MS = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

export interface LookupRun {
  requests: number;
  wallMs: number;
  /** From the first call to the last: how long the calls took to arrive. */
  arrivalMs: number;
  kb: number;
  retries: number;
  failures: number;
  values: (number | string)[];
}

/**
 * The lookups of a comps sheet: every symbol × metric as of today, and the
 * first 400 of them again as of the last quarter end (a "prior" column), each
 * a 30-day window whose last point is the value shown.
 */
export function lookups(symbols: string[], today: string): SeriesRequest[] {
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const d = new Date(todayMs);
  const quarterEnd = Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3, 1) - DAY_MS;
  const window = (endMs: number) => ({ start: iso(endMs - 29 * DAY_MS), end: iso(endMs) });
  const pairs = METRICS.flatMap((metric) => symbols.map((symbol) => ({ symbol, metric })));
  const out: SeriesRequest[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    const pair = pairs[i % pairs.length]!;
    out.push({ ...pair, ...window(i < pairs.length ? todayMs : quarterEnd) });
  }
  return out;
}

/** The budget: one request per 50 symbols per distinct (metric set, window, granularity) group. */
export function requestBudget(requests: SeriesRequest[]): number {
  const groups = new Map<string, Map<string, Set<string>>>();
  for (const r of requests) {
    const key = `${r.start}|${r.end}|${r.granularity ?? ""}`;
    const bySymbol = groups.get(key) ?? new Map<string, Set<string>>();
    groups.set(key, bySymbol);
    const metrics = bySymbol.get(r.symbol) ?? new Set<string>();
    bySymbol.set(r.symbol, metrics);
    metrics.add(r.metric);
  }
  let budget = 0;
  for (const bySymbol of groups.values()) {
    const perMetricSet = new Map<string, number>();
    for (const metrics of bySymbol.values()) {
      const set = [...metrics].sort().join(",");
      perMetricSet.set(set, (perMetricSet.get(set) ?? 0) + 1);
    }
    for (const count of perMetricSet.values()) budget += Math.ceil(count / SYMBOLS_PER_REQUEST);
  }
  return budget;
}

function latestValue(result: SeriesResult): number | string {
  if (result.kind === "message") return `message: ${result.message}`;
  const last = readingsOf(result.points).at(-1);
  return last ? last.val : "no data";
}

export async function runLookups(
  sandbox: SandboxHandle,
  requests: SeriesRequest[],
  options: Partial<ClientOptions>,
  arrival: "burst" | "macrotasks",
): Promise<LookupRun> {
  const client: Client = createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    ...options,
  });
  const started = performance.now();
  const promises: Promise<SeriesResult>[] = [];
  for (const request of requests) {
    promises.push(client.getSeries(request));
    if (arrival === "macrotasks") await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const arrivalMs = performance.now() - started;
  const settled = await Promise.allSettled(promises);
  const wallMs = performance.now() - started;
  const counters = client.counters();
  return {
    requests: counters.requests,
    wallMs,
    arrivalMs,
    kb: counters.bytes / 1024,
    retries: counters.retries,
    failures: counters.failures,
    values: settled.map((s) =>
      s.status === "fulfilled" ? latestValue(s.value) : `error: ${(s.reason as Error).message}`,
    ),
  };
}

export interface ShapingRun {
  fetchMs: number;
  fetchRequests: number;
  shapeMedianMs: number;
  shapeMaxMs: number;
  rows: number;
  columns: number;
  mergeMedianMs: number;
  messages: number;
}

export async function runShaping(sandbox: SandboxHandle, symbols: string[], today: string): Promise<ShapingRun> {
  const metrics = ["PRICE", "MC", "FEES", "DAU", "TXNS"];
  const endMs = Date.parse(`${today}T00:00:00Z`);
  const window = { start: iso(endMs - 999 * DAY_MS), end: today };
  const client = createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }) });
  const started = performance.now();
  // Filler tokens carry all five metrics (core categories and stablecoins answer messages for some).
  const tokens = symbols.filter((s) => s.startsWith("sbx")).slice(0, 50);
  const pairs = tokens.flatMap((symbol) => metrics.map((metric) => ({ symbol, metric })));
  const results = await Promise.all(pairs.map((p) => client.getSeries({ ...p, ...window })));
  const fetchMs = performance.now() - started;
  // Rounded to whole numbers: with 2-decimal values this table is estimated above Excel's 5 MB
  // result limit (src/core/payload-size counts 20 bytes per fractional number) and MD.SERIES
  // refuses it with advice; the budget measures the shaping work, which rounding does not change.
  const columns: SeriesColumn[] = pairs.map((p, i) => {
    const result = results[i]!;
    const rounded: SeriesResult =
      result.kind === "points"
        ? {
            kind: "points",
            points: result.points.map((x) => ({ date: x.date, val: x.val === null ? null : Math.round(x.val) })),
          }
        : result;
    return { header: seriesHeader(p.symbol, p.metric), result: rounded };
  });

  const options = parseOptions(null, SERIES_OPTIONS);
  shapeSeriesTable(columns, options); // warm-up
  const times: number[] = [];
  let table: unknown[][] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    table = shapeSeriesTable(columns, options);
    times.push(performance.now() - t);
  }

  // The client's own merge: each 1,000-point series as if it had come back in 4 parts.
  const parts = results.map((result) => {
    if (result.kind !== "points") return [result];
    const windows = splitWindow(window, "DAY", today, 250);
    return windows.map((w) => ({
      kind: "points" as const,
      points: result.points.filter((p) => p.date >= w.start! && p.date <= (w.end ?? today)),
    }));
  });
  const mergeTimes: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    for (const p of parts) mergeParts(p);
    mergeTimes.push(performance.now() - t);
  }

  return {
    fetchMs,
    fetchRequests: client.counters().requests,
    shapeMedianMs: median(times),
    shapeMaxMs: Math.max(...times),
    rows: table.length,
    columns: table[0]?.length ?? 0,
    mergeMedianMs: median(mergeTimes),
    messages: results.filter((r) => r.kind === "message").length,
  };
}

export const SNAPSHOT_METRICS = ["PRICE", "FEES", "DAU", "TXNS", "TVL"];

export interface CellsRun {
  requests: number;
  wallMs: number;
  /** Cells holding a number (the others are pairs the sandbox lacks: #N/A). */
  numbers: number;
}

export interface SnapshotComparison {
  latest: CellsRun;
  snapshot: CellsRun;
  /** Cells where the snapshot and the MD.LATEST cell disagree. */
  mismatches: number;
}

function cellsContext(sandbox: SandboxHandle, today: string): CallContext & { client: Client } {
  const client = createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }) });
  return { client, today, call: {} };
}

/**
 * 200 symbols × 5 metrics as of today: 1,000 MD.LATEST cells (one call each,
 * in one burst, as a recalculation delivers them) and one MD.SNAPSHOT formula,
 * each through src/functions with its own fresh client.
 */
export async function runSnapshotComparison(
  sandbox: SandboxHandle,
  symbols: string[],
  today: string,
): Promise<SnapshotComparison> {
  const latestCtx = cellsContext(sandbox, today);
  let started = performance.now();
  const cells = await Promise.allSettled(
    symbols.flatMap((symbol) => SNAPSHOT_METRICS.map((metric) => latestCell(latestCtx, { symbol, metric }))),
  );
  const latest: CellsRun = {
    requests: latestCtx.client.counters().requests,
    wallMs: performance.now() - started,
    numbers: cells.filter((c) => c.status === "fulfilled").length,
  };

  const snapshotCtx = cellsContext(sandbox, today);
  started = performance.now();
  const table = await snapshotTable(snapshotCtx, { symbols: symbols.join(","), metrics: SNAPSHOT_METRICS.join(",") });
  const snapshot: CellsRun = {
    requests: snapshotCtx.client.counters().requests,
    wallMs: performance.now() - started,
    numbers: table.slice(1).reduce((n, row) => n + row.slice(1).filter((c) => typeof c === "number").length, 0),
  };
  let mismatches = 0;
  symbols.forEach((_, s) =>
    SNAPSHOT_METRICS.forEach((_, m) => {
      const cell = cells[s * SNAPSHOT_METRICS.length + m]!;
      const value = table[s + 1]![m + 1];
      if (cell.status === "fulfilled" ? value !== cell.value : typeof value === "number") mismatches++;
    }),
  );
  return { latest, snapshot, mismatches };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const today = iso(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  // Grown to 2,000 assets: the workload needs 200 crypto symbols (the named set, then filler tokens).
  const sandbox = await startSandbox({
    port: 0,
    today,
    latencyMs: args.latencyMs,
    insightFirstCallDelayMs: 0,
    assetCount: 2000,
  });
  try {
    // Core chains first in the catalog, then filler tokens: the first 200 crypto symbols.
    const catalogClient = createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }) });
    const assets = await catalogClient.getAssets();
    const symbols = assets
      .filter((a) => !a.symbol.startsWith("eq-"))
      .slice(0, SYMBOLS)
      .map((a) => a.symbol);
    if (symbols.length < SYMBOLS) throw new Error(`The sandbox catalog has only ${symbols.length} crypto symbols`);
    const requests = lookups(symbols, today);
    const budget = requestBudget(requests);

    sandbox.reset();
    const batched = await runLookups(sandbox, requests, {}, "burst");
    const serverBatched = sandbox.stats().requests;
    sandbox.reset();
    const trickled = await runLookups(sandbox, requests, {}, "macrotasks");
    sandbox.reset();
    const unbatched = await runLookups(
      sandbox,
      requests,
      { maxSymbolsPerRequest: 1, maxMetricsPerRequest: 1 },
      "burst",
    );
    const serverUnbatched = sandbox.stats().requests;
    sandbox.reset();
    const comparison = await runSnapshotComparison(sandbox, symbols, today);
    // A column of cards: crypto and equities, 500 symbols of the catalog.
    const cardSymbols = assets
      .map((a) => a.symbol)
      .filter((s) => s.startsWith("eq-") || !s.includes("-"))
      .slice(0, ASSET_CARDS);
    const cards = await runAssetCards(sandbox, cardSymbols, today);
    sandbox.setLatency(0);
    const shaping = await runShaping(sandbox, symbols, today);
    const reopen = await runReopen(symbols, lookups, args.latencyMs);

    const mismatches = batched.values.filter((v, i) => v !== unbatched.values[i] || v !== trickled.values[i]).length;
    const errors = batched.values.filter((v) => typeof v === "string" && v.startsWith("error")).length;
    const messages = batched.values.filter((v) => typeof v === "string" && v.startsWith("message")).length;

    const budgets = [
      {
        name: "requests for 1,000 lookups (batched) ≤ 1 per 50 symbols per group",
        limit: budget,
        value: batched.requests,
      },
      {
        name: "requests for 1,000 lookups (one per macrotask) ≤ 1 per 50 symbols per group",
        limit: budget,
        value: trickled.requests,
      },
      { name: `1,000 lookups filled at ${args.latencyMs} ms latency, ms`, limit: 2000, value: round(batched.wallMs) },
      { name: "shaping 50 × 5 × 1,000 into a table, median ms", limit: 50, value: round(shaping.shapeMedianMs) },
      { name: "lookups answered identically batched and unbatched", limit: 0, value: mismatches },
      {
        name: "requests of MD.SNAPSHOT 200 × 5 ≤ those of 1,000 MD.LATEST cells",
        limit: comparison.latest.requests,
        value: comparison.snapshot.requests,
      },
      { name: "MD.SNAPSHOT cells differing from MD.LATEST cells", limit: 0, value: comparison.mismatches },
      {
        name: `series requests of ${ASSET_CARDS} MD.ASSET cards ≤ those of the MD.LATEST / MD.AGG cells of the same pairs`,
        limit: cards.cellRequests,
        value: cards.cardRequests,
      },
      { name: "reopened the same day: requests", limit: 0, value: reopen.workbook.sameDay.requests },
      {
        name: `next day, a year of daily data: series windows other than the new days (${reopen.newDaysWindow})`,
        limit: 0,
        value: reopen.history.nextDay.windows.filter((w) => w !== reopen.newDaysWindow).length,
      },
      {
        name: "next day, a year of daily data: % of the cold bytes",
        limit: NEXT_DAY_SHARE_LIMIT * 100,
        value: round(share(reopen.history.nextDay, reopen.history.cold) * 100),
      },
      {
        name: "next day, the benchmark workbook: % of its cold bytes",
        limit: WORKBOOK_NEXT_DAY_SHARE_LIMIT * 100,
        value: Math.round(share(reopen.workbook.nextDay, reopen.workbook.cold) * 10000) / 100,
      },
      { name: "next day: answers that differ from a client without a store", limit: 0, value: reopen.mismatches },
      {
        name: "days 2 to 7: answers that differ from a client without a store, but for the correction not yet rechecked",
        limit: 0,
        value: reopen.weekOtherMismatches,
      },
    ].map((b) => ({ ...b, ok: b.value <= b.limit }));

    const report = {
      date: today,
      latencyMs: args.latencyMs,
      lookups: { count: LOOKUPS, symbols: SYMBOLS, metrics: METRICS, groups: 2, messages, errors },
      batched: { ...omitValues(batched), serverRequests: serverBatched, budgetRequests: budget },
      batchedMacrotasks: omitValues(trickled),
      unbatched: { ...omitValues(unbatched), serverRequests: serverUnbatched },
      ratio: {
        requests: round(unbatched.requests / batched.requests),
        wallMs: round(unbatched.wallMs / batched.wallMs),
        kb: round(unbatched.kb / batched.kb),
      },
      snapshot: {
        metrics: SNAPSHOT_METRICS,
        latestCells: roundAll(comparison.latest),
        snapshot: roundAll(comparison.snapshot),
        mismatches: comparison.mismatches,
      },
      assetCards: roundAll(cards),
      shaping: {
        source: "src/core/series-table.ts shapeSeriesTable",
        ...roundAll(shaping),
      },
      reopen,
      budgets,
      ok: budgets.every((b) => b.ok),
    };

    printTable(report, batched, trickled, unbatched, shaping, comparison);
    console.log(assetCardsText(cards, args.latencyMs));
    console.log(
      `### Reopen: the benchmark workbook over the persistent store (cold, same day, next day)\n\n${reopenTable(reopen)}\n\n${reopenSummary(reopen)}\n\nThe next day's bytes by call shape and cause:\n\n${nextDayBreakdown(reopen)}\n`,
    );
    console.log(
      `### A week of daily reopens of the benchmark workbook (bytes per day vs cold, corrections included)\n\n${weekTable(reopen)}\n`,
    );
    if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
    if (args.check && !report.ok) {
      console.error(
        "Budget exceeded: " +
          budgets
            .filter((b) => !b.ok)
            .map((b) => `${b.name}: ${b.value} > ${b.limit}`)
            .join("; "),
      );
      process.exitCode = 1;
    }
  } finally {
    await sandbox.close();
  }
}

function printTable(
  report: {
    latencyMs: number;
    lookups: { messages: number; errors: number };
    ratio: Record<string, number>;
    budgets: { name: string; limit: number; value: number; ok: boolean }[];
  },
  batched: LookupRun,
  trickled: LookupRun,
  unbatched: LookupRun,
  shaping: ShapingRun,
  comparison: SnapshotComparison,
): void {
  const row = (name: string, r: LookupRun) =>
    `| ${name} | ${r.requests} | ${r.wallMs.toFixed(0)} | ${r.kb.toFixed(1)} | ${r.retries} | ${r.failures} |`;
  console.log(
    `\n### 1,000 latest-value lookups: 200 symbols × 3 metrics × 2 windows, sandbox latency ${report.latencyMs} ms, concurrency ${CLIENT_DEFAULTS.concurrency}\n`,
  );
  console.log("| run | requests | wall ms | KB received | retries | failures |");
  console.log("|---|---:|---:|---:|---:|---:|");
  console.log(row("(a) batched, calls in one burst", batched));
  console.log(row("(a′) batched, one call per macrotask", trickled));
  console.log(row("(b) one request per lookup", unbatched));
  console.log(`| ratio (b)/(a) | ${report.ratio.requests}× | ${report.ratio.wallMs}× | ${report.ratio.kb}× | | |`);
  console.log(
    `\nLookups answered with a service message: ${report.lookups.messages}; errors: ${report.lookups.errors}.`,
  );
  console.log(snapshotTableText(comparison, report.latencyMs));
  console.log("\n### Shaping 50 symbols × 5 metrics × 1,000 daily points (sandbox data)\n");
  console.log("| step | ms |");
  console.log("|---|---:|");
  console.log(
    `| fetch through the client (${shaping.fetchRequests} requests, latency 0) | ${shaping.fetchMs.toFixed(0)} |`,
  );
  console.log(
    `| shape into a ${shaping.rows} × ${shaping.columns} table (src/core/series-table, values rounded to fit Excel's 5 MB), median of 20 | ${shaping.shapeMedianMs.toFixed(1)} |`,
  );
  console.log(`| shape, slowest of 20 | ${shaping.shapeMaxMs.toFixed(1)} |`);
  console.log(
    `| client merge of 250 series split in 4 parts each, median of 20 | ${shaping.mergeMedianMs.toFixed(1)} |`,
  );
  console.log("\n### Budgets\n");
  console.log("| budget | limit | measured | |");
  console.log("|---|---:|---:|---|");
  for (const b of report.budgets) console.log(`| ${b.name} | ${b.limit} | ${b.value} | ${b.ok ? "ok" : "EXCEEDED"} |`);
  console.log("");
}

/** The MD.SNAPSHOT run beside the MD.LATEST cells, as markdown. */
export function snapshotTableText(c: SnapshotComparison, latencyMs: number): string {
  const row = (name: string, r: CellsRun) => `| ${name} | ${r.requests} | ${r.wallMs.toFixed(0)} | ${r.numbers} |`;
  return [
    `\n### MD.SNAPSHOT of 200 symbols × 5 metrics (${SNAPSHOT_METRICS.join(", ")}) beside 1,000 MD.LATEST cells, sandbox latency ${latencyMs} ms\n`,
    "| run | requests | wall ms | cells with a number |",
    "|---|---:|---:|---:|",
    row("1,000 MD.LATEST cells (one burst)", c.latest),
    row("one MD.SNAPSHOT formula", c.snapshot),
    `\nCells where the two differ: ${c.mismatches}.`,
  ].join("\n");
}

function omitValues(run: LookupRun) {
  const { values: _values, ...rest } = run;
  return roundAll(rest);
}

function roundAll<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, typeof v === "number" ? round(v) : v])) as T;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

// bench/budgets.ts imports the runs above; only `tsx bench/run.ts` runs the benchmark.
if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
