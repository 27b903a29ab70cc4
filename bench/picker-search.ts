/**
 * The picker's filter time per keystroke over the sandbox's 20,000-asset
 * catalog (src/taskpane/picker/asset-search.ts). Prints figures, asserts nothing.
 *
 *   npx tsx bench/picker-search.ts [--assets 20000]
 *
 * The catalog is the sandbox's own (started in-process, fetched over HTTP
 * like the pane does). 200 keystrokes: a set of queries typed one character
 * at a time, each prefix searched as the list would on that keystroke, under
 * each kind filter in turn.
 */
import { performance } from "node:perf_hooks";
import { buildAssetIndex, type AssetFilter } from "../src/taskpane/picker/asset-search";
import { sandboxCatalog } from "./sandbox-catalog";

const KEYSTROKES = 200;
const QUERIES = [
  "ethereum",
  "bitcoin",
  "usd coin",
  "eq-aapl",
  "solana",
  "token 1",
  "arbitrum one",
  "chain",
  "xs",
  "bold token",
  "zzz",
  "polygon",
];
const FILTERS: AssetFilter[] = ["all", "crypto", "equity"];

function argNumber(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} needs a whole number ≥ 1`);
  return n;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main(): Promise<void> {
  const assetCount = argNumber("--assets", 20_000);
  const assets = await sandboxCatalog(assetCount);

  const built = performance.now();
  const index = buildAssetIndex(assets);
  const buildMs = performance.now() - built;

  const keystrokes: { query: string; filter: AssetFilter }[] = [];
  for (let q = 0; keystrokes.length < KEYSTROKES; q++) {
    const query = QUERIES[q % QUERIES.length];
    const filter = FILTERS[Math.floor(q / QUERIES.length) % FILTERS.length];
    for (let n = 1; n <= query.length && keystrokes.length < KEYSTROKES; n++)
      keystrokes.push({ query: query.slice(0, n), filter });
  }
  // Warm-up: the first calls include JIT compilation, which a user pays once per session.
  for (const k of keystrokes.slice(0, 20)) index.search(k.query, k.filter);

  const times: number[] = [];
  let matches = 0;
  for (const k of keystrokes) {
    const t = performance.now();
    matches += index.search(k.query, k.filter).length;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const fmt = (ms: number) => ms.toFixed(3);
  console.log(
    `Picker search over ${assets.length.toLocaleString("en-US")} sandbox assets (${process.version}, ${process.arch})`,
  );
  console.log(`  index build:           ${fmt(buildMs)} ms (once, when the catalog arrives)`);
  console.log(
    `  keystrokes:            ${times.length} (${QUERIES.length} queries typed a character at a time, filters ${FILTERS.join("/")})`,
  );
  console.log(
    `  filter per keystroke:  median ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms, max ${fmt(times[times.length - 1])} ms`,
  );
  console.log(`  mean matches:          ${Math.round(matches / times.length).toLocaleString("en-US")}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
