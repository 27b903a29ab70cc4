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
import { ArgumentError, NoDataError } from "../core/errors";
import { isoToSerialIn } from "../core/excel-date";
import { DATE_FORMAT, type FormattedTable, numberFormatFor, PLAIN, type ValueKind } from "../core/number-format";
import { parseOptions } from "../core/options";
import {
  assertSnapshotFits,
  shapeSnapshotTable,
  snapshotCells,
  snapshotColumns,
  SNAPSHOT_OPTIONS,
  snapshotPairAt,
} from "../core/snapshot-table";
import type { CallContext } from "./call-context";
import { LISTS } from "./did-you-mean";
import { isPairFailure as isRefusedPair } from "./fetch-series";
import { type DatedReading, latestReading, parseAsOfGiven } from "./latest";
import { valueKind } from "./metric-units";
import { descriptorForProperties, provenanceOf } from "./provenance";

export interface SnapshotArgs {
  symbols: unknown;
  metrics: unknown;
  asOf?: unknown;
  options?: unknown;
}

/**
 * Failures that belong to one pair (no data, a refused symbol or metric, a
 * name the catalogs do not know, a prefix the metric refuses); anything else
 * fails the formula. The formula's own arguments are parsed before any pair.
 */
function isPairFailure(error: unknown): boolean {
  return error instanceof NoDataError || error instanceof ArgumentError || isRefusedPair(error);
}

export async function snapshotTable(ctx: CallContext, args: SnapshotArgs): Promise<CellValue[][]> {
  return (await formattedSnapshotTable(ctx, args)).rows;
}

export async function formattedSnapshotTable(ctx: CallContext, args: SnapshotArgs): Promise<FormattedTable> {
  const symbols = parseSymbols(args.symbols);
  const metrics = parseMetrics(args.metrics);
  const asOf = parseAsOfGiven(args.asOf, ctx.today, ctx.dateSystem);
  const options = parseOptions(args.options, SNAPSHOT_OPTIONS);
  assertSnapshotFits(symbols.length, metrics.length, options);

  // Every pair at once: the client coalesces them into as few requests as MD.LATEST cells would.
  const pending = symbols.map((symbol) => metrics.map((metric) => latestReading(ctx, symbol, metric, asOf, LISTS)));
  const units: Promise<ValueKind[][]> = Promise.all(
    symbols.map((symbol) =>
      Promise.all(metrics.map((metric) => valueKind(ctx, symbol, parsePrefixedMetric(metric)?.base ?? metric))),
    ),
  );
  const [settled, unit, described] = await Promise.all([
    Promise.all(pending.map((row) => Promise.allSettled(row))),
    // A unit that cannot be read leaves the numbers plain; the values decide the outcome.
    units.catch(() => symbols.map(() => metrics.map(() => PLAIN))),
    ctx.cellProperties
      ? Promise.all(symbols.map((symbol) => Promise.all(metrics.map((m) => descriptorForProperties(ctx, symbol, m)))))
      : undefined,
  ]);
  const fatal = settled.flat().find((outcome) => outcome.status === "rejected" && !isPairFailure(outcome.reason));
  if (fatal?.status === "rejected") throw fatal.reason;

  const failed = (outcome: PromiseRejectedResult, s: number, m: number): CellValue =>
    outcome.reason instanceof ArgumentError
      ? errorCell("#VALUE!", outcome.reason.message)
      : errorCell("#N/A", pairMessage(symbols[s], metrics[m], outcome.reason));
  const values: CellValue[][] = settled.map((row, s) =>
    row.map((outcome, m) =>
      outcome.status === "fulfilled"
        ? numberCell(outcome.value.val, `${symbols[s]} ${metrics[m]}`)
        : failed(outcome, s, m),
    ),
  );
  const dateSystem = ctx.dateSystem ?? 1900;
  const dates: CellValue[][] = settled.map((row, s) =>
    row.map((outcome, m) =>
      outcome.status === "fulfilled" ? isoToSerialIn(outcome.value.date, dateSystem) : failed(outcome, s, m),
    ),
  );
  const rows = shapeSnapshotTable(
    symbols,
    snapshotColumns(metrics, options),
    snapshotCells(values, dates, options),
    options,
  );
  const table: FormattedTable = {
    rows,
    formatAt: (row, column, value) => {
      const pair = snapshotPairAt(options, row, column);
      if (!pair) return null;
      return pair.date ? DATE_FORMAT : numberFormatFor(unit[pair.symbol][pair.metric], value);
    },
    note: datesNote(settled.flat()),
  };
  if (ctx.cellProperties) {
    // Worked out now, from what answered the pairs: the answer log moves on.
    const provenance = settled.map((row, s) =>
      row.map((outcome, m) =>
        outcome.status === "fulfilled"
          ? provenanceOf(ctx, symbols[s], metrics[m], outcome.value, described?.[s]?.[m])
          : undefined,
      ),
    );
    table.provenanceAt = (row, column) => {
      const pair = snapshotPairAt(options, row, column);
      return pair && !pair.date ? provenance[pair.symbol]?.[pair.metric] : undefined;
    };
  }
  return table;
}

/** "Values dated 2026-11-22", or "dated 2026-11-20 to 2026-11-22" when the pairs' dates differ; undefined when none has a value. */
function datesNote(outcomes: readonly PromiseSettledResult<DatedReading>[]): string | undefined {
  let first: string | undefined;
  let last: string | undefined;
  for (const outcome of outcomes) {
    if (outcome.status !== "fulfilled") continue;
    const date = outcome.value.date;
    if (first === undefined || date < first) first = date;
    if (last === undefined || date > last) last = date;
  }
  if (first === undefined || last === undefined) return undefined;
  return first === last ? `Values dated ${last}` : `Values dated ${first} to ${last}`;
}

/** The reason a pair is empty, naming the pair unless the message already does. */
function pairMessage(symbol: string, metric: string, reason: unknown): string {
  const message = reason instanceof Error ? reason.message : String(reason);
  return message.startsWith(`${symbol} `) ? message : `${symbol} ${metric}: ${message}`;
}
