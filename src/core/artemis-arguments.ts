/**
 * Artemis's arguments as MD's (core/artemis-calls.ts builds the calls): the
 * symbols, checked against the asset catalog; the metrics; a start or end
 * date; the order and the TRUE/FALSE flags. Each gives the MD argument or why
 * there is none.
 */
import { type SymbolResolver } from "./artemis-catalog";
import { describe, type Arg } from "./artemis-syntax";
import type { FormulaArg } from "./formula";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A symbols or metrics argument as the MD argument it becomes, with how many names it holds. */
export type Names =
  | { ok: true; arg: FormulaArg; count: "one" | "several"; names: string[]; notes: string[] }
  | { ok: false; reason: string };

/** Names read from cells: passed on as the reference, with a note of what is not checked. */
function fromCells(arg: Extract<Arg, { kind: "reference" }>, note: string): Names {
  return { ok: true, arg: { expression: arg.text }, count: arg.cells, names: [], notes: [note] };
}

export function readSymbols(arg: Arg, resolve: SymbolResolver): Names {
  switch (arg.kind) {
    case "text":
    case "array": {
      const written = arg.kind === "text" ? [arg.value] : arg.values;
      const ids: string[] = [];
      const notes: string[] = [];
      for (const value of written) {
        if (typeof value !== "string") return { ok: false, reason: `symbols: ${value} is a number, not a symbol` };
        const symbol = value.trim();
        if (symbol === "") return { ok: false, reason: "symbols: a symbol is empty" };
        if (symbol.includes(",")) {
          return {
            ok: false,
            reason: `symbols: "${symbol}" holds commas; Artemis's docs give one symbol per text (use an array such as {"BTC","ETH"})`,
          };
        }
        const found = resolve(symbol);
        if (!found.known && found.reason) {
          return {
            ok: false,
            reason: `symbol "${symbol}" could not be checked against the asset catalog: ${found.reason}`,
          };
        }
        if (!found.known) {
          const hint = found.suggestions.length ? ` Did you mean ${found.suggestions.join(" or ")}?` : "";
          return { ok: false, reason: `symbol "${symbol}" is not in the asset catalog.${hint}` };
        }
        if (found.note && !notes.includes(found.note)) notes.push(found.note);
        if (!ids.includes(found.id)) ids.push(found.id);
      }
      return { ok: true, arg: ids.join(","), count: ids.length > 1 ? "several" : "one", names: ids, notes };
    }
    case "reference":
      return fromCells(
        arg,
        `The symbols in ${arg.text} are read as they are (MD lowercases them); they are not checked here.`,
      );
    case "empty":
      return { ok: false, reason: "symbols: the argument is empty" };
    default:
      return { ok: false, reason: `symbols: ${describe(arg)} is not a symbol text, an array of them or a range` };
  }
}

export function readMetrics(arg: Arg): Names {
  switch (arg.kind) {
    case "text":
    case "array": {
      const written = arg.kind === "text" ? [arg.value] : arg.values;
      const names: string[] = [];
      for (const value of written) {
        if (typeof value !== "string") return { ok: false, reason: `metrics: ${value} is a number, not a metric` };
        const metric = value.trim().toUpperCase();
        if (metric === "") return { ok: false, reason: "metrics: a metric is empty" };
        if (metric.startsWith("TT_")) {
          return {
            ok: false,
            reason: `${metric} is a third party's data that Artemis passes through with that party's key; the service does not have it`,
          };
        }
        if (!/^[A-Z0-9_]+$/.test(metric)) {
          return { ok: false, reason: `metrics: "${value}" is not a metric name (letters, digits and _)` };
        }
        if (!names.includes(metric)) names.push(metric);
      }
      return { ok: true, arg: names.join(","), count: names.length > 1 ? "several" : "one", names, notes: [] };
    }
    case "reference":
      return fromCells(
        arg,
        `The metrics in ${arg.text} are read as they are; a TT_ metric there will not be found by the service.`,
      );
    case "empty":
      return { ok: false, reason: "metrics: the argument is empty" };
    default:
      return { ok: false, reason: `metrics: ${describe(arg)} is not a metric text, an array of them or a range` };
  }
}

/** A start or end date: YYYY-MM-DD text, or a cell or expression passed on (MD reads Excel dates and date text). */
export function readDate(arg: Arg, label: string): { ok: true; arg: FormulaArg } | { ok: false; reason: string } {
  switch (arg.kind) {
    case "text": {
      const m = ISO_DATE.exec(arg.value.trim());
      const real =
        m &&
        (() => {
          const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
          return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
        })();
      if (!real) return { ok: false, reason: `${label}: "${arg.value}" is not a date written YYYY-MM-DD` };
      return { ok: true, arg: arg.value.trim() };
    }
    case "number":
    case "reference":
    case "expression":
      return { ok: true, arg: { expression: describe(arg) } };
    default:
      return { ok: false, reason: `${label}: ${describe(arg)} is not a date` };
  }
}

/** TRUE/FALSE or omitted (undefined); a reference cannot become an option text. */
export function readFlag(
  arg: Arg | undefined,
  label: string,
): { ok: true; value?: boolean } | { ok: false; reason: string } {
  if (!arg || arg.kind === "empty") return { ok: true };
  if (arg.kind === "boolean") return { ok: true, value: arg.value };
  return {
    ok: false,
    reason: `${label}: ${describe(arg)} is not TRUE or FALSE written in the formula, so it cannot become an MD option`,
  };
}

export function readOrder(arg: Arg | undefined): { ok: true; desc: boolean } | { ok: false; reason: string } {
  if (!arg || arg.kind === "empty") return { ok: true, desc: false };
  if (arg.kind === "text" && /^(ASC|DESC)$/i.test(arg.value.trim())) {
    return { ok: true, desc: arg.value.trim().toUpperCase() === "DESC" };
  }
  return {
    ok: false,
    reason: `order: ${describe(arg)} is not "ASC" or "DESC" written in the formula, so it cannot become an MD option`,
  };
}
