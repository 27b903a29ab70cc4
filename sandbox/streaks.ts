/**
 * Growth and decline streak cards (interface 2.7, 4.5, 4.6), computed from the
 * sandbox's own series. A streak is the run of consecutive complete periods,
 * ending at the most recent complete period, in which the metric rose (growth)
 * or fell (decline) against the period before; cards need DURATION ≥ 3.
 *
 * START_VALUE and END_VALUE are the values of the first and last periods of
 * the streak. The sparkline holds, oldest first, the prior-period baseline and
 * the streak (growth), or a lead-in of 12 periods before the streak — the
 * baseline among them — and the streak (decline). Sparkline points are dated on
 * period starts, like the series endpoint's aggregated points.
 */
import { aggregate, type AggregationType, type DayPoint } from "./aggregate";
import { roundTo } from "./curve";
import { DATA_START_DAY, type Granularity, isoOfDay, periodEnd } from "./dates";
import { type DataContext, dailyPoints } from "./series";
import { resolveSymbol, metricSpecFor } from "./symbols";
import type { InsightCardWire } from "./wire-types";

export type Direction = "up" | "down";
export type Cadence = "weekly" | "monthly" | "quarterly";
export type StreakFeed = "streaks" | "decline-streaks";
export const STREAK_FEEDS: readonly StreakFeed[] = ["streaks", "decline-streaks"];

export const MIN_STREAK = 3;
export const DECLINE_LEAD_IN = 12;
export const CADENCE_GRANULARITY: Record<Cadence, Granularity> = {
  weekly: "WEEK",
  monthly: "MONTH",
  quarterly: "QUARTER",
};

export interface Period {
  start: number;
  end: number;
  value: number;
}

/** Aggregated periods that ended on or before `today` (the running period is left out). */
export function completedPeriods(
  points: readonly DayPoint[],
  granularity: Granularity,
  type: AggregationType,
  today: number,
): Period[] {
  return aggregate(points, granularity, type)
    .map((point) => ({ start: point.day, end: periodEnd(point.day, granularity), value: point.val }))
    .filter((period) => period.end <= today);
}

/** How many consecutive periods, ending with the last one, rose (or fell) against the period before. */
export function trailingStreak(periods: readonly Period[], direction: Direction): number {
  let length = 0;
  for (let i = periods.length - 1; i > 0; i--) {
    const moved =
      direction === "up" ? periods[i].value > periods[i - 1].value : periods[i].value < periods[i - 1].value;
    if (!moved) break;
    length++;
  }
  return length;
}

export interface StreakSubject {
  entityId: string;
  metric: string;
  unit: string;
  cadence: Cadence;
}

export function streakCard(
  subject: StreakSubject,
  periods: readonly Period[],
  duration: number,
  direction: Direction,
): InsightCardWire {
  const n = periods.length;
  const first = periods[n - duration];
  const last = periods[n - 1];
  const leadIn = direction === "up" ? 1 : DECLINE_LEAD_IN;
  const sparkline = periods.slice(Math.max(0, n - duration - leadIn));
  const start = isoOfDay(first.start);
  const end = isoOfDay(last.end);
  return {
    DOMAIN: "protocol",
    ENTITY_ID: subject.entityId,
    METRIC_NAME: subject.metric,
    FLAG: `${direction === "down" ? "decline_" : ""}streak_${subject.cadence}`,
    UNIT: subject.unit,
    METRIC_TYPE: "flow",
    DURATION: duration,
    DATE_RANGE: `${start} to ${end}`,
    START_VALUE: roundTo(first.value, 2),
    END_VALUE: roundTo(last.value, 2),
    PERIOD_START_DATE: start,
    PERIOD_END_DATE: end,
    FISCAL_YEAR_END: null,
    FISCAL_PERIOD_END: null,
    LATEST_REPORT_DATE: null,
    SPARKLINE: sparkline.map((period) => ({ date: isoOfDay(period.start), value: roundTo(period.value, 2) })),
  };
}

/** Newest streaks first; ties broken so the order is stable. */
export function compareCards(a: InsightCardWire, b: InsightCardWire): number {
  return (
    b.PERIOD_END_DATE.localeCompare(a.PERIOD_END_DATE) ||
    b.DURATION - a.DURATION ||
    a.ENTITY_ID.localeCompare(b.ENTITY_ID) ||
    a.METRIC_NAME.localeCompare(b.METRIC_NAME) ||
    a.FLAG.localeCompare(b.FLAG)
  );
}

/**
 * Every card of a feed: the catalog's named chains, tokens, stablecoins and
 * categories (not equities, not filler tokens), each of their flow metrics
 * (aggregation SUM), at weekly, monthly and quarterly cadence.
 */
export function computeStreakCards(ctx: DataContext, feed: StreakFeed): InsightCardWire[] {
  const direction: Direction = feed === "streaks" ? "up" : "down";
  const cards: InsightCardWire[] = [];
  for (const entry of ctx.catalog.entries) {
    if (entry.kind === "equity" || entry.filler) continue;
    const symbol = resolveSymbol(ctx.catalog, ctx.seed, entry.record.platform_id);
    if (!symbol) continue;
    for (const metric of symbol.metrics) {
      const spec = metricSpecFor(symbol, metric);
      if (!spec || spec.aggregation !== "SUM") continue;
      const daily = dailyPoints(ctx, symbol, spec, {
        startDay: DATA_START_DAY,
        endDay: ctx.today,
        granularity: "DAY",
        limit: Number.MAX_SAFE_INTEGER,
      });
      for (const cadence of Object.keys(CADENCE_GRANULARITY) as Cadence[]) {
        const periods = completedPeriods(daily, CADENCE_GRANULARITY[cadence], spec.aggregation, ctx.today);
        const duration = trailingStreak(periods, direction);
        if (duration >= MIN_STREAK)
          cards.push(
            streakCard({ entityId: symbol.id, metric, unit: spec.unit, cadence }, periods, duration, direction),
          );
      }
    }
  }
  return cards.sort(compareCards);
}
