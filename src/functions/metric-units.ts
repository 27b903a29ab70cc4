/**
 * The unit of a metric's values, for the number format its cells carry. The
 * metric catalog says it (unit, currency_type, description), but it answers
 * one symbol per request, and a comps sheet of 200 symbols must not cost 200
 * catalog requests. The service describes a metric by name the same way for
 * every asset of a kind, so a metric's unit is read from:
 * 1. the symbol's own catalog when the client already holds it (cached or in flight);
 * 2. otherwise the catalog of the first symbol of the same kind (equity or
 *    crypto) that was asked about, or whose catalog was found held, shared
 *    by every cell;
 * 3. otherwise the symbol's own catalog (a metric the first symbol lacks).
 * Only when the host shows formats (ctx.cellFormats); a failed lookup leaves the
 * number plain and never fails the cell.
 */
import { isMarketDataError } from "../api";
import type { MarketDataClient } from "../api";
import type { MetricDescriptor } from "../core/domain";
import { PLAIN, type ValueKind, valueKindOf } from "../core/number-format";
import type { CallContext } from "./call-context";

type Kind = "equity" | "crypto";

/** Per client: the symbol whose catalog stands for each kind. */
const representatives = new WeakMap<MarketDataClient, Map<Kind, string>>();

function kindOf(symbol: string): Kind {
  return symbol.startsWith("eq-") ? "equity" : "crypto";
}

/**
 * A catalog's descriptors by name, made once per catalog: the client hands
 * every cell the same catalog it holds, and a workbook's cells ask it for the
 * same few metrics thousands of times. (The first of a name, as a search in
 * order finds it.)
 */
const byName = new WeakMap<readonly MetricDescriptor[], Map<string, MetricDescriptor>>();

function describes(catalog: readonly MetricDescriptor[] | undefined, metric: string): MetricDescriptor | undefined {
  if (!catalog) return undefined;
  let names = byName.get(catalog);
  if (!names) {
    names = new Map();
    for (const descriptor of catalog) if (!names.has(descriptor.name)) names.set(descriptor.name, descriptor);
    byName.set(catalog, names);
  }
  return names.get(metric);
}

/** What each descriptor says its values are, read once per descriptor (a catalog's descriptors are never changed). */
const kinds = new WeakMap<MetricDescriptor, ValueKind>();

export function kindOfDescriptor(descriptor: MetricDescriptor | undefined): ValueKind {
  if (!descriptor) return valueKindOf(undefined);
  let kind = kinds.get(descriptor);
  if (kind === undefined) kinds.set(descriptor, (kind = valueKindOf(descriptor)));
  return kind;
}

export async function catalogOf(
  ctx: CallContext,
  symbol: string,
  cacheOnly: boolean,
): Promise<MetricDescriptor[] | undefined> {
  try {
    return await ctx.client.getMetrics(symbol, { ...ctx.call, cacheOnly: cacheOnly || ctx.call.cacheOnly });
  } catch (error) {
    if (isMarketDataError(error) && error.kind === "cancelled") throw error;
    return undefined;
  }
}

type Shared = { catalog: MetricDescriptor[] | undefined; own: boolean };

/** Per client: the look-ups of sharedCatalog under way, by symbol (and preview or not); dropped once settled. */
const underWay = new WeakMap<MarketDataClient, Map<string, Promise<Shared>>>();

/**
 * The catalog that stands for `symbol`'s: its own when the client holds it,
 * otherwise that of the first symbol of its kind asked about (shared by every
 * cell). `own` tells which it is. Cells asking about the same symbol while a
 * look-up is under way share it (a recalculation asks about each symbol once
 * per metric and date): one look-up, the same answer.
 */
export function sharedCatalog(ctx: CallContext, symbol: string): Promise<Shared> {
  let byKey = underWay.get(ctx.client);
  if (!byKey) underWay.set(ctx.client, (byKey = new Map()));
  const key = `${ctx.call.cacheOnly ? "preview" : "cell"} ${symbol}`;
  const current = byKey.get(key);
  if (current) {
    // A promise chain, not an await: every cell of a symbol after the first joins here.
    return current.catch((error: unknown) => {
      // The cell that started it was cancelled; this one was not: it looks for itself.
      if (ctx.call.signal?.aborted || !(isMarketDataError(error) && error.kind === "cancelled")) throw error;
      return lookUpShared(ctx, symbol);
    });
  }
  const started = lookUpShared(ctx, symbol);
  byKey.set(key, started);
  const forget = () => {
    if (byKey.get(key) === started) byKey.delete(key);
  };
  started.then(forget, forget);
  return started;
}

async function lookUpShared(ctx: CallContext, symbol: string): Promise<Shared> {
  const cached = await catalogOf(ctx, symbol, true);
  const kind = kindOf(symbol);
  let reps = representatives.get(ctx.client);
  if (!reps) representatives.set(ctx.client, (reps = new Map()));
  if (cached) {
    // A catalog already held (a reopened workbook's, from the store) stands for its kind: no request for another.
    if (!reps.has(kind)) reps.set(kind, symbol);
    return { catalog: cached, own: true };
  }
  const rep = reps.get(kind) ?? symbol;
  if (!reps.has(kind)) reps.set(kind, symbol);
  const catalog = await catalogOf(ctx, rep, false);
  if (catalog === undefined && reps.get(kind) === rep) reps.delete(kind); // a symbol the catalog refuses stands for nothing
  return { catalog, own: rep === symbol };
}

/** The descriptor of `metric` as the catalog gives it for `symbol` (or its stand-in); undefined when none can be had. */
export async function metricDescriptor(
  ctx: CallContext,
  symbol: string,
  metric: string,
): Promise<MetricDescriptor | undefined> {
  return (await describedMetric(ctx, symbol, metric)).descriptor;
}

/** metricDescriptor, and whether the catalog it came from is the symbol's own (`own`) or one standing in for it. */
export async function describedMetric(
  ctx: CallContext,
  symbol: string,
  metric: string,
): Promise<{ descriptor: MetricDescriptor | undefined; own: boolean }> {
  const { catalog, own } = await sharedCatalog(ctx, symbol);
  const shared = describes(catalog, metric);
  if (shared || own) return { descriptor: shared, own };
  return { descriptor: describes(await catalogOf(ctx, symbol, false), metric), own: true };
}

/** What `metric`'s values are, for formatting; PLAIN when formats are off or the catalog says nothing. */
export function valueKind(ctx: CallContext, symbol: string, metric: string): Promise<ValueKind> {
  if (!ctx.cellFormats) return Promise.resolve(PLAIN);
  return metricDescriptor(ctx, symbol, metric).then(kindOfDescriptor);
}
