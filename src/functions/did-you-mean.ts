/**
 * What a pair the service has nothing for means. The series answer says only
 * "not available" (a message in place of the series, or a refused request);
 * the catalogs the client already caches (asset catalog, metric catalogs, one
 * hour) tell a typo from a gap:
 * - a symbol the asset catalog does not know → UnknownNameError (#VALUE!, the
 *   formula must change) naming the closest symbols: "coin" → eq-coin;
 * - a metric no asset of the symbol's kind (equity or crypto) is described
 *   with — judged by the metric catalog of the kind's first asset in the asset
 *   catalog, the same for every cell — and that has a close name there (or,
 *   failing that, in the symbol's own catalog) → UnknownNameError: REVENUE on
 *   an equity → TOTAL_REVENUE, SUPPLY on usdc → STABLECOIN_SUPPLY_CIRCULATING;
 * - otherwise the pair simply has no data (#N/A, as before: TXNS of a
 *   stablecoin, PRICE of a chain without a token), with a pointer to what the
 *   symbol offers when its own catalog was read and lacks the metric.
 * Asked when a pair's answer holds no reading (the service's message, a
 * refused pair, or nothing: a service may leave an unknown symbol out of its
 * answer) — only ever on that failure path, never per cell on the normal one: the
 * asset catalog and the kind's metric catalog are one request each, shared by
 * every cell; the symbol's own catalog only when the kind's cannot tell. A
 * catalog that cannot be read leaves the original "no data" answer: silently
 * during value preview, with the service's failure named when it failed.
 */
import { isMarketDataError } from "../api";
import { parsePrefixedMetric } from "../core/agg-window";
import { NoDataError, UnknownNameError } from "../core/errors";
import { didYouMean, isKnownSymbol, suggestMetrics, suggestSymbols } from "../core/suggest";
import type { CallContext } from "./call-context";
import { isPairFailure } from "./fetch-series";

/** The names of the arguments a message starts with: `symbol`/`metric`, or `symbols`/`metrics` for tables. */
export interface NameArguments {
  symbol: string;
  metric: string;
}

export const SINGLE: NameArguments = { symbol: "symbol", metric: "metric" };
export const LISTS: NameArguments = { symbol: "symbols", metric: "metrics" };

/** `gap`: the pair has nothing; `hint` points at what the symbol offers when its catalog does not list the metric. */
export type Diagnosis = { kind: "unknown"; error: UnknownNameError } | { kind: "gap"; hint: string };

export async function diagnosePair(
  ctx: CallContext,
  symbol: string,
  metric: string,
  names: NameArguments,
): Promise<Diagnosis | null> {
  try {
    const assets = await ctx.client.getAssets(ctx.call);
    // An empty catalog tells nothing: the pair stays "no data".
    if (assets.length === 0) return null;
    if (!isKnownSymbol(symbol, assets)) {
      const close = suggestSymbols(symbol, assets);
      return unknown(
        names.symbol,
        `"${symbol}" is not a symbol the service knows. ${close.length ? didYouMean(close) : "MD.ASSETS lists the symbols it covers."}`,
      );
    }
    const prefixed = parsePrefixedMetric(metric);
    const base = prefixed?.base ?? metric;
    // The names of the symbol's kind: the catalog of the first asset of that kind (equity or crypto) in the
    // asset catalog, the same for every cell. A name it lists is a gap of this pair, not a typo.
    const equity = symbol.startsWith("eq-");
    const reference = assets.find((a) => (a.symbol ?? "").toLowerCase().startsWith("eq-") === equity);
    const referenceSymbol = reference ? reference.symbol.toLowerCase() : symbol;
    // Read directly, not through catalogOf: a catalog that cannot be read must leave the original answer
    // (the catch below), not pass for an empty one and send the diagnosis down another path.
    let catalog = nonEmpty(await ctx.client.getMetrics(referenceSymbol, ctx.call));
    if (catalog?.some((d) => d.name === base)) return { kind: "gap", hint: "" };
    let close = catalog ? suggestMetrics(base, catalog) : [];
    if (close.length === 0 && referenceSymbol !== symbol) {
      // The kind's names have nothing close: the symbol's own catalog decides.
      catalog = nonEmpty(await ctx.client.getMetrics(symbol, ctx.call));
      if (catalog?.some((d) => d.name === base)) return { kind: "gap", hint: "" };
      close = catalog ? suggestMetrics(base, catalog) : [];
    }
    if (close.length === 0) return gap(symbol);
    return unknown(
      names.metric,
      `${metric} is not a metric of ${symbol}. ${didYouMean(close.map((name) => `${prefixed?.prefix ?? ""}${name}`))}`,
    );
  } catch (error) {
    if (isMarketDataError(error) && error.kind === "cancelled") throw error;
    // A catalog the service failed to give (network, 5xx, rate limit): the pair stays "no data", and says the
    // names went unchecked and why, so the cell does not read as fully diagnosed. Asked again, it will be.
    if (isMarketDataError(error) && error.retryable) return { kind: "gap", hint: `${UNCHECKED} ${error.message}` };
    return null;
  }
}

export const UNCHECKED = "The names could not be checked against the service's catalogs:";

function nonEmpty<T>(list: T[] | undefined): T[] | undefined {
  return list && list.length > 0 ? list : undefined;
}

function unknown(argument: string, detail: string): Diagnosis {
  return { kind: "unknown", error: new UnknownNameError(argument, detail) };
}

function gap(symbol: string): Diagnosis {
  return { kind: "gap", hint: `MD.METRICS("${symbol}") lists what ${symbol} offers.` };
}

/** A message with a hint after it, as sentences. */
export function withHint(message: string, hint: string): string {
  if (!hint) return message;
  return `${/[.!?)]$/.test(message) ? message : `${message}.`} ${hint}`;
}

/**
 * Whether a failure is one a diagnosis can explain: the pair's message, the
 * service refusing the pair, or no reading at all — which is also what a
 * service that leaves an unknown symbol out of its answer (as the contract
 * allows) gives. Only ever on a cell's failure path.
 */
function explainable(error: unknown): boolean {
  return error instanceof NoDataError || isPairFailure(error);
}

/**
 * Runs one pair's work; when the service had nothing for the pair, an unknown
 * name becomes UnknownNameError and a gap keeps its "no data" error (with a
 * pointer to MD.METRICS).
 */
export function withDiagnosis<T>(
  ctx: CallContext,
  symbol: string,
  metric: string,
  names: NameArguments,
  work: () => Promise<T>,
): Promise<T> {
  // A promise chain rather than an async function: cells wait here by the ten thousand, and a suspended async
  // function holds its frame while it waits.
  let working: Promise<T>;
  try {
    working = work();
  } catch (error) {
    working = Promise.reject(error);
  }
  return working.catch(async (error: unknown) => {
    if (!explainable(error)) throw error;
    const diagnosis = await diagnosePair(ctx, symbol, metric, names);
    if (diagnosis?.kind === "unknown") throw diagnosis.error;
    if (diagnosis?.kind === "gap" && error instanceof NoDataError)
      throw new NoDataError(withHint(error.message, diagnosis.hint));
    throw error;
  });
}
