import { planRequests, type PlanLimits } from "../../../src/api/series/batch-plan";
import { listChars, requestUrl, seriesRequest, seriesUrlLength } from "../../../src/api/http/requests";

const BASE = "https://md.example.test";
const KEY = "key-0123456789";
const WINDOW = { start: "2025-01-01", end: "2025-01-31" };

function limits(overrides: Partial<PlanLimits> = {}): PlanLimits {
  return {
    maxSymbols: 50,
    maxMetrics: 20,
    maxSeries: 1000,
    maxUrlLength: 2000,
    urlLength: seriesUrlLength(BASE, KEY, WINDOW),
    itemChars: (item) => listChars([item]),
    ...overrides,
  };
}

const pairs = (symbols: string[], metrics: string[]) =>
  symbols.flatMap((symbol) => metrics.map((metric) => ({ symbol, metric })));
const range = (n: number, prefix = "s") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("planRequests", () => {
  it("puts a comps grid into ceil(symbols / 50) requests carrying exactly the grid", () => {
    const input = pairs(range(120), ["PRICE", "FEES", "DAU"]);
    const plan = planRequests(input, limits());
    expect(plan.map((r) => r.symbols.length)).toEqual([50, 50, 20]);
    for (const r of plan) expect(r.metrics).toEqual(["PRICE", "FEES", "DAU"]);
    expect(plan.flatMap((r) => r.pairs)).toHaveLength(input.length);
  });

  it("answers every pair exactly once, from a request that carries it", () => {
    const input = [
      ...pairs(range(30, "a"), ["PRICE"]),
      ...pairs(range(30, "b"), ["FEES", "DAU"]),
      ...pairs(["a1"], ["TVL"]),
    ];
    const plan = planRequests(input, limits({ maxSymbols: 25 }));
    const answered = plan.flatMap((r) => r.pairs);
    expect(new Set(answered)).toEqual(new Set(input));
    expect(answered).toHaveLength(input.length);
    for (const r of plan) {
      for (const p of r.pairs) {
        expect(r.symbols).toContain(p.symbol);
        expect(r.metrics).toContain(p.metric);
      }
      expect(r.symbols.length).toBeLessThanOrEqual(25);
    }
  });

  it("places symbols with the same metric set together", () => {
    // Interleaved arrival: equity, crypto, equity, crypto…
    const input = range(8).flatMap((_, i) => (i % 2 ? pairs([`c${i}`], ["FEES", "DAU"]) : pairs([`e${i}`], ["PRICE"])));
    const plan = planRequests(input, limits({ maxSymbols: 4 }));
    expect(plan.map((r) => r.metrics)).toEqual([["PRICE"], ["FEES", "DAU"]]);
  });

  it("keeps every URL under the length cap", () => {
    const long = range(300, "a-rather-long-symbol-name-");
    const plan = planRequests(pairs(long, ["PRICE", "FEES"]), limits({ maxSymbols: 1000, maxUrlLength: 1000 }));
    expect(plan.length).toBeGreaterThan(1);
    for (const r of plan) {
      const url = requestUrl(BASE, seriesRequest({ ...WINDOW, symbols: r.symbols, metrics: r.metrics }), KEY);
      expect(url.length).toBeLessThanOrEqual(1000);
    }
  });

  it("splits one symbol's metrics when they alone exceed the caps", () => {
    const metrics = range(45, "METRIC_NUMBER_").map((m) => m.toUpperCase());
    const plan = planRequests(pairs(["eth"], metrics), limits({ maxMetrics: 20 }));
    expect(plan.map((r) => r.metrics.length)).toEqual([20, 20, 5]);
    expect(plan.flatMap((r) => r.metrics)).toEqual(metrics);
  });

  it("caps series per request (symbols × metrics)", () => {
    const plan = planRequests(pairs(range(40), ["A", "B", "C", "D", "E"]), limits({ maxSeries: 50 }));
    for (const r of plan) expect(r.symbols.length * r.metrics.length).toBeLessThanOrEqual(50);
    expect(plan).toHaveLength(4);
  });

  it("sends one pair per request when both caps are 1 (no coalescing)", () => {
    const plan = planRequests(pairs(range(3), ["A", "B"]), limits({ maxSymbols: 1, maxMetrics: 1 }));
    expect(plan.map((r) => `${r.symbols}/${r.metrics}`).sort()).toEqual([
      "s0/A",
      "s0/B",
      "s1/A",
      "s1/B",
      "s2/A",
      "s2/B",
    ]);
  });
});
