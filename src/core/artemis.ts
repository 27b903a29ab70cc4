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
 * `TT_` metrics (a third party's data), several symbols or metrics in a
 * one-value form (the shape Artemis gives is not documented), an end date
 * without a start, and arguments the converter cannot read as the docs
 * describe them.
 *
 * An ART call inside a larger formula is converted in place:
 * `=ART("BTC","PRICE")*2` → `=MD.LATEST("btc","PRICE")*2`.
 */
import { buildFormula, closingQuote, quoteText, type FormulaArg } from "./formula";

/** What the asset catalog says of a symbol as written in an Artemis formula. */
export type SymbolResolution =
  | { known: true; id: string; note?: string }
  /** `reason`: why the catalog could not tell (it could not be read). */
  | { known: false; suggestions: readonly string[]; reason?: string };

export type SymbolResolver = (symbol: string) => SymbolResolution;

export interface CallConversion {
  /** The Artemis call as written ("ART(\"BTC\",\"PRICE\")"). */
  original: string;
  /** Its MD replacement, without "=". */
  converted: string;
}

export type ArtemisConversion =
  { ok: true; formula: string; calls: CallConversion[]; notes: string[] } | { ok: false; reason: string };

const ARTEMIS_FUNCTIONS = new Set(["ART", "ARTRANGE", "ARTINFO"]);

/** Window prefixes Artemis and MD.LATEST / MD.AGG share. */
const WINDOW_PREFIX = /^(L7|L30|L90|CM|CQ|LTM|YTD)_/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const REFERENCE =
  /^(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)!)?(?:\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}|\$?\d+:\$?\d+)$/;

/** Whether a formula calls ART, ARTRANGE or ARTINFO anywhere (outside text). */
export function hasArtemisCall(formula: string): boolean {
  return typeof formula === "string" && formula.startsWith("=") && findCalls(formula).length > 0;
}

/** The MD formula for an Artemis one, or why there is none. */
export function convertArtemisFormula(formula: string, resolve: SymbolResolver): ArtemisConversion {
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
    const result = convertCall(call.name, call.args, resolve);
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

// ---- finding the calls ----

interface FoundCall {
  name: string;
  /** Index of the name, and just past the closing parenthesis. */
  start: number;
  end: number;
  /** The arguments' texts, trimmed; `[]` for `NAME()`. */
  args: string[];
}

/** The outermost ART/ARTRANGE/ARTINFO calls, in order; text in quotes is skipped. */
function findCalls(formula: string): FoundCall[] {
  const calls: FoundCall[] = [];
  let i = 0;
  while (i < formula.length) {
    const ch = formula[i];
    if (ch === '"' || ch === "'") {
      i = closingQuote(formula, i, ch);
      continue;
    }
    if (/[A-Za-z_]/.test(ch) && !/[A-Za-z0-9_.$!]/.test(formula[i - 1] ?? "")) {
      let j = i;
      while (j < formula.length && /[A-Za-z0-9_.]/.test(formula[j])) j += 1;
      const name = formula.slice(i, j).toUpperCase();
      let k = j;
      while (formula[k] === " ") k += 1;
      if (ARTEMIS_FUNCTIONS.has(name) && formula[k] === "(") {
        const parsed = argumentsFrom(formula, k + 1);
        if (parsed) {
          calls.push({ name, start: i, end: parsed.end, args: parsed.args });
          i = parsed.end;
          continue;
        }
      }
      i = j;
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

type Arg =
  | { kind: "empty" }
  | { kind: "text"; value: string }
  | { kind: "array"; values: (string | number)[] }
  | { kind: "boolean"; value: boolean }
  | { kind: "number"; value: number }
  | { kind: "reference"; text: string; cells: "one" | "several" }
  | { kind: "expression"; text: string };

function readArg(text: string): Arg {
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

function describe(arg: Arg): string {
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

// ---- converting one call ----

type CallResult = { ok: true; text: string; notes: string[] } | { ok: false; reason: string };

function fail(reason: string): CallResult {
  return { ok: false, reason };
}

function mdCall(name: string, args: readonly FormulaArg[], notes: string[]): CallResult {
  return { ok: true, text: buildFormula(name, args).slice(1), notes };
}

function convertCall(name: string, rawArgs: readonly string[], resolve: SymbolResolver): CallResult {
  const args = rawArgs.map(readArg);
  return name === "ARTINFO" ? convertInfo(args, resolve) : convertArt(name, args, resolve);
}

/** A symbols or metrics argument as the MD argument it becomes, with how many names it holds. */
type Names =
  | { ok: true; arg: FormulaArg; count: "one" | "several"; names: string[]; notes: string[] }
  | { ok: false; reason: string };

/** Names read from cells: passed on as the reference, with a note of what is not checked. */
function fromCells(arg: Extract<Arg, { kind: "reference" }>, note: string): Names {
  return { ok: true, arg: { expression: arg.text }, count: arg.cells, names: [], notes: [note] };
}

function readSymbols(arg: Arg, resolve: SymbolResolver): Names {
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

function readMetrics(arg: Arg): Names {
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
function readDate(arg: Arg, label: string): { ok: true; arg: FormulaArg } | { ok: false; reason: string } {
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
function readFlag(arg: Arg | undefined, label: string): { ok: true; value?: boolean } | { ok: false; reason: string } {
  if (!arg || arg.kind === "empty") return { ok: true };
  if (arg.kind === "boolean") return { ok: true, value: arg.value };
  return {
    ok: false,
    reason: `${label}: ${describe(arg)} is not TRUE or FALSE written in the formula, so it cannot become an MD option`,
  };
}

function readOrder(arg: Arg | undefined): { ok: true; desc: boolean } | { ok: false; reason: string } {
  if (!arg || arg.kind === "empty") return { ok: true, desc: false };
  if (arg.kind === "text" && /^(ASC|DESC)$/i.test(arg.value.trim())) {
    return { ok: true, desc: arg.value.trim().toUpperCase() === "DESC" };
  }
  return {
    ok: false,
    reason: `order: ${describe(arg)} is not "ASC" or "DESC" written in the formula, so it cannot become an MD option`,
  };
}

function convertArt(name: string, args: Arg[], resolve: SymbolResolver): CallResult {
  if (args.length < 2) return fail(`${name} needs symbols and metrics; this call has ${args.length} argument(s)`);
  if (args.length > 7) return fail(`${name} takes at most 7 arguments; this call has ${args.length}`);
  const [symbolsArg, metricsArg, startArg = { kind: "empty" }, endArg = { kind: "empty" }] = args;
  const symbols = readSymbols(symbolsArg, resolve);
  if (!symbols.ok) return fail(symbols.reason);
  const metrics = readMetrics(metricsArg);
  if (!metrics.ok) return fail(metrics.reason);
  const order = readOrder(args[4]);
  if (!order.ok) return fail(order.reason);
  const showDates = readFlag(args[5], "showDates");
  if (!showDates.ok) return fail(showDates.reason);
  const hideWeekends = readFlag(args[6], "hideWeekends");
  if (!hideWeekends.ok) return fail(hideWeekends.reason);
  const notes = [...symbols.notes, ...metrics.notes];
  const prefixed = metrics.names.filter((m) => WINDOW_PREFIX.test(m));

  if (endArg.kind !== "empty" && startArg.kind === "empty") {
    return fail("an end date without a start date is not a form Artemis's docs describe");
  }

  if (endArg.kind === "empty") {
    // One value: the latest, or the value on a date.
    if (symbols.count === "several" || metrics.count === "several") {
      return fail(
        "Artemis's docs do not say how a single value for several symbols or metrics is laid out; MD.SNAPSHOT gives such a table (one row per symbol): convert by hand",
      );
    }
    if (showDates.value === true) {
      return fail("showDates TRUE on a single value: Artemis's docs do not say what it shows");
    }
    if (hideWeekends.value === true) {
      return fail("hideWeekends TRUE on a single value: Artemis's docs do not say what it does");
    }
    const mdArgs: FormulaArg[] = [symbols.arg, metrics.arg];
    if (startArg.kind !== "empty") {
      if (prefixed.length > 0) {
        return fail(
          `${prefixed[0]} with a date: Artemis's docs give window prefixes only for the latest value, not on a date`,
        );
      }
      const date = readDate(startArg, "startDate");
      if (!date.ok) return fail(date.reason);
      mdArgs.push(date.arg);
    }
    return mdCall("MD.LATEST", mdArgs, notes);
  }

  // A table over a date range.
  if (prefixed.length > 0) {
    return fail(`${prefixed[0]} over a date range: Artemis's docs give window prefixes only for the latest value`);
  }
  const start = readDate(startArg, "startDate");
  if (!start.ok) return fail(start.reason);
  const end = readDate(endArg, "endDate");
  if (!end.ok) return fail(end.reason);
  const options: string[] = [];
  if (order.desc) options.push("order=desc");
  if (showDates.value === false) options.push("dates=false");
  if (hideWeekends.value === true) options.push("days=weekdays");
  notes.push(
    showDates.value === undefined
      ? "MD.SERIES spills a header row and a date column; Artemis's docs give neither its default for showDates nor whether its tables have a header row: check cells that refer into the table."
      : "MD.SERIES spills a header row; Artemis's docs do not say whether its tables have one: check cells that refer into the table.",
  );
  return mdCall(
    "MD.SERIES",
    [symbols.arg, metrics.arg, start.arg, end.arg, null, options.length ? options.join("; ") : null],
    notes,
  );
}

const INFO_FIELDS_WITHOUT_SOURCE: Record<string, string> = {
  "MC-RANK": "the service has no market-cap rank",
  CATEGORIES: "the service's catalog has no categories",
  "SUB-CATEGORIES": "the service's catalog has no sub-categories",
};

function convertInfo(args: Arg[], resolve: SymbolResolver): CallResult {
  if (args.length === 0) return fail("ARTINFO(): Artemis's docs do not say what it returns without arguments");
  if (args.length !== 2) return fail(`ARTINFO takes a symbol (or "ALL") and a field; this call has ${args.length}`);
  const [subject, fieldArg] = args;
  if (subject.kind !== "text" || fieldArg.kind !== "text") {
    return fail(
      `ARTINFO's symbol and field must be written as text in the formula to be converted (here ${describe(subject)} and ${describe(fieldArg)})`,
    );
  }
  const field = fieldArg.value.trim().toUpperCase();
  if (subject.value.trim().toUpperCase() === "ALL") {
    if (field === "SYMBOLS") {
      return mdCall(
        "MD.ASSETS",
        [],
        [
          "MD.ASSETS spills the catalog as a table with a header row: platform_id, symbol (the second column), title, aggregator_id, color, kind.",
        ],
      );
    }
    if (field === "METRICS") {
      return fail("the service lists metrics per symbol only (MD.METRICS(symbol)); it has no list of every metric");
    }
    if (/^TOP\d+-SYMBOLS$/.test(field)) return fail(`${field}: the service has no market-cap ranking`);
    return fail(`ARTINFO("ALL", "${fieldArg.value}") is not a form Artemis's docs describe`);
  }
  if (INFO_FIELDS_WITHOUT_SOURCE[field]) return fail(`${field}: ${INFO_FIELDS_WITHOUT_SOURCE[field]}`);
  const symbols = readSymbols(subject, resolve);
  if (!symbols.ok) return fail(symbols.reason);
  const symbol = symbols.names[0];
  switch (field) {
    case "ASSET-NAME":
      return mdCall(
        "MD.ASSET",
        [symbol],
        [
          ...symbols.notes,
          "MD.ASSET shows the asset's name and holds its card; where Excel has no data types it spills the card as a two-column table.",
        ],
      );
    case "COINGECKO-ID": {
      // The catalog's aggregator_id is the CoinGecko id (the real service names the field coingecko_id).
      const lookup = `LET(t,${buildFormula("MD.ASSETS", [symbol]).slice(1)},XLOOKUP(${quoteText(symbol)},INDEX(t,,2),INDEX(t,,4)))`;
      return {
        ok: true,
        text: lookup,
        notes: [...symbols.notes, "The CoinGecko id is the catalog's aggregator_id (empty when the service has none)."],
      };
    }
    case "SUPPORTED-METRICS":
      return mdCall(
        "MD.METRICS",
        [symbol],
        [
          ...symbols.notes,
          "MD.METRICS spills a table with a header row: Metric (the names), Label, Unit, Aggregation, Source, Description.",
        ],
      );
    default:
      return fail(`ARTINFO field "${fieldArg.value}" is not one Artemis's docs describe`);
  }
}

// ---- the catalog as a resolver ----

/** Catalog entries as the resolver needs them (AssetRecord fits). */
export interface CatalogAsset {
  symbol: string;
  platform_id: string;
  aggregator_id: string | null;
}

/**
 * Resolves a symbol as Artemis writes it ("BTC") against the catalog: its
 * symbol in any case, else its platform_id, else its aggregator (CoinGecko)
 * id, each giving the catalog's symbol. An intersection ("USDC-ETH") is
 * resolved part by part. Unknown: the suggestions `suggest` gives.
 */
export function catalogResolver(
  assets: readonly CatalogAsset[],
  suggest: (symbol: string) => readonly string[] = () => [],
): SymbolResolver {
  const bySymbol = new Map<string, string>();
  const byPlatform = new Map<string, string>();
  const byAggregator = new Map<string, string>();
  for (const asset of assets) {
    const symbol = (asset.symbol ?? "").toLowerCase();
    if (!symbol) continue;
    if (!bySymbol.has(symbol)) bySymbol.set(symbol, symbol);
    const platform = (asset.platform_id ?? "").toLowerCase();
    if (platform && !byPlatform.has(platform)) byPlatform.set(platform, symbol);
    const aggregator = (asset.aggregator_id ?? "").toLowerCase();
    if (aggregator && !byAggregator.has(aggregator)) byAggregator.set(aggregator, symbol);
  }
  const one = (name: string): { id: string; via?: string } | null => {
    if (bySymbol.has(name)) return { id: name };
    if (byPlatform.has(name)) return { id: byPlatform.get(name)!, via: "platform id" };
    if (byAggregator.has(name)) return { id: byAggregator.get(name)!, via: "CoinGecko id" };
    return null;
  };
  return (written) => {
    const name = written.trim().toLowerCase();
    const whole = one(name);
    const parts = whole ? [whole] : name.includes("-") ? name.split("-").map(one) : [null];
    if (parts.some((p) => p === null)) return { known: false, suggestions: suggest(name) };
    const id = whole ? whole.id : parts.map((p) => p!.id).join("-");
    const via = parts.find((p) => p!.via)?.via;
    return via ? { known: true, id, note: `"${written}" is the catalog's ${via} of ${id}.` } : { known: true, id };
  };
}
