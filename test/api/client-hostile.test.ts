/**
 * The client against a broken or hostile service, over real HTTP: the
 * sandbox's failure switches (sandbox/hostile.ts). The key goes only where
 * the user pointed it (items 5), and what comes back is read strictly and
 * within bounds (item 7).
 */
import { createClient, type Client, type ClientOptions } from "../../src/api/client";
import { BadResponseError, ConfigError, MarketDataError, RedirectError } from "../../src/api/errors";
import { expectNoKey, foreignHost, settleWithin, type ForeignHost } from "../support/real-http";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const KEY = "sbx-Key/+=42 &more";
const TODAY = TEST_TODAY;
const WINDOW = { start: "2024-06-01", end: "2024-06-10" };
const sandbox = useSandbox({ apiKey: KEY, today: TODAY, insightFirstCallDelayMs: 0, assetCount: 200 });
let foreign: ForeignHost;

beforeAll(async () => {
  foreign = await foreignHost();
});
afterAll(async () => {
  await foreign.close();
});
afterEach(() => sandbox.reset());

function client(options: Partial<ClientOptions> = {}, logs: string[] = [], baseUrl?: string): Client {
  return createClient({
    settings: async () => ({ apiKey: KEY, baseUrl: baseUrl ?? sandbox.url }),
    retryBaseMs: 5,
    retryMaxMs: 20,
    logger: (line) => logs.push(line),
    ...options,
  });
}

/** The sandbox's own answer for one pair, read with plain fetch. */
async function raw(symbol: string, metric: string): Promise<unknown> {
  const q = new URLSearchParams({ symbols: symbol, startDate: WINDOW.start, endDate: WINDOW.end, APIKey: KEY });
  const body = (await (await fetch(`${sandbox.url}/data/api/${metric}/?${q}`)).json()) as {
    data: { symbols: Record<string, Record<string, unknown>> };
  };
  return body.data.symbols[symbol][metric];
}

describe("redirects: the key is never taken to another origin", () => {
  it("a 302 to another host is refused, naming where it pointed; the other host receives nothing", async () => {
    sandbox.setHostile({ redirectTo: foreign.origin });
    const logs: string[] = [];
    const c = client({}, logs);
    const results = await settleWithin<unknown>(
      [
        c.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }),
        c.getSeries({ symbol: "btc", metric: "PRICE", ...WINDOW }),
        c.getAssets(),
        c.getInsights("streaks"),
      ],
      10_000,
    );
    for (const r of results) {
      expect(r.status).toBe("rejected");
      const error = (r as PromiseRejectedResult).reason as RedirectError;
      expect(error).toBeInstanceOf(RedirectError);
      expect(error.message).toBe(
        `The market-data service tried to redirect the request to ${foreign.origin} (HTTP 302). It was not followed, so your API key was not sent there. If the service has moved, set its new base URL in the Market Data pane.`,
      );
      expect(error.location).toBe(foreign.origin);
    }
    expect(foreign.requests).toEqual([]);
    // Not retried: a redirect is an answer, not a failure.
    expect(sandbox.stats().requests).toBe(3);
    expectNoKey([results, logs, c.state()], KEY);
  });

  it("a redirect to the same origin is followed a few times, then refused", async () => {
    sandbox.setHostile({ redirectTo: sandbox.url });
    const c = client();
    const error = (await c.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message).toMatch(/kept redirecting the request \(HTTP 302\)/);
    expect(sandbox.stats().requests).toBe(4);
    expectNoKey(error, KEY);
  });

  it("a browser's opaque redirect (no Location) is refused without guessing where", async () => {
    const c = client({
      // What a browser's fetch with redirect: "manual" resolves with: status 0, no headers, no body.
      fetch: async () => Object.defineProperty(new Response(null), "type", { value: "opaqueredirect" }),
    });
    const error = (await c.getAssets().catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.message).toMatch(/redirect the request to another address \(the browser does not say which\)/);
  });
});

describe("the key is redacted from every text the service sends", () => {
  it("catalog titles, metric descriptions, insight cards, flow chain names and series messages", async () => {
    sandbox.setHostile({ echoKey: true });
    const logs: string[] = [];
    const c = client({}, logs);
    const [assets, metrics, insights, flows, series] = await Promise.all([
      c.getAssets(),
      c.getMetrics("eth"),
      c.getInsights("streaks"),
      c.getFlows({ sourceChains: ["ethereum", "solana"], flowTypes: ["netflow", "inflow"], ...WINDOW }),
      c.getSeries({ symbol: "base", metric: "PRICE", ...WINDOW }),
    ]);
    // Any APIKey= value goes, up to the next separator; the closing parenthesis stays.
    expect(assets.find((a) => a.symbol === "eth")!.title).toBe("Ethereum (requested with APIKey=***)");
    expect(metrics[0]!.description).toMatch(/Served to key \*\*\*\.$/);
    expect(metrics[0]!.methodology).toBe("See https://example.com/sandbox/methodology?APIKey=***");
    expect(insights[0]!.ENTITY_ID).toMatch(/-\*\*\*$/);
    expect(Object.keys(flows.netflow!)).toContain("bridge-of-***");
    expect(series).toEqual({ kind: "message", message: expect.stringMatching(/Requested with APIKey=\*\*\*\.$/) });
    expectNoKey([assets, metrics, insights, flows, series, logs, c.state()], KEY);
    // The texts were really there to redact.
    const text = await (await fetch(`${sandbox.url}/asset/symbols/?APIKey=${encodeURIComponent(KEY)}`)).text();
    expect(text).toContain(JSON.stringify(KEY).slice(1, -1));
  });
});

describe("the base address", () => {
  it.each([
    [`http://user:pw@127.0.0.1:1`, /user name or password/],
    ["http://md.example.com", /must start with https:\/\//],
  ])("%s is refused before anything is sent", async (address, why) => {
    const c = client({}, [], address.replace("127.0.0.1:1", new URL(sandbox.url).host));
    const error = (await c.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(why);
    expect(sandbox.stats().requests).toBe(0);
  });
});

describe("strict parsing over HTTP", () => {
  it("hex text and timestamped dates fail only their pairs, with the reason; the other pairs are exact", async () => {
    sandbox.setHostile({ trickyJson: ["btc"] });
    const c = client();
    const pairs = [
      { symbol: "eth", metric: "PRICE" },
      { symbol: "btc", metric: "PRICE" },
      { symbol: "eth", metric: "FEES" },
      { symbol: "btc", metric: "FEES" },
    ];
    const results = await settleWithin(
      pairs.map((p) => c.getSeries({ ...p, ...WINDOW })),
      10_000,
    );
    sandbox.setHostile({ trickyJson: [] });
    expect(results[0]).toEqual({ status: "fulfilled", value: { kind: "points", points: await raw("eth", "PRICE") } });
    expect(results[2]).toEqual({ status: "fulfilled", value: { kind: "points", points: await raw("eth", "FEES") } });
    const hex = (results[1] as PromiseRejectedResult).reason as Error;
    expect(hex).toBeInstanceOf(BadResponseError);
    expect(hex.message).toMatch(/the value of btc\/PRICE on 2024-06-01 is the text "0x[0-9A-F]+", not a number/);
    const dated = (results[3] as PromiseRejectedResult).reason as Error;
    expect(dated.message).toMatch(/a point of btc\/FEES has the date "2024-06-01T00:00:00Z", not YYYY-MM-DD/);
  });

  it("chains named __proto__ and constructor are chains like any other", async () => {
    sandbox.setHostile({ trickyJson: ["btc"] });
    const flows = await client().getFlows({ sourceChains: ["ethereum"], flowTypes: ["netflow"], ...WINDOW });
    expect(Object.keys(flows.netflow!)).toEqual(["__proto__", "constructor", "ethereum"]);
    expect(flows.netflow!["__proto__"]).toBe(5);
    expect(flows.netflow!.constructor).toBe(7);
    expect(Object.getPrototypeOf(flows.netflow)).toBeNull();
  });

  it("a body past the size cap is abandoned with a clear message, not read whole", async () => {
    sandbox.setHostile({ hugeBodyBytes: 60 * 1024 * 1024 });
    const c = client();
    const started = Date.now();
    const error = (await c.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(MarketDataError);
    expect(error.message).toMatch(
      /^The market-data service sent more than 50 MB for one request \(http:\/\/127\.0\.0\.1:\d+\/data\/api\/PRICE\/\); the answer was not read\. Ask for fewer symbols/,
    );
    expect(c.counters().requests).toBe(1); // not retried: the same request gets the same answer
    expect(c.counters().bytes).toBeLessThan(50 * 1024 * 1024 + 1);
    console.log(`60 MB answer refused after ${Date.now() - started} ms`);
  }, 30_000);

  it("a body under the cap is read as usual (the cap counts bytes, not the padding)", async () => {
    sandbox.setHostile({ hugeBodyBytes: 2 * 1024 * 1024 });
    const value = await client().getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    sandbox.setHostile({ hugeBodyBytes: null });
    expect(value).toEqual({ kind: "points", points: await raw("eth", "PRICE") });
  });
});
