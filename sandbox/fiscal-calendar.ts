/**
 * Fiscal quarter ends per company, with the fiscal year and quarter each one
 * closes. The list reaches back before the sandbox's data start so that
 * trailing-twelve-month figures exist from the first day of data.
 */
import type { Company } from "./companies";
import { lastWeekdayOfMonth, monthEnd } from "./dates";

export interface FiscalQuarter {
  end: number; // day number of the period end
  /** Stable index for seeding values: (calendar year − 2000) × 4 + position of the month in the rule. */
  index: number;
  fiscalYear: number;
  fiscalQuarter: number; // 1..4
}

const FIRST_YEAR = 2015;
const LAST_YEAR = 2100;
const cache = new Map<string, FiscalQuarter[]>();

export function fiscalQuarters(company: Company): readonly FiscalQuarter[] {
  const cached = cache.get(company.ticker);
  if (cached) return cached;
  const months = [...company.fiscal.months].sort((a, b) => a - b);
  const yearEndSlot = months.indexOf(company.fiscalYearEndMonth);
  if (yearEndSlot < 0) throw new Error(`${company.ticker}: fiscal year end month is not a quarter end month`);
  const quarters: FiscalQuarter[] = [];
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) {
    months.forEach((month, slot) => {
      const end =
        company.fiscal.kind === "month-end"
          ? monthEnd(year, month)
          : lastWeekdayOfMonth(year, month, company.fiscal.weekday);
      quarters.push({
        end,
        index: (year - 2000) * 4 + slot,
        // A quarter after the year-end month belongs to the fiscal year that ends next calendar year.
        fiscalYear: slot <= yearEndSlot ? year : year + 1,
        fiscalQuarter: ((((slot - yearEndSlot - 1) % 4) + 4) % 4) + 1,
      });
    });
  }
  cache.set(company.ticker, quarters);
  return quarters;
}

/** Index of the last quarter ending on or before `day`, or −1. */
export function lastQuarterAtOrBefore(quarters: readonly FiscalQuarter[], day: number): number {
  let lo = 0;
  let hi = quarters.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (quarters[mid].end <= day) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** "FY2024 Q1" */
export function fiscalLabel(quarter: FiscalQuarter): string {
  return `FY${quarter.fiscalYear} Q${quarter.fiscalQuarter}`;
}
