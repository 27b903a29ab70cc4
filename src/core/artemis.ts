/**
 * Switching from Artemis Sheets: its formulas (`ART`, `ARTRANGE`, `ARTINFO`)
 * turned into MD formulas, or refused with the reason. Pure: the asset catalog
 * reaches it as a resolver, so this module never asks the service.
 *
 * What each form becomes (the facts of the Artemis formula language are those
 * its public docs give; where they say nothing, the formula is refused or the
 * conversion carries a note, never a guess passed off as equivalent):
 *
 * | Artemis | MD |
 * |---|---|
 * | `ART(sym, metric)` | `MD.LATEST(sym, metric)` (a prefixed metric such as `L7_FEES` keeps its prefix) |
 * | `ART(sym, metric, date)` | `MD.LATEST(sym, metric, date)` |
 * | `ART(syms, metrics, start, end, order, showDates, hideWeekends)` | `MD.SERIES(syms, metrics, start, end, , "order=desc; dates=false; days=weekdays")` |
 * | `ARTRANGE(…)` | as `ART(…)` |
 * | `ARTINFO("ALL","SYMBOLS")` | `MD.ASSETS()` |
 * | `ARTINFO(sym,"ASSET-NAME")` | `MD.ASSET(sym)` (the cell shows the name) |
 * | `ARTINFO(sym,"COINGECKO-ID")` | the `aggregator_id` column of `MD.ASSETS` for that symbol |
 * | `ARTINFO(sym,"SUPPORTED-METRICS")` | `MD.METRICS(sym)` |
 *
 * Refused: `MC-RANK`, `TOPn-SYMBOLS`, `CATEGORIES` and `SUB-CATEGORIES` (no
 * source in the service), `ARTINFO("ALL","METRICS")` (the service lists
 * metrics per symbol only), `ARTINFO()` (what it returns is not documented),
 * `TT_` metrics (a third party's data), a metric the symbols' metric
 * catalogs do not list (with the closest names: "Did you mean FEES?"), several symbols or metrics in a
 * one-value form (the shape Artemis gives is not documented), an end date
 * without a start, and arguments the converter cannot read as the docs
 * describe them.
 *
 * An ART call inside a larger formula is converted in place:
 * `=ART("BTC","PRICE")*2` → `=MD.LATEST("btc","PRICE")*2`. A call is found
 * as Excel saves it (core/artemis-syntax.ts): namespaced (`ARTEMIS.ART`), as
 * `_xldudf_ARTEMIS_ART` while the Artemis add-in is not loaded, after a link
 * or workbook prefix (`[2]!`, `'Book.xlsm'!`); the prefixes go with it.
 */
import { convertCall } from "./artemis-calls";
import { type MetricResolver, type SymbolResolver } from "./artemis-catalog";
import { findCalls } from "./artemis-syntax";

export {
  catalogResolver,
  metricCatalogResolver,
  type CatalogAsset,
  type MetricCatalog,
  type MetricResolution,
  type MetricResolver,
  type SymbolResolution,
  type SymbolResolver,
} from "./artemis-catalog";

export interface CallConversion {
  /** The Artemis call as written ("ART(\"BTC\",\"PRICE\")"). */
  original: string;
  /** Its MD replacement, without "=". */
  converted: string;
}

export type ArtemisConversion =
  { ok: true; formula: string; calls: CallConversion[]; notes: string[] } | { ok: false; reason: string };

/** Whether a formula calls ART, ARTRANGE or ARTINFO anywhere (outside text). */
export function hasArtemisCall(formula: string): boolean {
  return typeof formula === "string" && formula.startsWith("=") && findCalls(formula).length > 0;
}

/**
 * The MD formula for an Artemis one, or why there is none. With
 * `resolveMetric`, a metric written in the formula that the symbols' metric
 * catalogs do not list is refused with the names closest to it.
 */
export function convertArtemisFormula(
  formula: string,
  resolve: SymbolResolver,
  resolveMetric?: MetricResolver,
): ArtemisConversion {
  if (!formula.startsWith("=")) return refuse("it is not a formula");
  const calls = findCalls(formula);
  if (calls.length === 0) return refuse("it has no ART, ARTRANGE or ARTINFO call");
  let out = "";
  let at = 0;
  const converted: CallConversion[] = [];
  const notes: string[] = [];
  for (const call of calls) {
    const original = formula.slice(call.start, call.end);
    if (call.args.some((arg) => findCalls(`=${arg}`).length > 0)) {
      return refuse(`${original} has another Artemis call inside its arguments`);
    }
    const result = convertCall(call.name, call.args, resolve, resolveMetric);
    if (!result.ok) return refuse(calls.length > 1 ? `${original}: ${result.reason}` : result.reason);
    out += formula.slice(at, call.start) + result.text;
    at = call.end;
    converted.push({ original, converted: result.text });
    for (const note of result.notes) if (!notes.includes(note)) notes.push(note);
  }
  out += formula.slice(at);
  return { ok: true, formula: out, calls: converted, notes };
}

function refuse(reason: string): ArtemisConversion {
  return { ok: false, reason };
}
