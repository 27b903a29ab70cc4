/** `/flows/top/` and the insight feeds over real HTTP. */
import type { InsightCard } from "../../src/core/domain";
import {
  addDays,
  expectSameSeries,
  getJson,
  type Point,
  series,
  startTestSandbox,
  TODAY,
  useSandbox,
  SANDBOX_SUITE,
} from "../support/sandbox";

const sandbox = useSandbox({ ...SANDBOX_SUITE, seed: 5 });

type Flows = Partial<Record<"inflow" | "outflow" | "netflow", Record<string, number>>>;
type ErrorBody = { error: { status: number; message: string } };

describe("/flows/top/", () => {
  const range = { startDate: "2024-01-01", endDate: "2024-03-31", granularity: "DAY", breakdown: "chains" };

  it("answers inflow, outflow and netflow without flowType, netflow = inflow − outflow exactly", async () => {
    const reply = await getJson<Flows>(sandbox, "/flows/top/", {
      ...range,
      sourceChains: "ethereum,solana,arbitrum,base,tron",
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(["inflow", "netflow", "outflow"]);
    const { inflow, outflow, netflow } = reply.body as Required<Flows>;
    expect(Object.keys(netflow).sort()).toEqual(["arbitrum", "base", "ethereum", "solana", "tron"]);
    for (const chain of Object.keys(netflow)) expect(netflow[chain]).toBe(inflow[chain] - outflow[chain]);
  });

  it.each(["inflow", "outflow", "netflow"] as const)(
    "flowType=%s answers that key only, with the same values",
    async (flowType) => {
      const all = await getJson<Flows>(sandbox, "/flows/top/", { ...range, sourceChains: "ethereum,solana" });
      const one = await getJson<Flows>(sandbox, "/flows/top/", { ...range, sourceChains: "ethereum,solana", flowType });
      expect(Object.keys(one.body)).toEqual([flowType]);
      expect(one.body[flowType]).toEqual(all.body[flowType]);
    },
  );

  it("keys chains by catalog platform_id whichever name was sent", async () => {
    const reply = await getJson<Flows>(sandbox, "/flows/top/", {
      ...range,
      sourceChains: "eth,SOL,bsc",
      flowType: "inflow",
    });
    expect(Object.keys(reply.body.inflow!).sort()).toEqual(["bsc", "ethereum", "solana"]);
  });

  it("has negative netflows somewhere, and totals that add up over adjacent windows", async () => {
    const whole = await getJson<Flows>(sandbox, "/flows/top/", { startDate: "2023-01-01", endDate: "2023-12-31" });
    const first = await getJson<Flows>(sandbox, "/flows/top/", { startDate: "2023-01-01", endDate: "2023-06-30" });
    const second = await getJson<Flows>(sandbox, "/flows/top/", { startDate: "2023-07-01", endDate: "2023-12-31" });
    const netflow = whole.body.netflow!;
    expect(Object.keys(netflow).length).toBeGreaterThan(10); // every chain when sourceChains is omitted
    expect(Object.values(netflow).some((value) => value < 0)).toBe(true);
    for (const key of ["inflow", "outflow", "netflow"] as const) {
      const sum = Object.fromEntries(
        Object.keys(whole.body[key]!).map((chain) => [chain, first.body[key]![chain] + second.body[key]![chain]]),
      );
      expect(whole.body[key]).toEqual(sum);
    }
  });

  it.each([
    [{ flowType: "sideways" }, "flowType"],
    [{ breakdown: "tokens" }, "breakdown"],
    [{ sourceChains: "ethereum,notachain" }, "notachain"],
    [{ sourceChains: "usdc" }, "usdc"],
    [{ granularity: "DECADE" }, "granularity"],
    [{ startDate: "2024-05-01", endDate: "2024-04-01" }, "after endDate"],
  ])("%j is refused with 400 naming the cause", async (params, cause) => {
    const reply = await getJson<ErrorBody>(sandbox, "/flows/top/", params);
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toContain(cause);
  });
});

describe("insight feeds", () => {
  const FLAGS = {
    streaks: ["streak_weekly", "streak_monthly", "streak_quarterly"],
    "decline-streaks": ["decline_streak_weekly", "decline_streak_monthly", "decline_streak_quarterly"],
  };
  const GRANULARITY: Record<string, string> = { weekly: "WEEK", monthly: "MONTH", quarterly: "QUARTER" };

  async function feed(name: string): Promise<InsightCard[]> {
    const reply = await getJson<{ rows: InsightCard[] }>(sandbox, `/insights/${name}/`, { APIKey: null });
    expect(reply.status).toBe(200);
    return reply.body.rows;
  }

  it.each(Object.entries(FLAGS))(
    "%s: every card carries the fields of 2.7, newest PERIOD_END_DATE first",
    async (name, flags) => {
      const cards = await feed(name);
      expect(cards.length).toBeGreaterThan(0);
      const ends = cards.map((c) => c.PERIOD_END_DATE);
      expect(ends).toEqual([...ends].sort().reverse());
      const decline = name === "decline-streaks";
      const bad = cards.filter(
        (c) =>
          c.DOMAIN !== "protocol" ||
          typeof c.ENTITY_ID !== "string" ||
          !/^[A-Z_]+$/.test(c.METRIC_NAME) ||
          !flags.includes(c.FLAG) ||
          !["CURRENCY", "NOMINAL"].includes(c.UNIT) ||
          c.METRIC_TYPE !== "flow" ||
          !Number.isInteger(c.DURATION) ||
          c.DURATION < 3 ||
          c.DATE_RANGE !== `${c.PERIOD_START_DATE} to ${c.PERIOD_END_DATE}` ||
          !/^\d{4}-\d{2}-\d{2}$/.test(c.PERIOD_START_DATE) ||
          c.PERIOD_END_DATE > TODAY ||
          c.FISCAL_YEAR_END !== null ||
          c.FISCAL_PERIOD_END !== null ||
          c.LATEST_REPORT_DATE !== null ||
          (decline ? !(c.END_VALUE < c.START_VALUE) : !(c.END_VALUE > c.START_VALUE)) ||
          // Growth: one baseline bar before the streak. Decline: a lead-in of 12 periods before it.
          c.SPARKLINE.length !== c.DURATION + (decline ? 12 : 1) ||
          c.SPARKLINE[c.SPARKLINE.length - c.DURATION].value !== c.START_VALUE ||
          c.SPARKLINE[c.SPARKLINE.length - 1].value !== c.END_VALUE,
      );
      expect(bad).toEqual([]);
      expect(new Set(cards.map((c) => c.FLAG)).size).toBeGreaterThan(1);
    },
  );

  it.each(["streaks", "decline-streaks"])(
    "%s: sparklines are the sandbox's own aggregated series, and the streak really moves",
    async (name) => {
      const cards = await feed(name);
      // One card per cadence is enough to prove the link.
      const sample = [...new Map(cards.map((c) => [c.FLAG, c])).values()];
      for (const card of sample) {
        const granularity = GRANULARITY[card.FLAG.split("_").pop()!];
        const points = await series(sandbox, card.ENTITY_ID, card.METRIC_NAME, {
          startDate: card.SPARKLINE[0].date,
          endDate: card.PERIOD_END_DATE,
          granularity,
        });
        const rounded: Point[] = points.map((p) => ({ date: p.date, val: Math.round(p.val * 100) / 100 }));
        expectSameSeries(
          card.SPARKLINE.map((p) => ({ date: p.date, val: p.value })),
          rounded,
        );
        const streak = card.SPARKLINE.slice(-card.DURATION - 1).map((p) => p.value);
        const moves = streak.slice(1).map((value, i) => Math.sign(value - streak[i]));
        expect(new Set(moves)).toEqual(new Set([name === "streaks" ? 1 : -1]));
        expect(card.PERIOD_START_DATE).toBe(card.SPARKLINE[card.SPARKLINE.length - card.DURATION].date);
        expect(addDays(card.PERIOD_END_DATE, 1) > card.SPARKLINE[card.SPARKLINE.length - 1].date).toBe(true);
      }
    },
  );

  it("computes a feed once per hour, and again after the cache is reset", async () => {
    const own = await startTestSandbox({ insightFirstCallDelayMs: 1 });
    try {
      // Three concurrent first calls share one computation.
      const first = await Promise.all(
        [1, 2, 3].map(() =>
          fetch(`${own.url}/insights/streaks/`).then((r) => r.json() as Promise<{ rows: InsightCard[] }>),
        ),
      );
      expect(first[0].rows.length).toBeGreaterThan(0);
      expect(first[1]).toEqual(first[0]);
      await fetch(`${own.url}/insights/streaks/`);
      expect(own.stats().insightComputations).toBe(1);
      await fetch(`${own.url}/insights/decline-streaks/`);
      expect(own.stats().insightComputations).toBe(2);
      own.resetInsightCache();
      await fetch(`${own.url}/insights/streaks/`);
      expect(own.stats().insightComputations).toBe(3);
    } finally {
      await own.close();
    }
  });

  it("holds the first uncached call back for the configured delay", async () => {
    const slow = await startTestSandbox({ insightFirstCallDelayMs: 800 });
    try {
      let settled = false;
      const first = fetch(`${slow.url}/insights/decline-streaks/`).then((response) => {
        settled = true;
        return response;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(settled).toBe(false);
      expect(slow.stats().insightComputations).toBe(0);
      expect((await first).status).toBe(200);
      expect(slow.stats().insightComputations).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it.each(["all-time-highs", "acceleration", "streak"])(
    "an unknown feed /insights/%s/ answers 404 JSON",
    async (name) => {
      const reply = await getJson<ErrorBody>(sandbox, `/insights/${name}/`, {});
      expect(reply.status).toBe(404);
      expect(reply.body.error).toEqual({ status: 404, message: expect.stringContaining(name) });
    },
  );
});
