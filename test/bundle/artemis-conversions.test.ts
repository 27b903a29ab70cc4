/**
 * The MD formulas the Artemis converter writes work: each MD call in the
 * conversions of the documented forms (test/core/artemis-cases.ts) whose
 * arguments are written in the formula (not read from cells) is run through
 * the built dist/functions.js against the sandbox, and none is an error; the
 * same for the calls as Excel saves them (namespaced, `_xldudf_`, with a link
 * prefix); and with metrics checked against the sandbox's own metric
 * catalogs (read through MD.METRICS), every documented form still converts
 * while a misspelt metric is refused with the name meant.
 */
import { cellValue, isExcelError } from "../../harness/bundle";
import { convertArtemisFormula, metricCatalogResolver, type MetricCatalog } from "../../src/core/artemis";
import type { MetricDescriptor } from "../../src/core/domain";
import { suggestMetrics } from "../../src/core/suggest";
import { CONVERTED, resolve, SAVED } from "../core/artemis-cases";
import { useBundle } from "../support/bundle";

const { bundle } = useBundle({ quiet: true });

/** Splits an argument list at the commas outside quotes. */
function splitArgs(list: string): string[] {
  const args: string[] = [];
  let current = "";
  let quoted = false;
  for (const ch of list) {
    if (ch === '"') quoted = !quoted;
    if (ch === "," && !quoted) {
      args.push(current.trim());
      current = "";
    } else current += ch;
  }
  return list === "" ? [] : [...args, current.trim()];
}

/** `MD.NAME(args)` calls whose arguments are text, numbers or empty: the function id and its arguments. */
function literalCalls(formula: string): { text: string; id: string; args: unknown[] }[] {
  const calls: { text: string; id: string; args: unknown[] }[] = [];
  for (const m of formula.matchAll(/MD\.([A-Z]+)\(((?:"(?:[^"]|"")*"|[^()"])*)\)/g)) {
    const args = splitArgs(m[2]);
    if (!args.every((a) => a === "" || /^"(?:[^"]|"")*"$/.test(a) || /^-?\d+(\.\d+)?$/.test(a))) continue;
    calls.push({
      text: m[0],
      id: m[1],
      args: args.map((a) => (a === "" ? null : a.startsWith('"') ? a.slice(1, -1).replace(/""/g, '"') : Number(a))),
    });
  }
  return calls;
}

/** The distinct MD calls with literal arguments in the conversions of `cases`, each with a form it came from. */
function evaluated(cases: readonly (readonly [string, string])[]) {
  return cases
    .flatMap(([artemis]) => {
      const conversion = convertArtemisFormula(artemis, resolve);
      return conversion.ok ? literalCalls(conversion.formula).map((call) => [artemis, call] as const) : [];
    })
    .filter(
      // One run per distinct call.
      ([, call], i, all) => all.findIndex(([, other]) => other.text === call.text) === i,
    );
}

const EVALUATED = evaluated(CONVERTED);
const SAVED_EVALUATED = evaluated(SAVED);

async function expectNoError(call: { id: string; args: unknown[] }): Promise<void> {
  const value = await cellValue(bundle, call.id, call.args);
  const errors = (Array.isArray(value) ? value.flat() : [value]).filter(isExcelError);
  expect(errors.map((e) => `${e.code} ${e.message}`)).toEqual([]);
}

/** A symbol's metric catalog as the service gives it: MD.METRICS's Metric column (below its header). */
async function metricCatalog(symbol: string): Promise<MetricCatalog & { descriptors: MetricDescriptor[] }> {
  const table = await cellValue(bundle, "METRICS", [symbol]);
  if (!Array.isArray(table)) throw new Error(`MD.METRICS("${symbol}") gave ${JSON.stringify(table)}`);
  const names = (table as unknown[][]).slice(1).map((row) => String(row[0]));
  // Names are what suggestMetrics ranks by; the labels and descriptions are not needed for these cases.
  return {
    names,
    descriptors: names.map((name) => ({ name, label: "", description: "", base_metric: null }) as MetricDescriptor),
  };
}

describe("the converter's MD formulas evaluate without error (built bundle, sandbox)", () => {
  it("covers the documented forms", () => {
    expect(new Set(EVALUATED.map(([, call]) => call.id))).toEqual(
      new Set(["LATEST", "SERIES", "ASSETS", "ASSET", "METRICS"]),
    );
  });

  it.each(EVALUATED.map(([artemis, call]) => [call.text, artemis, call] as const))(
    "%s (from %s)",
    async (_text, _artemis, call) => {
      await expectNoError(call);
    },
  );

  it.each(SAVED_EVALUATED.map(([artemis, call]) => [call.text, artemis, call] as const))(
    "as Excel saves it: %s (from %s)",
    async (_text, _artemis, call) => {
      await expectNoError(call);
    },
  );
});

describe("metrics checked against the sandbox's metric catalogs (built bundle)", () => {
  const SYMBOLS = ["btc", "eth", "sol", "usdc", "eq-coin", "usdc-eth"];

  async function resolver() {
    const catalogs = new Map(await Promise.all(SYMBOLS.map(async (s) => [s, await metricCatalog(s)] as const)));
    return metricCatalogResolver(
      (symbol) => catalogs.get(symbol),
      (metric, symbol) => suggestMetrics(metric, catalogs.get(symbol)?.descriptors ?? []),
    );
  }

  it("every documented form, bare or as Excel saves it, still converts", async () => {
    const resolveMetric = await resolver();
    const refused = [...CONVERTED, ...SAVED]
      .map(([artemis]) => [artemis, convertArtemisFormula(artemis, resolve, resolveMetric)] as const)
      .filter(([, conversion]) => !conversion.ok);
    expect(refused).toEqual([]);
  });

  it.each([
    ['=ART("ETH","FEEZ")', /^metric FEEZ is not in the metric catalog of eth\. Did you mean FEES\b/],
    [
      '=_xldudf_ARTEMIS_ART("ETH","L30_FEEZ")',
      /^metric L30_FEEZ is not in the metric catalog of eth\. Did you mean L30_FEES\b/,
    ],
  ])("%s is refused with the name meant", async (artemis, reason) => {
    const conversion = convertArtemisFormula(artemis, resolve, await resolver());
    expect(conversion).toEqual({ ok: false, reason: expect.stringMatching(reason) });
  });
});
