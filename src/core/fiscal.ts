/**
 * Fiscal period labels (`FY2025 Q4`) for financials, which the service dates
 * on each company's fiscal period end. The metric catalog gives the label of
 * the latest reported quarter (`latest_fiscal_period`); the series gives that
 * quarter's end date. Every other reported quarter is counted from that pair:
 * quarter ends about 91 days apart (a 52/53-week calendar moves them a few
 * days, never a month), so the nearest whole number of quarters between two
 * period ends is the number of fiscal quarters between them.
 */
import { daysBetween } from "./calendar";

export interface FiscalPeriod {
  year: number;
  quarter: number;
}

/** "FY2025 Q4" (also "FY2025Q4", "fy 2025 q4", "Q4 FY2025"); null for anything else. */
export function parseFiscalPeriod(text: string | null | undefined): FiscalPeriod | null {
  if (!text) return null;
  const normal = text.trim().toUpperCase();
  const match = /^FY\s*(\d{4})\s*Q([1-4])$/.exec(normal) ?? /^Q([1-4])\s*FY\s*(\d{4})$/.exec(normal);
  if (!match) return null;
  return normal.startsWith("Q")
    ? { year: Number(match[2]), quarter: Number(match[1]) }
    : { year: Number(match[1]), quarter: Number(match[2]) };
}

export function fiscalLabel(period: FiscalPeriod): string {
  return `FY${period.year} Q${period.quarter}`;
}

/** `n` fiscal quarters later (earlier when negative). */
export function shiftQuarters(period: FiscalPeriod, n: number): FiscalPeriod {
  const index = period.year * 4 + (period.quarter - 1) + n;
  return { year: Math.floor(index / 4), quarter: (index % 4) + 1 };
}

const DAYS_PER_QUARTER = 365.2425 / 4;

/** The label of the quarter ending on `date`, given one quarter end whose label is known. */
export function fiscalPeriodOn(date: string, anchor: { date: string; period: FiscalPeriod }): FiscalPeriod {
  return shiftQuarters(anchor.period, Math.round(daysBetween(anchor.date, date) / DAYS_PER_QUARTER));
}
