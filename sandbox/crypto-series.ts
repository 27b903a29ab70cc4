/**
 * Daily values of crypto metrics (chains, tokens, stablecoins, categories and
 * their intersections). Each metric is a curve around a base level that scales
 * with the entity's size; a few metrics are derived from others so they stay
 * consistent (REVENUE is FEES times a take rate, AVG_TXN_FEE is FEES / TXNS,
 * MC is PRICE times supply).
 */
import { cryptoMarket, makeCurve, makeDrift, roundSignificant, roundTo, yearsFromAnchor } from "./curve";
import { between, hashOf, logBetween, mix } from "./rng";
import { makeStablecoinSeries, stablecoinMetricValue, SUPPLY_AT_SIZE_ONE } from "./stablecoin-supply";
import type { ActivityLevels } from "./named-assets";
import type { ResolvedSymbol } from "./symbols";

// Math's functions are bound once: a global lookup per call is slow inside jest's vm contexts, and these run per data point.
const { round, max, exp } = Math;

/** Levels of an entity of size 1 (Ethereum-sized). */
const LEVEL_AT_SIZE_ONE: Record<string, number> = {
  FEES: 2.5e6,
  DAU: 4e5,
  TXNS: 1.1e6,
  TVL: 4e10,
  DEX_VOLUMES: 1.2e9,
  VOLUME: 8e9,
  MC: 2.5e11,
};

type DayValue = (day: number) => number;

function level(seed: number, entity: ResolvedSymbol, metric: string, noise: number): DayValue {
  const h = hashOf(seed, entity.id, metric);
  const typical = entity.levels?.[metric as keyof ActivityLevels];
  const base =
    typical !== undefined
      ? typical * logBetween(mix(h, 50), 0.8, 1.25)
      : LEVEL_AT_SIZE_ONE[metric] * entity.size * logBetween(mix(h, 50), 0.6, 1.6);
  const curve = makeCurve(h, { noise });
  return (day) => base * exp(curve(day));
}

function price(seed: number, entity: ResolvedSymbol): DayValue {
  const h = hashOf(seed, entity.id, "PRICE");
  if (entity.profile === "stablecoin")
    return (day) => roundTo(1 + (((mix(h, day) >>> 0) / 2 ** 32) * 2 - 1) * 0.002, 4);
  // The market's swing plus a small one of the asset's own (at most about ±0.5 on the log scale).
  const own = makeCurve(h, { noise: 0.03, swing: 0.3, growth: between(mix(h, 60), -0.03, 0.03) });
  const base = entity.price ?? 1;
  return (day) => roundSignificant(base * exp(cryptoMarket(day) + own(day)), 6);
}

/** A function giving the metric's value on a day; undefined when the entity has no such metric. */
export function makeCryptoSeries(seed: number, entity: ResolvedSymbol, metric: string): DayValue | undefined {
  if (!entity.metrics.includes(metric)) return undefined;
  if (metric.startsWith("STABLECOIN_")) {
    const typicalSupply = entity.stablecoins ?? SUPPLY_AT_SIZE_ONE * entity.size;
    const days = makeStablecoinSeries(hashOf(seed, entity.id, "STABLECOIN"), typicalSupply);
    return (day) => stablecoinMetricValue(metric, days(day)) ?? Number.NaN;
  }
  switch (metric) {
    case "PRICE":
      return price(seed, entity);
    case "MC": {
      if (entity.profile === "category") {
        const mc = level(seed, entity, "MC", 0.02);
        return (day) => round(mc(day));
      }
      const p = price(seed, entity);
      // Circulating supply around the anchor date, growing by a few percent a year.
      const supplyGrowth = between(hashOf(seed, entity.id, "SUPPLY"), 0.005, 0.03);
      const supply = (entity.marketCap ?? LEVEL_AT_SIZE_ONE.MC * entity.size) / (entity.price ?? 1);
      return (day) => round(p(day) * supply * max(0.1, 1 + supplyGrowth * yearsFromAnchor(day)));
    }
    case "FEES": {
      const fees = level(seed, entity, "FEES", 0.12);
      return (day) => roundTo(fees(day), 2);
    }
    case "REVENUE": {
      const fees = level(seed, entity, "FEES", 0.12);
      const take = makeDrift(hashOf(seed, entity.id, "TAKE"), 0.08, 0.6);
      return (day) => roundTo(roundTo(fees(day), 2) * take(day), 2);
    }
    case "AVG_TXN_FEE": {
      const fees = level(seed, entity, "FEES", 0.12);
      const txns = level(seed, entity, "TXNS", 0.08);
      return (day) => roundSignificant(roundTo(fees(day), 2) / max(1, round(txns(day))), 6);
    }
    case "DAU":
    case "TXNS": {
      const count = level(seed, entity, metric, 0.08);
      return (day) => max(1, round(count(day)));
    }
    default: {
      const value = level(seed, entity, metric, 0.06);
      return (day) => round(value(day));
    }
  }
}
