/**
 * Item 4 over real HTTP: every call settles by its deadline whatever the
 * service does (here, answers whose body never ends), and catalogs and insight
 * feeds have their own lane: stuck series requests never make the asset
 * catalog wait, and stuck catalog requests never make series wait.
 */
import { createClient, type Client, type ClientOptions } from "../../src/api/client";
import { CancelledError, TimeoutError } from "../../src/api/errors";
import { DEMO_API_KEY } from "../../sandbox/server";
import { expectNoKey, settleWithin } from "../support/real-http";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const TODAY = TEST_TODAY;

const sandbox = useSandbox({ today: TODAY, insightFirstCallDelayMs: 0, assetCount: 300 });
beforeEach(() => sandbox.reset());

function client(options: Partial<ClientOptions> = {}): Client {
  return createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    retryBaseMs: 5,
    retryMaxMs: 20,
    ...options,
  });
}

/** Twelve windows, so twelve series requests: three times the series lane's four. */
const windows = Array.from({ length: 12 }, (_, i) => ({
  start: `2025-0${1 + (i % 5)}-01`,
  end: `2025-0${1 + (i % 5)}-${10 + i}`,
}));

describe("deadlines", () => {
  it("a body that never ends: every call fails at its deadline, none pending, the requests aborted", async () => {
    sandbox.setHostile({ endlessBody: true });
    const c = client({ callDeadlineMs: 2_000, slowCallDeadlineMs: 3_000, timeoutMs: 30_000 });
    const started = Date.now();
    const calls: Promise<unknown>[] = [
      ...windows.map((w) => c.getSeries({ symbol: "eth", metric: "PRICE", ...w })),
      c.getAssets(),
      c.getFlows({ sourceChains: ["ethereum"], flowTypes: ["netflow"], ...windows[0]! }),
    ];
    const results = await settleWithin(calls, 8_000);
    const seconds = (Date.now() - started) / 1000;
    for (const r of results) {
      expect(r.status).toBe("rejected");
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(TimeoutError);
    }
    expect(((results[0] as PromiseRejectedResult).reason as Error).message).toBe(
      "No answer from the market-data service within 2 s (eth PRICE).",
    );
    expect(((results[12] as PromiseRejectedResult).reason as Error).message).toBe(
      "No answer from the market-data service within 3 s (the asset catalog).",
    );
    expect(seconds).toBeLessThan(5);
    // Nobody waits any more: the requests were aborted, nothing is left pending in the client.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(c.state()).toMatchObject({ queued: 0, inFlight: 0 });
    expectNoKey(results, DEMO_API_KEY);
    console.log(`endless bodies: ${calls.length} calls settled in ${seconds.toFixed(1)} s`);
  });

  it("a caller's own deadline (CallOptions.deadlineMs) overrides the client's", async () => {
    sandbox.setHostile({ endlessBody: ["/data/api/"] });
    const started = Date.now();
    const error = await client()
      .getSeries({ symbol: "eth", metric: "PRICE", ...windows[0]! }, { deadlineMs: 500 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a caller's cancellation is still a cancellation, not a timeout", async () => {
    sandbox.setHostile({ endlessBody: ["/data/api/"] });
    const controller = new AbortController();
    const call = client().getSeries({ symbol: "eth", metric: "PRICE", ...windows[0]! }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toBeInstanceOf(CancelledError);
  });
});

describe("lanes", () => {
  it("stuck series requests never make the asset catalog or a metric catalog wait", async () => {
    sandbox.setHostile({ endlessBody: ["/data/api/"] });
    const c = client({ callDeadlineMs: 6_000 });
    const series = windows.map((w) => c.getSeries({ symbol: "eth", metric: "PRICE", ...w }));
    await new Promise((resolve) => setTimeout(resolve, 300)); // the series lane is full of stuck requests
    const started = Date.now();
    const [assets, metrics] = await Promise.all([c.getAssets(), c.getMetrics("eth")]);
    const ms = Date.now() - started;
    expect(assets.length).toBe(300);
    expect(metrics.some((m) => m.name === "PRICE")).toBe(true);
    expect(ms).toBeLessThan(3_000);
    const settled = await settleWithin(series, 10_000);
    expect(settled.every((r) => r.status === "rejected")).toBe(true);
    console.log(`catalogs answered in ${ms} ms beside 12 stuck series requests`);
  });

  it("stuck catalog and insight requests never make series wait", async () => {
    sandbox.setHostile({ endlessBody: ["/supported-metrics/", "/insights/", "/asset/symbols/"] });
    const c = client({ slowCallDeadlineMs: 6_000 });
    const stuck: Promise<unknown>[] = [
      c.getInsights("streaks"),
      c.getInsights("decline-streaks"),
      c.getAssets(),
      ...["eth", "btc", "sol", "arb"].map((s) => c.getMetrics(s)),
    ];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const values = await Promise.all(windows.map((w) => c.getSeries({ symbol: "btc", metric: "FEES", ...w })));
    const ms = Date.now() - started;
    expect(values.every((v) => v.kind === "points" && v.points.length > 0)).toBe(true);
    expect(ms).toBeLessThan(3_000);
    const settled = await settleWithin(stuck, 10_000);
    expect(settled.every((r) => r.status === "rejected")).toBe(true);
    console.log(`12 series answered in ${ms} ms beside 7 stuck catalog requests`);
  });
});
