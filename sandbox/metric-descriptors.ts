/**
 * The metric catalog's descriptors (interface 2.5) for one symbol: every field
 * of the section, the descriptive text naming the asset and labelled as
 * sandbox data. The older reference's subset is a subset of this.
 */
import { DATA_START_DAY } from "./dates";
import { fiscalLabel, fiscalQuarters } from "./fiscal-calendar";
import type { MetricSpec } from "./metric-catalog";
import { metricSpecFor, type ResolvedSymbol } from "./symbols";
import type { MetricDescriptorWire } from "./wire-types";

const GROUP_LABELS: Record<MetricSpec["group"], string> = {
  market: "Market",
  activity: "Activity",
  fundamentals: "Fundamentals",
  valuation: "Valuation",
  stablecoins: "Stablecoins",
};

function fiscalRange(symbol: ResolvedSymbol, today: number): { earliest: string | null; latest: string | null } {
  if (!symbol.company) return { earliest: null, latest: null };
  const served = fiscalQuarters(symbol.company).filter(
    (quarter) => quarter.end >= DATA_START_DAY && quarter.end <= today,
  );
  if (served.length === 0) return { earliest: null, latest: null };
  return { earliest: fiscalLabel(served[0]), latest: fiscalLabel(served[served.length - 1]) };
}

export function describeMetrics(symbol: ResolvedSymbol, today: number): Array<Record<string, MetricDescriptorWire>> {
  const fiscal = fiscalRange(symbol, today);
  return symbol.metrics.flatMap((name, index) => {
    const spec = metricSpecFor(symbol, name);
    if (!spec) return [];
    const isFiscal = spec.cadence === "fiscal";
    const descriptor: MetricDescriptorWire = {
      label: spec.label,
      description: `Sandbox data (synthetic). ${spec.about.replace("{title}", symbol.title)}`,
      tags: [
        { value: spec.group, label: GROUP_LABELS[spec.group] },
        { value: "sandbox", label: "Sandbox data" },
      ],
      aggregation_type: spec.aggregation,
      unit: spec.unit,
      internal_data_source: "sandbox_synthetic",
      source: "Sandbox (synthetic data)",
      base_metric: spec.baseMetric,
      accepts_date: true,
      cuts: [{ granularity: isFiscal ? "QUARTER" : "DAY", dimension_type: "TOTAL" }],
      thumbnail_url: null,
      source_link: `https://example.com/sandbox/metrics/${name.toLowerCase()}`,
      methodology: `Sandbox data: deterministic synthetic values, not market data. ${spec.methodology}`,
      currency_type: spec.unit === "CURRENCY" ? "USD" : null,
      earliest_fiscal_period: isFiscal ? fiscal.earliest : null,
      latest_fiscal_period: isFiscal ? fiscal.latest : null,
      priority: index + 1,
    };
    return [{ [name]: descriptor }];
  });
}
