/**
 * What a prefixed metric (`L30_FEES`, `L30_DAU`) computes over its window: its
 * base metric's `aggregation_type` from the metric catalog (core/agg-window.ts
 * prefixAggregation). The catalog is the one that formats the cell
 * (metric-units.ts: the kind's shared catalog, one request for every cell of
 * the kind, or the symbol's own), so a prefixed cell costs no catalog request
 * its number format does not already make; the built-in list of documented
 * metrics answers when no catalog describes the base.
 */
import { type PrefixAggregation, prefixAggregation, type PrefixedMetric } from "../core/agg-window";
import { knownAggregationType } from "../core/metric-knowledge";
import type { CallContext } from "./call-context";
import { metricDescriptor } from "./metric-units";

export function prefixAggregationFor(
  ctx: CallContext,
  symbol: string,
  metric: string,
  prefixed: PrefixedMetric,
  argument: string,
): Promise<PrefixAggregation> {
  return metricDescriptor(ctx, symbol, prefixed.base).then((descriptor) =>
    prefixAggregation(prefixed, descriptor?.aggregation_type || knownAggregationType(prefixed.base), {
      symbol,
      metric,
      argument,
    }),
  );
}
