import { BadRequestError, ServerError } from "../../src/api/errors";
import type { SeriesRequest } from "../../src/api/types";
import { expectedPoints, seriesHandler } from "../support/fake-service";
import { harness, seriesCalls, TEST_KEY, track } from "../support/client-harness";

const WINDOW = { start: "2025-05-01", end: "2025-05-31" };
const range = (n: number, prefix = "sym") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("batching", () => {
  it("coalesces a burst into one request per 50 symbols and gives each caller its own series", async () => {
    const h = harness();
    const symbols = range(120);
    const metrics = ["PRICE", "FEES", "DAU"];
    const requests: SeriesRequest[] = symbols.flatMap((symbol) =>
      metrics.map((metric) => ({ symbol, metric, ...WINDOW })),
    );
    const promises = requests.map((r) => h.client.getSeries(r));
    await h.clock.advance(20);
    const results = await Promise.all(promises);

    expect(seriesCalls(h.service).map((c) => c.symbols.length)).toEqual([50, 50, 20]);
    for (const call of seriesCalls(h.service)) expect(call.metrics).toEqual(metrics);
    requests.forEach((r, i) => {
      expect(results[i]).toEqual({
        kind: "points",
        points: expectedPoints(r.symbol, r.metric, r.start!, r.end!),
      });
    });
  });

  it("gathers calls arriving over several macrotasks into one batch (quiet-gap window)", async () => {
    const h = harness();
    const promises = [];
    for (const symbol of range(10)) {
      promises.push(h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW }));
      await h.clock.advance(4); // each call 4 ms after the last: the 10 ms quiet gap never elapses
    }
    await h.clock.advance(10);
    await Promise.all(promises);
    expect(seriesCalls(h.service)).toHaveLength(1);
  });

  it("flushes at the maximum delay even while calls keep coming: no call waits more than twice the cap", async () => {
    const h = harness();
    const promises: Promise<number>[] = [];
    const settledAt: number[] = [];
    const start = h.clock.now();
    for (const symbol of range(30)) {
      const i: number = promises.length;
      promises.push(
        h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW }).then(() => (settledAt[i] = h.clock.now() - start)),
      );
      await h.clock.advance(5);
    }
    await h.clock.advance(20);
    await Promise.all(promises);
    // 150 ms of calls, one every 5 ms. At 50 ms the cap forces a flush with the calls still coming: its one partly
    // filled request is held back into the next window, which must send it (at 100 ms, with the next 10 calls).
    // The last 10 go once the calls stop.
    expect(seriesCalls(h.service).map((c) => c.symbols.length)).toEqual([20, 10]);
    expect(settledAt[0]).toBeLessThanOrEqual(100 + 10);
  });

  it("a burst longer than the cap still packs full requests: a group's last, partly filled request waits for the next window", async () => {
    const h = harness();
    const promises = [];
    // 100 calls, 5 every 3 ms (60 ms): 83 are queued when the cap forces a flush at 50 ms.
    for (const [i, symbol] of range(100).entries()) {
      promises.push(h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW }));
      if (i % 5 === 4) await h.clock.advance(3);
    }
    await h.clock.advance(20);
    await Promise.all(promises);
    // Sending all 83 at the cap would cost 50 + 33 now and 17 later: three requests for two requests' worth.
    expect(seriesCalls(h.service).map((c) => c.symbols.length)).toEqual([50, 50]);
  });

  it("a held-back call is its next window's even while the first window's request is still out (no 'lost track')", async () => {
    // Every answer takes 500 ms: the first window's request (50 symbols) is still out when the next window sends the
    // 33 calls held back from it. When the first request ends, those 33 are in flight elsewhere, not lost.
    const slow = seriesHandler();
    const h = harness(async (req) => {
      const reply = await slow(req);
      return typeof reply === "object" ? { ...reply, delayMs: 500 } : reply;
    });
    const promises = [];
    for (const [i, symbol] of range(100).entries()) {
      promises.push(track(h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW })));
      if (i % 5 === 4) await h.clock.advance(3);
    }
    await h.clock.advance(1_000);
    await Promise.allSettled(promises);
    expect(seriesCalls(h.service).map((c) => c.symbols.length)).toEqual([50, 50]);
    const failed = promises.filter((p) => p.state() !== "fulfilled");
    expect(failed.map((p) => String(p.error))).toEqual([]);
  });

  it("a call held back into the next window is that window's to answer, even while the first window's requests are still out", async () => {
    // Every request takes 200 ms: the next window sends the held-back calls (at about 100 ms) while the first
    // window still waits for its own request (until about 250 ms), and must not count them as its own.
    const h = harness(seriesHandler({ delayMs: 200 }));
    const promises: Promise<unknown>[] = [];
    for (const [i, symbol] of range(90).entries()) {
      promises.push(h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW }));
      if (i % 5 === 4) await h.clock.advance(3);
    }
    const outcomes = track(Promise.allSettled(promises));
    for (let t = 0; t < 600 && outcomes.state() === "pending"; t += 10) await h.clock.advance(10);
    const results = await outcomes;
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(seriesCalls(h.service).map((c) => c.symbols.length)).toEqual([50, 40]);
  });

  it("a call queued again after a change of key is the next window's, even while its first window waits for another request", async () => {
    // One window, two requests (two date ranges): April answers in 100 ms, May in 600 ms. The key changes at 50 ms:
    // April's answer is the old key's, so its call is queued again and sent (slowly, 1 s) by the next window while
    // the first still waits for May. When May comes back, April's call is in flight elsewhere, not lost.
    const base = seriesHandler();
    const h = harness(async (req) => {
      const reply = await base(req);
      const newKey = req.params.get("APIKey") === "the-new-key";
      const delayMs = newKey ? 1_000 : req.params.get("startDate") === "2025-04-01" ? 100 : 600;
      return typeof reply === "object" ? { ...reply, delayMs } : reply;
    });
    const april = track(h.client.getSeries({ symbol: "eth", metric: "PRICE", start: "2025-04-01", end: "2025-04-30" }));
    const may = track(h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }));
    await h.clock.advance(50);
    h.settings.apiKey = "the-new-key";
    for (let t = 0; t < 3_000 && (april.state() === "pending" || may.state() === "pending"); t += 50)
      await h.clock.advance(50);
    expect([april.state(), may.state()]).toEqual(["fulfilled", "fulfilled"]);
    expect(april.value).toEqual({
      kind: "points",
      points: expectedPoints("eth", "PRICE", "2025-04-01", "2025-04-30"),
    });
    expect(seriesCalls(h.service).map((c) => c.params.get("APIKey"))).toEqual([
      TEST_KEY,
      TEST_KEY,
      "the-new-key",
      "the-new-key",
    ]);
  });

  it("groups by window and granularity: only compatible calls share a request", async () => {
    const h = harness();
    const calls: SeriesRequest[] = [
      { symbol: "eth", metric: "PRICE", ...WINDOW },
      { symbol: "sol", metric: "PRICE", ...WINDOW },
      { symbol: "eth", metric: "PRICE", ...WINDOW, granularity: "WEEK" },
      { symbol: "sol", metric: "FEES", ...WINDOW, granularity: "WEEK" },
      { symbol: "eth", metric: "PRICE", start: "2025-04-01", end: "2025-04-30" },
    ];
    const promises = calls.map((c) => h.client.getSeries(c));
    await h.clock.advance(20);
    await Promise.all(promises);
    const seen = seriesCalls(h.service).map((c) => ({
      symbols: c.symbols.sort().join(","),
      metrics: c.metrics.sort().join(","),
      window: `${c.params.get("startDate")}..${c.params.get("endDate")}/${c.params.get("granularity") ?? "-"}`,
    }));
    expect(seen).toEqual(
      expect.arrayContaining([
        { symbols: "eth,sol", metrics: "PRICE", window: "2025-05-01..2025-05-31/-" },
        { symbols: "eth,sol", metrics: "FEES,PRICE", window: "2025-05-01..2025-05-31/WEEK" },
        { symbols: "eth", metrics: "PRICE", window: "2025-04-01..2025-04-30/-" },
      ]),
    );
    expect(seen).toHaveLength(3);
  });

  it("keeps every URL within the length cap", async () => {
    const h = harness(seriesHandler(), { maxUrlLength: 400 });
    const symbols = range(60, "a-long-symbol-name-");
    const promises = symbols.map((symbol) => h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW }));
    await h.clock.advance(20);
    await Promise.all(promises);
    expect(h.service.calls.length).toBeGreaterThan(2);
    for (const call of h.service.calls) expect(call.url.href.length).toBeLessThanOrEqual(400);
    expect(
      seriesCalls(h.service)
        .flatMap((c) => c.symbols)
        .sort(),
    ).toEqual([...symbols].sort());
  });

  it("resolves a pair answered with a message as that message, and the others with their series", async () => {
    const h = harness(
      seriesHandler({
        messageFor: (s, m) =>
          s === "nosuch"
            ? `Symbol ${s} is not in the asset catalog`
            : m === "TVL"
              ? `Metric TVL is not available for ${s}`
              : undefined,
      }),
    );
    const a = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    const b = h.client.getSeries({ symbol: "nosuch", metric: "PRICE", ...WINDOW });
    const c = h.client.getSeries({ symbol: "eth", metric: "TVL", ...WINDOW });
    await h.clock.advance(20);
    expect(await a).toEqual({
      kind: "points",
      points: expectedPoints("eth", "PRICE", WINDOW.start, WINDOW.end),
    });
    expect(await b).toEqual({ kind: "message", message: "Symbol nosuch is not in the asset catalog" });
    expect(await c).toEqual({ kind: "message", message: "Metric TVL is not available for eth" });
    expect(h.service.calls).toHaveLength(1);
  });

  it("rejects every caller of a failed request with the same clear error, and settles them all", async () => {
    const h = harness(() => ({ status: 503, body: { error: "maintenance" } }), { retries: 2 });
    const promises = range(5).map((symbol) => track(h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW })));
    await h.clock.runAll();
    const errors = await Promise.all(promises.map((p) => p.catch((e: unknown) => e)));
    for (const p of promises) expect(p.state()).toBe("rejected");
    expect(new Set(errors).size).toBe(1);
    expect(errors[0]).toBeInstanceOf(ServerError);
    // A multi-symbol request is retried once, then halved: the halves and the first half's halves all failing is the service, not a symbol.
    expect((errors[0] as Error).message).toBe(
      "The market-data service failed (HTTP 503: maintenance); retried 1 time; every part of the request failed as well, so the service itself is failing, not one symbol.",
    );
    expect(h.service.calls).toHaveLength(6);
  });

  it("isolates a 400 by bisection: one bad caller fails alone", async () => {
    const h = harness(seriesHandler({ refuse: (s, m) => s === "sym5" && m === "FEES" }));
    const symbols = range(16);
    const requests: SeriesRequest[] = symbols.flatMap((symbol) =>
      ["PRICE", "FEES"].map((metric) => ({ symbol, metric, ...WINDOW })),
    );
    const promises = requests.map((r) => track(h.client.getSeries(r)));
    await h.clock.runAll();
    await Promise.allSettled(promises);
    requests.forEach((r, i) => {
      const p = promises[i]!;
      if (r.symbol === "sym5" && r.metric === "FEES") {
        expect(p.state()).toBe("rejected");
        expect(p.error).toBeInstanceOf(BadRequestError);
        expect((p.error as Error).message).toBe(
          "The market-data service refused the request (HTTP 400: Unknown metric FEES for sym5).",
        );
      } else {
        expect(p.value).toEqual({
          kind: "points",
          points: expectedPoints(r.symbol, r.metric, r.start!, r.end!),
        });
      }
    });
    // 1 + bisection over 16 symbols then 2 metrics: 2 per level, log2(16) + 1 levels.
    expect(h.service.calls.length).toBeLessThanOrEqual(1 + 2 * 5);
  });

  it("does not bisect a 400 that carried a single caller", async () => {
    const h = harness(seriesHandler({ refuse: () => true }));
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    expect(await p).toBeInstanceOf(BadRequestError);
    expect(h.service.calls).toHaveLength(1);
  });

  it("settles every caller when every pair is refused (cost bounded by 2n − 1 requests)", async () => {
    const h = harness(seriesHandler({ refuse: () => true }));
    const promises = range(8).map((symbol) => track(h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW })));
    await h.clock.runAll();
    await Promise.allSettled(promises);
    for (const p of promises) expect(p.error).toBeInstanceOf(BadRequestError);
    expect(h.service.calls.length).toBeLessThanOrEqual(2 * 8 - 1);
  });

  it("splits a long window into parts of at most 1,000 points, reads them newest first and merges them in order", async () => {
    const h = harness();
    const request = { symbol: "eth", metric: "PRICE", start: "2019-01-01", end: "2024-12-31" };
    const p = h.client.getSeries(request);
    await h.clock.runAll();
    const result = await p;
    const windows = seriesCalls(h.service).map((c) => [c.params.get("startDate"), c.params.get("endDate")]);
    expect(windows).toEqual([
      ["2024-06-23", "2024-12-31"],
      ["2021-09-27", "2024-06-22"],
      ["2019-01-01", "2021-09-26"],
    ]);
    expect(result).toEqual({
      kind: "points",
      points: expectedPoints("eth", "PRICE", request.start, request.end),
    });
  });

  it("refuses invalid arguments before any request", async () => {
    const h = harness();
    await expect(
      h.client.getSeries({ symbol: "eth", metric: "PRICE", start: "2025-02-01", end: "2025-01-01" }),
    ).rejects.toThrow("The start date 2025-02-01 is after the end date 2025-01-01.");
    await expect(h.client.getSeries({ symbol: "eth", metric: "price" })).rejects.toBeInstanceOf(BadRequestError);
    await expect(h.client.getSeries({ symbol: "", metric: "PRICE" })).rejects.toBeInstanceOf(BadRequestError);
    await h.clock.runAll();
    expect(h.service.calls).toHaveLength(0);
  });
});
