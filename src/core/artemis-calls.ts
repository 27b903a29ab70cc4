/**
 * One Artemis call as its MD replacement (the table in core/artemis.ts):
 * `ART`/`ARTRANGE` as MD.LATEST or MD.SERIES, `ARTINFO` by its field, or
 * refused with the reason.
 */
import { readDate, readFlag, readMetrics, readOrder, readSymbols } from "./artemis-arguments";
import { type MetricResolver, type SymbolResolver } from "./artemis-catalog";
import { describe, readArg, type Arg } from "./artemis-syntax";
import { buildFormula, quoteText, type FormulaArg } from "./formula";
import { didYouMean } from "./suggest";

/** Window prefixes Artemis and MD.LATEST / MD.AGG share. */
const WINDOW_PREFIX = /^(L7|L30|L90|CM|CQ|LTM|YTD)_/;

export type CallResult = { ok: true; text: string; notes: string[] } | { ok: false; reason: string };

function fail(reason: string): CallResult {
  return { ok: false, reason };
}

function mdCall(name: string, args: readonly FormulaArg[], notes: string[]): CallResult {
  return { ok: true, text: buildFormula(name, args).slice(1), notes };
}

/** `resolveMetric`: checks the metrics written in the formula against the symbols' catalogs; without it they are not checked. */
export function convertCall(
  name: string,
  rawArgs: readonly string[],
  resolve: SymbolResolver,
  resolveMetric?: MetricResolver,
): CallResult {
  const args = rawArgs.map(readArg);
  return name === "ARTINFO" ? convertInfo(args, resolve) : convertArt(name, args, resolve, resolveMetric);
}

/**
 * Why a metric written in the formula will not be found for these symbols
 * (null: each is known). A window prefix is kept out of the lookup and put
 * back on the suggestions: `L30_FEEZ` → "Did you mean L30_FEES?".
 */
function unknownMetric(symbols: readonly string[], metrics: readonly string[], resolve: MetricResolver): string | null {
  if (symbols.length === 0) return null; // symbols read from cells: nothing to check against
  for (const metric of metrics) {
    const prefix = WINDOW_PREFIX.exec(metric)?.[0] ?? "";
    const found = resolve(symbols, metric.slice(prefix.length));
    if (found.known) continue;
    const of = symbols.join(", ");
    if (found.reason)
      return `metric ${metric} could not be checked against the metric catalog of ${of}: ${found.reason}`;
    const hint = found.suggestions.length
      ? didYouMean(found.suggestions.map((s) => prefix + s))
      : `MD.METRICS("${symbols[0]}") lists what ${symbols[0]} offers.`;
    return `metric ${metric} is not in the metric catalog of ${of}. ${hint}`;
  }
  return null;
}

function convertArt(name: string, args: Arg[], resolve: SymbolResolver, resolveMetric?: MetricResolver): CallResult {
  if (args.length < 2) return fail(`${name} needs symbols and metrics; this call has ${args.length} argument(s)`);
  if (args.length > 7) return fail(`${name} takes at most 7 arguments; this call has ${args.length}`);
  const [symbolsArg, metricsArg, startArg = { kind: "empty" }, endArg = { kind: "empty" }] = args;
  const symbols = readSymbols(symbolsArg, resolve);
  if (!symbols.ok) return fail(symbols.reason);
  const metrics = readMetrics(metricsArg);
  if (!metrics.ok) return fail(metrics.reason);
  const unknown = resolveMetric && unknownMetric(symbols.names, metrics.names, resolveMetric);
  if (unknown) return fail(unknown);
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
