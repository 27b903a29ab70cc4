/**
 * Calendar arithmetic for the sandbox on integer day numbers (days since
 * 1970-01-01, UTC). The sandbox stands in for a remote service, so it keeps its
 * own date code rather than sharing the client's: a bug shared by both sides
 * would make client tests against the sandbox pass for the wrong reason.
 */

export type Granularity = "DAY" | "WEEK" | "MONTH" | "QUARTER" | "YEAR";
export const GRANULARITIES: readonly Granularity[] = ["DAY", "WEEK", "MONTH", "QUARTER", "YEAR"];

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Day number of a real `YYYY-MM-DD` date, or null (bad shape, 2023-02-30, …). */
export function parseIsoDay(text: string): number | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return ms / MS_PER_DAY;
}

const isoCache = new Map<number, string>();

/** `YYYY-MM-DD` of a day number; memoised, as every data point of every response needs one. */
export function isoOfDay(day: number): string {
  let iso = isoCache.get(day);
  if (iso === undefined) {
    iso = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    if (isoCache.size < 100_000) isoCache.set(day, iso);
  }
  return iso;
}

export function dayOf(year: number, month: number, dayOfMonth: number): number {
  return Date.UTC(year, month - 1, dayOfMonth) / MS_PER_DAY;
}

export function dayOfDate(date: Date): number {
  return Math.floor(date.getTime() / MS_PER_DAY);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01, day 0, was a Thursday). */
export function weekdayOf(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** Monday to Friday: the sandbox's trading calendar has no exchange holidays. */
export function isTradingDay(day: number): boolean {
  const weekday = weekdayOf(day);
  return weekday !== 0 && weekday !== 6;
}

export function yearMonthOf(day: number): { year: number; month: number } {
  const date = new Date(day * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

/** Last calendar day of a month, as a day number. */
export function monthEnd(year: number, month: number): number {
  return dayOf(year, month + 1, 1) - 1;
}

/** The last given weekday (0 = Sunday) of a month, e.g. the last Saturday of September. */
export function lastWeekdayOfMonth(year: number, month: number, weekday: number): number {
  const end = monthEnd(year, month);
  return end - ((weekdayOf(end) - weekday + 7) % 7);
}

/** First day of the period containing `day`. Weeks run Monday to Sunday (ISO). */
export function periodStart(day: number, granularity: Granularity): number {
  if (granularity === "DAY") return day;
  if (granularity === "WEEK") return day - ((weekdayOf(day) + 6) % 7);
  const { year, month } = yearMonthOf(day);
  if (granularity === "MONTH") return dayOf(year, month, 1);
  if (granularity === "QUARTER") return dayOf(year, month - ((month - 1) % 3), 1);
  return dayOf(year, 1, 1);
}

/** Last day of the period containing `day`. */
export function periodEnd(day: number, granularity: Granularity): number {
  if (granularity === "DAY") return day;
  if (granularity === "WEEK") return periodStart(day, "WEEK") + 6;
  const { year, month } = yearMonthOf(day);
  if (granularity === "MONTH") return monthEnd(year, month);
  if (granularity === "QUARTER") return monthEnd(year, month - ((month - 1) % 3) + 2);
  return dayOf(year, 12, 31);
}

/** 2018-01-01: the first day the sandbox has data for. */
export const DATA_START_DAY = dayOf(2018, 1, 1);
