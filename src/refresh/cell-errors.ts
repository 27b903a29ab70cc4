/**
 * What an error value in a refreshed cell tells the user. Excel keeps a custom
 * function's own message in the cell's tooltip but the JavaScript API does not
 * return it, so the report explains the error code instead, unless a caller
 * that knows better supplies the message.
 */

/** Values a cell shows while an asynchronous function is still computing. */
const CALCULATING = new Set(["#BUSY!", "#GETTING_DATA"]);

export function isCalculating(value: unknown): boolean {
  return typeof value === "string" && CALCULATING.has(value.toUpperCase());
}

const EXPLANATIONS: Record<string, string> = {
  // The add-in's own mapping (src/office/cells/errors.ts): #N/A = nothing to show now, #VALUE! = the formula must change.
  "#N/A":
    "Nothing to show now: no data for the request, the service unreachable or busy, or a missing or rejected key. The cell's tooltip says which.",
  "#VALUE!":
    "The formula needs a change: a bad argument, a request the service refused, or a result too large for Excel. The cell's tooltip says which.",
  "#NAME?": "Excel does not know the function: is the Market Data add-in loaded?",
  "#SPILL!": "The table cannot spill: cells it needs are not empty.",
  "#CALC!": "Excel could not calculate the result.",
  "#REF!": "The formula refers to a cell that no longer exists.",
  "#NUM!": "A number is out of range.",
  "#DIV/0!": "Division by zero in the formula around the MD function.",
  "#CONNECT!": "The service could not be reached.",
  "#BLOCKED!": "Excel blocked the function (add-in or network disabled by policy).",
};

export function explainError(code: string): string {
  return EXPLANATIONS[code.toUpperCase()] ?? `Excel shows ${code}.`;
}
