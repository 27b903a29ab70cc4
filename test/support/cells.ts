/**
 * Helpers shared by the proving suites: a formula-cell workload, a bounded
 * wait that turns "still pending" into a value the test can fail on, and a
 * reader for the bundle's runtime (the shared client and its counters).
 */
import vm from "node:vm";
import type { ClientCounters } from "../../src/api/types";
import { CustomFunctionsError, type LoadedBundle } from "../../harness/bundle";

export interface Cell {
  id: "SERIES" | "LATEST" | "AGG";
  args: unknown[];
}

/** What a cell ended with: a value, an Excel error, something else thrown, or nothing within the bound. */
export type Outcome =
  | { kind: "value"; value: unknown }
  | { kind: "error"; error: CustomFunctionsError }
  | { kind: "raw-throw"; thrown: unknown }
  | { kind: "pending" };

/** A small seeded generator (mulberry32) so the workload is the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/**
 * Calls every cell at once, as a recalculation does, and waits for each at
 * most until `deadline` (ms since the epoch): a cell still pending then is
 * reported as pending, not waited for.
 */
export async function runCells(bundle: LoadedBundle, cells: readonly Cell[], deadline: number): Promise<Outcome[]> {
  const outcomes = cells.map(async (cell): Promise<Outcome> => {
    let settled: Promise<Outcome>;
    try {
      settled = bundle.call(cell.id, cell.args).then(
        (value): Outcome => ({ kind: "value", value }),
        (thrown: unknown): Outcome =>
          thrown instanceof CustomFunctionsError ? { kind: "error", error: thrown } : { kind: "raw-throw", thrown },
      );
    } catch (thrown) {
      settled = Promise.resolve({ kind: "raw-throw", thrown });
    }
    let timer: NodeJS.Timeout | undefined;
    const pending = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: "pending" }), Math.max(0, deadline - Date.now()));
    });
    try {
      return await Promise.race([settled, pending]);
    } finally {
      clearTimeout(timer);
    }
  });
  return Promise.all(outcomes);
}

/**
 * The shared client's counters inside the bundle's context, or null if the
 * runtime is not there. Read inside the context: a symbol-keyed global set by
 * the bundle is not mirrored onto the context object node:vm hands out.
 */
export function bundleCounters(bundle: LoadedBundle): ClientCounters | null {
  const counters = vm.runInContext(
    `(() => { const r = globalThis[Symbol.for("market-data.runtime")]; return r && r.client && r.client.counters ? JSON.stringify(r.client.counters()) : null; })()`,
    bundle.context,
  ) as string | null;
  return counters === null ? null : (JSON.parse(counters) as ClientCounters);
}

/** An Excel error with a message (Excel keeps messages only on #N/A and #VALUE!). */
export function isClearError(error: CustomFunctionsError): boolean {
  return (error.code === "#N/A" || error.code === "#VALUE!") && error.message.trim().length > 0;
}

/** One line describing an outcome, for failure messages. */
export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case "value":
      return `value ${JSON.stringify(outcome.value)?.slice(0, 200)}`;
    case "error":
      return `${outcome.error.code} ${JSON.stringify(outcome.error.message)}`;
    case "raw-throw":
      return `raw throw ${String(outcome.thrown)}`;
    case "pending":
      return "still pending";
  }
}
