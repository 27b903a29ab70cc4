/**
 * What answered each series pair (src/api/answer-log.ts): the client over real
 * HTTP against the sandbox, with the persistent store on fake-indexeddb. The
 * service's answer is recorded with its address (no key), time and source;
 * the firm gateway's cache by its X-Cache-Status; the store after a reopen;
 * the points the answer checks dropped; a correction a recheck brought, with
 * the earlier value and when it was fetched. Nothing is asked for the record.
 */
import { IDBFactory } from "fake-indexeddb";
import { AnswerLog, ANSWERS_PER_PAIR, MAX_PAIRS, sourceOfCacheStatus } from "../../src/api/answer-log";
import { createClient } from "../../src/api/client";
import type { PairAnswer } from "../../src/api/answer-log";
import { DEMO_API_KEY } from "../../sandbox/server";
import { FakeClock } from "../support/fake-clock";
import { fakeService, seriesHandler } from "../support/fake-service";
import { drive, points, useStoreWorld } from "../support/store-runtimes";
import { TEST_TODAY } from "../support/today";

const NOON = Date.parse(`${TEST_TODAY}T12:00:00Z`);
const REQ = { symbol: "eth", metric: "PRICE", start: "2024-01-01", end: "2024-03-31" };

const { sandbox, runtime, seriesRequests } = useStoreWorld();

function latestOf(answers: readonly PairAnswer[] | undefined): PairAnswer {
  const answer = answers?.at(-1);
  if (!answer) throw new Error("no answer recorded");
  return answer;
}

describe("the answer log", () => {
  it("records the service's answer: address without the key, when, how long, the days and their settling", async () => {
    const clock = new FakeClock(NOON);
    const r = runtime(new IDBFactory(), clock);
    await drive(clock, r.client.getSeries(REQ));
    const answer = latestOf(r.client.answers?.answers("eth", "PRICE"));
    expect(answer.source).toBe("service");
    expect(answer.request?.address).toContain("/data/api/");
    expect(answer.request?.address).toContain("eth");
    expect(answer.request?.address).not.toContain(DEMO_API_KEY);
    // Fetched: when the store's plan asked (what a reopen reports too); the request's time: when its answer arrived.
    expect(answer.request!.at).toBeGreaterThanOrEqual(answer.fetchedAt);
    expect(answer.request?.ms).toBeGreaterThanOrEqual(0);
    expect(answer.from).toBe("2024-01-01");
    expect(answer.to).toBe("2024-03-31");
    // Fetched at noon of TEST_TODAY: the window's days had all settled.
    expect(answer.settledThrough).toBeDefined();
    expect(answer.settledThrough! >= "2024-03-31").toBe(true);
    expect(seriesRequests()).toBe(1);
  });

  it("records the store's answer after a reopen, with when its days were fetched, and sends nothing more", async () => {
    const factory = new IDBFactory();
    const clock = new FakeClock(NOON);
    const first = runtime(factory, clock);
    await drive(clock, first.client.getSeries(REQ));
    const fetchedAt = latestOf(first.client.answers?.answers("eth", "PRICE")).fetchedAt;
    await first.store.flush();
    await clock.advance(60_000);
    const reopened = runtime(factory, clock);
    await drive(clock, reopened.client.getSeries(REQ));
    const answer = latestOf(reopened.client.answers?.answers("eth", "PRICE"));
    expect(answer.source).toBe("store");
    expect(answer.request).toBeUndefined();
    expect(answer.fetchedAt).toBe(fetchedAt);
    expect([answer.from, answer.to]).toEqual(["2024-01-01", "2024-03-31"]);
    expect(answer.settledThrough).toBe("2024-03-31");
    expect(seriesRequests()).toBe(1);
  });

  it("records a correction a recheck brought: the day, the earlier value and when it was fetched", async () => {
    const clock = new FakeClock(NOON);
    const r = runtime(new IDBFactory(), clock);
    const original = points(await drive(clock, r.client.getSeries(REQ)));
    const day = original.find((p) => p.val !== null)!;
    const was = latestOf(r.client.answers?.answers("eth", "PRICE"));
    expect(was.fetchedAt).toBeLessThan(NOON + 60_000);
    sandbox.setRevision(1);
    await clock.advance(60_000);
    r.client.clear({ recheckHistory: true });
    await drive(clock, r.client.getSeries(REQ));
    const now = latestOf(r.client.answers?.answers("eth", "PRICE"));
    const revision = r.client.answers?.revision("eth", "PRICE", day.date);
    expect(revision).toEqual({
      date: day.date,
      was: day.val,
      now: day.val! * 2,
      wasFetchedAt: was.fetchedAt,
      at: now.fetchedAt,
    });
    expect(now.revisedDays).toBe(original.filter((p) => p.val !== null).length);
    expect(now.revisions?.length).toBeGreaterThan(0);
  });

  it("records the points the answer checks dropped, by reason", async () => {
    sandbox.setHostile({ outsideWindow: ["eth"] });
    const clock = new FakeClock(NOON);
    const r = runtime(new IDBFactory(), clock);
    await drive(clock, r.client.getSeries(REQ));
    expect(latestOf(r.client.answers?.answers("eth", "PRICE")).dropped).toEqual({ "outside the window": 1 });
  });

  it("names the firm gateway's cache when its X-Cache-Status says HIT", async () => {
    const clock = new FakeClock(NOON);
    const base = seriesHandler();
    const service = fakeService(clock, async (req) => {
      const reply = await base(req);
      return typeof reply === "string" ? reply : { ...reply, headers: { "X-Cache-Status": "HIT" } };
    });
    const client = createClient({
      settings: async () => ({ apiKey: "k-secret", baseUrl: "https://gateway.example" }),
      fetch: service.fetch,
      now: () => clock.now(),
      timers: clock,
    });
    await drive(clock, client.getSeries({ symbol: "eth", metric: "PRICE", start: "2025-06-01", end: "2025-06-10" }));
    const answer = latestOf(client.answers?.answers("eth", "PRICE"));
    expect(answer.source).toBe("gateway-cache");
    expect(answer.request?.cacheStatus).toBe("HIT");
    expect(answer.request?.address).not.toContain("k-secret");
  });

  it("keeps a bounded number of answers", () => {
    const log = new AnswerLog();
    for (let i = 0; i < ANSWERS_PER_PAIR + 3; i++)
      log.note({ symbol: "eth", metric: "PRICE", source: "service", fetchedAt: i });
    expect(log.answers("eth", "PRICE").map((a) => a.fetchedAt)[0]).toBe(3);
    for (let i = 0; i < MAX_PAIRS + 1; i++)
      log.note({ symbol: `s${i}`, metric: "PRICE", source: "store", fetchedAt: i });
    expect(log.answers("eth", "PRICE")).toEqual([]);
    expect(log.answers(`s${MAX_PAIRS}`, "PRICE")).toHaveLength(1);
  });

  it("reads nginx's cache statuses", () => {
    expect(["HIT", "STALE", "UPDATING", "REVALIDATED"].map(sourceOfCacheStatus)).toEqual(
      Array(4).fill("gateway-cache"),
    );
    expect(["MISS", "BYPASS", "EXPIRED", undefined].map(sourceOfCacheStatus)).toEqual(Array(4).fill("service"));
  });
});
