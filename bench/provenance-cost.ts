/**
 * What provenance on the value costs (issue 38): 1,000 MD.LATEST cells
 * (200 crypto symbols × 5 metrics as of today, one burst, as a recalculation
 * delivers them) through the BUILT dist/functions.js (harness/bundle.ts), a
 * fresh runtime each run, loaded as an Excel with ExcelApi 1.16 (formatted
 * numbers, no properties: "off") and with ExcelApi 1.19 (every value a Double
 * with its properties: "on"), the runs interleaved. The sandbox answers with
 * 100 ms latency from a process of its own (bench/sandbox-process.ts), so the
 * CPU measured is this thread's: the add-in's and the harness's call stand-in.
 * Prints the medians; asserts nothing.
 *
 *   npx tsx bench/provenance-cost.ts                 12 runs of each, interleaved
 *   npx tsx bench/provenance-cost.ts --runs 20       other counts
 *   npx tsx bench/provenance-cost.ts --only on       one side alone (to profile it: node --cpu-prof)
 *   npx tsx bench/provenance-cost.ts --dist <dir>    another build
 *   npx tsx bench/provenance-cost.ts --before <dir>  also an earlier build, interleaved (the "before" rows)
 *
 * Needs a build first (`npx webpack --mode production --env target=test`).
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { DEMO_API_KEY } from "../sandbox/server";
import { DIST, loadFunctionsBundle } from "../harness/bundle";
import { SNAPSHOT_METRICS } from "./run";
import { fetchCatalog } from "./sandbox-catalog";
import { startSandboxProcess, type SandboxProcess } from "./sandbox-process";
import { median } from "./stats";

const SYMBOLS = 200;
const LATENCY_MS = 100;
const SIDES = {
  off: { CustomFunctionsRuntime: "1.4", ExcelApi: "1.16" },
  on: { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" },
} as const;
type Side = keyof typeof SIDES;

interface Run {
  requests: number;
  wallMs: number;
  cpuMs: number;
  /** From the burst to its first request, and from the last answer's headers to the last cell settled. */
  toFirstRequestMs: number;
  afterLastAnswerMs: number;
  numbers: number;
  withProperties: number;
}

async function oneRun(sandbox: SandboxProcess, dist: string, side: Side, symbols: string[]): Promise<Run> {
  await sandbox.reset();
  const seen = { first: Infinity, last: 0 };
  const timedFetch: typeof fetch = (input, init) => {
    seen.first = Math.min(seen.first, performance.now());
    return fetch(input, init).then((response) => {
      seen.last = Math.max(seen.last, performance.now());
      return response;
    });
  };
  const bundle = loadFunctionsBundle({
    distDir: dist,
    storage: { "md.baseUrl": sandbox.url, "md.apiKey": DEMO_API_KEY },
    requirements: SIDES[side],
    fetch: timedFetch,
  });
  while (!bundle.registered.has("LATEST")) await new Promise((resolve) => setImmediate(resolve));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const values = await Promise.all(
    symbols.flatMap((symbol) =>
      SNAPSHOT_METRICS.map((metric) => bundle.call("LATEST", [symbol, metric]).catch((error: unknown) => error)),
    ),
  );
  const ended = performance.now();
  const wallMs = ended - started;
  const used = process.cpuUsage(cpu);
  const numbers = values.filter(
    (v) => typeof v === "number" || (typeof v === "object" && v !== null && "basicValue" in v),
  ).length;
  const withProperties = values.filter((v) => typeof v === "object" && v !== null && "properties" in v).length;
  return {
    requests: (await sandbox.stats()).requests,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    toFirstRequestMs: seen.first - started,
    afterLastAnswerMs: ended - seen.last,
    numbers,
    withProperties,
  };
}

interface Config {
  label: string;
  dist: string;
  side: Side;
}

function summary(config: Config, runs: Run[]): string {
  const requests = [...new Set(runs.map((r) => r.requests))].join("/");
  const ms = (values: number[]) =>
    `${Math.round(median(values))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
  const host = config.side === "on" ? "ExcelApi 1.19 (properties on)" : "ExcelApi 1.16 (properties off)";
  return `| ${config.label} | ${host} | ${runs.length} | ${requests} | ${ms(runs.map((r) => r.wallMs))} | ${ms(runs.map((r) => r.cpuMs))} | ${ms(runs.map((r) => r.toFirstRequestMs))} | ${ms(runs.map((r) => r.afterLastAnswerMs))} | ${runs[0]?.numbers ?? 0} | ${runs[0]?.withProperties ?? 0} |`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const runs = Number(option("--runs") ?? 12);
  const dist = path.resolve(option("--dist") ?? DIST);
  const only = option("--only") as Side | undefined;
  const sides: Side[] = only ? [only] : ["off", "on"];
  const before = option("--before");
  const builds = [
    ...(before ? [{ label: path.relative(process.cwd(), path.resolve(before)), dist: path.resolve(before) }] : []),
    { label: path.relative(process.cwd(), dist) || ".", dist },
  ];
  const configs: Config[] = builds.flatMap((build) => sides.map((side) => ({ ...build, side })));
  const today = new Date().toISOString().slice(0, 10);
  const sandbox = await startSandboxProcess({
    port: 0,
    quiet: true,
    today,
    latencyMs: LATENCY_MS,
    insightFirstCallDelayMs: 0,
    assetCount: 2000,
  });
  try {
    const symbols = (await fetchCatalog(sandbox.url))
      .map((a) => a.symbol)
      .filter((s) => !s.startsWith("eq-"))
      .slice(0, SYMBOLS);
    const results = configs.map(() => [] as Run[]);
    // One warm-up run of each (not counted): Node's own modules and the sandbox's first answers.
    for (const config of configs) await oneRun(sandbox, config.dist, config.side, symbols);
    for (let i = 0; i < runs; i++)
      for (const [c, config] of configs.entries())
        results[c]!.push(await oneRun(sandbox, config.dist, config.side, symbols));
    console.log(
      `\n1,000 MD.LATEST cells (${SYMBOLS} symbols × ${SNAPSHOT_METRICS.join(", ")}, one burst), a fresh runtime each run, the runs interleaved, sandbox latency ${LATENCY_MS} ms in its own process; median (min–max)\n`,
    );
    console.log(
      "| build | host | runs | requests | wall ms | CPU ms (this process) | ms to the first request | ms after the last answer | cells with a number | with properties |",
    );
    console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const [c, config] of configs.entries()) console.log(summary(config, results[c]!));
  } finally {
    await sandbox.close();
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
