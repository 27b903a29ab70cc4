/**
 * Big workbooks: MD.LATEST cells by the ten thousand through the BUILT
 * dist/functions.js (harness/bundle.ts: Excel's custom-functions runtime
 * stand-in), over the persistent store on fake-indexeddb (IndexedDB's code
 * path, not a browser's speed), against the sandbox with 100 ms latency in a
 * process of its own (bench/sandbox-process.ts: the service's work is not on
 * the cells' thread, as the real service's is not). Prints figures; asserts
 * nothing unless `--check`.
 *
 *   npx tsx bench/scale.ts                      10,000, 50,000 and 100,000 cells
 *   npx tsx bench/scale.ts --cells 10000,50000  other scales
 *   npx tsx bench/scale.ts --before <dist>      also run another build (the "before" column)
 *   npx tsx bench/scale.ts --json out.json      also the figures as JSON
 *   npx tsx bench/scale.ts --check              exit 1 when the request budget is exceeded
 *   npx tsx bench/scale.ts --child 10000 <dist> --formatted-only
 *                                               one scale's formatted cells only (to profile them), as JSON
 *
 * Needs a build first (`npx webpack --mode production --env target=test`).
 *
 * The workbook: 100 symbols (sandbox filler tokens, all five metrics) × 5
 * metrics (PRICE, MC, FEES, DAU, TXNS) × N as-of dates (today and the N − 1
 * days before), one cell each; the calls arrive one as-of date (500 cells) per
 * macrotask, as Excel delivers a recalculation in batches. Each scale runs in
 * its own process (peak and retained heap are then that scale's), one after
 * the other, so that the growth from 10,000 to 100,000 is a ratio measured on
 * the same machine in the same minute:
 *
 *   cold       a new runtime over an empty store
 *   warm       a new runtime over the same store (the workbook reopened), the
 *              same cells: answered from the store, no request
 *   reference  a runtime without a store (no IndexedDB), latency 0: every cold
 *              and warm answer must equal its answer, cell for cell
 *   formatted  (10,000 cells) the same cold and warm with the host's data types
 *              (ExcelApi 1.19: each cell a Double with its number format)
 *   picker     (50,000 cells, cold) the pane's asset search over 20,000 assets,
 *              a keystroke every 25 ms on the same thread while the cells compute:
 *              the time from the keystroke to its answer. Printed, not a budget:
 *              here a keystroke is a timer, which Node runs only between whole
 *              event-loop phases (behind every ready network callback and every
 *              setImmediate step of fake-indexeddb), where a browser runs queued
 *              input first; the budget's row is read in Chromium, with the built
 *              pane and real key presses (bench/picker-chromium.ts)
 *
 * Heap: the largest V8 heap seen while the cells compute (sampled each ms the
 * thread is free, and at the end), and what stays after a full GC with the
 * runtime alive (its memory working set), both less the heap before it loaded.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { IDBDatabase, IDBFactory, IDBIndex, IDBKeyRange, IDBObjectStore } from "fake-indexeddb";
import { DEMO_API_KEY } from "../sandbox/server";
import { DIST, loadFunctionsBundle, type LoadedBundle } from "../harness/bundle";
import { addDays } from "../src/core/calendar";
import { buildAssetIndex, type AssetFilter } from "../src/taskpane/picker/asset-search";
import { budgetTable, type Budget } from "./budget-table";
import { fetchCatalog, sandboxCatalog } from "./sandbox-catalog";
import { startSandboxProcess, type SandboxProcess } from "./sandbox-process";
import { median } from "./stats";

export const SCALE_SYMBOLS = 100;
export const SCALE_METRICS = ["PRICE", "MC", "FEES", "DAU", "TXNS"];
export const SCALES = [10_000, 50_000, 100_000];
export const FORMATTED_CELLS = 10_000;
export const PICKER_CELLS = 50_000;
export const PICKER_ASSETS = 20_000;
export const KEYSTROKE_EVERY_MS = 25;
/** What the picker rows type, a character at a time. */
export const PICKER_QUERIES = [
  "ethereum",
  "bitcoin",
  "usd coin",
  "eq-aapl",
  "solana",
  "token 1",
  "arbitrum one",
  "polygon",
];
export const LATENCY_MS = 100;
/** Symbols per request: the batcher's limit, and the request budget's unit. */
const SYMBOLS_PER_REQUEST = 50;

export interface RunFigures {
  requests: number;
  wallMs: number;
  /** This process's CPU over the same span (the add-in, the harness's stand-in of Excel; the sandbox runs apart). */
  cpuMs: number;
  idbReads: number;
  peakHeapMb: number;
  /** Answers that differ from the reference (a runtime without a store). */
  mismatches: number;
  failures: number;
}

export interface PickerFigures {
  keystrokes: number;
  /** From the keystroke's timer being due to its answer, ms. */
  medianMs: number;
  worstMs: number;
  /** The search itself, ms. */
  searchMedianMs: number;
}

export interface ScaleFigures {
  cells: number;
  dates: number;
  /** The request budget: one per 50 symbols per as-of group. */
  budget: number;
  /** ms from evaluating functions.js to every function registered. */
  loadMs: number;
  cold: RunFigures;
  warm: RunFigures;
  retainedHeapMb: number;
  /** Distinct series the cells touch (symbol × metric). */
  series: number;
  formatted?: { cold: RunFigures; warm: RunFigures };
  picker?: PickerFigures;
}

/** The service the scale benches run against: the sandbox in its own process, LATENCY_MS, `assetCount` assets. */
export function startScaleSandbox(today: string, assetCount: number): Promise<SandboxProcess> {
  return startSandboxProcess({
    port: 0,
    quiet: true,
    today,
    latencyMs: LATENCY_MS,
    insightFirstCallDelayMs: 0,
    assetCount,
  });
}

/** The workbook's symbols: the first SCALE_SYMBOLS filler tokens of the service's catalog at `baseUrl`. */
export async function scaleSymbols(baseUrl: string): Promise<string[]> {
  const symbols = (await fetchCatalog(baseUrl))
    .map((a) => a.symbol)
    .filter((s) => s.startsWith("sbx"))
    .slice(0, SCALE_SYMBOLS);
  if (symbols.length < SCALE_SYMBOLS) throw new Error(`scale: only ${symbols.length} filler tokens in the catalog`);
  return symbols;
}

// ---------------------------------------------------------------- one scale (child process)

interface Cell {
  symbol: string;
  metric: string;
  asOf: string;
}

function cellsOf(symbols: string[], today: string, dates: number): Cell[][] {
  const byDate: Cell[][] = [];
  for (let d = 0; d < dates; d++) {
    const asOf = addDays(today, -d);
    const cells: Cell[] = [];
    for (const symbol of symbols) for (const metric of SCALE_METRICS) cells.push({ symbol, metric, asOf });
    byDate.push(cells);
  }
  return byDate;
}

/** What the cell shows: a number, a formatted number as "value format", an error as "code: message". */
function shown(value: unknown): string | number {
  if (typeof value === "number") return value;
  if (value && typeof value === "object") {
    const v = value as { basicValue?: unknown; numberFormat?: unknown; code?: unknown; message?: unknown };
    if ("basicValue" in v) return `${String(v.basicValue)} ${String(v.numberFormat)}`;
    if ("code" in v) return `${String(v.code)}: ${String(v.message)}`;
  }
  return String(value);
}

/** The heap in use (process.memoryUsage's heapUsed, without its reading of the resident set from the OS each time). */
const heapMb = () => getHeapStatistics().used_heap_size / 1024 / 1024;

function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** IndexedDB reads (get, getAll, cursors) and the write transactions still open, counted on fake-indexeddb's prototypes. */
interface IdbCounter {
  reads: number;
  open: number;
  started: number;
  /** Resolves once no transaction is open and none started for a while (the store's writes are done). */
  settled(): Promise<void>;
}

function countIndexedDb(): IdbCounter {
  const counter: IdbCounter = {
    reads: 0,
    open: 0,
    started: 0,
    async settled() {
      let seen = -1;
      while (counter.open > 0 || seen !== counter.started) {
        seen = counter.started;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
  };
  for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype] as unknown as Record<
    string,
    (...args: unknown[]) => unknown
  >[]) {
    for (const name of ["get", "getAll", "openCursor", "getAllKeys", "count"]) {
      const original = proto[name];
      if (!original) continue;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        counter.reads += 1;
        return original.apply(this, args);
      };
    }
  }
  const db = IDBDatabase.prototype as unknown as { transaction: (...args: unknown[]) => IDBTransaction };
  const transaction = db.transaction;
  db.transaction = function (this: unknown, ...args: unknown[]) {
    const tx = transaction.apply(this, args);
    counter.open += 1;
    counter.started += 1;
    const done = () => (counter.open -= 1);
    tx.addEventListener("complete", done);
    tx.addEventListener("abort", done);
    return tx;
  };
  return counter;
}

interface Load {
  factory: IDBFactory | null;
  formatted: boolean;
  sandbox: SandboxProcess;
  dist: string;
}

async function loadBundle(o: Load): Promise<{ bundle: LoadedBundle; loadMs: number }> {
  const started = performance.now();
  const bundle = loadFunctionsBundle({
    distDir: o.dist,
    storage: { "md.baseUrl": o.sandbox.url, "md.apiKey": DEMO_API_KEY },
    globals: o.factory ? { indexedDB: o.factory, IDBKeyRange } : {},
    ...(o.formatted ? { requirements: { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" } } : {}),
  });
  while (!bundle.registered.has("LATEST")) await new Promise((resolve) => setImmediate(resolve));
  return { bundle, loadMs: performance.now() - started };
}

async function runCells(
  o: Load,
  cells: Cell[][],
  counter: IdbCounter,
  during?: { start(): void; stop(): void },
): Promise<{ figures: RunFigures; values: (string | number)[]; loadMs: number }> {
  await o.sandbox.reset();
  await o.sandbox.setLatency(LATENCY_MS);
  const { bundle, loadMs } = await loadBundle(o);
  const baseHeap = heapMb();
  let peak = baseHeap;
  const sampler = setInterval(() => (peak = Math.max(peak, heapMb())), 1);
  const readsBefore = counter.reads;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  during?.start();
  const promises: Promise<unknown>[] = [];
  for (const group of cells) {
    for (const c of group)
      promises.push(bundle.call("LATEST", [c.symbol, c.metric, c.asOf]).then(shown, (error: unknown) => shown(error)));
    // The next as-of date in the next macrotask, as Excel delivers a recalculation in batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const values = (await Promise.all(promises)) as (string | number)[];
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  during?.stop();
  clearInterval(sampler);
  peak = Math.max(peak, heapMb());
  const figures: RunFigures = {
    requests: (await o.sandbox.stats()).requests,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    idbReads: counter.reads - readsBefore,
    peakHeapMb: peak - baseHeap,
    mismatches: 0,
    failures: values.filter((v) => typeof v === "string" && v.startsWith("#")).length,
  };
  // The run's runtime is not handed back: the next run is a workbook reopened, in a runtime of its own.
  return { figures, values, loadMs };
}

function mismatches(values: (string | number)[], reference: (string | number)[]): number {
  let n = 0;
  for (let i = 0; i < reference.length; i++) if (values[i] !== reference[i]) n += 1;
  return n;
}

/** The pane's search, a keystroke every KEYSTROKE_EVERY_MS on this thread, while `start`…`stop` runs. */
async function pickerDuring(): Promise<{ start(): void; stop(): void; figures(): PickerFigures }> {
  const index = buildAssetIndex(await sandboxCatalog(PICKER_ASSETS));
  const queries = PICKER_QUERIES;
  const filters: AssetFilter[] = ["all", "crypto", "equity"];
  const keystrokes: { query: string; filter: AssetFilter }[] = [];
  for (let q = 0; keystrokes.length < 400; q++) {
    const query = queries[q % queries.length]!;
    const filter = filters[Math.floor(q / queries.length) % filters.length]!;
    for (let n = 1; n <= query.length; n++) keystrokes.push({ query: query.slice(0, n), filter });
  }
  for (const k of keystrokes.slice(0, 20)) index.search(k.query, k.filter); // JIT warm-up, paid once per session
  const answered: number[] = [];
  const searched: number[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let next = 0;
  let typedFrom = 0;
  // Keystrokes are typed every KEYSTROKE_EVERY_MS whatever the thread does; each is answered when the thread
  // gets to it (those typed meanwhile in turn, as queued input events are): the wait counts.
  const press = () => {
    const now = performance.now();
    for (; typedFrom + next * KEYSTROKE_EVERY_MS <= now; next++) {
      const k = keystrokes[next % keystrokes.length]!;
      const t = performance.now();
      index.search(k.query, k.filter);
      const done = performance.now();
      searched.push(done - t);
      answered.push(done - (typedFrom + next * KEYSTROKE_EVERY_MS));
    }
    timer = setTimeout(press, Math.max(0, typedFrom + next * KEYSTROKE_EVERY_MS - performance.now()));
  };
  return {
    start() {
      typedFrom = performance.now() + KEYSTROKE_EVERY_MS;
      next = 0;
      timer = setTimeout(press, KEYSTROKE_EVERY_MS);
    },
    stop() {
      clearTimeout(timer);
    },
    figures: () => ({
      keystrokes: answered.length,
      medianMs: median(answered),
      worstMs: Math.max(0, ...answered),
      searchMedianMs: median(searched),
    }),
  };
}

/** The formatted cells (the host's data types): reference, cold and warm, answers compared with the reference. */
async function formattedScale(
  cells: Cell[][],
  sandbox: Load["sandbox"],
  dist: string,
  counter: IdbCounter,
): Promise<{ cold: RunFigures; warm: RunFigures }> {
  const formattedReference = (await runCells({ factory: null, formatted: true, sandbox, dist }, cells, counter)).values;
  const fFactory = new IDBFactory();
  const fCold = await runCells({ factory: fFactory, formatted: true, sandbox, dist }, cells, counter);
  fCold.figures.mismatches = mismatches(fCold.values, formattedReference);
  await counter.settled();
  const fWarm = await runCells({ factory: fFactory, formatted: true, sandbox, dist }, cells, counter);
  fWarm.figures.mismatches = mismatches(fWarm.values, formattedReference);
  return { cold: fCold.figures, warm: fWarm.figures };
}

/** Only the formatted part of a scale (`--child N <dist> --formatted-only`, for profiling it). */
async function formattedRuns(
  cells: Cell[][],
  cellCount: number,
  sandbox: Load["sandbox"],
  dist: string,
  counter: IdbCounter,
): Promise<ScaleFigures> {
  const none: RunFigures = { requests: 0, wallMs: 0, cpuMs: 0, idbReads: 0, peakHeapMb: 0, mismatches: 0, failures: 0 };
  return {
    cells: cellCount,
    dates: cells.length,
    budget: 0,
    loadMs: 0,
    cold: none,
    warm: none,
    retainedHeapMb: 0,
    series: SCALE_SYMBOLS * SCALE_METRICS.length,
    formatted: await formattedScale(cells, sandbox, dist, counter),
  };
}

/** `formattedOnly`: only the formatted reference, cold and warm (for profiling them; the plain figures are then zero). */
export async function runScale(cellCount: number, dist: string, formattedOnly = false): Promise<ScaleFigures> {
  const dates = Math.round(cellCount / (SCALE_SYMBOLS * SCALE_METRICS.length));
  const today = new Date().toISOString().slice(0, 10);
  const sandbox = await startScaleSandbox(today, 2000);
  try {
    const symbols = await scaleSymbols(sandbox.url);
    const cells = cellsOf(symbols, today, dates);
    const counter = countIndexedDb();
    if (formattedOnly) return await formattedRuns(cells, cellCount, sandbox, dist, counter);

    // Reference: no store, no latency.
    const reference = await (async () => {
      const run = await runCells({ factory: null, formatted: false, sandbox, dist }, cells, counter);
      return run.values;
    })();
    const picker = cellCount === PICKER_CELLS ? await pickerDuring() : undefined;
    collectGarbage();
    const baseHeap = heapMb();
    const factory = new IDBFactory();
    const cold = await runCells({ factory, formatted: false, sandbox, dist }, cells, counter, picker);
    cold.figures.mismatches = mismatches(cold.values, reference);
    await counter.settled();
    collectGarbage();
    const retainedHeapMb = heapMb() - baseHeap;
    const { loadMs } = cold;
    cold.values = [];
    const warm = await runCells({ factory, formatted: false, sandbox, dist }, cells, counter);
    warm.figures.mismatches = mismatches(warm.values, reference);
    await counter.settled();

    const figures: ScaleFigures = {
      cells: cells.length * SCALE_SYMBOLS * SCALE_METRICS.length,
      dates,
      budget: dates * Math.ceil(SCALE_SYMBOLS / SYMBOLS_PER_REQUEST),
      loadMs,
      cold: cold.figures,
      warm: warm.figures,
      retainedHeapMb,
      series: SCALE_SYMBOLS * SCALE_METRICS.length,
      ...(picker ? { picker: picker.figures() } : {}),
    };
    if (cellCount === FORMATTED_CELLS) {
      collectGarbage();
      figures.formatted = await formattedScale(cells, sandbox, dist, counter);
    }
    return figures;
  } finally {
    await sandbox.close();
  }
}

// ---------------------------------------------------------------- the table (parent process)

export interface ScaleRun {
  label: string;
  dist: string;
  scales: ScaleFigures[];
}

function runChild(cells: number, dist: string): Promise<ScaleFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, __filename, "--child", String(cells), dist], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code !== 0) return reject(new Error(`scale ${cells} (${dist}) exited with ${code}: ${out}`));
      resolve(JSON.parse(line) as ScaleFigures);
    });
  });
}

export async function runScales(builds: { label: string; dist: string }[], scales = SCALES): Promise<ScaleRun[]> {
  const runs: ScaleRun[] = builds.map((b) => ({ ...b, scales: [] }));
  // Scale by scale, each build in turn: a build's figures and the other's are minutes apart at most.
  for (const cells of scales) {
    for (const run of runs) {
      process.stderr.write(`scale: ${cells.toLocaleString("en-US")} cells, ${run.label}…\n`);
      run.scales.push(await runChild(cells, run.dist));
    }
  }
  return runs;
}

const n = (x: number) => Math.round(x).toLocaleString("en-US");
const perCell = (r: RunFigures, cells: number) => r.wallMs / cells;

export function scaleTable(runs: ScaleRun[]): string {
  const rows = [
    "| build | cells | requests (budget) | cold wall ms | warm wall ms | IndexedDB reads cold / warm | peak heap MB cold / warm | retained heap MB | ms per cell cold / warm | per cell ÷ 10,000's, cold / warm | answers ≠ no-store client |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const run of runs) {
    const base = run.scales[0]!;
    for (const s of run.scales) {
      const ratio = (r: (f: ScaleFigures) => RunFigures) =>
        (perCell(r(s), s.cells) / perCell(r(base), base.cells)).toFixed(2);
      rows.push(
        `| ${run.label} | ${n(s.cells)} | ${s.cold.requests} (${s.budget}) / warm ${s.warm.requests} | ${n(s.cold.wallMs)} | ${n(s.warm.wallMs)} | ${n(s.cold.idbReads)} / ${n(s.warm.idbReads)} | ${n(s.cold.peakHeapMb)} / ${n(s.warm.peakHeapMb)} | ${n(s.retainedHeapMb)} | ${perCell(s.cold, s.cells).toFixed(3)} / ${perCell(s.warm, s.cells).toFixed(3)} | ${ratio((f) => f.cold)} / ${ratio((f) => f.warm)} | ${s.cold.mismatches + s.warm.mismatches} |`,
      );
    }
  }
  return rows.join("\n");
}

export function detailTable(runs: ScaleRun[]): string {
  const rows = ["| build | figure | value |", "|---|---|---:|"];
  for (const run of runs) {
    const f = run.scales.find((s) => s.formatted)?.formatted;
    const p = run.scales.find((s) => s.picker)?.picker;
    const load = run.scales.map((s) => s.loadMs).sort((a, b) => a - b)[Math.floor(run.scales.length / 2)];
    if (load !== undefined)
      rows.push(`| ${run.label} | functions.js evaluated → functions registered, median | ${load.toFixed(1)} ms |`);
    if (f) {
      rows.push(
        `| ${run.label} | ${n(FORMATTED_CELLS)} formatted cells, cold: wall / requests | ${n(f.cold.wallMs)} ms / ${f.cold.requests} |`,
        `| ${run.label} | ${n(FORMATTED_CELLS)} formatted cells, warm: wall / requests / IndexedDB reads | ${n(f.warm.wallMs)} ms / ${f.warm.requests} / ${n(f.warm.idbReads)} |`,
        `| ${run.label} | formatted answers ≠ no-store client, cold + warm | ${f.cold.mismatches + f.warm.mismatches} |`,
      );
    }
    if (p) {
      rows.push(
        `| ${run.label} | picker keystroke → answer during the ${n(PICKER_CELLS)}-cell cold burst, Node stand-in (${p.keystrokes} keystrokes; the budget's row is Chromium's, bench/picker-chromium.ts): median / worst | ${p.medianMs.toFixed(1)} / ${p.worstMs.toFixed(1)} ms |`,
        `| ${run.label} | picker search alone, median | ${p.searchMedianMs.toFixed(2)} ms |`,
      );
    }
  }
  return rows.join("\n");
}

// ---------------------------------------------------------------- budgets (DESIGN.md "Budgets")

export const COLD_CELLS = 50_000;
export const COLD_WALL_TARGET_MS = 8000;
export const PEAK_HEAP_TARGET_MB = 1024;
export const WARM_FORMATTED_TARGET_MS = 1000;
export const PER_CELL_GROWTH_LIMIT = 1.2;
export const KEYSTROKE_TARGET_MS = 5;

/** The big-workbook budgets, from one build's scale run (the figures a scale did not run are left out). */
export function scaleBudgets(run: ScaleRun): Budget[] {
  const at = (cells: number) => run.scales.find((s) => s.cells === cells);
  const list: Budget[] = [];
  const cold = at(COLD_CELLS);
  if (cold) {
    list.push(
      {
        name: `${n(COLD_CELLS)} MD.LATEST cells cold: requests (1 per ${SYMBOLS_PER_REQUEST} symbols per group)`,
        limit: String(cold.budget),
        measured: String(cold.cold.requests),
        ok: cold.cold.requests <= cold.budget,
        enforced: true,
      },
      {
        name: `${n(COLD_CELLS)} cells cold: wall at ${LATENCY_MS} ms latency`,
        limit: `${n(COLD_WALL_TARGET_MS)} ms`,
        measured: `${n(cold.cold.wallMs)} ms`,
        ok: cold.cold.wallMs <= COLD_WALL_TARGET_MS,
        enforced: false,
      },
      {
        name: `${n(COLD_CELLS)} cells cold: peak heap`,
        limit: `${n(PEAK_HEAP_TARGET_MB)} MB`,
        measured: `${n(cold.cold.peakHeapMb)} MB`,
        ok: cold.cold.peakHeapMb <= PEAK_HEAP_TARGET_MB,
        enforced: false,
      },
    );
  }
  const formatted = at(FORMATTED_CELLS)?.formatted;
  if (formatted) {
    const series = at(FORMATTED_CELLS)!.series;
    list.push(
      {
        name: `${n(FORMATTED_CELLS)} formatted cells recalculated from the store (reopened): requests`,
        limit: "0",
        measured: String(formatted.warm.requests),
        ok: formatted.warm.requests === 0,
        enforced: false,
      },
      {
        name: `${n(FORMATTED_CELLS)} formatted cells reopened: wall`,
        limit: `${n(WARM_FORMATTED_TARGET_MS)} ms`,
        measured: `${n(formatted.warm.wallMs)} ms`,
        ok: formatted.warm.wallMs <= WARM_FORMATTED_TARGET_MS,
        enforced: false,
      },
      {
        name: `${n(FORMATTED_CELLS)} formatted cells reopened: IndexedDB reads (≤ the distinct series touched)`,
        limit: n(series),
        measured: n(formatted.warm.idbReads),
        ok: formatted.warm.idbReads <= series,
        enforced: false,
      },
    );
  }
  const small = run.scales[0];
  const large = run.scales.at(-1);
  if (small && large && large !== small) {
    const growth = perCell(large.cold, large.cells) / perCell(small.cold, small.cells);
    list.push({
      name: `cost per cell cold at ${n(large.cells)} cells ÷ at ${n(small.cells)}`,
      limit: `${PER_CELL_GROWTH_LIMIT}×`,
      measured: `${growth.toFixed(2)}× (${perCell(large.cold, large.cells).toFixed(3)} / ${perCell(small.cold, small.cells).toFixed(3)} ms)`,
      ok: growth <= PER_CELL_GROWTH_LIMIT,
      enforced: false,
    });
  }
  const differing = run.scales.reduce(
    (sum, s) =>
      sum +
      s.cold.mismatches +
      s.warm.mismatches +
      (s.formatted ? s.formatted.cold.mismatches + s.formatted.warm.mismatches : 0),
    0,
  );
  list.push({
    name: `answers that differ from a client without a store (every scale, cold and reopened)`,
    limit: "0",
    measured: String(differing),
    ok: differing === 0,
    enforced: true,
  });
  return list;
}

// ---------------------------------------------------------------- CLI

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === "--child") {
    const figures = await runScale(Number(argv[1]), argv[2]!, argv[3] === "--formatted-only");
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    process.exit(0);
  }
  const builds = [{ label: "this build", dist: DIST }];
  let scales = SCALES;
  let json: string | undefined;
  let check = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--before") builds.unshift({ label: "before", dist: path.resolve(argv[++i] ?? "") });
    else if (arg === "--cells") scales = (argv[++i] ?? "").split(",").map(Number);
    else if (arg === "--json") json = argv[++i];
    else if (arg === "--check") check = true;
    else throw new Error(`Unknown argument ${arg}. Use --cells a,b,c, --before <dist>, --json <file>, --check.`);
  }
  const runs = await runScales(builds, scales);
  console.log(
    `\nBig workbooks: MD.LATEST cells (${SCALE_SYMBOLS} symbols × ${SCALE_METRICS.length} metrics × as-of dates) through the built functions.js, ${LATENCY_MS} ms latency\n`,
  );
  console.log(scaleTable(runs));
  console.log(`\n${detailTable(runs)}\n`);
  if (json) writeFileSync(json, JSON.stringify(runs, null, 2));
  const list = scaleBudgets(runs.at(-1)!);
  console.log(`Budgets (this build)\n\n${budgetTable(list)}\n`);
  const exceeded = list.filter((b) => b.enforced && !b.ok);
  if (exceeded.length > 0) {
    console.error(`Budget exceeded: ${exceeded.map((b) => `${b.name}: ${b.measured} > ${b.limit}`).join("; ")}`);
    if (check) process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
