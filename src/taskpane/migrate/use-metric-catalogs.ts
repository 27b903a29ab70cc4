/**
 * The metric catalogs the Artemis view checks metrics against: those of the
 * symbols its convertible formulas name, one request per symbol (the client
 * keeps each for an hour), so a metric the service does not know
 * (`ART("ETH","FEEZ")`) is listed under "Cannot convert" with "Did you mean
 * FEES?" rather than converted into a formula that can only fail.
 */
import { useMemo } from "react";
import {
  convertArtemisFormula,
  metricCatalogResolver,
  type MetricCatalog,
  type MetricResolver,
  type SymbolResolver,
} from "../../core/artemis";
import type { MetricDescriptor } from "../../core/domain";
import { suggestMetrics } from "../../core/suggest";
import type { WorkbookFormula } from "../../office/workbook/formula-migration";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";
import { useBoundedWait, type WaitState } from "../shared/use-bounded-wait";

type Entry = { descriptors: readonly MetricDescriptor[] } | { error: string };
type Catalogs = ReadonlyMap<string, Entry>;

const NONE_ASKED: Catalogs = new Map();

/** The symbols whose metrics the conversions of `found` would check, in order. */
function symbolsToCheck(found: readonly WorkbookFormula[], resolve: SymbolResolver): string[] {
  const wanted = new Set<string>();
  const record: MetricResolver = (symbols) => {
    for (const symbol of symbols) wanted.add(symbol);
    return { known: true };
  };
  for (const { formula } of found) convertArtemisFormula(formula, resolve, record);
  return [...wanted];
}

/** Each symbol's catalog, or why it could not be read: one failure does not hide the others. */
async function readCatalogs(
  symbols: readonly string[],
  read: (symbol: string) => Promise<MetricDescriptor[]>,
): Promise<Catalogs> {
  const entries = await Promise.all(
    symbols.map((symbol) =>
      read(symbol).then(
        (descriptors): [string, Entry] => [symbol, { descriptors }],
        (error: unknown): [string, Entry] => [symbol, { error: errorText(error) }],
      ),
    ),
  );
  return new Map(entries);
}

/** `resolveMetric`: null while the catalogs are being read. */
export function useMetricCatalogs(
  found: readonly WorkbookFormula[] | null,
  resolve: SymbolResolver | null,
): { resolveMetric: MetricResolver | null; catalogs: WaitState<Catalogs> & { cancel(): void } } {
  const { client } = useServices();
  const symbols = useMemo(() => (found && resolve ? symbolsToCheck(found, resolve) : null), [found, resolve]);
  const key = symbols?.join(",") ?? null;
  const catalogs = useBoundedWait<Catalogs>(
    symbols && symbols.length > 0 ? (call) => readCatalogs(symbols, (symbol) => client.getMetrics(symbol, call)) : null,
    [key, client],
  );
  // A wait that ended without them (no answer in time, cancelled): every symbol's metrics unchecked, for that reason.
  const failed = catalogs.status === "error" ? catalogs.message : null;
  const data = catalogs.status === "ready" ? catalogs.data : null;
  const read = useMemo<Catalogs | null>(() => {
    if (symbols?.length === 0) return NONE_ASKED;
    if (data) return data;
    if (failed !== null && symbols) return new Map(symbols.map((symbol) => [symbol, { error: failed }]));
    return null;
  }, [symbols, data, failed]);
  const resolveMetric = useMemo<MetricResolver | null>(() => {
    if (!read) return null;
    const catalogOf = (symbol: string): MetricCatalog | undefined => {
      const entry = read.get(symbol);
      if (!entry) return undefined;
      return "error" in entry ? entry : { names: entry.descriptors.map((d) => d.name) };
    };
    const suggest = (metric: string, symbol: string) => {
      const entry = read.get(symbol);
      return entry && "descriptors" in entry ? suggestMetrics(metric, entry.descriptors) : [];
    };
    return metricCatalogResolver(catalogOf, suggest);
  }, [read]);
  return { resolveMetric, catalogs };
}
