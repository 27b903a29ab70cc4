/**
 * Packing one window group's (symbol, metric) pairs into as few series
 * requests as the caps allow. Pure: the batcher decides *when* to flush, this
 * decides *what* to send.
 *
 * A request is symbols × metrics, so packing works per symbol: symbols asking
 * the same metric set are placed next to each other (a comps sheet asks the
 * same columns for every row, so a request then carries exactly what was
 * asked), and a request's metrics are the union of its symbols' metrics. The
 * pairs nobody asked for are over-fetched; they cost little and are cached.
 */
import type { SeriesResult } from "../../core/domain";

export interface PairLike {
  symbol: string;
  metric: string;
}

export interface PlannedRequest<P extends PairLike> {
  symbols: string[];
  metrics: string[];
  /** The pairs this request answers, each exactly once. */
  pairs: P[];
}

export interface PlanLimits {
  maxSymbols: number;
  maxMetrics: number;
  /** Most symbol × metric series one response may carry (bounds response size for long windows). */
  maxSeries: number;
  maxUrlLength: number;
  /** URL length as a function of the characters the symbol and metric lists take. */
  urlLength: (symbolsChars: number, metricsChars: number) => number;
  /** Characters one list item adds, separator included. */
  itemChars: (item: string) => number;
}

interface SymbolUnit<P extends PairLike> {
  symbol: string;
  metrics: string[];
  pairs: P[];
}

/** `pairs` must be distinct (symbol, metric) pairs of one window and granularity. */
export function planRequests<P extends PairLike>(pairs: readonly P[], limits: PlanLimits): PlannedRequest<P>[] {
  const maxMetrics = Math.max(1, Math.min(limits.maxMetrics, limits.maxSeries));

  // Symbol → its pairs, in first-seen order.
  const bySymbol = new Map<string, P[]>();
  for (const pair of pairs) {
    const list = bySymbol.get(pair.symbol);
    if (list) list.push(pair);
    else bySymbol.set(pair.symbol, [pair]);
  }

  // Units: a symbol with (a slice of) its metrics, small enough to be a request alone.
  const units: SymbolUnit<P>[] = [];
  for (const [symbol, list] of bySymbol) {
    const symbolChars = limits.itemChars(symbol);
    let current: SymbolUnit<P> = { symbol, metrics: [], pairs: [] };
    let metricChars = 0;
    for (const pair of list) {
      const added = limits.itemChars(pair.metric) + (current.metrics.length ? 1 : 0);
      const tooLong = limits.urlLength(symbolChars, metricChars + added) > limits.maxUrlLength;
      if (current.metrics.length > 0 && (current.metrics.length >= maxMetrics || tooLong)) {
        units.push(current);
        current = { symbol, metrics: [], pairs: [] };
        metricChars = 0;
      }
      metricChars += limits.itemChars(pair.metric) + (current.metrics.length ? 1 : 0);
      current.metrics.push(pair.metric);
      current.pairs.push(pair);
    }
    units.push(current);
  }

  // Neighbours with the same metric set first; stable, so first-seen order holds within a set.
  const signatureOrder = new Map<string, number>();
  const signature = (u: SymbolUnit<P>) => [...u.metrics].sort().join(",");
  for (const unit of units) {
    const sig = signature(unit);
    if (!signatureOrder.has(sig)) signatureOrder.set(sig, signatureOrder.size);
  }
  const ordered = units
    .map((unit, index) => ({ unit, index, rank: signatureOrder.get(signature(unit))! }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((x) => x.unit);

  // Greedy packing under the caps.
  const planned: PlannedRequest<P>[] = [];
  let symbols: string[] = [];
  let metrics = new Set<string>();
  let pairsIn: P[] = [];
  let symbolChars = 0;
  const flush = () => {
    if (symbols.length) planned.push({ symbols, metrics: [...metrics], pairs: pairsIn });
    symbols = [];
    metrics = new Set();
    pairsIn = [];
    symbolChars = 0;
  };
  const metricsChars = (set: Iterable<string>) => {
    let chars = 0;
    let n = 0;
    for (const m of set) {
      chars += limits.itemChars(m);
      n += 1;
    }
    return chars + Math.max(0, n - 1);
  };
  for (const unit of ordered) {
    const union = new Set([...metrics, ...unit.metrics]);
    const nextSymbolChars = symbolChars + limits.itemChars(unit.symbol) + (symbols.length ? 1 : 0);
    const fits =
      symbols.length === 0 ||
      (!symbols.includes(unit.symbol) &&
        symbols.length < limits.maxSymbols &&
        union.size <= limits.maxMetrics &&
        (symbols.length + 1) * union.size <= limits.maxSeries &&
        limits.urlLength(nextSymbolChars, metricsChars(union)) <= limits.maxUrlLength);
    if (!fits) flush();
    symbolChars += limits.itemChars(unit.symbol) + (symbols.length ? 1 : 0);
    symbols.push(unit.symbol);
    for (const m of unit.metrics) metrics.add(m);
    pairsIn.push(...unit.pairs);
  }
  flush();
  return planned;
}

/** A request the caps allow no more symbols in (by count or by series). */
export function isFull(
  request: { symbols: readonly string[]; metrics: readonly string[] },
  limits: { maxSymbolsPerRequest: number; maxSeriesPerRequest: number },
): boolean {
  return (
    request.symbols.length >= limits.maxSymbolsPerRequest ||
    request.symbols.length * request.metrics.length >= limits.maxSeriesPerRequest
  );
}

/** About how many bytes a series takes in the cache. */
export function seriesSize(result: SeriesResult): number {
  return result.kind === "points" ? 96 + result.points.length * 48 : 96 + result.message.length * 2;
}

export function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
