/**
 * Rows at WEEK, MONTH, QUARTER and YEAR, as the service gives them and as the
 * user asks for them. The service rolls daily readings up by the metric's
 * aggregation type (SUM adds the days, LAST keeps the last reading, AVERAGE
 * averages them) over the days of each period that fall inside the window, and
 * dates each row on its period's first day (Monday for weeks, the 1st for
 * months, quarters and years). Fiscal financials are the exception: one row per
 * reported quarter, dated on the company's fiscal period end.
 *
 * A window that starts after its first period's first day, or ends before its
 * last period's last day, makes those periods partial: they hold fewer days
 * than the others. They are kept and marked (option partial=keep, the
 * default), or dropped (partial=drop). Option period=end dates each row on its
 * period's last day instead.
 */
import type { DataPoint, Granularity } from "./domain";
import { addDays, addMonths, dayOfWeek, startOfMonth, startOfQuarter, startOfYear } from "./calendar";

export type PeriodDating = "start" | "end";
export type PartialPeriods = "keep" | "drop";

/** The first day of the period holding `iso`: weeks run Monday to Sunday. */
export function periodStartOf(iso: string, granularity: Granularity): string {
  switch (granularity) {
    case "DAY":
      return iso;
    case "WEEK":
      return addDays(iso, -((dayOfWeek(iso) + 6) % 7));
    case "MONTH":
      return startOfMonth(iso);
    case "QUARTER":
      return startOfQuarter(iso);
    case "YEAR":
      return startOfYear(iso);
  }
}

/** The last day of the period holding `iso`. */
export function periodEndOf(iso: string, granularity: Granularity): string {
  switch (granularity) {
    case "DAY":
      return iso;
    case "WEEK":
      return addDays(periodStartOf(iso, "WEEK"), 6);
    case "MONTH":
      return addDays(addMonths(startOfMonth(iso), 1), -1);
    case "QUARTER":
      return addDays(addMonths(startOfQuarter(iso), 3), -1);
    case "YEAR":
      return addDays(addMonths(startOfYear(iso), 12), -1);
  }
}

/** The labels (period first days) of a window's incomplete first and last periods; null where complete or unknown. */
export interface PartialLabels {
  first: string | null;
  last: string | null;
}

/**
 * `start` omitted (the whole history): whether the first period is complete
 * is not known, so it is not called partial. `end` is the window's last day
 * with data: the requested end, or today when that is earlier.
 */
export function partialLabels(start: string | undefined, end: string, granularity: Granularity): PartialLabels {
  if (granularity === "DAY") return { first: null, last: null };
  const firstStart = start === undefined ? null : periodStartOf(start, granularity);
  return {
    first: firstStart !== null && firstStart !== start ? firstStart : null,
    last: periodEndOf(end, granularity) !== end ? periodStartOf(end, granularity) : null,
  };
}

/**
 * One calendar-aggregated series (dated on period starts, as the service
 * sends it) dated and trimmed as asked. Not for fiscal financials.
 */
export function reshapePeriods(
  points: readonly DataPoint[],
  granularity: Granularity,
  period: PeriodDating,
  partial: PartialPeriods,
  labels: PartialLabels,
): readonly DataPoint[] {
  if (granularity === "DAY" || (period === "start" && partial === "keep")) return points;
  const kept =
    partial === "drop" ? points.filter((point) => point.date !== labels.first && point.date !== labels.last) : points;
  return period === "end"
    ? kept.map((point) => ({ date: periodEndOf(point.date, granularity), val: point.val }))
    : kept;
}

/** The date a partial period's row carries once dated as asked. */
export function datedLabel(label: string, granularity: Granularity, period: PeriodDating): string {
  return period === "end" ? periodEndOf(label, granularity) : label;
}

/** " (first period partial)", " (last period partial)", " (first and last periods partial)", or "". */
export function partialNote(first: boolean, last: boolean): string {
  if (first && last) return " (first and last periods partial)";
  if (first) return " (first period partial)";
  if (last) return " (last period partial)";
  return "";
}
