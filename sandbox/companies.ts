/**
 * The sandbox's listed companies. Figures are rough mid-2025 orders of
 * magnitude (share price, shares, quarterly revenue, margins) that make the
 * synthetic series look plausible; they are not the companies' data.
 *
 * Fiscal calendars follow the companies' real ones as closely as the two rules
 * below allow, because clients must not assume calendar quarters: Apple closes
 * on the last Saturday of September, Microsoft in June, Nvidia on the last
 * Sunday of January, Walmart and Salesforce on January 31, Oracle, Nike and
 * FedEx on May 31, and so on. Quarters end either on month ends (calendar
 * quarters or not) or on the last given weekday of a month (dates move between
 * the 22nd and the 31st).
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
  price: number; // typical share price around the anchor date (mid-2025), USD
  priceGrowth: number; // share price trend per year, log scale
  sharesMillions: number;
  quarterlyRevenueMillions: number; // around the anchor date
  revenueGrowth: number; // per year, log scale
  netMargin: number;
  marginSwing: number; // how far margins wander quarter to quarter
  netDebtShare: number; // net debt as a share of market cap (negative: net cash)
}

const CALENDAR = { kind: "month-end", months: [3, 6, 9, 12] } as const;
const JAN_APR_JUL_OCT = [1, 4, 7, 10];
const FEB_MAY_AUG_NOV = [2, 5, 8, 11];
const MAR_JUN_SEP_DEC = [3, 6, 9, 12];
const monthEnds = (months: readonly number[]): FiscalRule => ({ kind: "month-end", months });
const lastSaturday = (months: readonly number[]): FiscalRule => ({ kind: "last-weekday", weekday: 6, months });
const lastSunday = (months: readonly number[]): FiscalRule => ({ kind: "last-weekday", weekday: 0, months });

type Figures = Omit<Company, "ticker" | "platformId" | "title" | "fiscal" | "fiscalYearEndMonth">;
const company = (
  ticker: string,
  platformId: string,
  title: string,
  fiscal: FiscalRule,
  fiscalYearEndMonth: number,
  figures: Figures,
): Company => ({ ticker, platformId, title, fiscal, fiscalYearEndMonth, ...figures });

export const COMPANIES: readonly Company[] = [
  // Crypto exchanges, brokers, miners and treasuries
  company("coin", "coinbase", "Coinbase Global", CALENDAR, 12, {
    price: 250,
    priceGrowth: 0.15,
    sharesMillions: 254,
    quarterlyRevenueMillions: 1_700,
    revenueGrowth: 0.3,
    netMargin: 0.25,
    marginSwing: 0.25,
    netDebtShare: -0.05,
  }),
  company("hood", "robinhood", "Robinhood Markets", CALENDAR, 12, {
    price: 70,
    priceGrowth: 0.2,
    sharesMillions: 885,
    quarterlyRevenueMillions: 950,
    revenueGrowth: 0.3,
    netMargin: 0.3,
    marginSwing: 0.25,
    netDebtShare: -0.1,
  }),
  company("mstr", "strategy", "Strategy (MicroStrategy)", CALENDAR, 12, {
    price: 380,
    priceGrowth: 0.45,
    sharesMillions: 260,
    quarterlyRevenueMillions: 115,
    revenueGrowth: 0,
    netMargin: 0.1,
    marginSwing: 1.2,
    netDebtShare: 0.1,
  }),
  company("mara", "mara_holdings", "MARA Holdings", CALENDAR, 12, {
    price: 16,
    priceGrowth: 0.2,
    sharesMillions: 350,
    quarterlyRevenueMillions: 230,
    revenueGrowth: 0.45,
    netMargin: 0.1,
    marginSwing: 0.8,
    netDebtShare: 0.1,
  }),
  company("riot", "riot_platforms", "Riot Platforms", CALENDAR, 12, {
    price: 10,
    priceGrowth: 0.15,
    sharesMillions: 350,
    quarterlyRevenueMillions: 150,
    revenueGrowth: 0.4,
    netMargin: -0.1,
    marginSwing: 0.6,
    netDebtShare: -0.05,
  }),
  company("xyz", "block", "Block", CALENDAR, 12, {
    price: 65,
    priceGrowth: -0.02,
    sharesMillions: 615,
    quarterlyRevenueMillions: 6_000,
    revenueGrowth: 0.2,
    netMargin: 0.06,
    marginSwing: 0.05,
    netDebtShare: 0.02,
  }),
  // Payments, exchanges and banks
  company("pypl", "paypal", "PayPal Holdings", CALENDAR, 12, {
    price: 70,
    priceGrowth: -0.05,
    sharesMillions: 980,
    quarterlyRevenueMillions: 8_000,
    revenueGrowth: 0.08,
    netMargin: 0.14,
    marginSwing: 0.03,
    netDebtShare: 0.02,
  }),
  company("v", "visa", "Visa", monthEnds(MAR_JUN_SEP_DEC), 9, {
    price: 350,
    priceGrowth: 0.12,
    sharesMillions: 1_950,
    quarterlyRevenueMillions: 10_000,
    revenueGrowth: 0.1,
    netMargin: 0.52,
    marginSwing: 0.03,
    netDebtShare: 0.01,
  }),
  company("ma", "mastercard", "Mastercard", CALENDAR, 12, {
    price: 560,
    priceGrowth: 0.12,
    sharesMillions: 910,
    quarterlyRevenueMillions: 7_800,
    revenueGrowth: 0.11,
    netMargin: 0.45,
    marginSwing: 0.03,
    netDebtShare: 0.02,
  }),
  company("cme", "cme_group", "CME Group", CALENDAR, 12, {
    price: 270,
    priceGrowth: 0.06,
    sharesMillions: 360,
    quarterlyRevenueMillions: 1_600,
    revenueGrowth: 0.06,
    netMargin: 0.55,
    marginSwing: 0.03,
    netDebtShare: 0,
  }),
  company("jpm", "jpmorgan", "JPMorgan Chase", CALENDAR, 12, {
    price: 270,
    priceGrowth: 0.12,
    sharesMillions: 2_780,
    quarterlyRevenueMillions: 45_000,
    revenueGrowth: 0.07,
    netMargin: 0.32,
    marginSwing: 0.04,
    netDebtShare: 0.1,
  }),
  company("gs", "goldman_sachs", "Goldman Sachs", CALENDAR, 12, {
    price: 650,
    priceGrowth: 0.1,
    sharesMillions: 310,
    quarterlyRevenueMillions: 14_500,
    revenueGrowth: 0.06,
    netMargin: 0.27,
    marginSwing: 0.05,
    netDebtShare: 0.3,
  }),
  company("blk", "blackrock", "BlackRock", CALENDAR, 12, {
    price: 1_000,
    priceGrowth: 0.1,
    sharesMillions: 155,
    quarterlyRevenueMillions: 5_400,
    revenueGrowth: 0.07,
    netMargin: 0.3,
    marginSwing: 0.03,
    netDebtShare: 0,
  }),
  // Technology
  company("aapl", "apple", "Apple", lastSaturday(MAR_JUN_SEP_DEC), 9, {
    price: 210,
    priceGrowth: 0.22,
    sharesMillions: 14_900,
    quarterlyRevenueMillions: 95_000,
    revenueGrowth: 0.06,
    netMargin: 0.25,
    marginSwing: 0.02,
    netDebtShare: -0.01,
  }),
  company("msft", "microsoft", "Microsoft", CALENDAR, 6, {
    price: 480,
    priceGrowth: 0.25,
    sharesMillions: 7_430,
    quarterlyRevenueMillions: 74_000,
    revenueGrowth: 0.13,
    netMargin: 0.35,
    marginSwing: 0.03,
    netDebtShare: -0.01,
  }),
  company("nvda", "nvidia", "NVIDIA", lastSunday(JAN_APR_JUL_OCT), 1, {
    price: 160,
    priceGrowth: 0.45,
    sharesMillions: 24_400,
    quarterlyRevenueMillions: 46_000,
    revenueGrowth: 0.45,
    netMargin: 0.5,
    marginSwing: 0.08,
    netDebtShare: -0.01,
  }),
  company("googl", "alphabet", "Alphabet", CALENDAR, 12, {
    price: 180,
    priceGrowth: 0.18,
    sharesMillions: 12_100,
    quarterlyRevenueMillions: 96_000,
    revenueGrowth: 0.15,
    netMargin: 0.3,
    marginSwing: 0.03,
    netDebtShare: -0.03,
  }),
  company("amzn", "amazon", "Amazon.com", CALENDAR, 12, {
    price: 220,
    priceGrowth: 0.18,
    sharesMillions: 10_600,
    quarterlyRevenueMillions: 167_000,
    revenueGrowth: 0.15,
    netMargin: 0.1,
    marginSwing: 0.03,
    netDebtShare: 0.01,
  }),
  company("meta", "meta_platforms", "Meta Platforms", CALENDAR, 12, {
    price: 700,
    priceGrowth: 0.2,
    sharesMillions: 2_520,
    quarterlyRevenueMillions: 47_000,
    revenueGrowth: 0.18,
    netMargin: 0.38,
    marginSwing: 0.05,
    netDebtShare: -0.01,
  }),
  company("tsla", "tesla", "Tesla", CALENDAR, 12, {
    price: 320,
    priceGrowth: 0.4,
    sharesMillions: 3_220,
    quarterlyRevenueMillions: 23_000,
    revenueGrowth: 0.25,
    netMargin: 0.06,
    marginSwing: 0.06,
    netDebtShare: -0.02,
  }),
  company("avgo", "broadcom", "Broadcom", lastSunday(JAN_APR_JUL_OCT), 10, {
    price: 270,
    priceGrowth: 0.4,
    sharesMillions: 4_700,
    quarterlyRevenueMillions: 16_000,
    revenueGrowth: 0.25,
    netMargin: 0.3,
    marginSwing: 0.05,
    netDebtShare: 0.05,
  }),
  company("amd", "amd", "Advanced Micro Devices", lastSaturday(MAR_JUN_SEP_DEC), 12, {
    price: 140,
    priceGrowth: 0.3,
    sharesMillions: 1_620,
    quarterlyRevenueMillions: 7_700,
    revenueGrowth: 0.25,
    netMargin: 0.1,
    marginSwing: 0.05,
    netDebtShare: -0.01,
  }),
  company("intc", "intel", "Intel", lastSaturday(MAR_JUN_SEP_DEC), 12, {
    price: 22,
    priceGrowth: -0.08,
    sharesMillions: 4_370,
    quarterlyRevenueMillions: 12_800,
    revenueGrowth: -0.02,
    netMargin: 0,
    marginSwing: 0.3,
    netDebtShare: 0.3,
  }),
  company("csco", "cisco", "Cisco Systems", lastSaturday(JAN_APR_JUL_OCT), 7, {
    price: 65,
    priceGrowth: 0.06,
    sharesMillions: 3_960,
    quarterlyRevenueMillions: 14_500,
    revenueGrowth: 0.03,
    netMargin: 0.2,
    marginSwing: 0.03,
    netDebtShare: 0,
  }),
  company("mu", "micron", "Micron Technology", { kind: "last-weekday", weekday: 4, months: FEB_MAY_AUG_NOV }, 8, {
    price: 120,
    priceGrowth: 0.15,
    sharesMillions: 1_120,
    quarterlyRevenueMillions: 9_300,
    revenueGrowth: 0.1,
    netMargin: 0.2,
    marginSwing: 0.3,
    netDebtShare: 0.03,
  }),
  company("orcl", "oracle", "Oracle", monthEnds(FEB_MAY_AUG_NOV), 5, {
    price: 220,
    priceGrowth: 0.18,
    sharesMillions: 2_800,
    quarterlyRevenueMillions: 16_000,
    revenueGrowth: 0.07,
    netMargin: 0.21,
    marginSwing: 0.04,
    netDebtShare: 0.15,
  }),
  company("crm", "salesforce", "Salesforce", monthEnds(JAN_APR_JUL_OCT), 1, {
    price: 270,
    priceGrowth: 0.1,
    sharesMillions: 960,
    quarterlyRevenueMillions: 10_000,
    revenueGrowth: 0.15,
    netMargin: 0.16,
    marginSwing: 0.05,
    netDebtShare: 0,
  }),
  company("adbe", "adobe", "Adobe", { kind: "last-weekday", weekday: 5, months: FEB_MAY_AUG_NOV }, 11, {
    price: 380,
    priceGrowth: 0.03,
    sharesMillions: 425,
    quarterlyRevenueMillions: 5_900,
    revenueGrowth: 0.13,
    netMargin: 0.3,
    marginSwing: 0.03,
    netDebtShare: -0.01,
  }),
  company("intu", "intuit", "Intuit", monthEnds(JAN_APR_JUL_OCT), 7, {
    price: 750,
    priceGrowth: 0.2,
    sharesMillions: 280,
    quarterlyRevenueMillions: 4_500,
    revenueGrowth: 0.15,
    netMargin: 0.2,
    marginSwing: 0.1,
    netDebtShare: 0.01,
  }),
  company("nflx", "netflix", "Netflix", CALENDAR, 12, {
    price: 1_200,
    priceGrowth: 0.25,
    sharesMillions: 427,
    quarterlyRevenueMillions: 11_000,
    revenueGrowth: 0.18,
    netMargin: 0.25,
    marginSwing: 0.04,
    netDebtShare: 0.02,
  }),
  // Consumer, industry and energy
  company("wmt", "walmart", "Walmart", monthEnds(JAN_APR_JUL_OCT), 1, {
    price: 97,
    priceGrowth: 0.17,
    sharesMillions: 8_000,
    quarterlyRevenueMillions: 170_000,
    revenueGrowth: 0.05,
    netMargin: 0.03,
    marginSwing: 0.01,
    netDebtShare: 0.05,
  }),
  company("hd", "home_depot", "Home Depot", lastSunday(JAN_APR_JUL_OCT), 1, {
    price: 370,
    priceGrowth: 0.12,
    sharesMillions: 995,
    quarterlyRevenueMillions: 40_000,
    revenueGrowth: 0.05,
    netMargin: 0.1,
    marginSwing: 0.02,
    netDebtShare: 0.12,
  }),
  company("nke", "nike", "Nike", monthEnds(FEB_MAY_AUG_NOV), 5, {
    price: 70,
    priceGrowth: -0.02,
    sharesMillions: 1_480,
    quarterlyRevenueMillions: 11_500,
    revenueGrowth: 0.04,
    netMargin: 0.08,
    marginSwing: 0.04,
    netDebtShare: 0,
  }),
  company("fdx", "fedex", "FedEx", monthEnds(FEB_MAY_AUG_NOV), 5, {
    price: 230,
    priceGrowth: 0.04,
    sharesMillions: 240,
    quarterlyRevenueMillions: 22_000,
    revenueGrowth: 0.03,
    netMargin: 0.05,
    marginSwing: 0.02,
    netDebtShare: 0.3,
  }),
  company("dis", "disney", "Walt Disney", lastSaturday(MAR_JUN_SEP_DEC), 9, {
    price: 120,
    priceGrowth: -0.01,
    sharesMillions: 1_800,
    quarterlyRevenueMillions: 23_500,
    revenueGrowth: 0.05,
    netMargin: 0.1,
    marginSwing: 0.08,
    netDebtShare: 0.2,
  }),
  company("pg", "procter_gamble", "Procter & Gamble", monthEnds(MAR_JUN_SEP_DEC), 6, {
    price: 160,
    priceGrowth: 0.08,
    sharesMillions: 2_350,
    quarterlyRevenueMillions: 21_000,
    revenueGrowth: 0.03,
    netMargin: 0.18,
    marginSwing: 0.02,
    netDebtShare: 0.08,
  }),
  company("jnj", "johnson_johnson", "Johnson & Johnson", lastSunday(MAR_JUN_SEP_DEC), 12, {
    price: 155,
    priceGrowth: 0.02,
    sharesMillions: 2_400,
    quarterlyRevenueMillions: 23_000,
    revenueGrowth: 0.03,
    netMargin: 0.2,
    marginSwing: 0.05,
    netDebtShare: 0.03,
  }),
  company("xom", "exxon_mobil", "Exxon Mobil", CALENDAR, 12, {
    price: 110,
    priceGrowth: 0.04,
    sharesMillions: 4_300,
    quarterlyRevenueMillions: 82_000,
    revenueGrowth: 0.03,
    netMargin: 0.1,
    marginSwing: 0.05,
    netDebtShare: 0.08,
  }),
];

/** A fiscal calendar is "calendar-aligned" when its quarters end on Mar 31, Jun 30, Sep 30 and Dec 31. */
export function isCalendarAligned(company: Company): boolean {
  return company.fiscal.kind === "month-end" && company.fiscal.months.join() === "3,6,9,12";
}
