/**
 * What provenance costs where Excel shows it (issue 38; DESIGN "Budgets"): 1,000 MD.LATEST cells through the
 * BUILT dist/functions.js at ExcelApi 1.19 (every value a Double with its number format and, in builds with
 * provenance, its properties), cold (an empty store) and warm (reopened over the same store), in bench/scale.ts's
 * child mode (`--child N <dist> --formatted-only`: a process per run, the sandbox with 100 ms latency in a
 * process of its own). Two builds run interleaved, run for run, so that a busy machine slows both alike;
 * medians are printed (wall, and this process's CPU: the add-in and the harness, the sandbox apart), with each
 * run's requests.
 *
 *   npx tsx bench/provenance.ts --before <dist> [--runs 9] [--cells 1000]
 *
 * `--before` is another build's dist folder (e.g. one built from a commit before provenance:
 * `git worktree add /tmp/before <commit> && (cd /tmp/before && npx webpack --mode production --env target=test)`);
 * the "after" build is ./dist (`npx webpack --mode production --env target=test`).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

interface Side {
  coldMs: number[];
  warmMs: number[];
  /** This process's CPU in each run (the add-in and the harness; the sandbox runs apart). */
  coldCpuMs: number[];
  warmCpuMs: number[];
  coldRequests: Set<number>;
  warmRequests: Set<number>;
  failures: number;
}

interface ChildFigures {
  formatted: {
    cold: { requests: number; wallMs: number; cpuMs: number; failures: number };
    warm: { requests: number; wallMs: number; cpuMs: number; failures: number };
  };
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function runOnce(dist: string, cells: number, into: Side): void {
  const scale = path.join(__dirname, "scale.ts");
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, scale, "--child", String(cells), dist, "--formatted-only"],
    { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
  );
  // The child prints its figures as the last line of JSON.
  const line = out.trim().split("\n").pop() ?? "";
  const { cold, warm } = (JSON.parse(line) as ChildFigures).formatted;
  into.coldMs.push(cold.wallMs);
  into.warmMs.push(warm.wallMs);
  into.coldCpuMs.push(cold.cpuMs);
  into.warmCpuMs.push(warm.cpuMs);
  into.coldRequests.add(cold.requests);
  into.warmRequests.add(warm.requests);
  into.failures += cold.failures + warm.failures;
}

function row(label: string, side: Side): string {
  const range = (v: number[]) => `${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}`;
  const each = (s: Set<number>) => [...s].sort((a, b) => a - b).join(", ");
  const m = (v: number[]) => Math.round(median(v));
  return `| ${label} | ${each(side.coldRequests)} | ${each(side.warmRequests)} | ${m(side.coldMs)} (${range(side.coldMs)}) | ${m(side.warmMs)} (${range(side.warmMs)}) | ${m(side.coldCpuMs)} / ${m(side.warmCpuMs)} | ${side.failures} |`;
}

function main(): void {
  const before = option("--before", "");
  const runs = Number(option("--runs", "9"));
  const cells = Number(option("--cells", "1000"));
  if (!before || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(cells) || cells < 500) {
    console.error("usage: npx tsx bench/provenance.ts --before <dist> [--runs 9] [--cells 1000]");
    process.exitCode = 2;
    return;
  }
  const after = path.resolve("dist");
  const sides = { before: emptySide(), after: emptySide() };
  for (let i = 0; i < runs; i++) {
    // Alternate which build goes first: neither always gets the quieter moment.
    const order: ["before" | "after", string][] =
      i % 2 === 0
        ? [
            ["before", path.resolve(before)],
            ["after", after],
          ]
        : [
            ["after", after],
            ["before", path.resolve(before)],
          ];
    for (const [name, dist] of order) runOnce(dist, cells, sides[name]);
  }
  console.log(
    [
      `${cells.toLocaleString("en-US")} MD.LATEST cells at ExcelApi 1.19 through each build, ${runs} interleaved runs each (wall ms: median (min–max)).`,
      "",
      "| build | requests, cold | requests, warm | cold wall ms | warm wall ms | CPU ms, cold / warm | cells failed |",
      "|---|---:|---:|---:|---:|---:|---:|",
      row(`before (${before})`, sides.before),
      row("after (./dist)", sides.after),
    ].join("\n"),
  );
}

function emptySide(): Side {
  return {
    coldMs: [],
    warmMs: [],
    coldCpuMs: [],
    warmCpuMs: [],
    coldRequests: new Set(),
    warmRequests: new Set(),
    failures: 0,
  };
}

main();
