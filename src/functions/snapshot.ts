/**
 * MD.SNAPSHOT: a comps table in one formula. Each cell is what MD.LATEST
 * returns for its (symbol, metric) on as_of, computed the same way and issued
 * together, so the shared client batches the whole grid exactly as it batches
 * a sheet of MD.LATEST cells: a 200 × 5 snapshot sends the requests 1,000
 * MD.LATEST cells would. A pair without data is an #N/A cell carrying the
 * reason, a symbol or metric the catalogs do not know a #VALUE! cell saying
 * what was meant; the other cells fill.
 */
import { parsePrefixedMetric } from "../core/agg-window";
import { parseMetrics, parseSymbols } from "../core/arguments";
import { type CellValue, errorCell, numberCell } from "../core/cell";
import { NoDataError, UnknownNameError } from "../core/errors";
import { type FormattedTable, numberFormatFor, PLAIN, type ValueKind } from "../core/number-format";
import { parseOptions } from "../core/options";
import { assertSnapshotFits, shapeSnapshotTable, SNAPSHOT_OPTIONS, snapshotPairAt } from "../core/snapshot-table";
import type { CallContext } from "./call-context";
import { LISTS } from "./did-you-mean";
import { isPairFailure as isRefusedPair } from "./fetch-series";
import { latestReading, parseAsOf } from "./latest";
import { valueKind } from "./metric-units";

export interface SnapshotArgs {
  symbols: unknown;
  metrics: unknown;
  asOf?: unknown;
  options?: unknown;
}

/** Failures that belong to one pair (no data, a refused symbol or metric); anything else fails the formula. */
function isPairFailure(error: unknown): boolean {
  return error instanceof NoDataError || error instanceof UnknownNameError || isRefusedPair(error);
}

export async function snapshotTable(ctx: CallContext, args: SnapshotArgs): Promise<CellValue[][]> {
  return (await formattedSnapshotTable(ctx, args)).rows;
}

export async function formattedSnapshotTable(ctx: CallContext, args: SnapshotArgs): Promise<FormattedTable> {
  const symbols = parseSymbols(args.symbols);
  const metrics = parseMetrics(args.metrics);
  const asOf = parseAsOf(args.asOf, ctx.today, ctx.dateSystem);
  const options = parseOptions(args.options, SNAPSHOT_OPTIONS);
  assertSnapshotFits(symbols.length, metrics.length, options);

  // Every pair at once: the client coalesces them into as few requests as MD.LATEST cells would.
  const pending = symbols.map((symbol) => metrics.map((metric) => latestReading(ctx, symbol, metric, asOf, LISTS)));
  const units: Promise<ValueKind[][]> = Promise.all(
    symbols.map((symbol) =>
      Promise.all(metrics.map((metric) => valueKind(ctx, symbol, parsePrefixedMetric(metric)?.base ?? metric))),
    ),
  );
  const [settled, unit] = await Promise.all([
    Promise.all(pending.map((row) => Promise.allSettled(row))),
    // A unit that cannot be read leaves the numbers plain; the values decide the outcome.
    units.catch(() => symbols.map(() => metrics.map(() => PLAIN))),
  ]);
  const fatal = settled.flat().find((outcome) => outcome.status === "rejected" && !isPairFailure(outcome.reason));
  if (fatal?.status === "rejected") throw fatal.reason;

  const cells: CellValue[][] = settled.map((row, s) =>
    row.map((outcome, m) =>
      outcome.status === "fulfilled"
        ? numberCell(outcome.value, `${symbols[s]} ${metrics[m]}`)
        : outcome.reason instanceof UnknownNameError
          ? errorCell("#VALUE!", outcome.reason.message)
          : errorCell("#N/A", pairMessage(symbols[s], metrics[m], outcome.reason)),
    ),
  );
  const rows = shapeSnapshotTable(symbols, metrics, cells, options);
  return {
    rows,
    formatAt: (row, column, value) => {
      const pair = snapshotPairAt(options, row, column);
      return pair ? numberFormatFor(unit[pair.symbol][pair.metric], value) : null;
    },
  };
}

/** The reason a pair is empty, naming the pair unless the message already does. */
function pairMessage(symbol: string, metric: string, reason: unknown): string {
  const message = reason instanceof Error ? reason.message : String(reason);
  return message.startsWith(`${symbol} `) ? message : `${symbol} ${metric}: ${message}`;
}
