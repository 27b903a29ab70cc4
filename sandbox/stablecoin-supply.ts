/**
 * Stablecoin supply and activity. Every supply figure is a whole number of USD
 * and circulating supply is computed by subtraction, so
 *   CIRCULATING = TOTAL − (BRIDGED + PREMINT + PEG_STABILITY + other locked)
 * holds exactly on every day; supply metrics aggregate by LAST, so it holds at
 * every granularity too. The other-locked bucket is never zero.
 */
import { makeCurve, makeDrift } from "./curve";
import { mix } from "./rng";

// Math's functions are bound once: a global lookup per call is slow inside jest's vm contexts, and these run per data point.
const { round, floor, max, exp } = Math;

export interface SupplyBreakdown {
  total: number;
  bridged: number;
  premint: number;
  pegStability: number;
  otherLocked: number;
  circulating: number;
}

export interface StablecoinDay extends SupplyBreakdown {
  transferVolume: number;
  txns: number;
  dau: number;
}

/** Typical total supply of a stablecoin of size 1 (Tether) around the anchor date, USD. */
export const SUPPLY_AT_SIZE_ONE = 1.6e11;

/** Stablecoin supply grows by about this much a year (log scale), give or take 0.02 per coin. */
const SUPPLY_GROWTH = 0.3;

/** `typicalSupply`: total supply in USD around the anchor date. */
export function makeStablecoinSeries(h: number, typicalSupply: number): (day: number) => StablecoinDay {
  const totalCurve = makeCurve(mix(h, 100), {
    noise: 0.004,
    swing: 0.3,
    growth: SUPPLY_GROWTH + 0.04 * ((h >>> 8) / 2 ** 24 - 0.5),
  });
  const bridged = makeDrift(mix(h, 101), 0.02, 0.12);
  const premint = makeDrift(mix(h, 102), 0.01, 0.06);
  const pegStability = makeDrift(mix(h, 103), 0, 0.06);
  const otherLocked = makeDrift(mix(h, 104), 0.004, 0.025);
  const velocity = makeCurve(mix(h, 105), { noise: 0.25, swing: 0.6, growth: 0 });
  const averageTransfer = makeCurve(mix(h, 106), { noise: 0.15, swing: 0.5, growth: 0.05 });
  const transfersPerUser = makeDrift(mix(h, 107), 1.5, 4);
  const base = max(1e6, typicalSupply);
  return (day) => {
    const total = round(base * exp(totalCurve(day)));
    const b = floor(total * bridged(day));
    const p = floor(total * premint(day));
    const g = floor(total * pegStability(day));
    const o = max(1, floor(total * otherLocked(day)));
    const circulating = total - b - p - g - o;
    const transferVolume = round(circulating * 0.08 * exp(velocity(day)));
    const txns = max(1, round(transferVolume / (30000 * exp(averageTransfer(day)))));
    const dau = max(1, round(txns / transfersPerUser(day)));
    return { total, bridged: b, premint: p, pegStability: g, otherLocked: o, circulating, transferVolume, txns, dau };
  };
}

export function stablecoinMetricValue(metric: string, day: StablecoinDay): number | undefined {
  switch (metric) {
    case "STABLECOIN_SUPPLY_TOTAL":
      return day.total;
    case "STABLECOIN_SUPPLY":
    case "STABLECOIN_SUPPLY_CIRCULATING":
      return day.circulating;
    case "STABLECOIN_SUPPLY_BRIDGED":
      return day.bridged;
    case "STABLECOIN_SUPPLY_PREMINT":
      return day.premint;
    case "STABLECOIN_SUPPLY_PEG_STABILITY":
      return day.pegStability;
    case "STABLECOIN_TRANSFER_VOLUME":
      return day.transferVolume;
    case "STABLECOIN_DAILY_TXNS":
      return day.txns;
    case "STABLECOIN_DAU":
      return day.dau;
    default:
      return undefined;
  }
}
