import {
  AuthError,
  BadRequestError,
  BadResponseError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
} from "../../src/api/errors";
import type { Handler } from "../support/fake-service";
import { seriesHandler } from "../support/fake-service";
import { harness } from "../support/client-harness";

const WINDOW = { start: "2025-05-01", end: "2025-05-31" };
const ok = seriesHandler();

/** Fails the first `n` requests with `failure`, then answers like the service. */
function failFirst(n: number, failure: ReturnType<Handler>): Handler {
  let seen = 0;
  return (req) => (seen++ < n ? failure : ok(req));
}

/** Gaps between consecutive requests: with an instant fake service these are exactly the retry delays. */
const gaps = (at: number[]) => at.slice(1).map((t, i) => t - at[i]!);

describe("retries", () => {
  it("backs off exponentially with full jitter on 5xx (delay = random × min(max, base × 2^n))", async () => {
    const h = harness(failFirst(4, { status: 502 }), { retryBaseMs: 100, retryMaxMs: 500, random: () => 0.5 });
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.runAll();
    expect((await p).kind).toBe("points");
    // 0.5 × min(500, 100·2^n) for n = 0..3
    expect(gaps(h.service.calls.map((c) => c.at))).toEqual([50, 100, 200, 250]);
    expect(h.client.counters()).toMatchObject({ requests: 5, retries: 4, failures: 0 });
  });

  it.each([
    [
      "a dropped connection",
      "reset" as const,
      NetworkError,
      "Could not reach the market-data service at https://md.example.test/api/data/api/PRICE/: connection reset; retried 4 times.",
    ],
    [
      "a 429 without Retry-After",
      { status: 429 },
      RateLimitError,
      "Rate limited by the market-data service (HTTP 429); retried 4 times.",
    ],
    ["truncated JSON", { body: '{"data":' }, BadResponseError, undefined],
  ])("retries %s, then fails with a clear message", async (_name, failure, type, message) => {
    const h = harness(() => failure);
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    const error = await p;
    expect(error).toBeInstanceOf(type);
    if (message) expect((error as Error).message).toBe(message);
    expect(h.service.calls).toHaveLength(5);
    expect(h.client.counters()).toMatchObject({ requests: 5, retries: 4, failures: 1 });
  });

  it.each([
    ["seconds", "3", 3000],
    ["an HTTP date", new Date(Date.UTC(2025, 5, 15, 12, 0, 7)).toUTCString(), 7000],
  ])("honours Retry-After in %s", async (_name, header, expectedMs) => {
    const h = harness(failFirst(1, { status: 429, headers: { "Retry-After": header } }));
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.runAll();
    await p;
    // The jittered backoff (0.5 × 100 ms) is shorter, so Retry-After decides; the first request left at +10 ms.
    expect(gaps(h.service.calls.map((c) => c.at))).toEqual([expectedMs - (header === "3" ? 0 : 10)]);
  });

  it("honours Retry-After on a 503 too", async () => {
    const h = harness(failFirst(1, { status: 503, headers: { "Retry-After": "2" } }));
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.runAll();
    await p;
    expect(gaps(h.service.calls.map((c) => c.at))).toEqual([2000]);
  });

  it("gives up at once when Retry-After exceeds the cap", async () => {
    const h = harness(() => ({ status: 429, headers: { "Retry-After": "600" } }), { retryAfterMaxMs: 30_000 });
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    const error = await p;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toBe(
      "Rate limited by the market-data service (HTTP 429); the service asked to wait 600 s.",
    );
    expect(h.service.calls).toHaveLength(1);
  });

  it.each([
    [400, BadRequestError],
    [401, AuthError],
    [403, AuthError],
    [404, NotFoundError],
    [422, BadRequestError],
  ])("does not retry HTTP %i", async (status, type) => {
    const h = harness(() => ({ status, body: { error: "no" } }));
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    expect(await p).toBeInstanceOf(type);
    expect(h.service.calls).toHaveLength(1);
    expect(h.client.counters()).toMatchObject({ requests: 1, retries: 0, failures: 1 });
  });

  it("maps 401 to the message that tells the user what to do", async () => {
    const h = harness(() => ({ status: 401, body: { detail: "Invalid API key" } }));
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    expect(((await p) as Error).message).toBe(
      "The market-data service rejected the API key (HTTP 401: Invalid API key). Enter a valid key in the Market Data pane.",
    );
  });

  it("does not retry a well-formed JSON body of the wrong shape", async () => {
    const h = harness(() => ({ body: { unexpected: true } }));
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    const error = await p;
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toBe(
      "The market-data service sent a malformed response: expected { data: { symbols: { … } } }.",
    );
    expect(h.service.calls).toHaveLength(1);
    expect(h.client.counters().failures).toBe(1);
  });
});

describe("timeouts", () => {
  it("times out each attempt and retries it", async () => {
    const h = harness(failFirst(2, "hang"), { timeoutMs: 1000 });
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.runAll();
    expect((await p).kind).toBe("points");
    expect(h.service.aborted).toHaveLength(2);
    // Attempt 1 at +10, times out at +1010, waits 50; attempt 2 at +1060, times out at +2060, waits 100.
    expect(gaps(h.service.calls.map((c) => c.at))).toEqual([1050, 1100]);
  });

  it("fails with a TimeoutError once the retries are spent", async () => {
    const h = harness(() => "hang", { timeoutMs: 1000, retries: 1 });
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    const error = await p;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      "The market-data service did not answer within 1 s (https://md.example.test/api/data/api/PRICE/); retried 1 time.",
    );
  });

  it("gives catalogs and insight feeds the longer timeout", async () => {
    const h = harness(() => ({ body: { rows: [] }, delayMs: 60_000 }), { timeoutMs: 30_000, slowTimeoutMs: 120_000 });
    const feed = h.client.getInsights("streaks");
    await h.clock.advance(61_000);
    expect(await feed).toEqual([]);
    expect(h.service.calls).toHaveLength(1);
  });
});

describe("concurrency", () => {
  it("never has more than `concurrency` requests on the wire", async () => {
    let open = 0;
    let peak = 0;
    const slow: Handler = (req) => {
      open += 1;
      peak = Math.max(peak, open);
      const reply = ok(req) as { body: unknown };
      return new Promise((resolve) =>
        setTimeout(() => {
          open -= 1;
          resolve(reply);
        }, 5),
      );
    };
    const h = harness(slow, { concurrency: 3, maxSymbolsPerRequest: 1, batchDelayMs: 0 });
    const promises = Array.from({ length: 10 }, (_, i) =>
      h.client.getSeries({ symbol: `s${i}`, metric: "PRICE", ...WINDOW }),
    );
    await h.clock.advance(1);
    await Promise.all(promises);
    expect(h.service.calls).toHaveLength(10);
    expect(peak).toBe(3);
  });
});

describe("counters", () => {
  it("counts requests, cache hits, retries, failures and bytes", async () => {
    const h = harness(failFirst(1, { status: 500, body: "oops" }));
    const a = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.runAll();
    await a;
    await h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    const counters = h.client.counters();
    expect(counters).toMatchObject({ requests: 2, cacheHits: 1, retries: 1, failures: 0 });
    const okBody = JSON.stringify(
      (
        ok({
          url: h.service.calls[1]!.url,
          path: h.service.calls[1]!.path,
          params: h.service.calls[1]!.params,
          at: 0,
        }) as { body: unknown }
      ).body,
    );
    expect(counters.bytes).toBe(4 + Buffer.byteLength(okBody));
  });
});
