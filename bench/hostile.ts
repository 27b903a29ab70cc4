/**
 * The add-in against a broken or hostile service (DESIGN.md
 * "Budgets"): figures printed, nothing asserted.
 *
 *   npm run bench                  (runs bench/run.ts, this, bench/gateway.ts, then the picker search)
 *   tsx bench/hostile.ts --latency 100
 *
 * (e) 1,000 MD.LATEST cells (200 symbols × 5 metrics, through src/functions)
 *     with one symbol poisoned: the service fails every request naming it
 *     with HTTP 500. Requests, wall time, and the cells compared with the same
 *     run against a healthy service: every other cell must hold the same
 *     value, the poisoned symbol's cells an error naming it.
 * (f) every cell settling against bodies that never end: 1,000 MD.LATEST
 *     cells and 10 whole-history MD.SERIES cells through the cell frame
 *     (src/functions/invoke.ts) with the default deadlines (a call's 50 s,
 *     a cell's 55 s); beside them the asset and metric catalogs (their own
 *     lane, answered normally) and how long they took.
 */
import { CLIENT_DEFAULTS, createClient, type Client } from "../src/api/client";
import type { CallContext } from "../src/functions/call-context";
import { invokeTable, invokeValue, CELL_DEADLINE_MS } from "../src/functions/invoke";
import { formattedLatestValue, latestValue } from "../src/functions/latest";
import { formattedSeriesTable } from "../src/functions/series";
import { aggregateValue } from "../src/functions/agg";
import { CallTracker } from "../src/office/call-tracker";
import { registerRuntime } from "../src/office/runtime-registry";
import type { SettingsStore } from "../src/office/settings";
import { DEMO_API_KEY, startSandbox, type SandboxHandle } from "../sandbox/server";
import { installCustomFunctionsStandIn } from "../harness/custom-functions-stand-in";
import { SNAPSHOT_METRICS } from "./run";

const DAY_MS = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

function parseLatency(argv: string[]): number {
  const at = argv.indexOf("--latency");
  const latency = at < 0 ? 100 : Number(argv[at + 1]);
  if (!Number.isFinite(latency) || latency < 0) throw new Error("--latency must be a number of ms ≥ 0");
  return latency;
}

function newClient(sandbox: SandboxHandle): Client {
  return createClient({ settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }) });
}

interface PoisonRun {
  clientRequests: number;
  serverRequests: number;
  server500s: number;
  wallMs: number;
  cells: (number | string)[];
}

/** `poison`: the symbol the service fails every request naming it for (none: a healthy service). */
async function latestCells(
  sandbox: SandboxHandle,
  symbols: string[],
  today: string,
  poison?: string,
): Promise<PoisonRun> {
  const client = newClient(sandbox);
  const ctx: CallContext = { client, today, call: {} };
  sandbox.reset();
  sandbox.setHostile({ poisonSymbols: poison ? [poison] : [] });
  const started = performance.now();
  const settled = await Promise.allSettled(
    symbols.flatMap((symbol) => SNAPSHOT_METRICS.map((metric) => latestValue(ctx, { symbol, metric }))),
  );
  const wallMs = performance.now() - started;
  const stats = sandbox.stats();
  return {
    clientRequests: client.counters().requests,
    serverRequests: stats.requests,
    server500s: stats.byStatus["500"] ?? 0,
    wallMs,
    cells: settled.map((s) => (s.status === "fulfilled" ? s.value : `error: ${(s.reason as Error).message}`)),
  };
}

interface PoisonReport {
  healthy: PoisonRun;
  poisoned: PoisonRun;
  poison: string;
  /** Cells of other symbols holding exactly the healthy run's value (or the same error). */
  othersCorrect: number;
  others: number;
  /** The poisoned symbol's cells that are errors naming it. */
  poisonNamed: number;
  poisonCells: number;
}

async function runPoison(sandbox: SandboxHandle, symbols: string[], today: string): Promise<PoisonReport> {
  const poison = symbols[57]!;
  await latestCells(sandbox, symbols, today); // warm-up: the first run pays for compiling the code paths
  const healthy = await latestCells(sandbox, symbols, today);
  const poisoned = await latestCells(sandbox, symbols, today, poison);
  sandbox.setHostile({ poisonSymbols: [] });
  let othersCorrect = 0;
  let others = 0;
  let poisonNamed = 0;
  let poisonCells = 0;
  symbols.forEach((symbol, s) =>
    SNAPSHOT_METRICS.forEach((_, m) => {
      const i = s * SNAPSHOT_METRICS.length + m;
      const cell = poisoned.cells[i]!;
      if (symbol === poison) {
        poisonCells++;
        if (typeof cell === "string" && cell.startsWith("error") && cell.includes(poison)) poisonNamed++;
      } else {
        others++;
        if (cell === healthy.cells[i]) othersCorrect++;
      }
    }),
  );
  return { healthy, poisoned, poison, othersCorrect, others, poisonNamed, poisonCells };
}

interface EndlessReport {
  cells: number;
  /** Time from the calculation to each cell settling, ms. */
  firstMs: number;
  lastMs: number;
  medianMs: number;
  pending: number;
  /** How the cells ended, by message (numbers counted as "a value"). */
  outcomes: Map<string, number>;
  catalogs: { what: string; ms: number; ok: boolean }[];
}

async function runEndless(sandbox: SandboxHandle, symbols: string[]): Promise<EndlessReport> {
  installCustomFunctionsStandIn();
  const client = newClient(sandbox);
  registerRuntime({
    client,
    settings: undefined as unknown as SettingsStore, // the cells never read it: the client has its settings
    calls: new CallTracker(),
    dateSystem: async () => 1900,
    version: "bench",
  });
  sandbox.reset();
  sandbox.setHostile({ endlessBody: ["/data/api/"] });
  const started = performance.now();
  const settledAt: number[] = [];
  const outcomes = new Map<string, number>();
  const note = (label: string) => {
    settledAt.push(performance.now() - started);
    outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
  };
  const track = (cell: Promise<unknown>) =>
    cell.then(
      () => note("a value"),
      (error: { code?: string; message?: string }) =>
        note(`${error.code ?? "error"} ${(error.message ?? "").replace(/\(.*?\)/g, "(…)")}`),
    );
  const cells: Promise<void>[] = [];
  for (const symbol of symbols)
    for (const metric of SNAPSHOT_METRICS)
      cells.push(track(invokeValue(undefined, (ctx) => formattedLatestValue(ctx, { symbol, metric }))));
  for (const symbol of symbols.slice(0, 10))
    cells.push(
      track(invokeTable(undefined, (ctx) => formattedSeriesTable(ctx, { symbols: symbol, metrics: "PRICE" }))),
    );

  // The pane beside the stuck cells: the catalogs go in their own lane.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const catalogs = await Promise.all(
    [
      ["asset catalog", () => client.getAssets()],
      ["metric catalog of eth", () => client.getMetrics("eth")],
    ].map(async ([what, ask]) => {
      const t = performance.now();
      const ok = await (ask as () => Promise<unknown>)().then(
        () => true,
        () => false,
      );
      return { what: what as string, ms: performance.now() - t, ok };
    }),
  );

  // Waits well past the deadlines: a cell still pending then is counted, not waited for.
  const limit = CELL_DEADLINE_MS + 15_000;
  await Promise.race([Promise.all(cells), new Promise((resolve) => setTimeout(resolve, limit))]);
  sandbox.setHostile({ endlessBody: false });
  const sorted = [...settledAt].sort((a, b) => a - b);
  return {
    cells: cells.length,
    firstMs: sorted[0] ?? NaN,
    lastMs: sorted.at(-1) ?? NaN,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? NaN,
    pending: cells.length - settledAt.length,
    outcomes,
    catalogs,
  };
}

/** (g): the requests of one MD.AGG(symbol, metric, "-1900Y") cell, and what it showed, against data in every window. */
async function aggHistoryRequests(
  sandbox: SandboxHandle,
  today: string,
  symbol: string,
  metric: string,
): Promise<{ requests: number; value: unknown }> {
  sandbox.setHostile({ dataEverywhere: true });
  try {
    const client = newClient(sandbox);
    const before = sandbox.stats().byEndpoint["/data/api/"] ?? 0;
    const ctx: CallContext = { client, today, call: {} };
    const value = await aggregateValue(ctx, { symbol, metric, window: "-1900Y", stat: "SUM" }).catch(
      (error: Error) => `${error.name}: ${error.message}`,
    );
    return { requests: (sandbox.stats().byEndpoint["/data/api/"] ?? 0) - before, value };
  } finally {
    sandbox.setHostile({ dataEverywhere: false });
  }
}

async function main(): Promise<void> {
  const latencyMs = parseLatency(process.argv.slice(2));
  const today = iso(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  const sandbox = await startSandbox({ port: 0, today, latencyMs, insightFirstCallDelayMs: 0, assetCount: 2000 });
  try {
    const assets = await newClient(sandbox).getAssets();
    const symbols = assets
      .filter((a) => !a.symbol.startsWith("eq-"))
      .slice(0, 200)
      .map((a) => a.symbol);

    console.log(
      `\n### One MD.AGG(…,"-1900Y") cell against a service with data for any date (DESIGN.md "Budgets": ≤ 12 requests)\n`,
    );
    console.log("| cell | series requests | value |");
    console.log("|---|---:|---:|");
    for (const [symbol, metric] of [
      ["eth", "FEES"],
      ["eq-coin", "PRICE"],
    ] as const) {
      const g = await aggHistoryRequests(sandbox, today, symbol, metric);
      console.log(`| MD.AGG("${symbol}","${metric}","-1900Y","SUM") | ${g.requests} | ${String(g.value)} |`);
    }

    const p = await runPoison(sandbox, symbols, today);
    console.log(
      `\n### 1,000 MD.LATEST cells (200 symbols × ${SNAPSHOT_METRICS.length} metrics), one symbol poisoned (${p.poison}: every request naming it answers HTTP 500), sandbox latency ${latencyMs} ms\n`,
    );
    console.log("| run | client requests | server requests | of which 500 | wall ms |");
    console.log("|---|---:|---:|---:|---:|");
    const row = (name: string, r: PoisonRun) =>
      `| ${name} | ${r.clientRequests} | ${r.serverRequests} | ${r.server500s} | ${r.wallMs.toFixed(0)} |`;
    console.log(row("healthy service", p.healthy));
    console.log(row("one symbol poisoned", p.poisoned));
    console.log(
      `\nCells of the other ${symbols.length - 1} symbols equal to the healthy run: ${p.othersCorrect} of ${p.others}. ` +
        `Cells of ${p.poison} with an error naming it: ${p.poisonNamed} of ${p.poisonCells}. ` +
        `Extra requests for the poisoned symbol: ${p.poisoned.serverRequests - p.healthy.serverRequests}.`,
    );

    const e = await runEndless(sandbox, symbols);
    console.log(
      `\n### Every cell settling against bodies that never end (/data/api/ answers its headers, then a space a second): ${e.cells} cells (1,000 MD.LATEST, 10 whole-history MD.SERIES), default deadlines (a call ${CLIENT_DEFAULTS.callDeadlineMs / 1000} s, a cell ${CELL_DEADLINE_MS / 1000} s)\n`,
    );
    console.log("| figure | value |");
    console.log("|---|---:|");
    console.log(`| first cell settled, s | ${(e.firstMs / 1000).toFixed(1)} |`);
    console.log(`| median cell settled, s | ${(e.medianMs / 1000).toFixed(1)} |`);
    console.log(`| last cell settled, s | ${(e.lastMs / 1000).toFixed(1)} |`);
    console.log(`| cells still pending after ${(CELL_DEADLINE_MS + 15_000) / 1000} s | ${e.pending} |`);
    for (const c of e.catalogs)
      console.log(`| ${c.what} beside the stuck series, ms (${c.ok ? "answered" : "FAILED"}) | ${c.ms.toFixed(0)} |`);
    console.log("\nHow the cells ended:\n");
    for (const [label, count] of e.outcomes) console.log(`- ${count} × ${label}`);
    console.log("");
  } finally {
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
