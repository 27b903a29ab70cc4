import { ConfigError, NotCachedError } from "../../src/api/errors";
import { expectedPoints, seriesHandler } from "../support/fake-service";
import { harness, track } from "../support/client-harness";

const WINDOW = { start: "2025-05-01", end: "2025-05-31" };

describe("cache", () => {
  it("answers a later call for a subset of a batched request from the cache, over-fetched pairs included", async () => {
    const h = harness();
    const first = [
      h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }),
      h.client.getSeries({ symbol: "sol", metric: "FEES", ...WINDOW }),
    ];
    await h.clock.advance(20);
    await Promise.all(first);
    expect(h.service.calls).toHaveLength(1);

    // sol/PRICE was never asked for, but the request carried it (eth,sol × PRICE,FEES).
    const later = await h.client.getSeries({ symbol: "sol", metric: "PRICE", ...WINDOW });
    expect(later).toEqual({ kind: "points", points: expectedPoints("sol", "PRICE", WINDOW.start, WINDOW.end) });
    expect(h.service.calls).toHaveLength(1);
    expect(h.client.counters().cacheHits).toBe(1);
  });

  it("expires series after the TTL", async () => {
    const h = harness(seriesHandler(), { cacheTtlMs: 60_000 });
    const ask = async () => {
      const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
      await h.clock.advance(20);
      return p;
    };
    await ask();
    await h.clock.advance(59_000);
    await ask();
    expect(h.service.calls).toHaveLength(1);
    await h.clock.advance(1_000);
    await ask();
    expect(h.service.calls).toHaveLength(2);
  });

  it("evicts the least recently used entries beyond the size cap", async () => {
    // One 31-point series is estimated at 96 + 31 × 48 = 1,584 bytes: three fit in 5,000, four do not.
    const h = harness(seriesHandler(), { cacheMaxBytes: 5_000, batchDelayMs: 0 });
    const ask = async (symbol: string) => {
      const p = h.client.getSeries({ symbol, metric: "PRICE", ...WINDOW });
      await h.clock.advance(1);
      return p;
    };
    await ask("a");
    await ask("b");
    await ask("c");
    await ask("a"); // a becomes the most recent
    expect(h.service.calls).toHaveLength(3);
    await ask("d"); // evicts b
    expect(h.client.state().cacheBytes).toBeLessThanOrEqual(5_000);
    await ask("a");
    await ask("c");
    expect(h.service.calls).toHaveLength(4);
    await ask("b");
    expect(h.service.calls).toHaveLength(5);
  });

  it("sends one request for the same pair asked twice before the answer (in-flight de-duplication)", async () => {
    const h = harness(seriesHandler({ delayMs: 500 }));
    const a = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    const b = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.advance(100); // a's request is now on the wire
    const c = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.advance(500);
    const [ra, rb, rc] = await Promise.all([a, b, c]);
    expect(h.service.calls).toHaveLength(1);
    expect(rb).toBe(ra);
    expect(rc).toBe(ra);
    expect(h.client.counters().cacheHits).toBe(2);
  });

  it("clear() forgets every answer", async () => {
    const h = harness();
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.advance(20);
    await p;
    h.client.clear();
    expect(h.client.state().cacheEntries).toBe(0);
    const q = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.advance(20);
    await q;
    expect(h.service.calls).toHaveLength(2);
  });

  it.each<[string, { apiKey?: string; baseUrl?: string }]>([
    ["the API key", { apiKey: "another-key" }],
    ["the base URL (trailing slash aside)", { baseUrl: "https://other.example.test/" }],
  ])("empties the cache when %s changes, and uses the new setting on the next flush", async (_what, change) => {
    const h = harness();
    const first = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.advance(20);
    await first;
    Object.assign(h.settings, change);
    const again = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    // The first call after the change may still be answered from the cache: it has not read the settings yet.
    await h.clock.advance(20);
    await again;
    const third = h.client.getSeries({ symbol: "sol", metric: "PRICE", ...WINDOW });
    await h.clock.advance(20);
    await third;
    const last = h.service.calls[h.service.calls.length - 1]!;
    if (change.apiKey) expect(last.params.get("APIKey")).toBe("another-key");
    if (change.baseUrl) expect(last.url.origin).toBe("https://other.example.test");
    expect(h.client.state().cacheKeys.every((k) => !k.includes("eth"))).toBe(true);
  });

  it("does not re-key the cache for a trailing slash", async () => {
    const h = harness();
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.advance(20);
    await p;
    h.settings.baseUrl = `${h.settings.baseUrl}/`;
    const q = h.client.getSeries({ symbol: "sol", metric: "PRICE", ...WINDOW });
    await h.clock.advance(20);
    await q;
    await h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    expect(h.service.calls).toHaveLength(2);
  });
});

describe("cacheOnly (formula value preview)", () => {
  it("rejects with NotCachedError without starting a request", async () => {
    const h = harness();
    await expect(
      h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }, { cacheOnly: true }),
    ).rejects.toBeInstanceOf(NotCachedError);
    await h.clock.runAll();
    expect(h.service.calls).toHaveLength(0);
  });

  it("answers from the cache and from a request in flight", async () => {
    const h = harness(seriesHandler({ delayMs: 200 }));
    const real = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    const preview = track(h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }, { cacheOnly: true }));
    await h.clock.advance(300);
    expect(await preview).toEqual(await real);
    expect(await h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }, { cacheOnly: true })).toEqual(
      await real,
    );
    expect(h.service.calls).toHaveLength(1);
  });

  it("applies to catalogs too", async () => {
    const h = harness(() => ({ body: { assets: [] } }));
    await expect(h.client.getAssets({ cacheOnly: true })).rejects.toBeInstanceOf(NotCachedError);
    expect(h.service.calls).toHaveLength(0);
  });
});

describe("settings", () => {
  it.each([
    [
      "no base URL",
      { baseUrl: "" },
      "No market-data service address is set. Enter the base URL in the Market Data pane.",
    ],
    ["no API key", { apiKey: "  " }, "No API key is set. Enter your market-data API key in the Market Data pane."],
    [
      "an invalid base URL",
      { baseUrl: "localhost:3001" },
      'The market-data base URL must start with http:// or https://, not "localhost:".',
    ],
  ])("refuses %s with a ConfigError and sends nothing", async (_name, change, message) => {
    const h = harness();
    Object.assign(h.settings, change);
    const series = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.advance(20);
    const error = await series;
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(message);
    await expect(h.client.getAssets()).rejects.toThrow(message);
    await expect(h.client.testConnection()).rejects.toThrow(message);
    expect(h.service.calls).toHaveLength(0);
  });

  it("turns a failing settings source into a ConfigError", async () => {
    const h = harness(seriesHandler(), { settings: () => Promise.reject(new Error("storage unavailable")) });
    await expect(h.client.getAssets()).rejects.toThrow("Could not read the market-data settings: storage unavailable");
  });
});
