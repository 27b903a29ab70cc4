/**
 * Artemis formulas as text (core/artemis.ts converts them): the ART, ARTRANGE
 * and ARTINFO calls found in a formula, text in quotes skipped, and each
 * argument read as what it is written as (text, array, boolean, number,
 * reference, or an expression passed on).
 */
import { closingQuote } from "./formula";

/**
 * An Artemis call as Excel writes it, up to its "(": the name, bare or after
 * an add-in's namespace (`ARTEMIS.ART`: an Office add-in's custom functions
 * are `NAMESPACE.NAME`), or as Excel saves a custom function while its add-in
 * is not loaded (`_xldudf_ARTEMIS_ART`, the namespace's dot an underscore:
 * OfficeDev/Excel-Custom-Functions #108, office-js #3558), possibly after a
 * workbook or external-link prefix (`[2]!`, office-js #2568; `'Book.xlsm'!`).
 * The whole token is the call's text, so a conversion replaces the prefix too.
 */
const ARTEMIS_TOKEN =
  /(?:(?:'(?:[^']|'')+'|\[\d+\][A-Za-z0-9_.]*|[A-Za-z0-9_.]+)!)?(?:_xldudf_(?:[A-Za-z0-9_.]*[._])?|(?:[A-Za-z0-9_]+\.)*)(ART|ARTRANGE|ARTINFO)[ ]*\(/iy;
const REFERENCE =
  /^(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)!)?(?:\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+)$/;

// ---- finding the calls ----

export interface FoundCall {
  /** ART, ARTRANGE or ARTINFO, whatever prefix it is written with. */
  name: string;
  /** Index of the call (its prefixes included), and just past the closing parenthesis. */
  start: number;
  end: number;
  /** The arguments' texts, trimmed; `[]` for `NAME()`. */
  args: string[];
}

/** The outermost ART/ARTRANGE/ARTINFO calls, in order, each with its prefixes; text in quotes is skipped. */
export function findCalls(formula: string): FoundCall[] {
  const calls: FoundCall[] = [];
  let i = 0;
  while (i < formula.length) {
    const ch = formula[i];
    const tokenStart = /[A-Za-z_'[]/.test(ch) && !/[A-Za-z0-9_.$!\]]/.test(formula[i - 1] ?? "");
    if (tokenStart) {
      ARTEMIS_TOKEN.lastIndex = i;
      const token = ARTEMIS_TOKEN.exec(formula);
      const parsed = token && argumentsFrom(formula, ARTEMIS_TOKEN.lastIndex);
      if (token && parsed) {
        calls.push({ name: token[1].toUpperCase(), start: i, end: parsed.end, args: parsed.args });
        i = parsed.end;
        continue;
      }
    }
    if (ch === '"' || ch === "'") {
      i = closingQuote(formula, i, ch);
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      // Past the rest of a name that is not an Artemis call.
      while (i < formula.length && /[A-Za-z0-9_.]/.test(formula[i])) i += 1;
      continue;
    }
    i += 1;
  }
  return calls;
}

/** Splits the arguments at top-level commas up to the matching ")"; null when unbalanced. */
function argumentsFrom(formula: string, from: number): { args: string[]; end: number } | null {
  const args: string[] = [];
  let depth = 0;
  let argStart = from;
  for (let i = from; i < formula.length;) {
    const ch = formula[i];
    if (ch === '"' || ch === "'") {
      i = closingQuote(formula, i, ch);
      continue;
    }
    if (ch === "(" || ch === "{") depth += 1;
    else if ((ch === ")" || ch === "}") && depth > 0) depth -= 1;
    else if (ch === ")") {
      const last = formula.slice(argStart, i).trim();
      if (args.length > 0 || last !== "") args.push(last);
      return { args, end: i + 1 };
    } else if (ch === "," && depth === 0) {
      args.push(formula.slice(argStart, i).trim());
      argStart = i + 1;
    }
    i += 1;
  }
  return null;
}

// ---- reading an argument ----

export type Arg =
  | { kind: "empty" }
  | { kind: "text"; value: string }
  | { kind: "array"; values: (string | number)[] }
  | { kind: "boolean"; value: boolean }
  | { kind: "number"; value: number }
  | { kind: "reference"; text: string; cells: "one" | "several" }
  | { kind: "expression"; text: string };

export function readArg(text: string): Arg {
  if (text === "") return { kind: "empty" };
  if (/^"(?:[^"]|"")*"$/.test(text)) return { kind: "text", value: text.slice(1, -1).replace(/""/g, '"') };
  if (/^\{.*\}$/s.test(text)) {
    const values = arrayValues(text.slice(1, -1));
    if (values) return { kind: "array", values };
  }
  if (/^(TRUE|FALSE)$/i.test(text)) return { kind: "boolean", value: text.toUpperCase() === "TRUE" };
  if (/^-?\d+(\.\d+)?$/.test(text)) return { kind: "number", value: Number(text) };
  if (REFERENCE.test(text)) return { kind: "reference", text, cells: text.includes(":") ? "several" : "one" };
  return { kind: "expression", text };
}

/** The constants of an array literal's body (`"BTC","ETH"` or `"BTC";"ETH"`); null when it holds anything else. */
function arrayValues(body: string): (string | number)[] | null {
  const values: (string | number)[] = [];
  const item = /\s*(?:"((?:[^"]|"")*)"|(-?\d+(?:\.\d+)?))\s*([,;]|$)/y;
  let at = 0;
  while (at < body.length) {
    item.lastIndex = at;
    const m = item.exec(body);
    if (!m) return null;
    values.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : Number(m[2]));
    at = item.lastIndex;
    if (m[3] === "") break;
  }
  return values.length > 0 ? values : null;
}

export function describe(arg: Arg): string {
  switch (arg.kind) {
    case "text":
      return `"${arg.value}"`;
    case "array":
      return `{${arg.values.map((v) => (typeof v === "string" ? `"${v}"` : String(v))).join(",")}}`;
    case "boolean":
      return arg.value ? "TRUE" : "FALSE";
    case "number":
      return String(arg.value);
    case "reference":
    case "expression":
      return arg.text;
    default:
      return "an empty argument";
  }
}
