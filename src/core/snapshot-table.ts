/**
 * MD.SNAPSHOT's table: a comps grid of one value per (symbol, metric). Symbols
 * down and metrics across (`transpose` swaps them), a header row `Symbol`,
 * metric, metric… and the symbol in the first column; without headers, the
 * bare grid of values, to spill beside symbols and metrics already on the sheet.
 * With `dates`, each metric is followed by its values' dates (`TVL`, `TVL date`),
 * as MD.ASSET names a property's date.
 */
import type { CellValue } from "./cell";
import { type OptionSpec, type OptionValues } from "./options";
import { assertFitsExcel, assertShapeFitsExcel } from "./payload-size";

export const SNAPSHOT_OPTIONS = {
  headers: { kind: "boolean", default: true },
  transpose: { kind: "boolean", default: false },
  dates: { kind: "boolean", default: false },
} as const satisfies OptionSpec;

export type SnapshotOptions = OptionValues<typeof SNAPSHOT_OPTIONS>;

export const SYMBOL_HEADER = "Symbol";

export const SNAPSHOT_SIZE_ADVICE = "Use fewer symbols or metrics per formula.";

/** Refuses a grid that could never fit, before anything is fetched. */
export function assertSnapshotFits(symbols: number, metricCount: number, options: SnapshotOptions): void {
  const metrics = options.dates ? metricCount * 2 : metricCount;
  const extra = options.headers ? 1 : 0;
  if (options.transpose) assertShapeFitsExcel(metrics + extra, symbols + extra, SNAPSHOT_SIZE_ADVICE);
  else assertShapeFitsExcel(symbols + extra, metrics + extra, SNAPSHOT_SIZE_ADVICE);
}

/** `cells[s][m]`: the value of symbol s, metric m (a number, or an error cell). */
export function shapeSnapshotTable(
  symbols: readonly string[],
  metrics: readonly string[],
  cells: readonly (readonly CellValue[])[],
  options: SnapshotOptions,
): CellValue[][] {
  const rows: CellValue[][] = [];
  if (options.transpose) {
    if (options.headers) rows.push([SYMBOL_HEADER, ...symbols]);
    metrics.forEach((metric, m) =>
      rows.push([...(options.headers ? [metric] : []), ...symbols.map((_, s) => cells[s][m])]),
    );
  } else {
    if (options.headers) rows.push([SYMBOL_HEADER, ...metrics]);
    symbols.forEach((symbol, s) => rows.push([...(options.headers ? [symbol] : []), ...cells[s]]));
  }
  assertFitsExcel(rows, SNAPSHOT_SIZE_ADVICE);
  return rows;
}

/** The header of the column (a row, transposed) that holds a metric's dates. */
export function snapshotDateHeader(metric: string): string {
  return `${metric} date`;
}

/** The table's metric headers: each metric, and with `dates` its date column after it. */
export function snapshotColumns(metrics: readonly string[], options: SnapshotOptions): string[] {
  return options.dates ? metrics.flatMap((metric) => [metric, snapshotDateHeader(metric)]) : [...metrics];
}

/**
 * `values[s][m]` and `dates[s][m]` (a date cell, or the pair's error cell) as
 * the cells shapeSnapshotTable takes, in the order of snapshotColumns.
 */
export function snapshotCells(
  values: readonly (readonly CellValue[])[],
  dates: readonly (readonly CellValue[])[],
  options: SnapshotOptions,
): CellValue[][] {
  return values.map((row, s) => (options.dates ? row.flatMap((value, m) => [value, dates[s][m]]) : [...row]));
}

/** Which (symbol, metric) a cell of the shaped table holds, and whether it is the pair's date; null for a header. */
export function snapshotPairAt(
  options: SnapshotOptions,
  row: number,
  column: number,
): { symbol: number; metric: number; date: boolean } | null {
  const offset = options.headers ? 1 : 0;
  const r = row - offset;
  const c = column - offset;
  if (r < 0 || c < 0) return null;
  const [symbol, across] = options.transpose ? [c, r] : [r, c];
  return options.dates
    ? { symbol, metric: Math.floor(across / 2), date: across % 2 === 1 }
    : { symbol, metric: across, date: false };
}
