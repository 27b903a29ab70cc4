import { closingQuote } from "./formula";

/**
 * A formula as it must be typed or pasted in the user's Excel. Formulas the
 * add-in writes through the API are always in English form (`Range.formulas`;
 * `Range.formulasLocal` is the local one: the typings' example turns
 * "=SUM(A1, 1.5)" into "=SUMME(A1; 1,5)" in German). A copied formula is
 * pasted into a cell, where Excel reads it in the local form: where the
 * decimal separator is "," the list separator is ";" (Windows' regional
 * defaults, which Excel uses), so `=MD.LATEST("eth","PRICE")` must become
 * `=MD.LATEST("eth";"PRICE")` there. Function names stay English: add-in
 * functions are not translated.
 *
 * Text inside string literals and quoted sheet names is never touched.
 */
export function formulaForLocale(formula: string, decimalSeparator: string): string {
  if (decimalSeparator !== ",") return formula;
  let out = "";
  for (let i = 0; i < formula.length; i += 1) {
    const ch = formula[i];
    if (ch === '"' || ch === "'") {
      const end = closingQuote(formula, i, ch);
      out += formula.slice(i, end);
      i = end - 1;
    } else if (ch === ",") {
      out += ";";
    } else if (ch === "." && isDecimalPoint(formula, i)) {
      out += ",";
    } else {
      out += ch;
    }
  }
  return out;
}

/** A "." between digits of a number literal (not inside a name such as MD.LATEST or a reference). */
function isDecimalPoint(text: string, i: number): boolean {
  if (!/\d/.test(text[i - 1] ?? "") || !/\d/.test(text[i + 1] ?? "")) return false;
  let start = i - 1;
  while (start > 0 && /\d/.test(text[start - 1])) start -= 1;
  return !/[A-Za-z_.$]/.test(text[start - 1] ?? "");
}

/** The decimal separator of a locale (the browser's when none is given). */
export function localeDecimalSeparator(locale?: string): string {
  return new Intl.NumberFormat(locale).formatToParts(1.5).find((part) => part.type === "decimal")?.value ?? ".";
}
