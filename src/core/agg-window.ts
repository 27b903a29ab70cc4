/**
 * The windows MD.AGG summarises over, and the Artemis-style metric prefixes
 * (`L30_FEES`) that name a metric summed (or, for an AVERAGE metric,
 * averaged) over such a window. A window always
 * ends on its end date, inclusive: `7D` ending 2024-05-10 covers 05-04..05-10
 * (seven daily readings), `MTD` covers 05-01..05-10, `LTM` 2023-05-11..2024-05-10.
 */
import { type DateUnit, isIsoDate, shiftDate, spanStart, startOfMonth, startOfQuarter, startOfYear } from "./calendar";
import { describeValue, isOmitted } from "./arguments";
import { ArgumentError } from "./errors";

export type AggWindow =
  | { kind: "trailing"; count: number; unit: DateUnit; label: string }
  | { kind: "to-date"; period: "MONTH" | "QUARTER" | "YEAR"; label: string };

export const WINDOW_FORMS = "Use 7D, 30D, 90D, MTD, QTD, YTD, LTM, or -ND, -NW, -NM, -NQ, -NY (e.g. -6M).";

const TO_DATE: Record<string, AggWindow> = {
  MTD: { kind: "to-date", period: "MONTH", label: "MTD" },
  QTD: { kind: "to-date", period: "QUARTER", label: "QTD" },
  YTD: { kind: "to-date", period: "YEAR", label: "YTD" },
  LTM: { kind: "trailing", count: 1, unit: "Y", label: "LTM" },
};

const TRAILING = /^-?(\d{1,5})([DWMQY])$/;

export function parseAggWindow(value: unknown, argument = "window"): AggWindow {
  if (isOmitted(value)) throw new ArgumentError(argument, `is required. ${WINDOW_FORMS}`);
  if (typeof value === "number")
    throw new ArgumentError(
      argument,
      `${value} is a number; write a window with its unit, e.g. "${value}D". ${WINDOW_FORMS}`,
    );
  const text = typeof value === "string" ? value.trim().toUpperCase() : "";
  if (Object.prototype.hasOwnProperty.call(TO_DATE, text)) return TO_DATE[text];
  const trailing = TRAILING.exec(text);
  if (trailing && Number(trailing[1]) >= 1) {
    return {
      kind: "trailing",
      count: Number(trailing[1]),
      unit: trailing[2] as DateUnit,
      label: `${Number(trailing[1])}${trailing[2]}`,
    };
  }
  throw new ArgumentError(argument, `${describeValue(value)} is not a window. ${WINDOW_FORMS}`);
}

/** The first date inside a window that ends on `end`. */
export function windowStart(window: AggWindow, end: string): string {
  if (window.kind === "trailing") {
    const before = shiftDate(end, -window.count, window.unit);
    // -99999Y is a valid window, but from most dates it reaches before year 1, where no YYYY-MM-DD date exists.
    if (!isIsoDate(before))
      throw new ArgumentError("window", `${window.label} ending ${end} would start before the year 1. ${WINDOW_FORMS}`);
    return spanStart(end, window.count, window.unit);
  }
  switch (window.period) {
    case "MONTH":
      return startOfMonth(end);
    case "QUARTER":
      return startOfQuarter(end);
    case "YEAR":
      return startOfYear(end);
  }
}

export interface PrefixedMetric {
  prefix: string;
  /** The metric being summed or averaged, e.g. FEES for L30_FEES. */
  base: string;
  window: AggWindow;
}

const PREFIXES: readonly [string, AggWindow][] = [
  ["L7_", { kind: "trailing", count: 7, unit: "D", label: "7D" }],
  ["L30_", { kind: "trailing", count: 30, unit: "D", label: "30D" }],
  ["L90_", { kind: "trailing", count: 90, unit: "D", label: "90D" }],
  ["CM_", TO_DATE.MTD],
  ["CQ_", TO_DATE.QTD],
  ["LTM_", TO_DATE.LTM],
  ["YTD_", TO_DATE.YTD],
];

/** Where a prefix's first "_" is (each prefix ends with it): a metric whose first "_" is elsewhere has no prefix. */
const PREFIX_UNDERSCORES = new Set(PREFIXES.map(([prefix]) => prefix.indexOf("_")));

/** `L30_FEES` → FEES over the 30 days ending on each date (see prefixAggregation); null for an unprefixed metric. */
export function parsePrefixedMetric(metric: string): PrefixedMetric | null {
  // Most metrics (PRICE, TVL) have no "_" where a prefix ends one: no prefix is tried for them.
  if (!PREFIX_UNDERSCORES.has(metric.indexOf("_"))) return null;
  for (let i = 0; i < PREFIXES.length; i++) {
    const [prefix, window] = PREFIXES[i]!;
    if (metric.startsWith(prefix) && metric.length > prefix.length)
      return { prefix, base: metric.slice(prefix.length), window };
  }
  return null;
}

/** How a prefixed metric summarises its base over the window. */
export type PrefixAggregation = "SUM" | "AVERAGE";

/**
 * What a prefix means for its base metric, by the metric catalog's
 * `aggregation_type`: a SUM metric (fees, volumes) is summed over the window,
 * an AVERAGE metric (daily active users) averaged over its days with data.
 * A level (LAST: TVL, price, supply) has no meaningful sum of days, and the
 * Artemis prefix meant one, so it is refused, naming the MD.AGG formulas
 * that say what was likely meant. A type the catalog does not give (unread,
 * or a metric it does not describe) keeps the prefix's Artemis meaning: a sum.
 * `name`: the pair and the argument the message names (`metric`, or
 * `metrics` in a table).
 */
export function prefixAggregation(
  prefixed: PrefixedMetric,
  aggregationType: string | undefined,
  name: { symbol: string; metric: string; argument: string },
): PrefixAggregation {
  const type = (aggregationType ?? "").trim().toUpperCase();
  if (type === "AVERAGE") return "AVERAGE";
  if (type !== "LAST") return "SUM";
  const { base, window } = prefixed;
  const agg = (stat: string) => `MD.AGG("${name.symbol}", "${base}", "${window.label}", "${stat}")`;
  throw new ArgumentError(
    name.argument,
    `${name.metric} would add up daily levels of ${base}, whose aggregation_type is LAST. ` +
      `Use ${agg("AVG")} for its average over ${window.label}, or ${agg("LAST")} for its last value.`,
  );
}
