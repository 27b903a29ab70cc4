/**
 * The client over real HTTP against the sandbox, with faults switched on:
 * every answer must equal the fault-free answer or be a clear typed error,
 * and no promise may stay pending. Reference answers are fetched with plain
 * fetch, one pair and one calendar year at a time, so they do not depend on
 * the client's batching or chunking.
 */
import { createClient, type Client, type ClientOptions } from "../../src/api/client";
import {
  AuthError,
  BadResponseError,
  CancelledError,
  MarketDataError,
  NetworkError,
  RateLimitError,
} from "../../src/api/errors";
import type { DataPoint, SeriesResult } from "../../src/core/domain";
import type { SeriesRequest } from "../../src/api/types";
import { addMonths } from "../../src/core/calendar";
import { isoToSerial } from "../../src/core/excel-date";
import { seriesTable } from "../../src/functions/series";
import { DEMO_API_KEY, type SandboxHandle } from "../../sandbox/server";
import { settleWithin } from "../support/real-http";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const TODAY = TEST_TODAY;

const sandbox = useSandbox({ port: 0, today: TODAY, seed: 11, assetCount: 300, insightFirstCallDelayMs: 0 });
beforeEach(() => {
  sandbox.reset();
});

function client(options: Partial<ClientOptions> = {}, logs: string[] = []): Client {
  return createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: `${sandbox.url}/` }),
    retries: 6,
    retryBaseMs: 5,
    retryMaxMs: 40,
    retryAfterMaxMs: 2_000,
    timeoutMs: 5_000,
    logger: (line) => logs.push(line),
    ...options,
  });
}

/**
 * The series as the sandbox serves it, one plain request per pair — per
 * calendar year for daily data (over 1,000 days otherwise); coarser windows
 * in this workload fit one request, and must not be cut mid-period.
 */
async function reference(req: SeriesRequest): Promise<SeriesResult> {
  const start = req.start!;
  const end = req.end!;
  const daily = (req.granularity ?? "DAY") === "DAY";
  const points: DataPoint[] = [];
  const [first, last] = daily ? [Number(start.slice(0, 4)), Number(end.slice(0, 4))] : [0, 0];
  for (let year = first; year <= last; year++) {
    const from = !daily || year === first ? start : `${year}-01-01`;
    const to = !daily || year === last ? end : `${year}-12-31`;
    const granularity = req.granularity ? `&granularity=${req.granularity}` : "";
    const url = `${sandbox.url}/data/api/${req.metric}/?symbols=${req.symbol}&startDate=${from}&endDate=${to}${granularity}&APIKey=${DEMO_API_KEY}`;
    const body = (await (await fetch(url)).json()) as { data: { symbols: Record<string, Record<string, unknown>> } };
    const series = body.data.symbols[req.symbol]![req.metric];
    if (typeof series === "string") return { kind: "message", message: series };
    points.push(...((series as DataPoint[] | undefined) ?? []));
  }
  return { kind: "points", points };
}

let workload: SeriesRequest[] = [];
let expected: SeriesResult[] = [];

beforeAll(async () => {
  // Symbols from the sandbox's own catalog: core chains and filler tokens.
  const assets = await client().getAssets();
  const crypto = assets.filter((a) => !a.symbol.startsWith("eq-")).map((a) => a.symbol);
  const equities = assets.filter((a) => a.symbol.startsWith("eq-")).map((a) => a.symbol);
  const recent = { start: "2025-04-01", end: TODAY };
  workload = [
    ...crypto
      .slice(0, 30)
      .flatMap((symbol) => ["FEES", "DAU", "PRICE"].map((metric) => ({ symbol, metric, ...recent }))),
    ...equities.slice(0, 10).map((symbol) => ({ symbol, metric: "PRICE", ...recent })),
    ...equities.slice(0, 3).map((symbol) => ({
      symbol,
      metric: "TOTAL_REVENUE",
      start: "2023-01-01",
      end: TODAY,
      granularity: "QUARTER" as const,
    })),
    { symbol: crypto[0]!, metric: "FEES", start: "2019-01-01", end: TODAY }, // > 1,000 days: split
    { symbol: crypto[1]!, metric: "PRICE", start: "2018-01-01", end: TODAY, granularity: "WEEK" },
    { symbol: "no-such-asset", metric: "PRICE", ...recent }, // a message string
    { symbol: equities[0]!, metric: "NO_SUCH_METRIC", ...recent },
  ];
  expected = await Promise.all(workload.map(reference));
  sandbox.reset();
});

describe("against the sandbox", () => {
  it("answers a fault-free workload exactly, in few requests", async () => {
    const c = client();
    const results = await settleWithin(
      workload.map((r) => c.getSeries(r)),
      20_000,
    );
    results.forEach((r, i) => {
      expect(r.status).toBe("fulfilled");
      expect((r as PromiseFulfilledResult<SeriesResult>).value).toEqual(expected[i]);
    });
    expect(expected.some((e) => e.kind === "message")).toBe(true);
    // 30 crypto + 10 equities share one window: 1 request per 50 symbols; plus the other windows.
    expect(sandbox.stats().byEndpoint["/data/api/"]).toBeLessThanOrEqual(8);
  });

  it("gives every caller the right answer or a clear error under 5xx, 429, dropped connections and bad JSON", async () => {
    sandbox.setFaults({
      serverErrorRate: 0.15,
      rateLimitRate: 0.1,
      retryAfterSeconds: 0,
      dropRate: 0.1,
      badJsonRate: 0.1,
    });
    const logs: string[] = [];
    // Small requests, so that there are many of them and many faults.
    const c = client({ maxSymbolsPerRequest: 3 }, logs);
    const results = await settleWithin(
      workload.map((r) => c.getSeries(r)),
      30_000,
    );
    let correct = 0;
    results.forEach((r, i) => {
      if (r.status === "fulfilled") {
        expect(r.value).toEqual(expected[i]);
        correct += 1;
      } else {
        expect(r.reason).toBeInstanceOf(MarketDataError);
        expect((r.reason as Error).message).toMatch(/market-data service/);
        expect((r.reason as Error).message).not.toContain(DEMO_API_KEY);
      }
    });
    const stats = sandbox.stats();
    expect(stats.faultsInjected.total).toBeGreaterThan(0);
    expect(c.counters().retries).toBeGreaterThan(0);
    expect(correct).toBeGreaterThan(workload.length / 2);
    for (const line of logs) expect(line).not.toContain(DEMO_API_KEY);
    expect(c.state()).toMatchObject({ queued: 0, inFlight: 0 });
  });

  it.each<[string, Parameters<SandboxHandle["setFaults"]>[0], new (...args: never[]) => MarketDataError, RegExp]>([
    [
      "every connection dropped",
      { dropRate: 1 },
      NetworkError,
      /^Could not reach the market-data service at http:\/\/127\.0\.0\.1:\d+\/data\/api\/[A-Z_,]+\/: .+; retried 2 times\.$/,
    ],
    [
      "every body cut short",
      { badJsonRate: 1 },
      BadResponseError,
      /^The market-data service sent an unreadable response .+; retried 2 times\.$/,
    ],
    [
      "every request rate limited",
      { rateLimitRate: 1, retryAfterSeconds: 0 },
      RateLimitError,
      /^Rate limited by the market-data service \(HTTP 429: Rate limit exceeded .+\); retried 2 times\.$/,
    ],
  ])("rejects every caller clearly when %s, leaving none pending", async (_name, faults, type, message) => {
    sandbox.setFaults(faults);
    const c = client({ retries: 2 });
    const results = await settleWithin(
      workload.slice(0, 20).map((r) => c.getSeries(r)),
      20_000,
    );
    for (const r of results) {
      expect(r.status).toBe("rejected");
      const reason = (r as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(type);
      expect(reason.message).toMatch(message);
    }
  });

  it("waits as Retry-After asks, and gives up at once when it asks too much", async () => {
    sandbox.setFaults({ rateLimitRate: 1, retryAfterSeconds: 1 });
    const patient = client({ retries: 1, retryAfterMaxMs: 5_000 });
    await expect(patient.getSeries(workload[0]!)).rejects.toThrow("retried 1 time.");
    expect(sandbox.stats().byStatus["429"]).toBe(2);

    sandbox.reset();
    sandbox.setFaults({ rateLimitRate: 1, retryAfterSeconds: 60 });
    const hurried = client({ retries: 4, retryAfterMaxMs: 5_000 });
    await expect(hurried.getSeries(workload[0]!)).rejects.toThrow("the service asked to wait 60 s.");
    expect(sandbox.stats().byStatus["429"]).toBe(1);
  });

  it("isolates a refused caller: a financial at DAY fails alone, its batch-mates succeed", async () => {
    const c = client();
    const good = workload.slice(0, 6).map((r) => ({ ...r }));
    const bad: SeriesRequest = {
      symbol: good[0]!.symbol,
      metric: "NET_INCOME",
      start: good[0]!.start!,
      end: good[0]!.end!,
    };
    const results = await settleWithin(
      [...good, bad].map((r) => c.getSeries(r)),
      20_000,
    );
    results.slice(0, 6).forEach((r, i) => expect(r).toEqual({ status: "fulfilled", value: expected[i] }));
    const refused = results[6] as PromiseRejectedResult;
    expect(refused.status).toBe("rejected");
    expect((refused.reason as Error).message).toBe(
      "The market-data service refused the request (HTTP 400: NET_INCOME is a fiscal-quarter financial: request granularity=QUARTER (got DAY, the default)).",
    );
  });

  it("reports a wrong key clearly from testConnection, and passes with the right one", async () => {
    const wrong = createClient({ settings: async () => ({ apiKey: "not-the-key", baseUrl: sandbox.url }) });
    const error = await wrong.testConnection().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toBe(
      "The market-data service rejected the API key (HTTP 401: Invalid API key). Enter a valid key in the Market Data pane.",
    );
    expect((error as Error).message).not.toContain("not-the-key");
    await expect(client().testConnection()).resolves.toMatchObject({ ok: true });
  });

  it("reads catalogs, feeds and flows", async () => {
    const c = client();
    const [assets, metrics, streaks, flows] = await Promise.all([
      c.getAssets(),
      c.getMetrics("eth"),
      c.getInsights("streaks"),
      c.getFlows({
        sourceChains: ["ethereum", "solana"],
        flowTypes: ["inflow", "outflow", "netflow"],
        start: "2025-05-01",
        end: TODAY,
      }),
    ]);
    expect(assets.length).toBeGreaterThanOrEqual(300);
    expect(metrics.map((m) => m.name)).toContain("PRICE");
    expect(streaks.length).toBeGreaterThan(0);
    for (const chain of ["ethereum", "solana"]) {
      expect(flows.netflow![chain]).toBeCloseTo(flows.inflow![chain]! - flows.outflow![chain]!, 0);
    }
  });

  it("widens a free-cash-flow ratio the service answers sparsely: the pane's preview and MD.SERIES read the same values", async () => {
    // Mid-quarter window: no fiscal period end inside, so the raw answer is empty or partial.
    const window = { start: "2024-04-08", end: "2024-05-17" };
    const raw = async (start: string) => {
      const url = `${sandbox.url}/data/api/FCF_YIELD/?symbols=eq-coin&startDate=${start}&endDate=${window.end}&APIKey=${DEMO_API_KEY}`;
      const body = (await (await fetch(url)).json()) as { data: { symbols: Record<string, Record<string, unknown>> } };
      return (body.data.symbols["eq-coin"]!.FCF_YIELD as DataPoint[]).filter((p) => p.date >= window.start);
    };
    const short = await raw(window.start);
    const wide = await raw(addMonths(window.start, -12));
    expect(short.length).toBeLessThan(wide.length);
    sandbox.reset();

    const c = client();
    // The preview asks with a granularity; MD.SERIES asks through the same client with its own context.
    const preview = await c.getSeries({ symbol: "eq-coin", metric: "FCF_YIELD", ...window, granularity: "DAY" });
    expect(preview).toEqual({ kind: "points", points: wide });
    const table = await seriesTable(
      { client: client(), today: TODAY, call: {} },
      { symbols: "eq-coin", metrics: "FCF_YIELD", start: window.start, end: window.end },
    );
    expect(table.slice(1)).toEqual(wide.map((p) => [isoToSerial(p.date), p.val]));
  });

  it("cancels a slow request over real HTTP", async () => {
    sandbox.setLatency(2_000);
    const c = client();
    const controller = new AbortController();
    const p = c.getSeries(workload[0]!, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const [result] = await settleWithin([p], 1_500);
    expect((result as PromiseRejectedResult).reason).toBeInstanceOf(CancelledError);
    expect(c.state()).toMatchObject({ queued: 0, inFlight: 0 });
  });
});
