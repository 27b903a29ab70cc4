/**
 * The formulas the pane writes into a cell, as text (quoting and omitted
 * arguments are core/formula's). The functions parse and check their
 * arguments when Excel calls them; here only the pane's choices are encoded.
 */
import type { Granularity } from "../../core/domain";
import { buildFormula } from "../../core/formula";

export type SeriesOrder = "asc" | "desc";

/**
 * The MD.SERIES options the pane offers for one symbol × metric (`fill` and
 * `days` only matter when several series share a date column, so they are
 * left to hand-written formulas). A value equal to the default is not written.
 */
export interface SeriesOptions {
  headers: boolean;
  order: SeriesOrder;
  /** Keep only the most recent N rows; null keeps all. */
  last: number | null;
}

export const DEFAULT_SERIES_OPTIONS: SeriesOptions = { headers: true, order: "asc", last: null };

/** `"headers=false; order=desc"`, or "" when every option is at its default. */
export function seriesOptionsText(options: SeriesOptions): string {
  const parts: string[] = [];
  if (options.headers !== DEFAULT_SERIES_OPTIONS.headers) parts.push(`headers=${options.headers}`);
  if (options.order !== DEFAULT_SERIES_OPTIONS.order) parts.push(`order=${options.order}`);
  if (options.last !== null) parts.push(`last=${options.last}`);
  return parts.join("; ");
}

export interface SeriesFormulaInput {
  symbol: string;
  metric: string;
  /** As the user typed it: YYYY-MM-DD, TODAY or -1Y style; empty → omitted. */
  start: string;
  end: string;
  /** Omitted when it is what the function would choose anyway. */
  granularity: Granularity | null;
  options: SeriesOptions;
}

export function seriesFormula(input: SeriesFormulaInput): string {
  const options = seriesOptionsText(input.options);
  return buildFormula("MD.SERIES", [
    input.symbol,
    input.metric,
    input.start.trim() || undefined,
    input.end.trim() || undefined,
    input.granularity ?? undefined,
    options || undefined,
  ]);
}

export function latestFormula(symbol: string, metric: string, asOf: string): string {
  return buildFormula("MD.LATEST", [symbol, metric, asOf.trim() || undefined]);
}
