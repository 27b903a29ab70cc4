/**
 * The shape every synthetic series is built from: a log-scale trend, a slow
 * cycle, a faster cycle and day-level noise, all drawn from one hash. Being a
 * closed-form function of the day (no random walk), any single point costs the
 * same to compute as any other, whatever the window.
 */
import { DATA_START_DAY } from "./dates";
import { between, mix, unit } from "./rng";

// Math's functions are bound once: a global lookup per call is slow inside jest's vm contexts, and these run per data point.
const { sin, PI, round, floor } = Math;

export interface CurveShape {
  /** Daily noise amplitude on the log scale. */
  noise: number;
  /** Scales both cycles (1 = default swings). */
  swing?: number;
  /** Fixed trend per year on the log scale; drawn from the hash when omitted. */
  growth?: number;
}

export type Curve = (day: number) => number;

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
    const years = (day - DATA_START_DAY) / 365.25;
    // Day-level noise averages out in weekly sums; a week-level term keeps weekly series lively.
    const noise = ((unit(mix(noiseKey, day)) * 2 - 1) + 0.6 * (unit(mix(weekKey, floor(day / 7))) * 2 - 1)) * shape.noise;
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
  return (day) => lo + (hi - lo) * (0.5 + 0.5 * sin((2 * PI * (day - DATA_START_DAY)) / 365.25 / period + phase));
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return round(value * factor) / factor;
}

/** Rounds to `digits` significant digits (prices of small tokens keep their precision). */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}
