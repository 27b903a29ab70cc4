import { MarketDataError } from "../../src/api/errors";
import type { Handler } from "../support/fake-service";
import { seriesHandler } from "../support/fake-service";
import { harness, TEST_KEY } from "../support/client-harness";

const WINDOW = { start: "2025-05-01", end: "2025-05-31" };
const forms = [TEST_KEY, encodeURIComponent(TEST_KEY), new URLSearchParams({ k: TEST_KEY }).toString().slice(2)];

function expectNoKey(text: string): void {
  for (const form of forms) expect(text).not.toContain(form);
}

describe("the API key never leaks", () => {
  const echo = (req: Parameters<Handler>[0]) => `you sent ${req.url.href} with key ${req.params.get("APIKey")}`;
  it.each<[string, Handler]>([
    ["401 echoing the key", (req) => ({ status: 401, body: { error: { message: echo(req) } } })],
    ["400 echoing the URL", (req) => ({ status: 400, body: { message: echo(req) } })],
    ["404", (req) => ({ status: 404, body: { detail: echo(req) } })],
    ["500 with a text body", (req) => ({ status: 500, body: echo(req) })],
    ["429", (req) => ({ status: 429, headers: { "Retry-After": "0" }, body: { error: echo(req) } })],
    ["bad JSON", (req) => ({ body: `{"oops": "${echo(req)}"` })],
    ["a dropped connection", () => "reset"],
    ["a timeout", () => "hang"],
  ])("in errors, logs and cache keys after %s", async (_name, handler) => {
    const h = harness(handler, { timeoutMs: 1000, retries: 1 });
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    const error = (await p) as MarketDataError;
    expect(error).toBeInstanceOf(MarketDataError);
    expectNoKey(error.message);
    expectNoKey(String(error));
    expectNoKey(error.stack ?? "");
    expect(h.logs.length).toBeGreaterThan(0);
    for (const line of h.logs) expectNoKey(line);
    expectNoKey(JSON.stringify(h.client.state()));
  });

  it("when fetch itself puts the URL in its error", async () => {
    const h = harness(seriesHandler(), {
      retries: 0,
      fetch: (url) => Promise.reject(new TypeError(`request to ${url} failed, reason: socket hang up`)),
    });
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e);
    await h.clock.runAll();
    const error = (await p) as Error;
    expect(error.message).toContain("socket hang up");
    expect(error.message).toContain("APIKey=***");
    expectNoKey(error.message);
    for (const line of h.logs) expectNoKey(line);
  });

  it("in successful request logs and cache keys", async () => {
    const h = harness();
    const p = h.client.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    await h.clock.runAll();
    await p;
    await h.client.getAssets().catch(() => undefined);
    expect(h.logs.some((l) => l.includes("/data/api/PRICE/"))).toBe(true);
    for (const line of h.logs) expectNoKey(line);
    const keys = h.client.state().cacheKeys;
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expectNoKey(key);
    // The key did go to the service.
    expect(h.service.calls[0]!.params.get("APIKey")).toBe(TEST_KEY);
  });
});
