/**
 * A metric's aggregation type, for the cheap recheck of stored days
 * (store/coarse-recheck.ts): the built-in list first (core/metric-knowledge.ts,
 * no request), then the metric catalog of the first symbol rechecked with
 * the metric, once per metric for the client's life (a metric's type is the
 * metric's, not the symbol's): a workbook's recheck costs one catalog
 * request per metric the list does not know, not one per symbol. A catalog
 * that cannot be read is asked again by the next symbol.
 */
import type { MetricDescriptor } from "../core/domain";
import { knownAggregationType } from "../core/metric-knowledge";
import type { CallOptions } from "./types";

export type MetricCatalog = (symbol: string, opts: CallOptions) => Promise<MetricDescriptor[]>;

export function aggregationTypes(
  catalog: MetricCatalog,
): (symbol: string, metric: string, opts: CallOptions) => Promise<string | undefined> {
  /** Aggregation types the metric catalog gave, by metric. */
  const types = new Map<string, Promise<string | undefined>>();
  return (symbol, metric, opts) => {
    const known = knownAggregationType(metric);
    if (known) return Promise.resolve(known);
    let asked = types.get(metric);
    if (!asked) {
      asked = catalog(symbol, opts).then(
        (descriptors) => descriptors.find((descriptor) => descriptor.name === metric)?.aggregation_type || undefined,
      );
      types.set(metric, asked);
      asked.catch(() => {
        if (types.get(metric) === asked) types.delete(metric);
      });
    }
    return asked;
  };
}
