/**
 * The morning storm (a benchmark, not a test): 300 signed-in analysts open
 * the benchmark workbook (bench/gateway.ts's: 1,000 latest-value lookups,
 * the asset catalog, both insight feeds, a year of PRICE and FEES for 10
 * symbols) within one arrival window, through the two-tier layout (3 edges,
 * 2 cache nodes: harness/two-tier.ts) and, for comparison, through one
 * gateway. Each analyst is a fresh shared client with their own access token
 * from a real OpenID Connect provider (harness/identity.ts); analyst n
 * arrives at n × window / analysts and goes to edge n mod 3. Prints the
 * requests that reached the service (all, and distinct), p50/p99 latency
 * per request (sent to body read), errors (failed formulas and non-200
 * answers), and each nginx's CPU (master and workers, from /proc/<pid>/stat).
 *
 *   npx tsx bench/morning-storm.ts [--analysts 300] [--window 60] [--latency 100] [--json <file>]
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { createClient } from "../src/api/client";
import type { FetchLike } from "../src/api/http/transport";
import { startSandbox, type SandboxHandle } from "../sandbox/server";
import { findNginx, startGateway, type GatewayHandle } from "../scripts/lib/gateway";
import { startIdentityProvider, TEST_AUDIENCE, type IdentityProvider } from "../harness/identity";
import { startTwoTier } from "../harness/two-tier";
import path from "node:path";
import { INSIGHT_FIRST_CALL_MS, workbookCalls, workbookSymbols } from "./gateway";

const DAY_MS = 86_400_000;
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (Linux's USER_HZ). */
const CLOCK_TICKS = 100;

interface StormOptions {
  analysts: number;
  windowS: number;
  latencyMs: number;
}

export interface StormRun {
  layout: string;
  /** Requests the service received, and how many distinct ones (path and query). */
  serviceRequests: number;
  distinctRequests: number;
  /** Requests the analysts' clients sent. */
  clientRequests: number;
  p50Ms: number;
  p99Ms: number;
  /** Formulas that failed, and answers that were not 200. */
  failedFormulas: number;
  failedAnswers: number;
  /** From the first arrival to the last analyst's workbook filled. */
  wallS: number;
  /** CPU seconds per nginx (master + workers + cache processes), by role. */
  cpu: { gateway: string; seconds: number }[];
  /** CPU seconds of this process: the analysts' clients (and the in-process service). */
  clientsCpuS: number;
}

/** CPU seconds an nginx master and its children have used so far. */
function nginxCpuSeconds(masterPid: number): number {
  let ticks = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command's closing parenthesis: state ppid … utime (14th field) stime (15th).
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const pid = Number(name);
      if (pid !== masterPid && Number(fields[1]) !== masterPid) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // a process that ended meanwhile
    }
  }
  return ticks / CLOCK_TICKS;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;

/** Everyone arrives and opens the workbook through `entries` (analyst n through entries[n mod length]). */
async function storm(
  layout: string,
  entries: GatewayHandle[],
  measured: { gateway: string; handle: GatewayHandle }[],
  sandbox: SandboxHandle,
  tokens: string[],
  symbols: string[],
  today: string,
  options: StormOptions,
): Promise<StormRun> {
  sandbox.reset();
  sandbox.resetInsightCache();
  const latencies: number[] = [];
  let failedAnswers = 0;
  const timed: FetchLike = async (url, init) => {
    const started = performance.now();
    const response = await fetch(url, init);
    const body = await response.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.status !== 200) failedAnswers++;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const cpuBefore = measured.map((m) => nginxCpuSeconds(m.handle.pid));
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  let clientRequests = 0;
  const results = await Promise.all(
    tokens.map(async (token, n) => {
      await new Promise((resolve) => setTimeout(resolve, (n * options.windowS * 1000) / tokens.length));
      const client = createClient({
        settings: async () => ({
          baseUrl: `${entries[n % entries.length].url}/api`,
          apiKey: "",
          keyManagedByGateway: true,
          signedInUsersOnly: true,
        }),
        accessToken: async () => token,
        fetch: timed,
      });
      const settled = await Promise.allSettled(workbookCalls(client, symbols, today));
      clientRequests += client.counters().requests;
      return settled.filter((s) => s.status === "rejected").length;
    }),
  );
  const wallS = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  const cpu = measured.map((m, i) => ({
    gateway: m.gateway,
    seconds: nginxCpuSeconds(m.handle.pid) - cpuBefore[i],
  }));
  const log = sandbox.requestLog();
  latencies.sort((a, b) => a - b);
  return {
    layout,
    serviceRequests: sandbox.stats().requests,
    distinctRequests: new Set(log.map((e) => `${e.path}?${e.query}`)).size,
    clientRequests,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failedFormulas: results.reduce((a, b) => a + b, 0),
    failedAnswers,
    wallS,
    cpu,
    clientsCpuS: (own.user + own.system) / 1e6,
  };
}

/** One token per analyst, a few asked at a time. */
async function signIn(idp: IdentityProvider, count: number): Promise<string[]> {
  const tokens: string[] = new Array<string>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const n = next++;
        tokens[n] = await idp.token({ user: `analyst-${n}`, name: `Analyst ${n}` });
      }
    }),
  );
  return tokens;
}

export async function runMorningStorm(options: StormOptions): Promise<StormRun[] | { skipped: string }> {
  const nginx = findNginx();
  if (!nginx) return { skipped: "no nginx installed (apt-get install nginx)" };
  const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  const key = `md-bench-${randomUUID()}`;
  const sandbox = await startSandbox({
    port: 0,
    today,
    latencyMs: options.latencyMs,
    insightFirstCallDelayMs: INSIGHT_FIRST_CALL_MS,
    apiKey: key,
    assetCount: 2000,
  });
  const idp = await startIdentityProvider();
  const identity = { issuer: idp.issuer, audience: TEST_AUDIENCE, clientId: "md-bench" };
  const secrets = mkdtempSync(path.join(os.tmpdir(), "md-storm-key-"));
  const keyFile = path.join(secrets, "firm.key");
  writeFileSync(keyFile, key, { mode: 0o600 });
  const closers: (() => Promise<void>)[] = [() => sandbox.close(), () => idp.close()];
  try {
    const symbols = await workbookSymbols(sandbox.url, key);
    const tokens = await signIn(idp, options.analysts);

    const tiers = await startTwoTier({ upstream: sandbox.url, key, identity, common: { nginx } });
    closers.unshift(() => tiers.close());
    const measuredTiers = [
      ...tiers.edges.map((handle, n) => ({ gateway: `edge ${n + 1}`, handle })),
      ...tiers.cacheNodes.map((handle, n) => ({ gateway: `cache node ${n + 1}`, handle })),
    ];
    const two = await storm(
      "two tiers: 3 edges, 2 cache nodes",
      tiers.edges,
      measuredTiers,
      sandbox,
      tokens,
      symbols,
      today,
      options,
    );
    await tiers.close();
    closers.shift();

    const one = await startGateway({ upstream: sandbox.url, port: 0, nginx, keyFile, identity });
    closers.unshift(() => one.stop());
    const single = await storm(
      "one gateway",
      [one],
      [{ gateway: "the gateway", handle: one }],
      sandbox,
      tokens,
      symbols,
      today,
      options,
    );
    return [two, single];
  } finally {
    for (const close of closers) await close();
    rmSync(secrets, { recursive: true, force: true });
  }
}

export function printMorningStorm(result: StormRun[] | { skipped: string }, options: StormOptions): void {
  console.log(
    `\n### The morning storm: ${options.analysts} signed-in analysts open the benchmark workbook within ${options.windowS} s\n`,
  );
  if ("skipped" in result) {
    console.log(`Skipped: ${result.skipped}.`);
    return;
  }
  console.log(
    `Service latency ${options.latencyMs} ms per request, first insight call ${INSIGHT_FIRST_CALL_MS / 1000} s; ` +
      `${os.cpus().length} cores shared by every nginx, the service and the analysts' clients.\n`,
  );
  console.log(
    "| layout | requests the service received (distinct) | requests the clients sent | p50 ms | p99 ms | errors | wall s | nginx CPU s (per gateway) | clients + service CPU s |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---|---:|");
  for (const r of result) {
    const cpu = r.cpu.map((c) => `${c.gateway} ${c.seconds.toFixed(1)}`).join(", ");
    console.log(
      `| ${r.layout} | ${r.serviceRequests} (${r.distinctRequests}) | ${r.clientRequests} | ${r.p50Ms.toFixed(0)} | ` +
        `${r.p99Ms.toFixed(0)} | ${r.failedFormulas + r.failedAnswers} | ${r.wallS.toFixed(1)} | ${cpu} | ${r.clientsCpuS.toFixed(1)} |`,
    );
  }
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const option = (name: string, fallback: number) =>
    argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback;
  const options: StormOptions = {
    analysts: option("--analysts", 300),
    windowS: option("--window", 60),
    latencyMs: option("--latency", 100),
  };
  const json = argv.includes("--json") ? argv[argv.indexOf("--json") + 1] : undefined;
  runMorningStorm(options)
    .then((result) => {
      printMorningStorm(result, options);
      if (json) writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
