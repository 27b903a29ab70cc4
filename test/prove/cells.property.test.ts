/**
 * "Unexpected error" is a bug: whatever a cell is given and
 * whatever the service answers, every MD function settles on a value or on a
 * CustomFunctions.Error that names its cause — never the catch-all that a raw
 * exception (a stack overflow, a RangeError from date arithmetic) becomes.
 * Through the built dist/functions.js (as Excel loads it) against the sandbox:
 *
 * - every function's arguments: anything Excel can pass (test/support/
 *   excel-values.ts) mixed with the values that reach deep (real symbols and
 *   metrics, Excel's first and last days, "-1900Y", dates before any data);
 * - hostile answers: big series, answers nested deeper than the cap or just
 *   under it, data for any date, text numbers and timestamped dates, the key
 *   echoed in texts, the realistic service's sentences and empty bodies.
 *
 * Run counts are modest (CI has 2 cores); MD_PROPERTY_RUNS raises them.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { cellValue, DIST, isExcelError, type LoadedBundle } from "../../harness/bundle";
import type { HostileOptions } from "../../sandbox/server";
import { useBundle } from "../support/bundle";
import { anyArgument } from "../support/excel-values";

const RUNS = Number(process.env.MD_PROPERTY_RUNS ?? 40);
const built = existsSync(path.join(DIST, "functions.js"));
const describeBuilt = built ? describe : describe.skip;

/** Values that get past argument parsing into requests, shaping and date arithmetic. */
const REACHING = [
  "eth",
  "sol",
  "btc",
  "usdc-eth",
  "eq-coin",
  "eq-aapl",
  "ETH, sol",
  "ethereum",
  "PRICE",
  "FEES",
  "L30_FEES",
  "TOTAL_REVENUE",
  "STABLECOIN_SUPPLY_TOTAL",
  "FCF_YIELD",
  "STREAKS",
  2958465,
  2958464,
  1,
  61,
  "9999-12-31",
  "1900-01-01",
  "2008-12-31",
  "2009-01-03",
  "TODAY",
  "-1900Y",
  "-99999Y",
  "-30D",
  "30D",
  "LTM",
  "MTD",
  "SUM",
  "PCT_CHANGE",
  "WEEK",
  "QUARTER",
  "ALL",
  "headers=false; order=desc; fill=prev",
  "transform=yoy; rolling=3",
  "last=5; transpose=true",
];
const reachingArgument = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...REACHING) }, anyArgument);

/** The outcome as a failure text, or null when it is a value or an error with a cause. */
function unexpected(outcome: unknown): string | null {
  if (isExcelError(outcome)) return /Unexpected error/i.test(outcome.message) ? outcome.message : null;
  if (outcome instanceof Error) return `a raw ${outcome.name}: ${outcome.message}`;
  return null;
}

// A streaming function (MD.STATUS) answers through its invocation's setResult, which these one-shot calls do not
// give: test/bundle/status.test.ts calls it as Excel does.
const oneShot = (bundle: LoadedBundle) => bundle.metadata.filter((m) => m.options?.stream !== true);

function functionCall(bundle: LoadedBundle) {
  const ids = oneShot(bundle).map((m) => m.id);
  return fc.constantFrom(...ids).chain((id) => {
    const count = bundle.metadata.find((m) => m.id === id)!.parameters.length;
    return fc.tuple(fc.constant(id), fc.array(reachingArgument, { minLength: 0, maxLength: count }));
  });
}

/** Well-formed calls, by parameter name, so that a hostile answer is asked for and shaped. */
const BY_PARAMETER: Record<string, readonly unknown[]> = {
  symbol: ["eth", "sol", "btc", "usdc-eth", "eq-coin"],
  symbols: ["eth", "ETH, sol", "usdc-eth", "eq-coin, eth"],
  metric: ["PRICE", "FEES", "L30_FEES", "TOTAL_REVENUE", "STABLECOIN_SUPPLY_TOTAL"],
  metrics: ["PRICE", "PRICE, FEES", "FEES", "TOTAL_REVENUE"],
  start: [null, "-30D", "-1Y", "1900-01-01", "2008-12-31", 2958465],
  end: [null, "TODAY", 2958465, "9999-12-31", "2009-01-03"],
  as_of: [null, 2958465, "9999-12-31", "2009-01-02", "-1Y"],
  window: ["30D", "-1900Y", "LTM", "MTD"],
  stat: [null, "SUM", "LAST", "PCT_CHANGE"],
  granularity: [null, "DAY", "WEEK", "QUARTER"],
  options: [null, "headers=false; order=desc; fill=prev", "transform=yoy", "last=5; transpose=true"],
  source_chains: ["ethereum", "ethereum, solana"],
  flow_type: [null, "ALL"],
  feed: ["STREAKS", "DECLINE-STREAKS"],
  search: [null, "eth", "fee"],
  flag: [null],
  type: [null, "ALL", "EQUITY"],
};

function wellFormedCall(bundle: LoadedBundle) {
  const callable = oneShot(bundle).filter((m) => m.parameters.length > 0);
  return fc
    .constantFrom(...callable)
    .chain((meta) =>
      fc.tuple(
        fc.constant(meta.id),
        fc.tuple(...meta.parameters.map((p) => fc.constantFrom(...(BY_PARAMETER[p.name] ?? REACHING)))),
      ),
    );
}

const hostileAnswer: fc.Arbitrary<Partial<HostileOptions>> = fc.oneof(
  fc.record({ bigSeries: fc.constantFrom(1, 1001, 5_000, 20_000) }),
  fc.record({ deepInsights: fc.constantFrom(1, 58, 65, 2_000, 20_000) }),
  fc.record({ dataEverywhere: fc.constant(true) }),
  fc.record({ trickyJson: fc.constant<string[]>(["eth", "sol", "usdc-eth"]) }),
  fc.record({ echoKey: fc.constant(true) }),
);

describeBuilt("no cell ever shows “Unexpected error” (dist/functions.js against the sandbox)", () => {
  const { load, sandbox } = useBundle({ quiet: true, insightFirstCallDelayMs: 10 });

  it("over every function's arguments", async () => {
    const bundle = load();
    await fc.assert(
      fc.asyncProperty(functionCall(bundle), async ([id, args]) => {
        const outcome = await cellValue(bundle, id, args);
        expect({ id, args, unexpected: unexpected(outcome) }).toEqual({ id, args, unexpected: null });
      }),
      { numRuns: RUNS },
    );
  }, 240_000);

  it("over hostile service answers", async () => {
    const probe = load();
    await fc.assert(
      fc.asyncProperty(hostileAnswer, fc.boolean(), wellFormedCall(probe), async (hostile, realistic, [id, args]) => {
        sandbox.reset();
        sandbox.setHostile(hostile);
        sandbox.setRealistic(realistic);
        // A fresh bundle each time: nothing cached from another answer.
        const outcome = await cellValue(load(), id, args);
        expect({ hostile, realistic, id, args, unexpected: unexpected(outcome) }).toEqual({
          hostile,
          realistic,
          id,
          args,
          unexpected: null,
        });
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
    sandbox.reset();
  }, 240_000);
});
