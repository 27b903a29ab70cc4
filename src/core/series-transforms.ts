/**
 * MD.SERIES's transforms: each column turned into its period-over-period
 * change, difference, index rebased to 100, running total or change on a year
 * earlier, then optionally a rolling average or sum of N rows. Applied per
 * column, on the rows of the table as asked (the granularity's periods;
 * weekdays only with days=weekdays; a date a series lacks filled first with
 * fill=prev, left out otherwise), in this order:
 *
 *   readings at the granularity → days=weekdays → fill=prev → transform →
 *   rolling → the window cut back to `start` → last=N → order / transpose
 *
 * The history a transform needs before the window's first row (the previous
 * row, the date a year earlier, N−1 rows) is fetched with the window
 * (`historyStart`) and cut away after the computation, so the first row holds
 * a value rather than a blank. `rebase` and `cumsum` start from the window's
 * first row: they need no history. A row whose computation lacks what it needs
 * (no earlier value, a division by zero) is blank.
 */
import { addDays, addMonths, shiftDate } from "./calendar";
import type { Granularity } from "./domain";
import { ArgumentError } from "./errors";
import { periodEndOf, periodStartOf } from "./periods";

export const TRANSFORMS = ["none", "pct", "diff", "rebase", "cumsum", "yoy"] as const;
export type Transform = (typeof TRANSFORMS)[number];
export type RollingStat = "avg" | "sum";

/** Rows a rolling window may span: a year and more of days, far beyond any useful window. */
export const MAX_ROLLING = 10_000;

export const TRANSFORM_OPTIONS = {
  transform: { kind: "choice", values: TRANSFORMS, default: "none" },
  rolling: { kind: "count", max: MAX_ROLLING, default: null },
  rolling_stat: { kind: "choice", values: ["avg", "sum"], default: "avg" },
} as const;

export interface TransformOptions {
  transform: Transform;
  rolling: number | null;
  rolling_stat: RollingStat;
}

/** True when the options change the values (not only their layout). */
export function transforms(options: TransformOptions): boolean {
  return options.transform !== "none" || options.rolling !== null;
}

/** `rolling_stat` without `rolling` is a mistake worth naming, not a silent no-op. */
export function assertTransformOptions(options: TransformOptions, given: (key: string) => boolean): void {
  if (options.rolling === null && given("rolling_stat"))
    throw new ArgumentError("options", `rolling_stat=${options.rolling_stat} needs rolling=N (the rows to roll over).`);
}

/** Percentages (fractions shown as %): pct, yoy, and a rolling statistic of them. */
export function isPercentTransform(options: TransformOptions): boolean {
  return options.transform === "pct" || options.transform === "yoy";
}

/** What a header says was applied: `eth PRICE (yoy %)`, `eth FEES (pct %, rolling 7 avg)`. */
export function transformNote(options: TransformOptions): string {
  const parts: string[] = [];
  if (options.transform === "pct" || options.transform === "yoy") parts.push(`${options.transform} %`);
  else if (options.transform === "rebase") parts.push("rebased to 100");
  else if (options.transform !== "none") parts.push(options.transform);
  if (options.rolling !== null) parts.push(`rolling ${options.rolling} ${options.rolling_stat}`);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

function shiftPeriods(iso: string, granularity: Granularity, count: number): string {
  switch (granularity) {
    case "DAY":
      return addDays(iso, count);
    case "WEEK":
      return addDays(iso, 7 * count);
    case "MONTH":
      return addMonths(iso, count);
    case "QUARTER":
      return addMonths(iso, 3 * count);
    case "YEAR":
      return addMonths(iso, 12 * count);
  }
}

/**
 * The start to fetch from so the window's first row has the history its
 * transform needs: the first row's period start, moved back by the rows
 * needed with room for the rows a column lacks (weekends and holidays of an
 * equity at DAY, a fiscal quarter dated off the calendar's). `start` itself
 * when nothing is needed.
 */
export function historyStart(start: string, granularity: Granularity, options: TransformOptions): string {
  if (!transforms(options)) return start;
  let from = periodStartOf(start, granularity);
  const slack = granularity === "DAY" ? 7 : 1;
  if (options.transform === "pct" || options.transform === "diff") from = shiftPeriods(from, granularity, -1 - slack);
  if (options.transform === "yoy") from = shiftPeriods(shiftDate(from, -1, "Y"), granularity, -slack);
  if (options.rolling !== null && options.rolling > 1) {
    // N−1 earlier rows; at DAY an equity has five rows a week, so 7/5 as many days.
    const rows = options.rolling - 1;
    const periods = granularity === "DAY" ? Math.ceil((rows * 7) / 5) : rows;
    from = shiftPeriods(from, granularity, -periods - slack);
  }
  return from;
}

/** Whether a row dated `date` belongs to the window starting `start`: its period ends on or after it. */
export function inWindow(date: string, start: string, granularity: Granularity): boolean {
  return periodEndOf(date, granularity) >= start;
}

/**
 * One column's transformed values. `values[i]` is the column on the table's
 * row dated `dates[i]` (NaN: no value); `first` is the index of the window's
 * first row (rows before it are history). Returns a new array, NaN where a
 * row has no value.
 */
export function transformColumn(
  values: Float64Array,
  dates: readonly string[],
  first: number,
  options: TransformOptions,
): Float64Array {
  const changed = changeOf(values, dates, first, options.transform);
  return options.rolling === null ? changed : rollingOf(changed, options.rolling, options.rolling_stat);
}

function changeOf(values: Float64Array, dates: readonly string[], first: number, transform: Transform): Float64Array {
  if (transform === "none") return values;
  const out = new Float64Array(values.length).fill(NaN);
  let previous = NaN;
  let base = NaN;
  let total = 0;
  // yoy: the last row dated on or before a year earlier, and the last value up to it.
  let behind = -1;
  let earlier = NaN;
  // rebase: the window's first value (NaN when the column has none there: blank).
  if (transform === "rebase") for (let i = first; i < values.length && base !== base; i++) base = values[i];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value !== value) continue;
    switch (transform) {
      case "pct":
        out[i] = previous === previous && previous !== 0 ? value / previous - 1 : NaN;
        break;
      case "diff":
        out[i] = previous === previous ? value - previous : NaN;
        break;
      case "rebase":
        // History rows too, on the same base, so a rolling statistic of the index has its first rows.
        out[i] = base !== 0 ? (value / base) * 100 : NaN;
        break;
      case "cumsum":
        if (i >= first) out[i] = total += value;
        break;
      case "yoy": {
        // The dates a year earlier ascend with the rows: one pointer walks them (O(rows), not O(rows × year)).
        const target = shiftDate(dates[i], -1, "Y");
        while (behind + 1 < i && dates[behind + 1] <= target) {
          behind++;
          if (values[behind] === values[behind]) earlier = values[behind];
        }
        const before = behind >= 0 && dates[behind] <= target ? earlier : NaN;
        out[i] = before === before && before !== 0 ? value / before - 1 : NaN;
        break;
      }
    }
    previous = value;
  }
  return out;
}

/** The average or sum of the last `count` values of the column (rows without a value skipped); NaN until there are `count`. */
function rollingOf(values: Float64Array, count: number, stat: RollingStat): Float64Array {
  const out = new Float64Array(values.length).fill(NaN);
  const ring = new Float64Array(count);
  let seen = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value !== value) continue;
    const slot = seen % count;
    if (seen >= count) sum -= ring[slot];
    ring[slot] = value;
    sum += value;
    seen++;
    if (seen >= count) out[i] = stat === "avg" ? sum / count : sum;
  }
  return out;
}
