/**
 * What one waiting MD.LATEST cell keeps in memory, through the BUILT
 * dist/functions.js (harness/bundle.ts) over the persistent store on
 * fake-indexeddb: a big workbook's cold recalculation has every cell waiting
 * for its answer at once, so this times the cells is the floor of its peak heap.
 *
 *   npx tsx bench/pending-cell.ts [dist] [as-of dates]   default ./dist, 20 dates (10,000 cells)
 *   npx tsx bench/pending-cell.ts dist 12 --snapshot out.heapsnapshot
 *
 * Every series (100 symbols × 5 metrics) is first answered for the window
 * ending `dates` days ago, as a cold recalculation finds it after its first
 * answers; then the sandbox answers after 20 s and the cells are called, one
 * as-of date (500 cells) per macrotask. Once their requests are out, a full
 * collection: the heap grown since, divided by the cells. Prints figures,
 * asserts nothing.
 */
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import path from "node:path";
import { setFlagsFromString, writeHeapSnapshot } from "node:v8";
import { runInNewContext } from "node:vm";
import { DEMO_API_KEY, startSandbox } from "../sandbox/server";
import { DIST, loadFunctionsBundle } from "../harness/bundle";
import { addDays } from "../src/core/calendar";
import { SCALE_METRICS, scaleSymbols } from "./scale";

const LATENCY_MS = 20_000;

function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const snapshotAt = args.indexOf("--snapshot");
  const snapshot = snapshotAt >= 0 ? args.splice(snapshotAt, 2)[1] : undefined;
  const dist = path.resolve(args[0] ?? DIST);
  const dates = Number(args[1] ?? 20);
  const today = new Date().toISOString().slice(0, 10);
  const sandbox = await startSandbox({
    port: 0,
    quiet: true,
    today,
    latencyMs: 0,
    insightFirstCallDelayMs: 0,
    assetCount: 2000,
  });
  try {
    const symbols = await scaleSymbols(sandbox.url);
    const bundle = loadFunctionsBundle({
      distDir: dist,
      storage: { "md.baseUrl": sandbox.url, "md.apiKey": DEMO_API_KEY },
      globals: { indexedDB: new IDBFactory(), IDBKeyRange },
    });
    while (!bundle.registered.has("LATEST")) await new Promise((resolve) => setImmediate(resolve));
    const call = (symbol: string, metric: string, asOf: string) =>
      bundle.call("LATEST", [symbol, metric, asOf]).catch((error: unknown) => error);

    const held: Promise<unknown>[] = [];
    for (const symbol of symbols)
      for (const metric of SCALE_METRICS) held.push(call(symbol, metric, addDays(today, -dates)));
    await Promise.all(held);

    sandbox.setLatency(LATENCY_MS);
    await new Promise((resolve) => setTimeout(resolve, 300));
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    const waiting: Promise<unknown>[] = [];
    for (let d = 0; d < dates; d++) {
      for (const symbol of symbols)
        for (const metric of SCALE_METRICS) waiting.push(call(symbol, metric, addDays(today, -d)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The batch windows close and the requests go out; the answers are 20 s away.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    collectGarbage();
    const grown = process.memoryUsage().heapUsed - before;
    if (snapshot) writeHeapSnapshot(snapshot);
    console.log(
      `${waiting.length.toLocaleString("en-US")} MD.LATEST cells waiting (${path.relative(process.cwd(), dist) || "."}): ` +
        `${(grown / 1024 / 1024).toFixed(1)} MB, ${Math.round(grown / waiting.length).toLocaleString("en-US")} bytes per cell`,
    );
  } finally {
    await sandbox.close();
  }
  process.exit(0);
}

void main();
