/** MD.SUPPLY: a stablecoin's supply buckets per date. */
import type { SeriesResult } from "../core/domain";
import { parseDateWindow, parseGranularity, parseSymbol } from "../core/arguments";
import type { CellValue } from "../core/cell";
import { isoToSerialIn } from "../core/excel-date";
import { DATE_FORMAT, type FormattedTable, numberFormatFor, PARTIAL_DATE_FORMAT } from "../core/number-format";
import { partialLabels, partialNote } from "../core/periods";
import { SUPPLY_PARTS, type SupplyPart, shapeSupplyTable } from "../core/supply-table";
import type { CallContext } from "./call-context";
import { diagnosePair, SINGLE } from "./did-you-mean";
import { fetchSeries, fetchSeriesColumns, type WindowedRequest } from "./fetch-series";
import { valueKind } from "./metric-units";
import { describeWindow } from "./window-text";

/** The legacy name of circulating supply (identical values), asked for only when the preferred name is refused. */
const LEGACY_CIRCULATING = "STABLECOIN_SUPPLY";

export interface SupplyArgs {
  symbol: unknown;
  start?: unknown;
  end?: unknown;
  granularity?: unknown;
}

export async function supplyTable(ctx: CallContext, args: SupplyArgs): Promise<CellValue[][]> {
  return (await formattedSupplyTable(ctx, args)).rows;
}

/** Dates in the first column; every bucket in the unit the catalog gives total supply. */
export async function formattedSupplyTable(ctx: CallContext, args: SupplyArgs): Promise<FormattedTable> {
  const symbol = parseSymbol(args.symbol);
  const window = parseDateWindow(args.start, args.end, ctx.today, ctx.dateSystem);
  const granularity = parseGranularity(
    args.granularity,
    SUPPLY_PARTS.map((part) => part.metric),
  );
  const request = (metric: string): WindowedRequest => ({
    symbol,
    metric,
    granularity,
    ...(window.start ? { start: window.start } : {}),
    ...(window.end ? { end: window.end } : {}),
  });
  const [results, kind] = await Promise.all([
    fetchSeriesColumns(
      ctx,
      SUPPLY_PARTS.map((part) => request(part.metric)),
    ),
    valueKind(ctx, symbol, SUPPLY_PARTS[0].metric),
  ]);
  if (results.every((result) => result.kind === "message")) {
    // Nothing at all: a symbol the asset catalog does not know says what was meant.
    const diagnosis = await diagnosePair(ctx, symbol, SUPPLY_PARTS[0].metric, SINGLE);
    if (diagnosis?.kind === "unknown" && diagnosis.error.argument === "symbol") throw diagnosis.error;
  }
  const series = Object.fromEntries(SUPPLY_PARTS.map((part, i) => [part.key, results[i]])) as Record<
    SupplyPart,
    SeriesResult
  >;
  if (series.circulating.kind === "message") {
    const legacy = await fetchSeries(ctx, request(LEGACY_CIRCULATING)).catch(() => undefined);
    if (legacy?.kind === "points") series.circulating = legacy;
  }
  const rows = shapeSupplyTable(symbol, series, describeWindow(window), ctx.dateSystem);
  // Rows as the service dates them (period starts); incomplete first and last periods are marked, as in MD.SERIES.
  const labels = partialLabels(
    window.start,
    window.end && window.end < ctx.today ? window.end : ctx.today,
    granularity,
  );
  const serial = (iso: string) => isoToSerialIn(iso, ctx.dateSystem ?? 1900);
  const dates = new Set(rows.slice(1).map((row) => row[0]));
  const partial = [labels.first, labels.last].flatMap((label) =>
    label !== null && dates.has(serial(label)) ? [serial(label)] : [],
  );
  const note = partialNote(
    labels.first !== null && partial.includes(serial(labels.first)),
    labels.last !== null && partial.includes(serial(labels.last)),
  );
  if (note) rows[0][0] = `${rows[0][0] as string}${note}`;
  return {
    rows,
    formatAt: (_row, column, value) =>
      column === 0 ? (partial.includes(value) ? PARTIAL_DATE_FORMAT : DATE_FORMAT) : numberFormatFor(kind, value),
  };
}
