/**
 * Calendar arithmetic on ISO `YYYY-MM-DD` dates. Everything runs on UTC
 * midnights so that no time zone or daylight-saving shift can move a date by a
 * day; the only local-time read is `localToday`, which asks for the calendar
 * date the user sees (what Excel's TODAY() shows).
 */

import type { Granularity } from "./domain";

const MS_PER_DAY = 86_400_000;

/** Average length of a period of each granularity, in days: for estimates, never for dates. */
export const DAYS_PER_PERIOD: Readonly<Record<Granularity, number>> = {
  DAY: 1,
  WEEK: 7,
  MONTH: 30.44,
  QUARTER: 91.31,
  YEAR: 365.25,
};
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 for a real calendar date, or null (bad shape, 2024-02-30, …). */
export function epochDayOf(iso: string): number | null {
  let day = EPOCH_DAY_OF.get(iso);
  if (day === undefined) {
    const ymd = calendarParts(iso);
    if (ymd < 0) return null;
    day = civilDays(Math.floor(ymd / 10_000), Math.floor(ymd / 100) % 100, ymd % 100);
    if (EPOCH_DAY_OF.size >= DATES_HELD) EPOCH_DAY_OF.clear();
    EPOCH_DAY_OF.set(iso, day);
  }
  return day;
}

/**
 * Dates and epoch days converted lately, both ways: a workbook's cells ask for
 * the same few hundred dates over and over (today, each as-of date, the day
 * after it). Bounded: past this many, each memory starts afresh.
 */
const DATES_HELD = 8192;
const EPOCH_DAY_OF = new Map<string, number>();
const ISO_OF_DAY = new Map<number, string>();

/** A digit's value at `i` of `text`, or -1 for anything else. */
function digitAt(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/**
 * `YYYY-MM-DD` naming a real calendar day as the number YYYYMMDD, or -1: the
 * shape and day checks of every date the client reads (each point of each
 * answer), by character codes rather than a regular expression and a Date.
 */
function calendarParts(text: string): number {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return -1;
  const y0 = digitAt(text, 0);
  const y1 = digitAt(text, 1);
  const y2 = digitAt(text, 2);
  const y3 = digitAt(text, 3);
  const m0 = digitAt(text, 5);
  const m1 = digitAt(text, 6);
  const d0 = digitAt(text, 8);
  const d1 = digitAt(text, 9);
  if ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1) < 0) return -1;
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
  const month = m0 * 10 + m1;
  const day = d0 * 10 + d1;
  return isCalendarDay(year, month, day) ? year * 10_000 + month * 100 + day : -1;
}

/**
 * The epoch day of a real calendar day of the proleptic Gregorian calendar
 * (what Date counts), by arithmetic: days before the year's March 1st in
 * 400-year eras, then the day of that March-based year.
 */
function civilDays(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Days since 1970-01-01 of a date that must be real: a RangeError otherwise. */
export function toEpochDay(iso: string): number {
  const epochDay = epochDayOf(iso);
  if (epochDay === null) throw new RangeError(`"${iso}" is not a YYYY-MM-DD date`);
  return epochDay;
}

/**
 * `YYYY-MM-DD` naming a real calendar day (no 2024-02-30). Plain arithmetic,
 * no Date: the client checks every point of every series with it.
 */
export function isIsoDate(text: string): boolean {
  // A date converted lately is real (epochDayOf holds real days only): every cell checks the same few dates.
  return EPOCH_DAY_OF.has(text) || calendarParts(text) >= 0;
}

/** Only the shape `YYYY-MM-DD` (digits and dashes), real day or not: for messages that tell the two apart. */
export function hasIsoDateShape(text: string): boolean {
  return ISO_DATE.test(text);
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * The epoch day of a year, month (1–12) and day; a month or day out of range
 * rolls over into the next or previous month, as Date does.
 */
export function epochDayOfParts(year: number, month: number, day: number): number {
  if (year >= 0 && year <= 9999 && Number.isInteger(year) && Number.isInteger(day) && isCalendarDay(year, month, day))
    return civilDays(year, month, day);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  return new Date(0).setUTCFullYear(year, month - 1, day) / MS_PER_DAY;
}

/** Year, month (1–12) and day of month of an epoch day. */
export function partsOfEpochDay(epochDay: number): { year: number; month: number; day: number } {
  const date = new Date(epochDay * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** The date of `YYYY-MM-DD` or of an ISO timestamp (`2024-05-01T00:00:00Z`), or null. */
export function calendarDateOf(text: string): string | null {
  if (text.length !== 10 && !/^\d{4}-\d{2}-\d{2}[T ]/.test(text)) return null;
  const date = text.slice(0, 10);
  return isIsoDate(date) ? date : null;
}

/** Epoch days of 0000-01-01 and 9999-12-31: the years written with four digits. */
const FIRST_FOUR_DIGIT_DAY = -719_528;
const LAST_FOUR_DIGIT_DAY = 2_932_896;

export function isoOfEpochDay(day: number): string {
  if (!Number.isInteger(day) || day < FIRST_FOUR_DIGIT_DAY || day > LAST_FOUR_DIGIT_DAY)
    return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
  let iso = ISO_OF_DAY.get(day);
  if (iso === undefined) {
    iso = isoOfFourDigitYearDay(day);
    if (ISO_OF_DAY.size >= DATES_HELD) ISO_OF_DAY.clear();
    ISO_OF_DAY.set(day, iso);
  }
  return iso;
}

function isoOfFourDigitYearDay(day: number): string {
  // The inverse of civilDays: the era, the day and year in it (years starting on March 1st), then the month.
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const d = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yearOfEra + era * 400 + (m <= 2 ? 1 : 0);
  return `${y < 1000 ? String(y).padStart(4, "0") : y}-${m < 10 ? "0" : ""}${m}-${d < 10 ? "0" : ""}${d}`;
}

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_LENGTHS[month - 1];
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The calendar date, in UTC, of an instant given in milliseconds since the epoch. */
export function utcDateOf(ms: number): string {
  return isoOfEpochDay(Math.floor(ms / MS_PER_DAY));
}

function parts(iso: string): { year: number; month: number; day: number } {
  return partsOfEpochDay(toEpochDay(iso));
}

function compose(year: number, month: number, day: number): string {
  return isoOfEpochDay(epochDayOfParts(year, month, day));
}

export function addDays(iso: string, days: number): string {
  return isoOfEpochDay(toEpochDay(iso) + days);
}

/** Calendar months; a day past the target month's end clamps to its last day (2024-03-31 − 1M = 2024-02-29). */
export function addMonths(iso: string, months: number): string {
  const { year, month, day } = parts(iso);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12 + 1;
  return compose(targetYear, targetMonth, Math.min(day, daysInMonth(targetYear, targetMonth)));
}

export type DateUnit = "D" | "W" | "M" | "Q" | "Y";

/** Moves a date by `count` days, weeks, months, quarters or years (months clamp to the month's end). */
export function shiftDate(iso: string, count: number, unit: DateUnit): string {
  switch (unit) {
    case "D":
      return addDays(iso, count);
    case "W":
      return addDays(iso, count * 7);
    case "M":
      return addMonths(iso, count);
    case "Q":
      return addMonths(iso, count * 3);
    case "Y":
      return addMonths(iso, count * 12);
  }
}

/**
 * The first day of `count` periods ending on `end`, both ends included: 30 days
 * ending 2024-06-30 start 2024-06-01. Months, quarters and years ending on a
 * month's last day are whole calendar months (two quarters ending 2024-06-30
 * start 2024-01-01, a month ending 2024-04-30 starts 2024-04-01); ending
 * mid-month they start the day after the same date that many months back (a
 * month ending 2024-05-10 starts 2024-04-11). Every relative start (`-30D` in
 * MD.SERIES, the `30D` window of MD.AGG) covers these days.
 */
export function spanStart(end: string, count: number, unit: DateUnit): string {
  if (unit === "D" || unit === "W") return addDays(shiftDate(end, -count, unit), 1);
  const months = count * (unit === "M" ? 1 : unit === "Q" ? 3 : 12);
  const { year, month, day } = parts(end);
  if (day === daysInMonth(year, month)) return startOfMonth(addMonths(startOfMonth(end), 1 - months));
  return addDays(addMonths(end, -months), 1);
}

export function startOfMonth(iso: string): string {
  const { year, month } = parts(iso);
  return compose(year, month, 1);
}

export function startOfQuarter(iso: string): string {
  const { year, month } = parts(iso);
  return compose(year, month - ((month - 1) % 3), 1);
}

export function startOfYear(iso: string): string {
  return compose(parts(iso).year, 1, 1);
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(iso: string): number {
  // 1970-01-01 was a Thursday.
  return (((toEpochDay(iso) + 4) % 7) + 7) % 7;
}

export function isWeekend(iso: string): boolean {
  const weekday = dayOfWeek(iso);
  return weekday === 0 || weekday === 6;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = epochDayOf(from);
  const b = epochDayOf(to);
  if (a === null || b === null) throw new RangeError(`"${a === null ? from : to}" is not a YYYY-MM-DD date`);
  return b - a;
}

/** The calendar date on the user's clock, as Excel's TODAY() would show it. */
export function localToday(now: Date = new Date()): string {
  return compose(now.getFullYear(), now.getMonth() + 1, now.getDate());
}
