/**
 * Item 6 over real HTTP: the key (or base URL) changes while an answer is in
 * flight. That answer belongs to the old settings: it is never cached, never
 * shown for the new ones (a refusal of the old key included), and the callers
 * waiting for it get the answer fetched with the new settings. Series go
 * through the batcher, catalogs and flows through their own loads: both paths.
 * A fetch wrapper records the key each request carried; the requests are the
 * sandbox's, over HTTP.
 */
import { createClient, type Client } from "../../src/api/client";
import type { FetchLike } from "../../src/api/http/transport";
import type { ClientSettings } from "../../src/api/types";
import { expectNoKey, settleWithin } from "../support/real-http";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const TODAY = TEST_TODAY;
const OLD_KEY = "md-old-key-7f3a";
const NEW_KEY = "md-new-key-91c2";
const WINDOW = { start: "2025-05-01", end: "2025-05-31" };
/** Long enough that the change lands while the first request is out. */
const LATENCY_MS = 400;

// accepts only NEW_KEY
const keyed = useSandbox({ today: TODAY, apiKey: NEW_KEY, assetCount: 300, insightFirstCallDelayMs: 0 });
// another service: another seed, another catalog size
const other = useSandbox({ today: TODAY, apiKey: NEW_KEY, seed: 2, assetCount: 250, insightFirstCallDelayMs: 0 });
beforeEach(() => {
  keyed.reset();
  other.reset();
  keyed.setLatency(LATENCY_MS);
});

interface Harness {
  client: Client;
  settings: ClientSettings;
  /** Each request as "<origin> <key>", in the order sent. */
  sent: string[];
  logs: string[];
}

function harness(settings: ClientSettings): Harness {
  const sent: string[] = [];
  const logs: string[] = [];
  const fetch: FetchLike = (url, init) => {
    const parsed = new URL(url);
    sent.push(`${parsed.origin} ${parsed.searchParams.get("APIKey") ?? "-"}`);
    return globalThis.fetch(url, init);
  };
  const h: Harness = {
    settings,
    sent,
    logs,
    client: createClient({
      settings: async () => ({ ...h.settings }),
      fetch,
      retryBaseMs: 5,
      retryMaxMs: 20,
      logger: (line) => logs.push(line),
    }),
  };
  return h;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same question asked of a fresh client with the new settings: the reference answer. */
async function reference<T>(settings: ClientSettings, ask: (client: Client) => Promise<T>): Promise<T> {
  return ask(harness(settings).client);
}

describe("the key changes while an answer is in flight", () => {
  it("series: the old key's refusal is not shown; both callers get the new key's values, asked once more", async () => {
    const h = harness({ apiKey: OLD_KEY, baseUrl: keyed.url });
    const ask = (c: Client) => c.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    const first = ask(h.client);
    await pause(100); // the first request is out, under the old key
    h.settings.apiKey = NEW_KEY;
    const second = ask(h.client);
    const results = await settleWithin([first, second], 5_000);
    keyed.setLatency(0);
    const expected = await reference({ apiKey: NEW_KEY, baseUrl: keyed.url }, ask);
    expect(expected.kind === "points" && expected.points.length).toBe(31);
    expect(results).toEqual([
      { status: "fulfilled", value: expected },
      { status: "fulfilled", value: expected },
    ]);
    expect(h.sent).toEqual([`${keyed.url} ${OLD_KEY}`, `${keyed.url} ${NEW_KEY}`]);
    expect(keyed.stats().byStatus).toEqual({ "200": 2, "401": 1 }); // the reference's request included
    // Kept is the new key's answer: asked again, it comes from the cache.
    await expect(ask(h.client)).resolves.toEqual(expected);
    expect(h.sent).toHaveLength(2);
    expectNoKey([results, h.logs], OLD_KEY);
    expectNoKey([results, h.logs], NEW_KEY);
  });

  it("flows: a caller under the new key never joins the old key's request, and the old key's 401 reaches nobody", async () => {
    const h = harness({ apiKey: OLD_KEY, baseUrl: keyed.url });
    const ask = (c: Client) => c.getFlows({ sourceChains: ["ethereum"], flowTypes: ["netflow"], ...WINDOW });
    const first = ask(h.client);
    await pause(100);
    h.settings.apiKey = NEW_KEY;
    const second = ask(h.client);
    const results = await settleWithin([first, second], 5_000);
    keyed.setLatency(0);
    const expected = await reference({ apiKey: NEW_KEY, baseUrl: keyed.url }, ask);
    expect(Object.keys(expected.netflow ?? {}).length).toBeGreaterThan(0);
    expect(results).toEqual([
      { status: "fulfilled", value: expected },
      { status: "fulfilled", value: expected },
    ]);
    // The new key's request went out at once, beside the old one; the first caller's retry joined it.
    expect(h.sent).toEqual([`${keyed.url} ${OLD_KEY}`, `${keyed.url} ${NEW_KEY}`]);
    await expect(ask(h.client)).resolves.toEqual(expected);
    expect(h.sent).toHaveLength(2);
  });

  it("the asset catalog answered under the old key is not cached: asked again with the new key, that answer kept", async () => {
    // The catalog needs no key, so the old key's request succeeds: only its timing makes it the old key's.
    const h = harness({ apiKey: OLD_KEY, baseUrl: keyed.url });
    const first = h.client.getAssets();
    await pause(100);
    h.settings.apiKey = NEW_KEY;
    h.client.clear(); // what the pane does when a key is saved
    const assets = await first;
    expect(assets).toHaveLength(300);
    expect(h.sent).toEqual([`${keyed.url} ${OLD_KEY}`, `${keyed.url} ${NEW_KEY}`]);
    expect(h.logs.some((line) => line.includes("settings changed while a request was out"))).toBe(true);
    await expect(h.client.getAssets()).resolves.toEqual(assets);
    expect(h.sent).toHaveLength(2); // the cache holds the new key's answer
  });
});

describe("the base URL changes while an answer is in flight", () => {
  it("the old service's catalog and values are never shown or cached for the new one", async () => {
    const h = harness({ apiKey: NEW_KEY, baseUrl: keyed.url });
    const series = (c: Client) => c.getSeries({ symbol: "eth", metric: "PRICE", ...WINDOW });
    const firstAssets = h.client.getAssets();
    const firstSeries = series(h.client);
    await pause(100);
    h.settings.baseUrl = other.url;
    const [secondAssets, secondSeries] = [h.client.getAssets(), series(h.client)];
    const results = await settleWithin<unknown>([firstAssets, firstSeries, secondAssets, secondSeries], 5_000);
    keyed.setLatency(0);
    const [otherAssets, otherSeries, keyedSeries] = await Promise.all([
      reference({ apiKey: NEW_KEY, baseUrl: other.url }, (c) => c.getAssets()),
      reference({ apiKey: NEW_KEY, baseUrl: other.url }, series),
      reference({ apiKey: NEW_KEY, baseUrl: keyed.url }, series),
    ]);
    expect(otherAssets).toHaveLength(250);
    expect(otherSeries).not.toEqual(keyedSeries); // the two services really answer differently
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : r.reason))).toEqual([
      otherAssets,
      otherSeries,
      otherAssets,
      otherSeries,
    ]);
    await expect(h.client.getAssets()).resolves.toEqual(otherAssets);
    await expect(series(h.client)).resolves.toEqual(otherSeries);
    expect(h.client.state().cacheKeys.some((key) => key.startsWith(keyed.url))).toBe(false);
    // One request to the old service per question (the ones in flight at the change), none after it.
    expect(h.sent.filter((line) => line.startsWith(keyed.url))).toHaveLength(2);
  });
});
