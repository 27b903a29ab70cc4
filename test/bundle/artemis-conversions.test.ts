/**
 * The MD formulas the Artemis converter writes work: each MD call in the
 * conversions of the documented forms (test/core/artemis-cases.ts) whose
 * arguments are written in the formula (not read from cells) is run through
 * the built dist/functions.js against the sandbox, and none is an error.
 */
import { cellValue, isExcelError } from "../../harness/bundle";
import { convertArtemisFormula } from "../../src/core/artemis";
import { CONVERTED, resolve } from "../core/artemis-cases";
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

const EVALUATED = CONVERTED.flatMap(([artemis]) => {
  const conversion = convertArtemisFormula(artemis, resolve);
  return conversion.ok ? literalCalls(conversion.formula).map((call) => [artemis, call] as const) : [];
}).filter(
  // One run per distinct call.
  ([, call], i, all) => all.findIndex(([, other]) => other.text === call.text) === i,
);

describe("the converter's MD formulas evaluate without error (built bundle, sandbox)", () => {
  it("covers the documented forms", () => {
    expect(new Set(EVALUATED.map(([, call]) => call.id))).toEqual(
      new Set(["LATEST", "SERIES", "ASSETS", "ASSET", "METRICS"]),
    );
  });

  it.each(EVALUATED.map(([artemis, call]) => [call.text, artemis, call] as const))(
    "%s (from %s)",
    async (_text, _artemis, call) => {
      const value = await cellValue(bundle, call.id, call.args);
      const errors = (Array.isArray(value) ? value.flat() : [value]).filter(isExcelError);
      expect(errors.map((e) => `${e.code} ${e.message}`)).toEqual([]);
    },
  );
});
