/**
 * The shape every synthetic series is built from: a log-scale trend, a slow
 * cycle, a faster cycle and day-level noise, all drawn from one hash. Being a
 * closed-form function of the day (no random walk), any single point costs the
 * same to compute as any other, whatever the window.
 *
 * Trends are measured from ANCHOR_DAY (mid-2025): an asset's typical level
 * (named-assets.ts, companies.ts) is its level around then, and the history
 * before it is lower or higher by the trend. So the figures a demo shows
 * today, or in a year, stay in plausible orders of magnitude.
 */
import { dayOf } from "./dates";
import { between, mix, unit } from "./rng";

// Math's functions are bound once: a global lookup per call is slow inside jest's vm contexts, and these run per data point.
const { sin, cos, PI, round, floor } = Math;

export interface CurveShape {
  /** Daily noise amplitude on the log scale. */
  noise: number;
  /** Scales both cycles (1 = default swings). */
  swing?: number;
  /** Fixed trend per year on the log scale; drawn from the hash when omitted. */
  growth?: number;
}

export type Curve = (day: number) => number;

/** The day the typical levels describe: trends are measured from it. */
export const ANCHOR_DAY = dayOf(2025, 7, 1);

/** Years from ANCHOR_DAY (negative before it). */
export function yearsFromAnchor(day: number): number {
  return (day - ANCHOR_DAY) / 365.25;
}

/** Returns the log-deviation from the base level on a given day. */
export function makeCurve(h: number, shape: CurveShape): Curve {
  const swing = shape.swing ?? 1;
  const growth = shape.growth ?? between(mix(h, 1), -0.15, 0.45);
  const slowAmp = swing * between(mix(h, 2), 0.15, 0.5);
  const slowPeriod = between(mix(h, 3), 0.8, 3); // years
  const slowPhase = between(mix(h, 4), 0, 2 * PI);
  const fastAmp = swing * between(mix(h, 5), 0.04, 0.15);
  const fastPeriod = between(mix(h, 6), 0.1, 0.4);
  const fastPhase = between(mix(h, 7), 0, 2 * PI);
  const noiseKey = mix(h, 8);
  const weekKey = mix(h, 9);
  return (day) => {
    const years = yearsFromAnchor(day);
    // Day-level noise averages out in weekly sums; a week-level term keeps weekly series lively.
    const noise = (unit(mix(noiseKey, day)) * 2 - 1 + 0.6 * (unit(mix(weekKey, floor(day / 7))) * 2 - 1)) * shape.noise;
    return (
      growth * years +
      slowAmp * sin((2 * PI * years) / slowPeriod + slowPhase) +
      fastAmp * sin((2 * PI * years) / fastPeriod + fastPhase) +
      noise
    );
  };
}

/** A value that drifts slowly between lo and hi (shares, take rates, fractions). */
export function makeDrift(h: number, lo: number, hi: number): Curve {
  const period = between(mix(h, 1), 0.7, 2.5);
  const phase = between(mix(h, 2), 0, 2 * PI);
  return (day) => lo + (hi - lo) * (0.5 + 0.5 * sin((2 * PI * yearsFromAnchor(day)) / period + phase));
}

/**
 * The crypto market's common swing on the log scale, 0 at ANCHOR_DAY, the same
 * for every crypto asset: a path through rough turning points of the market
 * since 2018 (its cycles' highs and lows, scaled to Bitcoin's price), then,
 * after the last one, a slow trend with a four-year cycle starting with a
 * downturn. Prices are this plus a small asset-specific curve, so assets move
 * together as crypto markets do and keep their order of size (Bitcoin's market
 * cap above Ethereum's above Solana's) on every day.
 */
export function cryptoMarket(day: number): number {
  return marketLevel(day) - MARKET_AT_ANCHOR;
}

const MARKET_TURNS: ReadonlyArray<readonly [number, number]> = (
  [
    [2018, 1, 14_000],
    [2018, 12, 3_700],
    [2019, 6, 11_000],
    [2020, 3, 6_000],
    [2020, 12, 25_000],
    [2021, 4, 60_000],
    [2021, 7, 33_000],
    [2021, 11, 65_000],
    [2022, 6, 20_000],
    [2022, 11, 16_500],
    [2023, 6, 28_000],
    [2024, 3, 70_000],
    [2024, 8, 58_000],
    [2024, 12, 98_000],
    [2025, 4, 80_000],
    [2025, 7, 108_000],
    [2025, 10, 120_000],
  ] as const
).map(([year, month, level]) => [dayOf(year, month, 15), Math.log(level)] as const);

function marketLevel(day: number): number {
  const turns = MARKET_TURNS;
  if (day <= turns[0][0]) return turns[0][1];
  const [lastDay, lastLevel] = turns[turns.length - 1];
  if (day >= lastDay) {
    const years = (day - lastDay) / 365.25;
    return lastLevel + 0.12 * years - 0.25 * (1 - cos((2 * PI * years) / 4));
  }
  let i = 1;
  while (turns[i][0] < day) i++;
  const [d0, l0] = turns[i - 1];
  const [d1, l1] = turns[i];
  return l0 + ((l1 - l0) * (day - d0)) / (d1 - d0);
}

const MARKET_AT_ANCHOR = marketLevel(ANCHOR_DAY);

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return round(value * factor) / factor;
}

/** Rounds to `digits` significant digits (prices of small tokens keep their precision). */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}
