/**
 * Fault soak: 2,000 formula cells (MD.SERIES, MD.LATEST, MD.AGG over many
 * symbols, metrics, windows and dates) through the BUILT dist/functions.js
 * against the sandbox over HTTP. A fault-free run gives each cell's reference
 * value; then a fresh bundle (own runtime, own cache) computes the same cells
 * while the sandbox answers 20% of requests with 500/503, 10% with 429, drops
 * 5% of connections and truncates 5% of bodies. Every cell must end with its
 * reference value or a clear Excel error naming the cause, and none may still
 * be pending at the bound.
 *
 * Time bound: the bundle's client keeps its defaults (4 retries, backoff
 * capped at 300 ms × 2^n, Retry-After honoured up to 30 s), which a test
 * cannot change through the bundle. Retry-After is therefore 1 s, so one
 * request's worst chain of retries stays near 6 s and the whole run well
 * under a minute on two cores; the printed figures show how long it took.
 */
import type { SandboxFaults, SandboxStats } from "../../sandbox/server";
import type { ClientCounters } from "../../src/api/types";
import { CustomFunctionsError } from "../../harness/bundle";
import { type BundleWorld, useBundle } from "../support/bundle";
import {
  bundleCounters,
  type Cell,
  describeOutcome,
  isClearError,
  type Outcome,
  pick,
  runCells,
  seededRandom,
} from "../support/cells";

const CELLS = 2000;
/** Longest any one cell may stay pending, from the moment the recalculation starts. */
const PENDING_BOUND_MS = 75_000;
/** Per attempt about 65% fail, so about 1 request in 9 fails all five attempts. */
const HARSH_FAULTS = {
  serverErrorRate: 0.5,
  rateLimitRate: 0.1,
  retryAfterSeconds: 1,
  dropRate: 0.15,
  badJsonRate: 0.1,
};
const FAULTS = { serverErrorRate: 0.2, rateLimitRate: 0.1, retryAfterSeconds: 1, dropRate: 0.05, badJsonRate: 0.05 };
/** What an error caused by an injected fault says (src/api/http/transport.ts messages). */
const FAULT_CAUSE = /HTTP (429|500|503)|Rate limited|Could not reach|connection|unreadable response/i;

const CHAINS = ["eth", "btc", "sol", "arb", "pol", "avax", "bnb", "op", "trx", "near", "sui", "apt", "ton"];
const TOKENS = ["uni", "aave", "link", "mkr", "ldo", "crv", "gmx", "jup", "pendle", "hype", "ena"];
const FILLER = Array.from({ length: 90 }, (_, i) => `sbx${String(i + 1).padStart(5, "0")}`);
const CRYPTO = [...CHAINS, ...TOKENS, ...FILLER];
const EQUITIES = ["eq-aapl", "eq-msft", "eq-nvda", "eq-coin", "eq-tsla"];
const CRYPTO_METRICS = ["PRICE", "MC", "FEES", "DAU", "TXNS", "TVL", "REVENUE"];
const PREFIXED = ["L30_FEES", "L7_TXNS", "CM_FEES", "L90_REVENUE"];
const EQUITY_METRICS = ["PRICE", "MC", "TOTAL_REVENUE", "NET_INCOME"];
/** A handful of dates, so many cells share a window (as in a comps sheet) and the client batches them. */
const AS_OF: unknown[] = ["2025-06-30", "2025-03-31", "2024-12-31", 45565 /* 2024-09-30 */, "2026-01-15", "-6M"];
const WINDOWS = ["7D", "30D", "90D", "MTD", "QTD", "YTD", "-2W", "-3M"];
const STATS = [null, null, "SUM", "AVG", "MIN", "MAX", "FIRST", "LAST", "CHANGE", "PCT_CHANGE"];

/** Cells whose right answer is an error (a service message, no data, a bad argument): a fault must not turn them into values. */
const AWKWARD: Cell[] = [
  { id: "LATEST", args: ["base", "PRICE", "2025-06-30"] },
  { id: "LATEST", args: ["nosuchcoin", "FEES", "2025-06-30"] },
  { id: "LATEST", args: ["eth", "NO_SUCH_METRIC", "2025-03-31"] },
  { id: "AGG", args: ["eq-aapl", "FCF_YIELD", "7D", "LAST", "2025-05-10"] },
  { id: "AGG", args: ["eth", "FEES", "30", null, "2025-06-30"] },
  { id: "SERIES", args: ["eth, base", "PRICE", "-2W", "2025-06-30"] },
  { id: "SERIES", args: ["eq-aapl", "TOTAL_REVENUE", "2024-01-01", "2024-12-31", "DAY"] },
];

/** The same 2,000 cells on every run: mostly MD.LATEST, as in a comps sheet, then MD.AGG and MD.SERIES. */
function workload(): Cell[] {
  const random = seededRandom(20240601);
  const cells: Cell[] = [];
  for (let i = 0; i < CELLS; i++) {
    const roll = random();
    if (roll < 0.03) {
      cells.push(pick(random, AWKWARD));
    } else if (roll < 0.55) {
      const equity = random() < 0.08;
      const symbol = equity ? pick(random, EQUITIES) : pick(random, CRYPTO);
      const metric = equity
        ? pick(random, EQUITY_METRICS)
        : random() < 0.15
          ? pick(random, PREFIXED)
          : pick(random, CRYPTO_METRICS);
      cells.push({ id: "LATEST", args: [symbol, metric, pick(random, AS_OF)] });
    } else if (roll < 0.88) {
      const symbol = pick(random, CRYPTO);
      const metric = random() < 0.1 ? pick(random, PREFIXED) : pick(random, CRYPTO_METRICS);
      cells.push({
        id: "AGG",
        args: [symbol, metric, pick(random, WINDOWS), pick(random, STATS), pick(random, AS_OF)],
      });
    } else {
      const count = 1 + Math.floor(random() * 3);
      const symbols = Array.from({ length: count }, () => pick(random, CRYPTO)).join(", ");
      const metrics =
        random() < 0.5
          ? pick(random, CRYPTO_METRICS)
          : `${pick(random, CRYPTO_METRICS)},${pick(random, CRYPTO_METRICS)}`;
      const end = pick(random, ["2025-06-30", "2025-03-31", "2024-12-31"]);
      const start = pick(random, ["-2W", "-30D", "-3M", "-1Y"]);
      const granularity = pick(random, [null, null, "W", "M"]);
      const options = pick(random, [null, null, "order=desc; last=5", "fill=prev", "headers=false"]);
      cells.push({ id: "SERIES", args: [symbols, metrics, start, end, granularity, options] });
    }
  }
  return cells;
}

interface Run {
  outcomes: Outcome[];
  seconds: number;
  client: ClientCounters | null;
  server: SandboxStats;
}

/** Counters, log and fault sequence from the start; then the given faults (none for the reference). */
async function run({ sandbox, load }: BundleWorld, cells: Cell[], faults: Partial<SandboxFaults> = {}): Promise<Run> {
  sandbox.reset();
  sandbox.setFaults(faults);
  const bundle = load();
  const started = Date.now();
  const outcomes = await runCells(bundle, cells, started + PENDING_BOUND_MS);
  return {
    outcomes,
    seconds: (Date.now() - started) / 1000,
    client: bundleCounters(bundle),
    server: sandbox.stats(),
  };
}

function tally(outcomes: Outcome[]): Record<Outcome["kind"], number> {
  const counts = { value: 0, error: 0, "raw-throw": 0, pending: 0 };
  for (const o of outcomes) counts[o.kind]++;
  return counts;
}

/** An error a fault explains: clear, and naming the failure the sandbox injected. */
function isFaultError(value: unknown): boolean {
  return value instanceof CustomFunctionsError && isClearError(value) && FAULT_CAUSE.test(value.message);
}

function sameError(a: CustomFunctionsError, b: CustomFunctionsError): boolean {
  return a.code === b.code && a.message === b.message;
}

/**
 * The faulty run's value against the reference: equal, or (cell by cell for an
 * MD.SERIES table, whose columns may come from different requests) a clear
 * error explained by a fault.
 */
function sameOrFaultError(reference: unknown, actual: unknown): boolean {
  if (Array.isArray(reference) && Array.isArray(actual)) {
    return (
      reference.length === actual.length &&
      reference.every((row: unknown[], r) => {
        const other = actual[r] as unknown;
        return (
          Array.isArray(other) &&
          row.length === other.length &&
          row.every((cell, c) => sameOrFaultError(cell, other[c]))
        );
      })
    );
  }
  if (
    reference instanceof CustomFunctionsError &&
    actual instanceof CustomFunctionsError &&
    sameError(reference, actual)
  )
    return true;
  return Object.is(reference, actual) || isFaultError(actual);
}

interface Verdict {
  same: number;
  faultErrors: number;
  problems: string[];
  counts: Record<Outcome["kind"], number>;
}

function judge(cells: Cell[], reference: Run, faulty: Run): Verdict {
  const verdict: Verdict = { same: 0, faultErrors: 0, problems: [], counts: tally(faulty.outcomes) };
  faulty.outcomes.forEach((outcome, i) => {
    const ref = reference.outcomes[i]!;
    const where = `cell ${i} MD.${cells[i]!.id}(${JSON.stringify(cells[i]!.args)})`;
    const problem = () =>
      verdict.problems.push(
        `${where}: ${describeOutcome(outcome)} where the fault-free run gave ${describeOutcome(ref)}`,
      );
    if (outcome.kind === "pending" || outcome.kind === "raw-throw") problem();
    else if (outcome.kind === "error") {
      if (ref.kind === "error" && sameError(ref.error, outcome.error)) verdict.same++;
      else if (isFaultError(outcome.error)) verdict.faultErrors++;
      else problem();
    } else if (ref.kind === "value" && sameOrFaultError(ref.value, outcome.value)) {
      if (JSON.stringify(ref.value) === JSON.stringify(outcome.value)) verdict.same++;
      else verdict.faultErrors++; // a table with some cells failed
    } else problem();
  });
  return verdict;
}

function report(title: string, run: Run, verdict: Verdict): void {
  const s = run.server;
  const c = run.client;
  console.log(
    [
      title,
      `  time ${run.seconds.toFixed(1)} s; ${s.requests} requests reached the sandbox; ` +
        `client: ${c ? `${c.requests} attempts, ${c.retries} retries, ${c.failures} requests failed after retries, ${c.cacheHits} cache hits` : "counters not reachable"}`,
      `  faults injected: ${s.faultsInjected.total} (5xx ${s.faultsInjected["server-error"]}, ` +
        `429 ${s.faultsInjected["rate-limit"]}, dropped ${s.faultsInjected.drop}, truncated body ${s.faultsInjected["bad-json"]})`,
      `  cells: ${verdict.same} same as fault-free, ${verdict.faultErrors} clear errors naming the fault, ` +
        `${verdict.counts.pending} pending, ${verdict.counts["raw-throw"]} raw throws, ${verdict.problems.length} problems`,
      ...examples(run.outcomes).map((m) => `  e.g. ${m}`),
    ].join("\n"),
  );
}

/** A few distinct error messages, each once, for the log. */
function examples(outcomes: Outcome[], limit = 3): string[] {
  const messages = new Set<string>();
  for (const o of outcomes) if (o.kind === "error") messages.add(`${o.error.code} ${o.error.message}`);
  return [...messages].slice(0, limit);
}

describe("fault soak: 2,000 cells through the built bundle", () => {
  // Grown with filler tokens: the workload uses sbx00001 … sbx00090.
  const world = useBundle({ quiet: true, seed: 7, insightFirstCallDelayMs: 0, assetCount: 2000 });
  let reference: Run;
  const cells = workload();

  beforeAll(async () => {
    reference = await run(world, cells);
    const counts = tally(reference.outcomes);
    console.log(
      `Fault soak workload: ${cells.filter((x) => x.id === "LATEST").length} MD.LATEST, ` +
        `${cells.filter((x) => x.id === "AGG").length} MD.AGG, ${cells.filter((x) => x.id === "SERIES").length} MD.SERIES cells\n` +
        `  fault-free reference: ${reference.seconds.toFixed(1)} s, ${reference.server.requests} requests, ` +
        `${counts.value} values, ${counts.error} errors (no data or a service message)\n` +
        examples(reference.outcomes, 10)
          .map((m) => `  e.g. ${m}`)
          .join("\n"),
    );
  }, 60_000);

  it("the fault-free reference is sound: settled, no raw throws, mostly values", () => {
    const counts = tally(reference.outcomes);
    expect(counts.pending).toBe(0);
    expect(counts["raw-throw"]).toBe(0);
    expect(counts.value).toBeGreaterThan(CELLS * 0.9);
    for (const o of reference.outcomes) if (o.kind === "error") expect(isClearError(o.error)).toBe(true);
    expect(reference.server.faultsInjected.total).toBe(0);
  });

  it("20% 5xx, 10% 429, 5% dropped, 5% truncated: every cell is its fault-free value or a clear error, none pending", async () => {
    const faulty = await run(world, cells, FAULTS);
    const verdict = judge(cells, reference, faulty);
    report("Faulty run (20% 5xx, 10% 429 with Retry-After 1 s, 5% dropped, 5% truncated JSON)", faulty, verdict);

    expect(verdict.problems.slice(0, 20)).toEqual([]);
    expect(verdict.same + verdict.faultErrors).toBe(CELLS);
    const injected = faulty.server.faultsInjected;
    expect(injected["server-error"]).toBeGreaterThan(0);
    expect(injected["rate-limit"]).toBeGreaterThan(0);
    expect(injected.drop).toBeGreaterThan(0);
    expect(injected["bad-json"]).toBeGreaterThan(0);
    expect(faulty.client).not.toBeNull();
    expect(faulty.client!.retries).toBeGreaterThan(0);
    // Five attempts per request: at these rates nearly every cell recovers its value.
    expect(verdict.same).toBeGreaterThan(CELLS * 0.95);
  }, 120_000);

  it("at rates that exhaust the retries, the cells that fail say why", async () => {
    const faulty = await run(world, cells, HARSH_FAULTS);
    const verdict = judge(cells, reference, faulty);
    report("Harsh run (50% 5xx, 10% 429, 15% dropped, 10% truncated JSON)", faulty, verdict);

    expect(verdict.problems.slice(0, 20)).toEqual([]);
    expect(verdict.same + verdict.faultErrors).toBe(CELLS);
    // The error path really ran: some requests failed after all their retries.
    expect(faulty.client!.failures).toBeGreaterThan(0);
    expect(verdict.faultErrors).toBeGreaterThan(0);
  }, 120_000);
});

/**
 * The same 2,000 cells against the service as it really behaves (the sandbox's
 * realistic mode: sentences in place of series, unsettled newest days, empty
 * 200 answers every few requests) with one symbol the service fails every
 * request for (HTTP 500 for any batch naming it). The reference is the same
 * realistic service without the poisoned symbol: every cell that does not name
 * that symbol must be exactly its reference, every cell naming it must settle
 * and say which symbol failed, none may be pending.
 */
describe("fault soak: the realistic service with one poisoned symbol", () => {
  const POISON = "sbx00042";
  const cells = workload();
  const base = { quiet: true, seed: 7, insightFirstCallDelayMs: 0, assetCount: 2000, realistic: true } as const;
  const healthy = useBundle(base);
  const poisoned = useBundle({ ...base, hostile: { poisonSymbols: [POISON] } });
  let reference: Run;

  beforeAll(async () => {
    reference = await run(healthy, cells);
  }, 90_000);

  it("every other cell is its value, the poisoned symbol's cells name it, none pending", async () => {
    const names = (cell: Cell) => JSON.stringify(cell.args).toLowerCase().includes(POISON);
    expect(cells.filter(names).length).toBeGreaterThan(5);
    const faulty = await run(poisoned, cells);
    const problems: string[] = [];
    let same = 0;
    let named = 0;
    faulty.outcomes.forEach((outcome, i) => {
      const cell = cells[i]!;
      const ref = reference.outcomes[i]!;
      const where = `cell ${i} MD.${cell.id}(${JSON.stringify(cell.args)})`;
      if (outcome.kind === "pending" || outcome.kind === "raw-throw") {
        problems.push(`${where}: ${describeOutcome(outcome)}`);
      } else if (names(cell)) {
        // An error naming the symbol; or a table whose cells are the healthy service's, the symbol's own an error naming it.
        const namesPoison = (error: unknown) =>
          error instanceof CustomFunctionsError && isClearError(error) && error.message.includes(POISON);
        const ok =
          outcome.kind === "error"
            ? namesPoison(outcome.error)
            : ref.kind === "value" &&
              Array.isArray(outcome.value) &&
              Array.isArray(ref.value) &&
              outcome.value.length === ref.value.length &&
              (outcome.value as unknown[][]).some((row) => row.some(namesPoison)) &&
              (outcome.value as unknown[][]).every(
                (row, r) =>
                  Array.isArray(row) &&
                  row.every((value, c) => namesPoison(value) || Object.is(value, (ref.value as unknown[][])[r]?.[c])),
              );
        if (ok) named++;
        else problems.push(`${where}: ${describeOutcome(outcome)} does not name ${POISON}`);
      } else if (describeOutcome(outcome) === describeOutcome(ref)) {
        same++;
      } else {
        problems.push(`${where}: ${describeOutcome(outcome)} where the healthy service gave ${describeOutcome(ref)}`);
      }
    });
    const s = faulty.server;
    console.log(
      [
        `Realistic service, ${POISON} poisoned: time ${faulty.seconds.toFixed(1)} s, ${s.requests} requests (${s.byStatus["500"] ?? 0} answered 500) ` +
          `against ${reference.server.requests} for the healthy one (${reference.seconds.toFixed(1)} s); ` +
          `quirks played: ${JSON.stringify(s.quirks)}`,
        `  cells: ${same} same as the healthy service, ${named} naming ${POISON}, ${problems.length} problems`,
      ].join("\n"),
    );
    expect(problems.slice(0, 20)).toEqual([]);
    expect(same + named).toBe(CELLS);
    expect(tally(reference.outcomes).value).toBeGreaterThan(CELLS * 0.8);
    expect(s.quirks["poison"]).toBeGreaterThan(0);
    expect(s.quirks["empty-body"]).toBeGreaterThan(0);
  }, 120_000);
});
