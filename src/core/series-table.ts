/**
 * MD.SERIES's table: a date column, then one column per symbol × metric
 * (symbols outer, metrics inner), one row per date any series has.
 *
 * This runs on every recalculation of possibly large requests (50 symbols × 5
 * metrics × 1,000 dates), so it avoids per-cell map lookups: the series come
 * sorted by date, the union of dates is built by merging, and each column is
 * laid into the rows by walking its points and the union side by side.
 */
import type { DataPoint, Granularity, SeriesResult } from "./domain";
import { DAYS_PER_PERIOD, daysBetween, isWeekend } from "./calendar";
import { BLANK, type CellValue, errorCell } from "./cell";
import { NoDataError } from "./errors";
import { type DateSystem, isoToSerialIn } from "./excel-date";
import { type OptionSpec, type OptionValues, parseOptions } from "./options";
import { assertFitsExcel, assertShapeFitsExcel } from "./payload-size";
import { inWindow, TRANSFORM_OPTIONS, transformColumn, transforms } from "./series-transforms";

export const SERIES_OPTIONS = {
  headers: { kind: "boolean", default: true },
  dates: { kind: "boolean", default: true },
  order: { kind: "choice", values: ["asc", "desc"], default: "asc" },
  fill: { kind: "choice", values: ["blank", "prev", "na"], default: "blank" },
  days: { kind: "choice", values: ["all", "weekdays"], default: "all" },
  last: { kind: "count", max: 1_000_000, default: null },
  transpose: { kind: "boolean", default: false },
  period: { kind: "choice", values: ["start", "end"], default: "start" },
  partial: { kind: "choice", values: ["keep", "drop"], default: "keep" },
  fiscal: { kind: "boolean", default: false },
  ...TRANSFORM_OPTIONS,
} as const satisfies OptionSpec;

export type SeriesTableOptions = OptionValues<typeof SERIES_OPTIONS>;

export function defaultSeriesOptions(): SeriesTableOptions {
  return parseOptions(null, SERIES_OPTIONS);
}

export interface SeriesColumn {
  header: string;
  result: SeriesResult;
  /** The symbol or metric is not one the service knows: its cells are #VALUE! with this message. */
  unknown?: string;
}

export const DATE_HEADER = "Date";

/**
 * Column header for one series: the symbol as the service spells it, then the
 * metric (`eth PRICE`, `eq-aapl TOTAL_REVENUE`), so each part can be copied
 * back into a formula unchanged.
 */
export function seriesHeader(symbol: string, metric: string): string {
  return `${symbol} ${metric}`;
}

/** About how many rows a window holds at a granularity (rounded up): for refusing oversize requests early. */
export function expectedRows(start: string, end: string, granularity: Granularity): number {
  return Math.max(0, Math.ceil((daysBetween(start, end) + 1) / DAYS_PER_PERIOD[granularity]));
}

export const SERIES_SIZE_ADVICE =
  "Use a coarser granularity (WEEK or MONTH), a shorter window, fewer symbols or metrics, or the option last=N.";

/** A text column placed after the date column (fiscal period labels): its value on each date, blank elsewhere. */
export interface LabelColumn {
  header: string;
  byDate: ReadonlyMap<string, CellValue>;
}

/** The window's first day and the rows' granularity: rows before it are history a transform needed, cut once computed. */
export interface WindowCut {
  start: string;
  granularity: Granularity;
}

/**
 * `window` describes the request for the no-data message, e.g. "from
 * 2024-01-01 to 2024-03-31". Throws NoDataError when no row would be left.
 * Transforms (options transform, rolling) run in the order
 * series-transforms.ts describes, on the rows left after days=weekdays and
 * with fill=prev applied, before `cut` and last=N.
 */

export function shapeSeriesTable(
  columns: readonly SeriesColumn[],
  options: SeriesTableOptions,
  window = "",
  dateSystem: DateSystem = 1900,
  labels: readonly LabelColumn[] = [],
  cut?: WindowCut,
): CellValue[][] {
  const series = columns.map((column) => (column.result.kind === "points" ? inDateOrder(column.result.points) : null));
  const dates = unionDates(series.filter((points) => points !== null));

  // The table's rows (weekdays only when asked); those before `cut` are history for the transforms, cut after them.
  const rows: number[] = [];
  for (let i = 0; i < dates.length; i++) if (options.days === "all" || !isWeekend(dates[i])) rows.push(i);
  const first = cut ? firstInWindow(rows, dates, cut) : 0;
  let kept = rows.slice(first);
  if (options.last !== null && kept.length > options.last) kept = kept.slice(kept.length - options.last);
  if (kept.length === 0) throw new NoDataError(noDataMessage(columns, dates.length > 0 && rows.length === 0, window));

  const width = (options.dates ? 1 : 0) + labels.length + columns.length;
  const height = kept.length + (options.headers ? 1 : 0);
  if (options.transpose) assertShapeFitsExcel(width, height, SERIES_SIZE_ADVICE);
  else assertShapeFitsExcel(height, width, SERIES_SIZE_ADVICE);

  // Two passes keep memory access sequential: first each series is laid along the union of
  // dates in its own Float64Array (NaN = no reading; JSON numbers are never NaN), walking its
  // points and the dates side by side; then rows are read across those arrays.
  const carry = options.fill === "prev";
  const aligned = series.map((points) => (points === null ? null : alignToDates(points, dates, carry)));
  const values = transforms(options)
    ? aligned.map((column) => (column === null ? null : transformed(column, dates, rows, first, options)))
    : aligned;
  const missing: CellValue[] = columns.map((column) =>
    column.unknown !== undefined
      ? errorCell("#VALUE!", column.unknown)
      : column.result.kind === "message"
        ? errorCell("#N/A", `${column.header}: ${column.result.message}`)
        : options.fill === "na"
          ? errorCell("#N/A", `${column.header} has no value on this date.`)
          : BLANK,
  );

  if (options.order === "desc") kept.reverse();
  const cellAt = (c: number, d: number): CellValue => {
    const value = values[c]?.[d] ?? NaN;
    return value === value ? value : missing[c];
  };
  const headers = columns.map((column) => column.header);
  const table: CellValue[][] = [];
  if (options.transpose) {
    // One row per series: reading each series' array front to back.
    if (options.dates)
      table.push([...(options.headers ? [DATE_HEADER] : []), ...kept.map((d) => dateCell(dates[d], dateSystem))]);
    for (const label of labels)
      table.push([...(options.headers ? [label.header] : []), ...kept.map((d) => label.byDate.get(dates[d]) ?? BLANK)]);
    columns.forEach((_, c) => table.push([...(options.headers ? [headers[c]] : []), ...kept.map((d) => cellAt(c, d))]));
  } else {
    const labelHeaders = labels.map((label) => label.header);
    if (options.headers)
      table.push(options.dates ? [DATE_HEADER, ...labelHeaders, ...headers] : [...labelHeaders, ...headers]);
    for (const d of kept) {
      const row: CellValue[] = options.dates ? [dateCell(dates[d], dateSystem)] : [];
      for (const label of labels) row.push(label.byDate.get(dates[d]) ?? BLANK);
      for (let c = 0; c < columns.length; c++) row.push(cellAt(c, d));
      table.push(row);
    }
  }
  assertFitsExcel(table, SERIES_SIZE_ADVICE);
  return table;
}

/** The index, into `rows`, of the first row inside the window (rows.length when none is). */
function firstInWindow(rows: readonly number[], dates: readonly string[], cut: WindowCut): number {
  let r = 0;
  while (r < rows.length && !inWindow(dates[rows[r]], cut.start, cut.granularity)) r++;
  return r;
}

/** A column transformed over the table's rows (`rows`: indices into `dates`; `first`: the window's first of them). */
function transformed(
  column: Float64Array,
  dates: readonly string[],
  rows: readonly number[],
  first: number,
  options: SeriesTableOptions,
): Float64Array {
  const values = Float64Array.from(rows, (d) => column[d]);
  const result = transformColumn(
    values,
    rows.map((d) => dates[d]),
    first,
    options,
  );
  const out = new Float64Array(column.length).fill(NaN);
  rows.forEach((d, r) => (out[d] = result[r]));
  return out;
}

/** A date as a serial of the workbook's date system; one it cannot hold (before 1900 or 1904) stays text, as in MD.INSIGHTS, rather than failing the table. */
function dateCell(iso: string, system: DateSystem): CellValue {
  try {
    return isoToSerialIn(iso, system);
  } catch {
    return iso;
  }
}

/**
 * A series' values at each of `dates` (a superset of its dates, both
 * ascending); NaN where it has none. A null reading is a date without a value,
 * like a date the series lacks: blank, or the previous value with fill=prev.
 */
function alignToDates(points: readonly DataPoint[], dates: readonly string[], carry: boolean): Float64Array {
  const aligned = new Float64Array(dates.length).fill(NaN);
  let p = 0;
  let last = NaN;
  for (let d = 0; d < dates.length; d++) {
    const val = p < points.length && points[p].date === dates[d] ? points[p++].val : null;
    if (val !== null) last = aligned[d] = val;
    else if (carry) aligned[d] = last;
  }
  return aligned;
}

/** The service sends ascending dates; anything else is sorted, keeping the last reading of a repeated date. */
export function inDateOrder(points: readonly DataPoint[]): readonly DataPoint[] {
  let ordered = true;
  for (let i = 1; i < points.length && ordered; i++) ordered = points[i - 1].date < points[i].date;
  if (ordered) return points;
  const sorted = points
    .map((point, index) => ({ point, index }))
    .sort((a, b) => (a.point.date < b.point.date ? -1 : a.point.date > b.point.date ? 1 : a.index - b.index))
    .map((entry) => entry.point);
  return sorted.filter((point, i) => i === sorted.length - 1 || sorted[i + 1].date !== point.date);
}

/** Every date any of the series has, ascending. */
export function unionDates(series: readonly (readonly DataPoint[])[]): string[] {
  let dates: string[] = [];
  for (const points of series) dates = mergeDates(dates, points);
  return dates;
}

/** Sorted union of `dates` and the points' dates. Series usually share their dates, so the common case is one pass. */
function mergeDates(dates: readonly string[], points: readonly DataPoint[]): string[] {
  if (dates.length === points.length && points.every((point, i) => point.date === dates[i])) return dates as string[];
  const merged: string[] = [];
  let i = 0;
  let j = 0;
  while (i < dates.length || j < points.length) {
    if (j >= points.length || (i < dates.length && dates[i] < points[j].date)) merged.push(dates[i++]);
    else if (i >= dates.length || points[j].date < dates[i]) merged.push(points[j++].date);
    else {
      merged.push(dates[i++]);
      j++;
    }
  }
  return merged;
}

function noDataMessage(columns: readonly SeriesColumn[], hadWeekendsOnly: boolean, window: string): string {
  const where = window ? ` ${window}` : "";
  const messages = columns.flatMap((c) => (c.result.kind === "message" ? [`${c.header}: ${c.result.message}`] : []));
  if (messages.length === columns.length) return messages.join(" ");
  const names = columns.map((c) => c.header).join(", ");
  const base = hadWeekendsOnly ? `No weekday data for ${names}${where}.` : `No data for ${names}${where}.`;
  return messages.length > 0 ? `${base} ${messages.join(" ")}` : base;
}
