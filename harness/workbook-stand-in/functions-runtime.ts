/**
 * Excel running the add-in's own custom functions in the shared runtime
 * ("Configure your Office Add-in to use a shared runtime",
 * https://learn.microsoft.com/en-us/office/dev/add-ins/develop/configure-your-add-in-to-use-a-shared-runtime;
 * "Custom functions metadata", https://learn.microsoft.com/en-us/office/dev/add-ins/excel/custom-functions-json):
 * for the dev build's demo workbook, where no Excel does it. A formula that is
 * one `MD.NAME(…)` call with literal arguments (text, numbers, TRUE/FALSE,
 * omitted) runs the function functions.js associated
 * (`CustomFunctions.associate`; outside Office, office.js keeps the
 * association in `CustomFunctions._association.mappings`), with the
 * arguments as Excel hands them: a parameter functions.json types as a matrix
 * gets a single value wrapped as `[[value]]`, an omitted one null, and the
 * invocation last (its `onCanceled` called when the run is superseded). A
 * result of more than one cell spills; an error thrown is the cell's error
 * code. Anything else is an ordinary formula to the stand-in (its value kept).
 */
import type { RecordedResult, RunningFormula } from "./types";

/** Excel's error codes, as CustomFunctions.ErrorCode spells them. */
export const ErrorCode = {
  invalidValue: "#VALUE!",
  notAvailable: "#N/A",
  divisionByZero: "#DIV/0!",
  invalidNumber: "#NUM!",
  nullReference: "#NULL!",
  invalidName: "#NAME?",
  invalidReference: "#REF!",
} as const;

/** `CustomFunctions.Error`: what a function throws for the cell to show `code` (the message on hover). */
export class CustomFunctionError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? "");
  }
}

type CustomFunctionsGlobal = {
  Error?: unknown;
  ErrorCode?: unknown;
  _association?: { mappings?: Associated };
};

/**
 * The page's `CustomFunctions` as Excel's runtime would have it: outside Office office.js defines the global with
 * `associate` only, so `Error` and `ErrorCode`, which the functions construct their errors with, are added. Returns
 * the functions functions.js associated, by id, as office.js keeps them.
 */
export function pageFunctions(target: Record<string, unknown>): () => Associated {
  const customFunctions = (target.CustomFunctions ??= {}) as CustomFunctionsGlobal;
  customFunctions.Error ??= CustomFunctionError;
  customFunctions.ErrorCode ??= ErrorCode;
  return () => customFunctions._association?.mappings ?? {};
}

interface FunctionMetadata {
  id: string;
  parameters: { dimensionality?: "scalar" | "matrix" }[];
}

export type Associated = Record<string, (...args: unknown[]) => unknown>;

/** `=MD.NAME(…)` split into the function's id and its literal arguments; null for any other formula. */
export function parseMdCall(formula: string): { id: string; args: unknown[] } | null {
  const call = /^=\s*MD\.([A-Z]+)\((.*)\)\s*$/i.exec(formula);
  if (!call) return null;
  const args: unknown[] = [];
  const text = call[2];
  let at = 0;
  if (text.trim() === "") return { id: call[1].toUpperCase(), args };
  for (;;) {
    const rest = text.slice(at);
    const literal = /^\s*(?:"((?:[^"]|"")*)"|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(TRUE|FALSE)|)\s*(,|$)/i.exec(rest);
    if (!literal) return null;
    const [whole, quoted, number, boolean, comma] = literal;
    args.push(
      quoted !== undefined
        ? quoted.replace(/""/g, '"')
        : number !== undefined
          ? Number(number)
          : boolean !== undefined
            ? boolean.toUpperCase() === "TRUE"
            : null,
    );
    at += whole.length;
    if (comma !== ",") return at === text.length ? { id: call[1].toUpperCase(), args } : null;
  }
}

/** What a function's return value puts in the cell: one value, or a spill. */
export function resultOf(returned: unknown): RecordedResult {
  if (Array.isArray(returned) && Array.isArray(returned[0])) {
    const rows = returned as unknown[][];
    return rows.length === 1 && rows[0].length === 1 ? { value: rows[0][0] } : { spill: rows };
  }
  return { value: returned };
}

/** The error code a thrown CustomFunctions.Error (or anything else) shows in the cell. */
function errorResult(error: unknown): RecordedResult {
  const code = (error as { code?: unknown } | null)?.code;
  return { value: typeof code === "string" && code.startsWith("#") ? code : "#VALUE!" };
}

/**
 * A `StandInHooks.evaluate` over the functions `associated` (by id) and their metadata (functions.json's
 * `functions`, fetched once by the caller).
 */
export function runAssociatedFunctions(associated: () => Associated, metadata: readonly FunctionMetadata[]) {
  const byId = new Map(metadata.map((f) => [f.id.toUpperCase(), f]));
  return (formula: string, at: { sheet: string; address: string }): RunningFormula | undefined => {
    const call = parseMdCall(formula);
    const fn = call && associated()[call.id];
    const meta = call && byId.get(call.id);
    if (!call || !fn || !meta || call.args.length > meta.parameters.length) return undefined;
    const args = meta.parameters.map((p, i) => {
      const given = call.args[i] ?? null;
      return p.dimensionality === "matrix" && given !== null ? [[given]] : given;
    });
    const invocation: { functionName: string; address: string; onCanceled?: () => void } = {
      functionName: `MD.${call.id}`,
      address: `${at.sheet}!${at.address}`,
    };
    // Excel calls the function at once; what it returns (a value or a promise) settles later.
    let returned: Promise<unknown>;
    try {
      returned = Promise.resolve(fn(...args, invocation));
    } catch (error) {
      returned = Promise.reject(error);
    }
    const result = returned.then(resultOf, errorResult);
    return { result, cancel: () => invocation.onCanceled?.() };
  };
}
