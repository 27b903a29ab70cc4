/**
 * The realistic mode: the sandbox plays the real service as public code that
 * calls it reports it (../shared/real-service.md), where the contract says
 * otherwise. Every behaviour is deterministic, so tests can expect it, and can
 * be switched off one by one.
 *
 * - sentences in place of series: `Market data not available for asset.`
 *   (unknown symbol), `Metric not found.` (a metric the service does not know
 *   at all), `Metric not available for asset.` (the symbol lacks the metric);
 * - `data.symbols` itself a sentence (`Latest data not available for this
 *   asset.`) when the window holds no data for any requested series;
 * - unsettled newest days in daily series: today's point has `val: null`; the
 *   day before is `null` or a `0` placeholder (by a hash of symbol and metric);
 * - a request with neither `startDate` nor `endDate` answered with each
 *   series' latest value as a bare number (or the sentence);
 * - case echo: symbol keys lower case, metric keys spelled as requested;
 * - every Nth request answered 200 with an empty body;
 * - the catalog as the real service spells it: `artemis_id` and
 *   `coingecko_id` instead of `platform_id` and `aggregator_id`, some symbols
 *   upper case, some null;
 * - (off in the preset, switched on by itself) a symbol the asset catalog does
 *   not know left out of `data.symbols` altogether: what the contract allows
 *   ("a requested metric may have an empty or absent series"), and what a
 *   client must still tell from "no data in this window".
 */
import type { AssetCatalog } from "./asset-catalog";
import { isoOfDay } from "./dates";
import { CRYPTO_METRICS, EQUITY_METRICS } from "./metric-catalog";
import { hashOf } from "./rng";
import type { DataContext, SeriesAnswer } from "./series";
import { resolveSymbol } from "./symbols";

export interface RealisticOptions {
  /** The real service's sentences in place of series. */
  sentences: boolean;
  /** `data.symbols` is a sentence when no requested series has data in the window. */
  noDataSentence: boolean;
  /** Daily series: today null, yesterday null or a 0 placeholder. */
  unsettledDays: boolean;
  /** A request without dates: each series' latest value as a bare number. */
  datelessNumbers: boolean;
  /** Symbol keys lower case, metric keys as spelled in the request. */
  caseEcho: boolean;
  /** Every Nth request (OPTIONS and `/` excepted) is a 200 with an empty body; 0 = never. */
  emptyBodyEvery: number;
  /** `artemis_id` / `coingecko_id` field names, some upper-case and null symbols. */
  catalogAsReal: boolean;
  /** A symbol the asset catalog does not know is absent from the answer (not a sentence). Off in the preset. */
  omitUnknownSymbols: boolean;
}

export const REALISTIC: RealisticOptions = {
  sentences: true,
  noDataSentence: true,
  unsettledDays: true,
  datelessNumbers: true,
  caseEcho: true,
  emptyBodyEvery: 10,
  catalogAsReal: true,
  // Not what clients report of the real service (it answers a sentence): what the contract allows, on request.
  omitUnknownSymbols: false,
};

export const OFF: RealisticOptions = {
  sentences: false,
  noDataSentence: false,
  unsettledDays: false,
  datelessNumbers: false,
  caseEcho: false,
  emptyBodyEvery: 0,
  catalogAsReal: false,
  omitUnknownSymbols: false,
};

/** The texts public clients report, verbatim. */
export const SENTENCES = {
  metricNotAvailable: "Metric not available for asset.",
  metricNotFound: "Metric not found.",
  marketDataNotAvailable: "Market data not available for asset.",
  latestNotAvailable: "Latest data not available for this asset.",
} as const;

export function realisticOptions(value: boolean | Partial<RealisticOptions> | undefined): RealisticOptions {
  if (value === undefined || value === false) return { ...OFF };
  const options = value === true ? { ...REALISTIC } : { ...REALISTIC, ...value };
  if (!Number.isInteger(options.emptyBodyEvery) || options.emptyBodyEvery < 0) {
    throw new RangeError(`realistic.emptyBodyEvery must be a whole number ≥ 0, got ${options.emptyBodyEvery}`);
  }
  return options;
}

/** A point as the realistic service sends it: `val` may be null. */
export interface RealisticPoint {
  date: string;
  val: number | null;
}

/** What stands under a metric key: a series, a sentence, or (date-less requests) a bare number. */
export type RealisticAnswer = RealisticPoint[] | string | number;

function knownMetric(metric: string): boolean {
  return CRYPTO_METRICS.has(metric) || EQUITY_METRICS.has(metric);
}

/** The sentence the real service answers for a pair the sandbox answers with its own message. */
function sentenceFor(data: DataContext, symbol: string, metric: string): string {
  if (!resolveSymbol(data.catalog, data.seed, symbol)) return SENTENCES.marketDataNotAvailable;
  return knownMetric(metric) ? SENTENCES.metricNotAvailable : SENTENCES.metricNotFound;
}

/** Whether a requested symbol is left out of a series answer (`omitUnknownSymbols`: the catalog does not know it). */
export function omittedSymbol(options: RealisticOptions, data: DataContext, symbol: string): boolean {
  return options.omitUnknownSymbols && !resolveSymbol(data.catalog, data.seed, symbol);
}

/** Whether the day before today is a 0 placeholder (else null) for this pair: half the pairs each way. */
export function zeroPlaceholder(seed: number, symbol: string, metric: string): boolean {
  return (hashOf(seed, "placeholder", symbol.toLowerCase(), metric.toUpperCase()) & 1) === 1;
}

/**
 * One pair's answer in the realistic mode. `answer` is what the contract-true
 * sandbox answers; `daily` says whether the points are days (granularity DAY).
 */
export function realisticSeries(
  options: RealisticOptions,
  data: DataContext,
  symbol: string,
  metric: string,
  answer: SeriesAnswer,
  daily: boolean,
): RealisticPoint[] | string {
  if (typeof answer === "string") return options.sentences ? sentenceFor(data, symbol, metric) : answer;
  if (!options.unsettledDays || !daily) return answer;
  const today = isoOfDay(data.today);
  const yesterday = isoOfDay(data.today - 1);
  const zero = zeroPlaceholder(data.seed, symbol, metric);
  return answer.map((point) => {
    if (point.date === today) return { date: point.date, val: null };
    if (point.date === yesterday) return { date: point.date, val: zero ? 0 : null };
    return point;
  });
}

/** A date-less request's answer for one pair: the latest real value as a bare number, or the sentence. */
export function datelessAnswer(series: RealisticPoint[] | string): number | string {
  if (typeof series === "string") return series;
  for (let i = series.length - 1; i >= 0; i--) {
    const val = series[i].val;
    if (val !== null) return val;
  }
  return SENTENCES.latestNotAvailable;
}

/** `data.symbols`: the object, or the sentence when no series in it has a single point. */
export function symbolsOrSentence(
  options: RealisticOptions,
  answer: Record<string, Record<string, RealisticAnswer>>,
): Record<string, Record<string, RealisticAnswer>> | string {
  if (!options.noDataSentence) return answer;
  const all = Object.values(answer).flatMap((row) => Object.values(row));
  const empty = all.length > 0 && all.every((series) => Array.isArray(series) && series.length === 0);
  return empty ? SENTENCES.latestNotAvailable : answer;
}

/** The catalog body with the real service's field names, and some symbols upper case (every 5th record) or null (every 50th filler). */
export function realisticCatalogBody(catalog: AssetCatalog): string {
  const cached = catalogBodies.get(catalog);
  if (cached !== undefined) return cached;
  const assets = catalog.entries.map((entry, index) => {
    const r = entry.record;
    const symbol = entry.filler && index % 50 === 0 ? null : index % 5 === 1 ? r.symbol.toUpperCase() : r.symbol;
    return { artemis_id: r.platform_id, symbol, title: r.title, coingecko_id: r.aggregator_id, color: r.color };
  });
  const body = JSON.stringify({ assets });
  catalogBodies.set(catalog, body);
  return body;
}

const catalogBodies = new WeakMap<AssetCatalog, string>();
