/**
 * The sandbox's listed companies. Figures are rough orders of magnitude that
 * make the synthetic series look plausible; they are not the companies' data.
 *
 * Fiscal calendars differ on purpose, because clients must not assume calendar
 * quarters: some companies close quarters on the last Saturday or Sunday of a
 * month (dates move between the 22nd and the 31st), some on month ends that
 * are not calendar quarter ends, and some on calendar quarter ends.
 */

export type FiscalRule =
  /** Quarters end on the last day of the listed months. */
  | { kind: "month-end"; months: readonly number[] }
  /** Quarters end on the last `weekday` (0 = Sunday, 6 = Saturday) of the listed months. */
  | { kind: "last-weekday"; weekday: number; months: readonly number[] };

export interface Company {
  ticker: string; // lowercase; the catalog symbol is `eq-<ticker>`
  platformId: string;
  title: string;
  fiscal: FiscalRule;
  /** The quarter-end month that closes the fiscal year. */
  fiscalYearEndMonth: number;
  price: number; // typical share price in 2018, USD
  sharesMillions: number;
  quarterlyRevenueMillions: number; // around 2018
  revenueGrowth: number; // per year, log scale
  netMargin: number;
  marginSwing: number; // how far margins wander quarter to quarter
  netDebtShare: number; // net debt as a share of market cap (negative: net cash)
}

const CALENDAR = { kind: "month-end", months: [3, 6, 9, 12] } as const;

export const COMPANIES: readonly Company[] = [
  { ticker: "coin", platformId: "coinbase", title: "Coinbase Global", fiscal: CALENDAR, fiscalYearEndMonth: 12, price: 180, sharesMillions: 250, quarterlyRevenueMillions: 700, revenueGrowth: 0.25, netMargin: 0.12, marginSwing: 0.25, netDebtShare: -0.05 },
  { ticker: "hood", platformId: "robinhood", title: "Robinhood Markets", fiscal: CALENDAR, fiscalYearEndMonth: 12, price: 20, sharesMillions: 880, quarterlyRevenueMillions: 250, revenueGrowth: 0.3, netMargin: -0.05, marginSwing: 0.2, netDebtShare: -0.2 },
  { ticker: "mstr", platformId: "strategy", title: "Strategy (MicroStrategy)", fiscal: CALENDAR, fiscalYearEndMonth: 12, price: 150, sharesMillions: 180, quarterlyRevenueMillions: 125, revenueGrowth: 0.01, netMargin: -0.1, marginSwing: 0.6, netDebtShare: 0.15 },
  { ticker: "msft", platformId: "microsoft", title: "Microsoft", fiscal: CALENDAR, fiscalYearEndMonth: 6, price: 100, sharesMillions: 7500, quarterlyRevenueMillions: 28000, revenueGrowth: 0.13, netMargin: 0.33, marginSwing: 0.03, netDebtShare: -0.02 },
  { ticker: "tsla", platformId: "tesla", title: "Tesla", fiscal: CALENDAR, fiscalYearEndMonth: 12, price: 22, sharesMillions: 3200, quarterlyRevenueMillions: 5000, revenueGrowth: 0.3, netMargin: 0.06, marginSwing: 0.06, netDebtShare: -0.02 },
  { ticker: "pypl", platformId: "paypal", title: "PayPal Holdings", fiscal: CALENDAR, fiscalYearEndMonth: 12, price: 80, sharesMillions: 1100, quarterlyRevenueMillions: 4000, revenueGrowth: 0.1, netMargin: 0.14, marginSwing: 0.03, netDebtShare: 0.02 },
  { ticker: "jpm", platformId: "jpmorgan", title: "JPMorgan Chase", fiscal: CALENDAR, fiscalYearEndMonth: 12, price: 110, sharesMillions: 2900, quarterlyRevenueMillions: 27000, revenueGrowth: 0.06, netMargin: 0.3, marginSwing: 0.04, netDebtShare: 0.1 },
  { ticker: "aapl", platformId: "apple", title: "Apple", fiscal: { kind: "last-weekday", weekday: 6, months: [3, 6, 9, 12] }, fiscalYearEndMonth: 9, price: 150, sharesMillions: 15500, quarterlyRevenueMillions: 62000, revenueGrowth: 0.08, netMargin: 0.24, marginSwing: 0.02, netDebtShare: -0.03 },
  { ticker: "intc", platformId: "intel", title: "Intel", fiscal: { kind: "last-weekday", weekday: 6, months: [3, 6, 9, 12] }, fiscalYearEndMonth: 12, price: 45, sharesMillions: 4300, quarterlyRevenueMillions: 17000, revenueGrowth: -0.02, netMargin: 0.15, marginSwing: 0.12, netDebtShare: 0.1 },
  { ticker: "nvda", platformId: "nvidia", title: "NVIDIA", fiscal: { kind: "last-weekday", weekday: 0, months: [1, 4, 7, 10] }, fiscalYearEndMonth: 1, price: 6, sharesMillions: 24500, quarterlyRevenueMillions: 3000, revenueGrowth: 0.45, netMargin: 0.3, marginSwing: 0.08, netDebtShare: -0.01 },
  { ticker: "csco", platformId: "cisco", title: "Cisco Systems", fiscal: { kind: "last-weekday", weekday: 6, months: [1, 4, 7, 10] }, fiscalYearEndMonth: 7, price: 45, sharesMillions: 4100, quarterlyRevenueMillions: 12500, revenueGrowth: 0.02, netMargin: 0.22, marginSwing: 0.03, netDebtShare: -0.05 },
  { ticker: "wmt", platformId: "walmart", title: "Walmart", fiscal: { kind: "month-end", months: [1, 4, 7, 10] }, fiscalYearEndMonth: 1, price: 30, sharesMillions: 8100, quarterlyRevenueMillions: 125000, revenueGrowth: 0.05, netMargin: 0.025, marginSwing: 0.01, netDebtShare: 0.08 },
  { ticker: "orcl", platformId: "oracle", title: "Oracle", fiscal: { kind: "month-end", months: [2, 5, 8, 11] }, fiscalYearEndMonth: 5, price: 48, sharesMillions: 2800, quarterlyRevenueMillions: 9500, revenueGrowth: 0.07, netMargin: 0.22, marginSwing: 0.04, netDebtShare: 0.2 },
];

/** A fiscal calendar is "calendar-aligned" when its quarters end on Mar 31, Jun 30, Sep 30 and Dec 31. */
export function isCalendarAligned(company: Company): boolean {
  return company.fiscal.kind === "month-end" && company.fiscal.months.join() === "3,6,9,12";
}
