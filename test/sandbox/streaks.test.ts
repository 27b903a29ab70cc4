import { aggregate } from "../../sandbox/aggregate";
import { AssetCatalog } from "../../sandbox/asset-catalog";
import { isoOfDay, parseIsoDay, periodEnd } from "../../sandbox/dates";
import {
  compareCards,
  completedPeriods,
  computeStreakCards,
  DECLINE_LEAD_IN,
  MIN_STREAK,
  type Period,
  streakCard,
  trailingStreak,
} from "../../sandbox/streaks";
import { TODAY } from "../support/sandbox";

/** Monthly periods from January 2023 with the given values. */
function months(values: number[]): Period[] {
  return values.map((value, i) => {
    const start = parseIsoDay(`${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}-01`)!;
    return { start, end: periodEnd(start, "MONTH"), value };
  });
}

describe("trailingStreak on crafted series", () => {
  it.each([
    [[1, 2, 3, 4], "up", 3],
    [[5, 1, 2, 3, 4], "up", 3],
    [[1, 2, 3, 3], "up", 0], // a flat period ends a streak
    [[4, 3, 2, 1], "up", 0],
    [[4, 3, 2, 1], "down", 3],
    [[1, 9, 8, 7, 6, 5], "down", 4],
    [[1, 2, 1, 2], "up", 1],
    [[7], "up", 0],
    [[], "down", 0],
  ] as const)("%j %s → %i", (values, direction, expected) => {
    expect(trailingStreak(months([...values]), direction)).toBe(expected);
  });
});

describe("streakCard on crafted series", () => {
  const subject = { entityId: "ethereum", metric: "FEES", unit: "CURRENCY", cadence: "monthly" as const };

  it("a growth card brackets the streak and its sparkline has one baseline bar", () => {
    const periods = months([50, 40, 10, 20, 30, 45]);
    const duration = trailingStreak(periods, "up");
    const card = streakCard(subject, periods, duration, "up");
    expect(card).toMatchObject({
      DOMAIN: "protocol",
      ENTITY_ID: "ethereum",
      METRIC_NAME: "FEES",
      FLAG: "streak_monthly",
      UNIT: "CURRENCY",
      METRIC_TYPE: "flow",
      DURATION: 3,
      START_VALUE: 20,
      END_VALUE: 45,
      PERIOD_START_DATE: "2023-04-01",
      PERIOD_END_DATE: "2023-06-30",
      DATE_RANGE: "2023-04-01 to 2023-06-30",
      FISCAL_YEAR_END: null,
      FISCAL_PERIOD_END: null,
      LATEST_REPORT_DATE: null,
    });
    expect(card.SPARKLINE).toEqual(periods.slice(-4).map((p) => ({ date: isoOfDay(p.start), value: p.value })));
  });

  it("a decline card has a lead-in of 12 periods before the streak", () => {
    const values = Array.from({ length: 20 }, (_, i) => (i < 16 ? 100 + (i % 2) : 90 - i));
    const periods = months(values);
    const duration = trailingStreak(periods, "down");
    expect(duration).toBe(4);
    const card = streakCard({ ...subject, cadence: "quarterly" }, periods, duration, "down");
    expect(card.FLAG).toBe("decline_streak_quarterly");
    expect(card.END_VALUE).toBeLessThan(card.START_VALUE);
    expect(card.SPARKLINE).toHaveLength(DECLINE_LEAD_IN + duration);
    expect(card.SPARKLINE.map((p) => p.value)).toEqual(values.slice(-(DECLINE_LEAD_IN + duration)));
  });

  it("a decline card keeps what history there is when it is shorter than the lead-in", () => {
    const periods = months([9, 8, 7, 6]);
    const card = streakCard(subject, periods, trailingStreak(periods, "down"), "down");
    expect(card.SPARKLINE.map((p) => p.value)).toEqual([9, 8, 7, 6]);
  });
});

describe("completedPeriods", () => {
  it("leaves out the running period", () => {
    const today = parseIsoDay("2024-06-12")!;
    const points = Array.from({ length: 60 }, (_, i) => ({ day: today - 59 + i, val: 1 }));
    const periods = completedPeriods(points, "WEEK", "SUM", today);
    expect(periods.every((p) => p.end <= today)).toBe(true);
    expect(periods.length).toBe(aggregate(points, "WEEK", "SUM").length - 1);
  });
});

describe("computeStreakCards", () => {
  const ctx = { seed: 3, today: parseIsoDay(TODAY)!, catalog: new AssetCatalog(3, 100) };

  it.each(["streaks", "decline-streaks"] as const)(
    "%s: cards are real streaks of at least %i periods, newest first",
    (feed) => {
      const cards = computeStreakCards(ctx, feed);
      expect(cards.length).toBeGreaterThan(0);
      expect([...cards].sort(compareCards)).toEqual(cards);
      const ends = cards.map((card) => card.PERIOD_END_DATE);
      expect(ends).toEqual([...ends].sort().reverse());
      const rising = feed === "streaks";
      const broken = cards.filter((card) => {
        const streak = card.SPARKLINE.slice(-card.DURATION - 1).map((p) => p.value);
        const moves = streak.slice(1).every((value, i) => (rising ? value > streak[i] : value < streak[i]));
        return (
          card.DURATION < MIN_STREAK ||
          !moves ||
          card.PERIOD_END_DATE > TODAY ||
          card.DATE_RANGE !== `${card.PERIOD_START_DATE} to ${card.PERIOD_END_DATE}`
        );
      });
      expect(broken).toEqual([]);
    },
  );
});
