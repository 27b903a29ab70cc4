/**
 * Formula text for the task pane's "insert formula": `=MD.SERIES("eth","PRICE",,,"WEEK")`.
 * Text arguments are quoted with inner quotes doubled (Excel's only escape),
 * omitted arguments in the middle stay empty and trailing ones are dropped.
 */

/** A cell reference or expression inserted as written, e.g. { expression: "A2" } or { expression: "TODAY()" }. */
export interface FormulaExpression {
  expression: string;
}

export type FormulaArg = string | number | boolean | null | undefined | FormulaExpression;

const FUNCTION_NAME = /^[A-Za-z][A-Za-z0-9_.]*$/;

export function buildFormula(name: string, args: readonly FormulaArg[] = []): string {
  if (!FUNCTION_NAME.test(name)) throw new RangeError(`${JSON.stringify(name)} is not a function name`);
  let count = args.length;
  while (count > 0 && isOmittedArg(args[count - 1])) count--;
  return `=${name}(${args.slice(0, count).map(formulaArg).join(",")})`;
}

function isOmittedArg(arg: FormulaArg): boolean {
  return arg === null || arg === undefined;
}

export function quoteText(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

function formulaArg(arg: FormulaArg): string {
  if (arg === null || arg === undefined) return "";
  if (typeof arg === "string") return quoteText(arg);
  if (typeof arg === "boolean") return arg ? "TRUE" : "FALSE";
  if (typeof arg === "number") {
    if (!Number.isFinite(arg)) throw new RangeError(`${arg} cannot be written in a formula`);
    return String(arg).replace("e", "E");
  }
  return arg.expression;
}

/** In formula text, the index after the quote that closes the one at `start`; a doubled quote inside is an escaped one. */
export function closingQuote(text: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] !== quote) i += 1;
    else if (text[i + 1] === quote) i += 2;
    else return i + 1;
  }
  return text.length;
}
