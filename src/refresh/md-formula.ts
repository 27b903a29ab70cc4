/**
 * Does a cell's formula call one of the add-in's functions?
 *
 * A plain substring test for "MD." is wrong in both directions: it matches
 * `="MD.LATEST is great"` (a string literal), `=XMD.FOO(1)` (another add-in's
 * namespace), `='MD. data'!A1` (a sheet name) and `=Table1[MD.col]` (a table
 * column), and it cannot tell a call from a defined name such as `=MD.RATE*2`.
 * So the formula is scanned the way Excel tokenizes it: string literals,
 * quoted sheet names and bracketed structured references are skipped, and a
 * call is the namespace at a token boundary followed by a name and "(".
 * Excel stores function names case-insensitively, so the match is too.
 */

const NAMESPACE = "MD.";
/** Characters that continue an identifier: a namespace preceded by one of these is part of another name. */
const IDENTIFIER_CHAR = /[A-Za-z0-9_.\\]/;
const CALL_AFTER_NAMESPACE = /^[A-Za-z_][A-Za-z0-9_.]*\(/;

export function isFormula(value: unknown): value is string {
  return typeof value === "string" && value.startsWith("=");
}

/** True when `formula` (as `Range.formulas` returns it, leading "=") calls an `MD.` function anywhere in it. */
export function callsMd(formula: unknown): boolean {
  if (!isFormula(formula)) return false;
  const text = formula;
  let i = 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      i = skipQuoted(text, i, ch);
    } else if (ch === "[") {
      i = skipBracketed(text, i);
    } else if (startsCall(text, i)) {
      return true;
    } else {
      i += 1;
    }
  }
  return false;
}

/** Index after the closing quote; a doubled quote inside is an escaped one. */
function skipQuoted(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i += 1;
    }
  }
  return text.length;
}

/** Structured references nest: Table1[[#This Row],[MD.col]]. */
function skipBracketed(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i += 1) {
    if (text[i] === "[") depth += 1;
    else if (text[i] === "]" && --depth === 0) return i + 1;
  }
  return text.length;
}

function startsCall(text: string, i: number): boolean {
  if (text.slice(i, i + NAMESPACE.length).toUpperCase() !== NAMESPACE) return false;
  if (IDENTIFIER_CHAR.test(text[i - 1] ?? "")) return false;
  return CALL_AFTER_NAMESPACE.test(text.slice(i + NAMESPACE.length));
}
