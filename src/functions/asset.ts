/**
 * MD.ASSET: one asset as a card (src/core/asset-card.ts). Every property is
 * read by the code MD.LATEST and MD.AGG cells run (datedLatest, aggregate),
 * all issued in the same burst, so the shared client batches a column of
 * MD.ASSET cells exactly as it batches the MD.LATEST / MD.AGG cells of the
 * same pairs: one request per 50 symbols per (window, granularity) group. A
 * pair the service lacks is an absent property; the did-you-mean diagnosis
 * runs only when no property has a value (an unknown symbol, whether the
 * service says so or leaves it out of its answer), never per pair, and a card
 * without a single value is an error, never an empty card.
 */
import { parseAggWindow } from "../core/agg-window";
import { parseSymbol } from "../core/arguments";
import {
  type AssetCard,
  type AssetPropertySpec,
  assetPropertySpecs,
  buildAssetCard,
  noValue,
  nothingOffered,
  type PropertyOutcome,
  windowNote,
} from "../core/asset-card";
import { NoDataError } from "../core/errors";
import { numberFormatFor, PLAIN } from "../core/number-format";
import type { CallContext } from "./call-context";
import { diagnosePair, SINGLE } from "./did-you-mean";
import { aggregate } from "./agg";
import { isPairFailure } from "./fetch-series";
import { datedLatest, parseAsOfGiven } from "./latest";
import { valueKind } from "./metric-units";
import { descriptorForProperties, provenanceOf } from "./provenance";

export interface AssetArgs {
  symbol: unknown;
  asOf?: unknown;
}

export async function assetCard(ctx: CallContext, args: AssetArgs): Promise<AssetCard> {
  const symbol = parseSymbol(args.symbol);
  const given = parseAsOfGiven(args.asOf, ctx.today, ctx.dateSystem);
  const asOf = given ?? ctx.today;
  const specs = assetPropertySpecs(symbol);
  // The catalog (title, colour) and every property at once: one burst for the batcher.
  const [catalog, outcomes] = await Promise.all([
    ctx.client.getAssets(ctx.call).catch((error: unknown) => {
      if (isPairFailure(error)) return [];
      throw error;
    }),
    Promise.all(specs.map((spec) => readProperty(ctx, symbol, spec, given))),
  ]);
  const byName = new Map(specs.map((spec, i) => [spec.name, outcomes[i]]));
  if (noValue(byName)) {
    // As MD.LATEST: a symbol the asset catalog does not know is #VALUE! naming it and what was meant.
    const diagnosis = await diagnosePair(ctx, symbol, specs[0].read.metric, SINGLE);
    if (diagnosis?.kind === "unknown" && diagnosis.error.argument === SINGLE.symbol) throw diagnosis.error;
    const what = nothingOffered(byName) ? "none of the card's metrics" : "no value of the card's metrics";
    throw new NoDataError(`The service has ${what} for ${symbol} on or before ${asOf}.`);
  }
  const record = catalog.find((asset) => asset.symbol.toLowerCase() === symbol);
  return buildAssetCard(
    { symbol, title: record?.title || symbol, color: record?.color ?? "" },
    byName,
    asOf,
    ctx.dateSystem,
  );
}

/**
 * One property, read as its cell would be (as_of undefined when omitted: a
 * window then ends on the pair's latest data, core/window-span.ts): its failure for this pair (the
 * service's message, a refused pair, no reading) is an outcome, not the
 * card's; anything else (key, network, cancellation) fails the card.
 */
async function readProperty(
  ctx: CallContext,
  symbol: string,
  spec: AssetPropertySpec,
  asOf: string | undefined,
): Promise<PropertyOutcome> {
  const read = spec.read;
  const unit = valueKind(ctx, symbol, spec.unitMetric).catch(() => PLAIN);
  const described = descriptorForProperties(ctx, symbol, spec.unitMetric);
  try {
    if (read.kind === "latest") {
      const [reading, kind, descriptor] = await Promise.all([
        datedLatest(ctx, symbol, read.metric, asOf),
        unit,
        described,
      ]);
      const format = numberFormatFor(kind, reading.val);
      const provenance = provenanceOf(ctx, symbol, read.metric, reading, descriptor);
      return { kind: "value", value: reading.val, date: reading.date, format, ...(provenance ? { provenance } : {}) };
    }
    const [{ value, span, coverage }, kind, descriptor] = await Promise.all([
      aggregate(ctx, symbol, read.metric, parseAggWindow(read.window), read.stat, asOf),
      unit,
      described,
    ]);
    if (typeof value !== "number") return { kind: "no-value" };
    const note = windowNote(read.stat === "AVG" ? "daily average" : "sum", read.window, span, coverage);
    const provenance = provenanceOf(ctx, symbol, read.metric, { date: span.end, span, coverage }, descriptor);
    const format = numberFormatFor(kind, value);
    return { kind: "value", value, date: span.end, format, note, ...(provenance ? { provenance } : {}) };
  } catch (error) {
    if (error instanceof NoDataError && "serviceMessage" in error) return { kind: "not-offered" };
    if (isPairFailure(error)) return { kind: "not-offered" };
    if (error instanceof NoDataError) return { kind: "no-value" };
    throw error;
  }
}
