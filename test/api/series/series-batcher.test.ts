/**
 * The series batcher on its own: it works only with what it is given (the
 * pending-loads registry, a settings reader, a cache, a send function, a
 * clock), so each can be a stand-in here. The client's batching tests
 * (client-batching.test.ts) cover the same rules through the facade.
 */
import { CLIENT_DEFAULTS } from "../../../src/api/client";
import { BadRequestError } from "../../../src/api/errors";
import type { ResolvedSettings } from "../../../src/api/http/executor";
import { answerKey, cacheKey, PendingLoads } from "../../../src/api/pending-loads";
import type { ApiRequest } from "../../../src/api/http/requests";
import { SeriesBatcher, type AnswerCache } from "../../../src/api/series/batcher";
import type { ClientCounters } from "../../../src/api/types";
import { FakeClock } from "../../support/fake-clock";

const SETTINGS: ResolvedSettings = { baseUrl: "https://md.example.test", apiKey: "k3y" };
const WINDOW = { start: "2025-05-01", end: "2025-05-02" };

function seriesOf(symbol: string, metric: string) {
  return [{ date: "2025-05-01", val: symbol.length * 100 + metric.length }];
}

function rig(refuse: (symbol: string) => boolean = () => false) {
  const clock = new FakeClock();
  const sent: { symbols: string[]; metrics: string[] }[] = [];
  const cache = new Map<string, unknown>();
  const counters: ClientCounters = { requests: 0, cacheHits: 0, retries: 0, failures: 0, bytes: 0, dropped: 0 };
  let reads = 0;
  let last: ResolvedSettings | undefined;
  const asCache: AnswerCache = { get: (key) => cache.get(key), set: (key, value) => void cache.set(key, value) };
  const batcher = new SeriesBatcher({
    pending: new PendingLoads(() => undefined),
    settings: {
      read: async () => {
        reads += 1;
        last = SETTINGS;
        return SETTINGS;
      },
      last: () => last,
      changedSince: async () => undefined,
    },
    cache: asCache,
    send: async (request: ApiRequest) => {
      const symbols = request.query.find(([name]) => name === "symbols")![1].split(",");
      const metrics = /^data\/api\/([^/]+)\/$/.exec(request.path)![1]!.split(",");
      sent.push({ symbols, metrics });
      if (symbols.some(refuse)) throw new BadRequestError("refused", { status: 400 });
      const data = Object.fromEntries(
        symbols.map((s) => [s, Object.fromEntries(metrics.map((m) => [m, seriesOf(s, m)]))]),
      );
      return { json: { data: { symbols: data } } };
    },
    timers: clock,
    now: clock.now,
    counters,
    log: () => undefined,
    limits: CLIENT_DEFAULTS,
  });
  return { batcher, clock, sent, cache, counters, reads: () => reads };
}

describe("series batcher", () => {
  it("sends a burst as one request, reading the settings once, and files every answer in the cache it was given", async () => {
    const r = rig();
    const pairs = ["eth", "btc", "sol"].flatMap((s) => ["PRICE", "FEES"].map((m) => [s, m] as const));
    const answers = pairs.map(([s, m]) => r.batcher.load(s, m, WINDOW, {}));
    expect(r.batcher.queued()).toBe(6);
    await r.clock.advance(20);
    expect(await Promise.all(answers)).toEqual(pairs.map(([s, m]) => ({ kind: "points", points: seriesOf(s, m) })));
    expect(r.sent).toEqual([{ symbols: ["eth", "btc", "sol"], metrics: ["PRICE", "FEES"] }]);
    expect(r.reads()).toBe(1);
    expect([...r.cache.keys()].sort()).toEqual(
      pairs.map(([s, m]) => cacheKey(SETTINGS.baseUrl, answerKey("series", s, m, WINDOW.start, WINDOW.end, ""))).sort(),
    );
    expect(r.batcher.queued()).toBe(0);
  });

  it("answers from the cache before queueing, once settings have been read, and counts the hit", async () => {
    const r = rig();
    const first = r.batcher.load("eth", "PRICE", WINDOW, {});
    await r.clock.advance(20);
    await first;
    await expect(r.batcher.load("eth", "PRICE", WINDOW, { cacheOnly: true })).resolves.toEqual(await first);
    expect(r.counters.cacheHits).toBe(1);
    expect(r.sent).toHaveLength(1);
  });

  it("isolates a refused request through the send function it was given: the bad caller fails alone", async () => {
    const r = rig((symbol) => symbol === "bad");
    const symbols = ["eth", "btc", "bad", "sol"];
    const answers = symbols.map((s) => r.batcher.load(s, "PRICE", WINDOW, {}).catch((e: unknown) => e));
    await r.clock.advance(20);
    const results = await Promise.all(answers);
    expect(results[2]).toBeInstanceOf(BadRequestError);
    for (const i of [0, 1, 3]) expect(results[i]).toEqual({ kind: "points", points: seriesOf(symbols[i]!, "PRICE") });
    expect(r.sent[0]!.symbols).toEqual(symbols);
    expect(r.sent.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(symbols.length)));
  });
});
