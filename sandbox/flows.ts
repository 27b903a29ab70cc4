/**
 * Chain-level bridge flows (interface 4.2). Daily inflows and outflows are
 * whole USD, so window totals are exact and netflow = inflow − outflow holds
 * to the dollar (negative when more left than arrived).
 */
import type { CatalogEntry } from "./asset-catalog";
import { makeCurve } from "./curve";
import { DATA_START_DAY } from "./dates";
import { hashOf, logBetween, mix } from "./rng";

// Math's functions are bound once: a global lookup per call is slow inside jest's vm contexts, and these run per data point.
const { round, exp, max } = Math;

export type FlowType = "netflow" | "inflow" | "outflow";
export const FLOW_TYPES: readonly FlowType[] = ["inflow", "netflow", "outflow"];

/** Daily inflow of an Ethereum-sized chain, USD. */
const INFLOW_AT_SIZE_ONE = 8e7;

export interface DailyFlow {
  inflow: number;
  outflow: number;
}

export function makeChainFlows(seed: number, chain: CatalogEntry): (day: number) => DailyFlow {
  const h = hashOf(seed, "flows", chain.record.platform_id);
  const base = INFLOW_AT_SIZE_ONE * chain.size * logBetween(mix(h, 50), 0.6, 1.6);
  const inflow = makeCurve(mix(h, 1), { noise: 0.3 });
  // Outflow tracks inflow with its own swings, so netflow changes sign over time.
  const imbalance = makeCurve(mix(h, 2), { noise: 0.25, swing: 0.4, growth: 0 });
  return (day) => {
    const inValue = base * exp(inflow(day));
    return { inflow: round(inValue), outflow: round(inValue * exp(imbalance(day))) };
  };
}

export type FlowTotals = Partial<Record<FlowType, Record<string, number>>>;

/** Totals per chain over [start, end] (clipped to the data range), keyed by platform_id. */
export function flowTotals(
  seed: number,
  chains: readonly CatalogEntry[],
  startDay: number,
  endDay: number,
  types: readonly FlowType[],
): FlowTotals {
  const all: Record<FlowType, Record<string, number>> = { inflow: {}, outflow: {}, netflow: {} };
  const start = max(startDay, DATA_START_DAY);
  for (const chain of chains) {
    const daily = makeChainFlows(seed, chain);
    let inflow = 0;
    let outflow = 0;
    for (let day = start; day <= endDay; day++) {
      const flow = daily(day);
      inflow += flow.inflow;
      outflow += flow.outflow;
    }
    const id = chain.record.platform_id;
    all.inflow[id] = inflow;
    all.outflow[id] = outflow;
    all.netflow[id] = inflow - outflow;
  }
  const totals: FlowTotals = {};
  for (const type of types) totals[type] = all[type];
  return totals;
}
