/**
 * The team gateway's benchmark (part of `npm run bench`): two analysts open
 * the same workbook, first straight against the service, then through the
 * gateway (a real nginx in firm mode, deploy/nginx/) with a cold cache, then
 * again with it warm. Prints the requests the service received, each open's
 * wall time, and the gateway's cache hit ratio (from its access log).
 *
 * The workbook: the comps sheet of bench/run.ts (1,000 latest-value lookups,
 * 200 symbols × 3 metrics × 2 windows), the asset catalog (the picker), both
 * insight feeds (the service's first call of each is slow: 3 s here, "a
 * minute" in production) and a year of daily PRICE/FEES for 10 symbols.
 *
 *   npx tsx bench/gateway.ts [--latency <ms>] [--json <file>]
 *
 * The cost of sign-in: requests/s through two firm-mode gateways on this
 * machine, one asking for an OpenID Connect access token on every request (a
 * real provider, harness/identity.ts; the token verified once, then
 * answered from nginx's sign-in cache) and one not, both answering one cached
 * series (so what is measured is the gateway's own work per request):
 *
 *   npx tsx bench/gateway.ts --sign-in [--seconds <n>] [--clients <n>]
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient, type Client } from "../src/api/client";
import { startSandbox, type SandboxHandle } from "../sandbox/server";
import { findNginx, ROOT, startGateway, type GatewayHandle } from "../scripts/lib/gateway";
import { Agent, request } from "node:http";
import { startIdentityProvider, TEST_AUDIENCE } from "../harness/identity";
import { lookups, SYMBOLS } from "./run";

const DAY_MS = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
export const INSIGHT_FIRST_CALL_MS = 3000;

export interface OpenRun {
  /** Requests the analyst's client sent (to the gateway, or to the service). */
  clientRequests: number;
  wallMs: number;
  failures: number;
}

export interface PhaseRun {
  phase: string;
  /** Requests the service (sandbox) received during the phase. */
  upstreamRequests: number;
  analysts: OpenRun[];
  /** Longest open of the two (they open at the same time). */
  wallMs: number;
  /** Cache statuses the gateway logged for /api/ requests in the phase. */
  cache?: Record<string, number>;
  hitRatio?: number;
}

export interface GatewayBench {
  latencyMs: number;
  insightFirstCallMs: number;
  phases: PhaseRun[];
}

/** One analyst opening the workbook: a fresh shared client, every formula at once. */
async function openWorkbook(baseUrl: string, apiKey: string, symbols: string[], today: string): Promise<OpenRun> {
  const client = createClient({ settings: async () => ({ baseUrl, apiKey, keyManagedByGateway: !apiKey }) });
  const started = performance.now();
  const settled = await Promise.allSettled(workbookCalls(client, symbols, today));
  const wallMs = performance.now() - started;
  const counters = client.counters();
  return { clientRequests: counters.requests, wallMs, failures: settled.filter((s) => s.status === "rejected").length };
}

/** The workbook's 200 crypto symbols, from the service's catalog (a sandbox started with assetCount 2000). */
export async function workbookSymbols(serviceUrl: string, key: string): Promise<string[]> {
  const catalog = await createClient({ settings: async () => ({ baseUrl: serviceUrl, apiKey: key }) }).getAssets();
  const symbols = catalog
    .filter((a) => !a.symbol.startsWith("eq-"))
    .slice(0, SYMBOLS)
    .map((a) => a.symbol);
  if (symbols.length < SYMBOLS) throw new Error(`The sandbox catalog has only ${symbols.length} crypto symbols`);
  return symbols;
}

/** The benchmark workbook's formulas, the picker's catalog and both insight feeds, asked of `client` at once. */
export function workbookCalls(client: Client, symbols: string[], today: string): Promise<unknown>[] {
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  return [
    ...lookups(symbols, today).map((request) => client.getSeries(request)),
    client.getAssets(),
    client.getInsights("streaks"),
    client.getInsights("decline-streaks"),
    ...symbols.slice(0, 10).flatMap((symbol) =>
      ["PRICE", "FEES"].map((metric) =>
        client.getSeries({
          symbol,
          metric,
          start: iso(todayMs - 364 * DAY_MS),
          end: iso(todayMs - 30 * DAY_MS),
        }),
      ),
    ),
  ];
}

function cacheStatuses(gateway: GatewayHandle, fromLine: number): { counts: Record<string, number>; lines: number } {
  const lines = readFileSync(path.join(gateway.logsDir, "access.log"), "utf8").split("\n").filter(Boolean);
  const counts: Record<string, number> = {};
  for (const line of lines.slice(fromLine)) {
    // The access log's JSON lines (deploy/nginx/README.md "The access log").
    const entry = JSON.parse(line) as { request: string; cache: string };
    if (!entry.request.startsWith("GET /api/") || entry.request.includes("/api/_gateway")) continue;
    const status = entry.cache || "-";
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return { counts, lines: lines.length };
}

async function phase(
  name: string,
  sandbox: SandboxHandle,
  open: () => Promise<OpenRun>,
  gateway?: GatewayHandle,
  logFrom = 0,
): Promise<{ run: PhaseRun; logLines: number }> {
  const before = sandbox.stats().requests;
  const analysts = await Promise.all([open(), open()]);
  const run: PhaseRun = {
    phase: name,
    upstreamRequests: sandbox.stats().requests - before,
    analysts,
    wallMs: Math.max(...analysts.map((a) => a.wallMs)),
  };
  let logLines = logFrom;
  if (gateway) {
    const { counts, lines } = cacheStatuses(gateway, logFrom);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    run.cache = counts;
    run.hitRatio = total ? (counts.HIT ?? 0) / total : 0;
    logLines = lines;
  }
  return { run, logLines };
}

/** Runs the three phases; null with the reason when nginx or a build is missing. */
export async function runGatewayBench(latencyMs: number): Promise<GatewayBench | { skipped: string }> {
  const nginx = findNginx();
  if (!nginx) return { skipped: "no nginx installed (apt-get install nginx)" };
  if (!existsSync(path.join(ROOT, "dist", "taskpane.html"))) return { skipped: "no build in dist/ (npm run build)" };
  const today = iso(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  const key = `md-bench-${randomUUID()}`;
  const sandbox = await startSandbox({
    port: 0,
    today,
    latencyMs,
    insightFirstCallDelayMs: INSIGHT_FIRST_CALL_MS,
    apiKey: key,
    // The comps sheet's 200 crypto symbols: the named demo catalog alone has fewer.
    assetCount: 2000,
  });
  const secrets = mkdtempSync(path.join(os.tmpdir(), "md-bench-key-"));
  writeFileSync(path.join(secrets, "firm.key"), key, { mode: 0o600 });
  let gateway: GatewayHandle | undefined;
  try {
    const symbols = await workbookSymbols(sandbox.url, key);
    sandbox.resetInsightCache();
    const direct = await phase("direct to the service, each analyst's own client", sandbox, () =>
      openWorkbook(sandbox.url, key, symbols, today),
    );
    // The service's insight feeds are cold again for the gateway's first open.
    sandbox.resetInsightCache();
    // The requests of the benchmark all come from this machine: no per-client limit in the way.
    gateway = await startGateway({
      upstream: sandbox.url,
      port: 0,
      nginx,
      keyFile: path.join(secrets, "firm.key"),
      rate: 10_000,
      burst: 10_000,
    });
    const base = `${gateway.url}/api`;
    const cold = await phase(
      "through the gateway, cold cache",
      sandbox,
      () => openWorkbook(base, "", symbols, today),
      gateway,
    );
    const warm = await phase(
      "through the gateway, warm cache (both open again)",
      sandbox,
      () => openWorkbook(base, "", symbols, today),
      gateway,
      cold.logLines,
    );
    const overall = cacheStatuses(gateway, 0).counts;
    const total = Object.values(overall).reduce((a, b) => a + b, 0);
    const both: PhaseRun = {
      phase: "gateway, cold + warm (wall ms: the two opens added)",
      upstreamRequests: cold.run.upstreamRequests + warm.run.upstreamRequests,
      analysts: [...cold.run.analysts, ...warm.run.analysts],
      wallMs: cold.run.wallMs + warm.run.wallMs,
      cache: overall,
      hitRatio: total ? (overall.HIT ?? 0) / total : 0,
    };
    return { latencyMs, insightFirstCallMs: INSIGHT_FIRST_CALL_MS, phases: [direct.run, cold.run, warm.run, both] };
  } finally {
    await gateway?.stop();
    await sandbox.close();
    rmSync(secrets, { recursive: true, force: true });
  }
}

export function printGatewayBench(result: GatewayBench | { skipped: string }): void {
  console.log("\n### Two analysts open the same workbook: direct, and through the team gateway (nginx, firm mode)\n");
  if ("skipped" in result) {
    console.log(`Skipped: ${result.skipped}.`);
    return;
  }
  console.log(
    `Workbook: 1,000 latest-value lookups (200 symbols × 3 metrics × 2 windows), the asset catalog, both insight feeds ` +
      `(first call ${result.insightFirstCallMs / 1000} s), a year of PRICE and FEES for 10 symbols. ` +
      `Service latency ${result.latencyMs} ms per request; the two analysts open at the same time.\n`,
  );
  console.log(
    "| run | requests the service received | requests the clients sent | wall ms (slower analyst) | cache statuses | hit ratio |",
  );
  console.log("|---|---:|---:|---:|---|---:|");
  for (const p of result.phases) {
    const sent = p.analysts.reduce((a, b) => a + b.clientRequests, 0);
    const cache = p.cache
      ? Object.entries(p.cache)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")
      : "";
    const ratio = p.hitRatio === undefined ? "" : `${(p.hitRatio * 100).toFixed(0)} %`;
    console.log(`| ${p.phase} | ${p.upstreamRequests} | ${sent} | ${p.wallMs.toFixed(0)} | ${cache} | ${ratio} |`);
  }
  const failures = result.phases.slice(0, 3).reduce((n, p) => n + p.analysts.reduce((a, b) => a + b.failures, 0), 0);
  console.log(`\nFormulas that failed in any open: ${failures}.`);
}

/** Requests/s that `clients` keep-alive connections get for `url` in `seconds`, and how many were not 200. */
async function requestsPerSecond(url: string, headers: Record<string, string>, seconds: number, clients: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const target = new URL(url);
  const until = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, headers, agent },
        (res) => {
          if (res.statusCode !== 200) failed++;
          res.resume();
          res.on("end", resolve);
        },
      );
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end();
    });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        await one();
        done++;
      }
    }),
  );
  agent.destroy();
  return { perSecond: Math.round(done / seconds), failed };
}

export async function runSignInCost(seconds: number, clients: number): Promise<void> {
  if (!findNginx()) return console.log("skipped: no nginx installed");
  const key = `md-bench-${randomUUID()}`;
  const sandbox = await startSandbox({ port: 0, apiKey: key });
  const idp = await startIdentityProvider();
  const secrets = mkdtempSync(path.join(os.tmpdir(), "md-bench-key-"));
  const keyFile = path.join(secrets, "firm.key");
  writeFileSync(keyFile, key, { mode: 0o600 });
  const common = { upstream: sandbox.url, port: 0, keyFile, rate: 1_000_000, burst: 1_000_000 };
  const plain = await startGateway(common);
  const signed = await startGateway({
    ...common,
    identity: { issuer: idp.issuer, audience: TEST_AUDIENCE, clientId: "md-bench" },
  });
  try {
    const series = "/api/data/api/PRICE/?symbols=eth&startDate=2024-01-01&endDate=2024-01-31";
    const auth = { Authorization: `Bearer ${await idp.token()}` };
    // Warm both caches, then measure each in turn on the same machine.
    for (const [gateway, headers] of [
      [plain, {}],
      [signed, auth],
    ] as const) {
      const warm = await fetch(`${gateway.url}${series}`, { headers });
      if (warm.status !== 200) throw new Error(`warming ${gateway.url}: HTTP ${warm.status}`);
    }
    const without = await requestsPerSecond(`${plain.url}${series}`, {}, seconds, clients);
    const withCheck = await requestsPerSecond(`${signed.url}${series}`, auth, seconds, clients);
    console.log(
      `Cached series through the gateway, ${clients} keep-alive clients, ${seconds} s each, ${os.cpus().length} cores:\n` +
        `  without sign-in:            ${without.perSecond} requests/s (${without.failed} not 200)\n` +
        `  with token verification:    ${withCheck.perSecond} requests/s (${withCheck.failed} not 200)\n` +
        `  cost of verification:       ${Math.round((1 - withCheck.perSecond / without.perSecond) * 100)} % (target: at most 30 %)\n` +
        "Before verified tokens were kept by nginx's cache (a fresh check, key set read and RSA verify per request),\n" +
        "on a quiet machine: 27,052 requests/s without sign-in, 3,373 with: a cost of 88 %.",
    );
  } finally {
    await plain.stop();
    await signed.stop();
    await idp.close();
    await sandbox.close();
    rmSync(secrets, { recursive: true, force: true });
  }
}

if (require.main === module && process.argv.includes("--sign-in")) {
  const argv = process.argv.slice(2);
  const seconds = argv.includes("--seconds") ? Number(argv[argv.indexOf("--seconds") + 1]) : 5;
  const clients = argv.includes("--clients") ? Number(argv[argv.indexOf("--clients") + 1]) : 16;
  runSignInCost(seconds, clients).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
} else if (require.main === module) {
  const argv = process.argv.slice(2);
  const latency = argv.includes("--latency") ? Number(argv[argv.indexOf("--latency") + 1]) : 100;
  const json = argv.includes("--json") ? argv[argv.indexOf("--json") + 1] : undefined;
  runGatewayBench(latency)
    .then((result) => {
      printGatewayBench(result);
      if (json) writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
