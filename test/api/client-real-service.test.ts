/**
 * Item 2 over real HTTP: the client against the sandbox's realistic mode (the
 * real service as real-service.md reports it), a contract-true sandbox with
 * the same seed and day as the reference. Sentences in place of series,
 * `data.symbols` a sentence, null newest days, case echo, empty 200 answers
 * retried, the catalog's real field names and null or upper-case symbols; no
 * date-less request ever leaves the client; nothing pending, the key nowhere.
 */
import { createClient, type Client } from "../../src/api/client";
import type { SeriesResult } from "../../src/core/domain";
import { SENTENCES } from "../../sandbox/realistic";
import { DEMO_API_KEY, type SandboxHandle } from "../../sandbox/server";
import { expectNoKey, settleWithin } from "../support/real-http";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const TODAY = TEST_TODAY;
const options = { today: TODAY, insightFirstCallDelayMs: 0, assetCount: 1000 };
const real = useSandbox({ ...options, realistic: true });
const plain = useSandbox(options);
beforeEach(() => {
  real.reset();
  plain.reset();
});

function client(sandbox: SandboxHandle, logs: string[] = []): Client {
  return createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    retryBaseMs: 5,
    retryMaxMs: 20,
    logger: (line) => logs.push(line),
  });
}

const WINDOW = { start: "2025-06-01", end: TODAY };

describe("the client against the realistic service", () => {
  it("series: values as the contract's, the newest days null, sentences kept verbatim, empty answers retried", async () => {
    const logs: string[] = [];
    const c = client(real, logs);
    const ask = (cl: Client) =>
      Promise.all([
        cl.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }),
        cl.getSeries({ symbol: "sol", metric: "FEES", ...WINDOW }),
        cl.getSeries({ symbol: "base", metric: "PRICE", ...WINDOW }),
        cl.getSeries({ symbol: "nosuchcoin", metric: "PRICE", ...WINDOW }),
        cl.getSeries({ symbol: "eth", metric: "NO_SUCH_METRIC", ...WINDOW }),
      ]);
    // Twelve rounds on fresh clients: every 10th answer is an empty 200, so some of these meet one.
    let got: SeriesResult[] = [];
    for (let round = 0; round < 12; round++) {
      const [results] = await settleWithin([ask(round === 0 ? c : client(real, logs))], 10_000);
      expect(results!.status).toBe("fulfilled");
      got = (results as PromiseFulfilledResult<SeriesResult[]>).value;
    }
    const [eth, sol, base, unknown, metric] = got;
    const [ethRef, solRef] = await Promise.all([
      client(plain).getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }),
      client(plain).getSeries({ symbol: "sol", metric: "FEES", ...WINDOW }),
    ]);
    for (const [result, ref] of [
      [eth, ethRef],
      [sol, solRef],
    ] as const) {
      if (result!.kind !== "points" || ref.kind !== "points") throw new Error("expected points");
      expect(result!.points.slice(0, -2)).toEqual(ref.points.slice(0, -2));
      expect(result!.points.at(-1)).toEqual({ date: TODAY, val: null });
      expect([null, 0]).toContain(result!.points.at(-2)!.val); // a null or a 0 placeholder, as the service sends
    }
    expect(base).toEqual({ kind: "message", message: SENTENCES.metricNotAvailable });
    expect(unknown).toEqual({ kind: "message", message: SENTENCES.marketDataNotAvailable });
    expect(metric).toEqual({ kind: "message", message: SENTENCES.metricNotFound });
    expect(real.stats().quirks["empty-body"]).toBeGreaterThan(0);
    expect(logs.some((line) => /empty/i.test(line))).toBe(true);
    expectNoKey([got, logs], DEMO_API_KEY);
  });

  it("data.symbols a sentence is no data (an empty series), not a malformed answer", async () => {
    const result = await client(real).getSeries({
      symbol: "eth",
      metric: "PRICE",
      start: "2010-01-01",
      end: "2010-01-31",
    });
    expect(result).toEqual({ kind: "points", points: [] });
    // It was asked, and the service answered its sentence.
    const raw = await fetch(
      `${real.url}/data/api/PRICE/?symbols=eth&startDate=2010-01-01&endDate=2010-01-31&APIKey=${DEMO_API_KEY}`,
    );
    expect(((await raw.json()) as { data: { symbols: unknown } }).data.symbols).toBe(SENTENCES.latestNotAvailable);
    expect(real.stats().byEndpoint["/data/api/"]).toBe(2);
  });

  it("no date-less series request leaves the client: every request carries both dates", async () => {
    const c = client(real);
    await Promise.all([
      c.getSeries({ symbol: "eth", metric: "PRICE" }),
      c.getSeries({ symbol: "eth", metric: "FEES", end: TODAY }),
      c.testConnection(),
    ]);
    const series = real.requestLog().filter((entry) => entry.path.startsWith("/data/api/"));
    expect(series.length).toBeGreaterThan(2);
    for (const entry of series) {
      const params = new URLSearchParams(entry.query);
      expect(params.get("startDate")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(params.get("endDate")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("the catalog with artemis_id and coingecko_id, upper-case and null symbols: the contract's records", async () => {
    const [assets, reference] = await Promise.all([client(real).getAssets(), client(plain).getAssets()]);
    expect(assets).toHaveLength(reference.length);
    const byId = new Map(reference.map((a) => [a.platform_id, a]));
    let nullSymbols = 0;
    for (const asset of assets) {
      const ref = byId.get(asset.platform_id)!;
      expect(asset.aggregator_id).toBe(ref.aggregator_id);
      expect(asset.title).toBe(ref.title);
      // A null symbol: the platform id stands in (the service accepts it as a symbol).
      if (asset.symbol === ref.symbol) continue;
      expect(asset.symbol).toBe(asset.platform_id);
      nullSymbols++;
    }
    expect(nullSymbols).toBeGreaterThan(5);
  });
});
