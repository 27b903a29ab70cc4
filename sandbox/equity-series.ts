/**
 * Equity data: closing price, volume and market cap on trading days, the seven
 * financials per fiscal quarter, and the valuation ratios on trading days from
 * the price and the trailing four fiscal quarters (which exist before 2018, so
 * every ratio has a value from the first day of data). Which ratio points a
 * response carries — the sparse free-cash-flow rule — is decided by the
 * request window in series.ts, not here: a value never depends on the window.
 */
import type { Company } from "./companies";
import { makeCurve, roundTo } from "./curve";
import { type FiscalQuarter, fiscalQuarters, lastQuarterAtOrBefore } from "./fiscal-calendar";
import { between, hashOf, mix, unit } from "./rng";

// Math's functions are bound once: a global lookup per call is slow inside jest's vm contexts, and these run per data point.
const { round, exp, sin, PI } = Math;

export interface QuarterFinancials {
  TOTAL_REVENUE: number;
  NET_INCOME: number;
  EBITDA: number;
  OPERATING_INCOME: number;
  FREE_CASH_FLOW: number;
  BASIC_EPS: number;
  DILUTED_EPS: number;
}

/** Quarter index around the anchor date, mid-2025 (see FiscalQuarter.index): figures are the company's levels there. */
const INDEX_ANCHOR = 25 * 4 + 1;

export function quarterFinancials(seed: number, company: Company, quarter: FiscalQuarter): QuarterFinancials {
  const h = hashOf(seed, "financials", company.ticker);
  const q = hashOf(h, quarter.index);
  const years = (quarter.index - INDEX_ANCHOR) / 4;
  const seasonal = 0.05 * sin((2 * PI * quarter.fiscalQuarter) / 4 + between(mix(h, 1), 0, 6.28));
  const revenue = round(
    company.quarterlyRevenueMillions *
      1e6 *
      exp(company.revenueGrowth * years + seasonal + between(mix(q, 1), -0.04, 0.04)),
  );
  const cycle = sin((2 * PI * years) / between(mix(h, 2), 1.5, 4) + between(mix(h, 3), 0, 6.28));
  const netMargin = company.netMargin + company.marginSwing * (0.6 * cycle + 0.8 * (unit(mix(q, 2)) - 0.5));
  const netIncome = round(revenue * netMargin);
  const shares = company.sharesMillions * 1e6;
  return {
    TOTAL_REVENUE: revenue,
    NET_INCOME: netIncome,
    EBITDA: round(revenue * (netMargin + between(mix(h, 4), 0.08, 0.15))),
    OPERATING_INCOME: round(revenue * (netMargin + between(mix(h, 5), 0.03, 0.07))),
    FREE_CASH_FLOW: round(revenue * (netMargin + 0.02 + company.marginSwing * (unit(mix(q, 3)) - 0.5))),
    BASIC_EPS: roundTo(netIncome / shares, 2),
    DILUTED_EPS: roundTo(netIncome / (shares * 1.025), 2),
  };
}

export interface EquityMarketDay {
  price: number;
  volume: number;
  marketCap: number;
}

export function makeEquityMarket(seed: number, company: Company): (day: number) => EquityMarketDay {
  const h = hashOf(seed, "equity", company.ticker);
  const priceCurve = makeCurve(mix(h, 1), {
    noise: 0.018,
    swing: 0.6,
    growth: company.priceGrowth * between(mix(h, 2), 0.9, 1.1),
  });
  const turnover = makeCurve(mix(h, 3), { noise: 0.35, swing: 0.6, growth: 0 });
  const shares = company.sharesMillions * 1e6;
  return (day) => {
    const price = roundTo(company.price * exp(priceCurve(day)), 2);
    return { price, volume: round(shares * 0.006 * exp(turnover(day))), marketCap: round(price * shares) };
  };
}

/** Daily ratio values; undefined when fewer than four fiscal quarters precede the day. */
export function makeRatioSeries(
  seed: number,
  company: Company,
  metric: string,
): ((day: number) => number | undefined) | undefined {
  const market = makeEquityMarket(seed, company);
  const quarters = fiscalQuarters(company);
  const netDebt = company.netDebtShare * company.price * company.sharesMillions * 1e6;
  const ttmCache = new Map<number, QuarterFinancials>();
  const trailing = (day: number): QuarterFinancials | undefined => {
    const last = lastQuarterAtOrBefore(quarters, day);
    if (last < 3) return undefined;
    let sums = ttmCache.get(last);
    if (!sums) {
      const four = quarters.slice(last - 3, last + 1).map((quarter) => quarterFinancials(seed, company, quarter));
      sums = { ...four[0] };
      for (const key of Object.keys(sums) as Array<keyof QuarterFinancials>)
        sums[key] = four.reduce((acc, f) => acc + f[key], 0);
      ttmCache.set(last, sums);
    }
    return sums;
  };
  const pick: Record<string, (ttm: QuarterFinancials, mc: number, ev: number) => number> = {
    ENTERPRISE_VALUE_DIVIDE_TOTAL_REVENUE: (ttm, _mc, ev) => ev / ttm.TOTAL_REVENUE,
    ENTERPRISE_VALUE_DIVIDE_NET_INCOME: (ttm, _mc, ev) => ev / ttm.NET_INCOME,
    ENTERPRISE_VALUE_DIVIDE_EBITDA: (ttm, _mc, ev) => ev / ttm.EBITDA,
    ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW: (ttm, _mc, ev) => ev / ttm.FREE_CASH_FLOW,
    MARKET_CAP_DIVIDE_FREE_CASH_FLOW: (ttm, mc) => mc / ttm.FREE_CASH_FLOW,
    EARNINGS_YIELD: (ttm, mc) => (100 * ttm.NET_INCOME) / mc,
    FCF_YIELD: (ttm, mc) => (100 * ttm.FREE_CASH_FLOW) / mc,
  };
  const formula = pick[metric];
  if (!formula) return undefined;
  return (day) => {
    const ttm = trailing(day);
    if (!ttm) return undefined;
    const { marketCap } = market(day);
    const value = formula(ttm, marketCap, marketCap + netDebt);
    return Number.isFinite(value) ? roundTo(value, 4) : undefined;
  };
}
