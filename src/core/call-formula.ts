/**
 * The MD calls a cell's formula makes, read from its text, and what the pane's
 * Trace does with them: find the recorded call that answered each (the call
 * records key a call by its arguments as the add-in read them: text quoted as
 * JSON, numbers as they are, omitted ones empty; src/office/call-records.ts),
 * and write the formula that reproduces a value later (the same call pinned
 * to a date with its `as_of`, or a window's `end`).
 *
 * The formula is scanned the way Excel tokenizes it (string literals with
 * doubled quotes, quoted sheet names, array constants, nested calls), as
 * src/refresh/md-formula.ts does to tell an MD call from text that mentions one.
 */

/** One MD call in a formula: the function without the prefix (upper case) and each argument's text as typed. */
export interface FormulaCall {
  fn: string;
  args: string[];
}

/** What a call record holds of a call: the function and its arguments as the add-in read them. */
export interface RecordedCall {
  fn: string;
  args: readonly string[];
}

import { closingQuote, quoteText } from "./formula";

const CALL_START = /^MD\.([A-Za-z_][A-Za-z0-9_.]*)\(/i;
const IDENTIFIER_CHAR = /[A-Za-z0-9_.\\]/;

/** Index after a quoted run starting at `start` (a doubled quote inside is an escaped one). */
function afterQuoted(text: string, start: number): number {
  return closingQuote(text, start, text[start]!);
}

/** The arguments of a call whose "(" is at `open`, and the index after its ")". */
function readArguments(text: string, open: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let from = open + 1;
  let i = open + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'") {
      i = afterQuoted(text, i);
      continue;
    }
    if (ch === "(" || ch === "{" || ch === "[") depth += 1;
    else if ((ch === ")" || ch === "}" || ch === "]") && depth > 0) depth -= 1;
    else if (ch === ")" || (ch === "," && depth === 0)) {
      args.push(text.slice(from, i).trim());
      from = i + 1;
      if (ch === ")") return { args: args.length === 1 && args[0] === "" ? [] : args, end: i + 1 };
    }
    i += 1;
  }
  return { args, end: text.length };
}

/** The MD calls in a formula (leading "="), outermost first, in the order they appear; calls inside them too. */
export function mdCallsIn(formula: string): FormulaCall[] {
  const calls: FormulaCall[] = [];
  if (!formula.startsWith("=")) return calls;
  let i = 1;
  while (i < formula.length) {
    const ch = formula[i]!;
    if (ch === '"' || ch === "'") {
      i = afterQuoted(formula, i);
      continue;
    }
    const start = IDENTIFIER_CHAR.test(formula[i - 1] ?? "") ? null : CALL_START.exec(formula.slice(i));
    if (start) {
      const open = i + start[0].length - 1;
      calls.push({ fn: start[1]!.toUpperCase(), args: readArguments(formula, open).args });
      i = open + 1;
    } else {
      i += 1;
    }
  }
  return calls;
}

/** Excel's string literals in `text` written as JSON strings (how the records hold text). */
function excelStringsAsJson(text: string): string {
  return text.replace(/"((?:[^"]|"")*)"/g, (_, inner: string) => JSON.stringify(inner.replace(/""/g, '"')));
}

/** JSON strings in `text` written as Excel's string literals. */
function jsonStringsAsExcel(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, (literal) => {
    try {
      return quoteText(JSON.parse(literal) as string);
    } catch {
      return literal;
    }
  });
}

/** A constant argument as a record holds it; null for a reference or an expression (whatever it read matches). */
export function constantArgument(text: string): string | null {
  const t = text.trim();
  if (t === "") return "";
  if (/^"(?:[^"]|"")*"$/.test(t)) return excelStringsAsJson(t);
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return String(Number(t));
  if (/^(TRUE|FALSE)$/i.test(t)) return t.toUpperCase();
  if (/^\{[^{}]*\}$/.test(t)) return excelStringsAsJson(t).replace(/\s+(?=(?:[^"]*"[^"]*")*[^"]*$)/g, "");
  return null;
}

/** Whether a recorded call can be the one a formula's call made: same function, every constant argument the same. */
export function callMatchesRecord(call: FormulaCall, record: RecordedCall): boolean {
  if (call.fn !== record.fn.toUpperCase()) return false;
  if (call.args.length > record.args.length) return false;
  for (let i = 0; i < record.args.length; i++) {
    const typed = i < call.args.length ? constantArgument(call.args[i]!) : "";
    if (typed !== null && typed !== record.args[i]) return false;
  }
  return true;
}

/**
 * Where each function takes the date that pins it: `as_of`, or the last day of a window (`end`); from
 * src/functions/functions.ts's parameters.
 */
const PIN_PLACE: Readonly<Record<string, number>> = {
  LATEST: 2,
  AGG: 4,
  SNAPSHOT: 2,
  ASSET: 1,
  SERIES: 3,
  FLOWS: 2,
  SUPPLY: 2,
};

/** The recorded call as a formula, pinned to `asOf` (YYYY-MM-DD) where the function takes a date and none was given. */
export function pinnedFormula(record: RecordedCall, asOf: string): string {
  const args = record.args.map(jsonStringsAsExcel);
  const place = PIN_PLACE[record.fn.toUpperCase()];
  if (place !== undefined && (args[place] ?? "") === "") {
    while (args.length <= place) args.push("");
    args[place] = `"${asOf}"`;
  }
  while (args.length > 0 && args[args.length - 1] === "") args.pop();
  return `=MD.${record.fn.toUpperCase()}(${args.join(",")})`;
}
