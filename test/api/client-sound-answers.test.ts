/**
 * Only sound data reaches a cell or the store (DESIGN "Only sound data…"):
 * the client against the sandbox's unsound-answer switches (outsideWindow,
 * duplicateDates, badValues), over real HTTP. What breaks a rule is dropped
 * and counted; a pair with nothing sound left fails with the reason; the
 * store holds only what passed, so a reopened workbook shows what it showed
 * live.
 */
import { IDBFactory } from "fake-indexeddb";
import { createClient, type Client, type ClientOptions } from "../../src/api/client";
import { BadResponseError } from "../../src/api/errors";
import { openSeriesStore } from "../../src/api/store/persistent-store";
import type { PersistentSeriesStore } from "../../src/api/store/types";
import type { SeriesRequest } from "../../src/api/types";
import type { DataPoint, SeriesResult } from "../../src/core/domain";
import { addDays } from "../../src/core/calendar";
import { DEMO_API_KEY } from "../../sandbox/server";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const NOON = Date.parse(`${TEST_TODAY}T12:00:00Z`);
const WINDOW = { start: "2024-06-01", end: "2024-06-10" };
const sandbox = useSandbox({ today: addDays(TEST_TODAY, 1), insightFirstCallDelayMs: 0 });
afterEach(() => sandbox.reset());

/** A clock that starts at `startMs` and runs (the batch window is timed by it). */
function running(startMs: number): () => number {
  const began = Date.now();
  return () => startMs + (Date.now() - began);
}

function client(logs: string[] = [], options: Partial<ClientOptions> = {}): Client {
  return createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    now: running(NOON),
    logger: (line) => logs.push(line),
    ...options,
  });
}

/** What the service answers without any switch: a client of its own. */
async function clean(req: SeriesRequest): Promise<DataPoint[]> {
  return points(await client().getSeries(req));
}

function points(result: SeriesResult): DataPoint[] {
  if (result.kind !== "points") throw new Error(`a message: ${result.message}`);
  return result.points;
}

const eth = { symbol: "eth", metric: "PRICE", ...WINDOW };

describe("each rule: what breaks it is dropped and counted, the rest is exact", () => {
  it.each([
    [
      "a point dated 2099-01-01, outside the window",
      { outsideWindow: ["eth"] },
      (ok: DataPoint[]) => ok,
      1,
      "1 outside the window",
    ],
    [
      "the newest date sent twice with different values: the last one sent wins",
      { duplicateDates: ["eth"] },
      (ok: DataPoint[]) => [...ok.slice(0, -1), { date: "2024-06-10", val: ok[ok.length - 1]!.val! + 1 }],
      1,
      "1 a date sent again",
    ],
    [
      '"NaN", "Infinity", 1e999, "-Infinity" and "12.5" as values',
      { badValues: ["eth"] },
      (ok: DataPoint[]) => ok.filter((_, i) => i % 2 === 0),
      5,
      "5 not a number",
    ],
  ])("%s", async (_name, hostile, expected, dropped, logged) => {
    const ok = await clean(eth);
    expect(ok).toHaveLength(10);
    sandbox.setHostile(hostile);
    const logs: string[] = [];
    const c = client(logs);
    expect(points(await c.getSeries(eth))).toEqual(expected(ok));
    expect(c.counters().dropped).toBe(dropped);
    expect(logs).toContain(`eth PRICE 2024-06-01…2024-06-10: ${dropped} point(s) dropped (${logged})`);
  });

  it("the other symbols of the same request are exact, and nothing of theirs is counted", async () => {
    const btc = { ...eth, symbol: "btc" };
    const ok = await clean(btc);
    const c = client();
    sandbox.reset();
    sandbox.setHostile({ outsideWindow: ["eth"], duplicateDates: ["eth"], badValues: ["eth"] });
    const [, other] = await Promise.all([c.getSeries(eth), c.getSeries(btc)]);
    expect(sandbox.stats().requests).toBe(1); // one batch for both
    expect(points(other)).toEqual(ok);
    // Five bad values and the 2099 point; the newest date's first value was a bad one, so its repeat is no duplicate.
    expect(c.counters().dropped).toBe(5 + 1);
  });

  it("a pair none of whose points is sound fails with the reason (the cell says why, not 'no data')", async () => {
    sandbox.setHostile({ outsideWindow: ["eth"] });
    const before = { symbol: "eth", metric: "PRICE", start: "2010-01-01", end: "2010-01-31" }; // before any data
    const c = client();
    const error = (await c.getSeries(before).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toBe(
      "The market-data service sent a malformed response: a point of eth/PRICE is dated 2099-01-01, outside the window asked for (2010-01-01 to 2010-01-31).",
    );
    expect(c.counters().dropped).toBe(1);
  });

  it("a weekly row dated on its Monday before the window's start is inside; the 2099 point is not", async () => {
    const weekly: SeriesRequest = {
      symbol: "eth",
      metric: "PRICE",
      start: "2024-06-05",
      end: "2024-06-30",
      granularity: "WEEK",
    };
    const ok = await clean(weekly);
    expect(ok[0]!.date).toBe("2024-06-03");
    sandbox.setHostile({ outsideWindow: ["eth"] });
    const c = client();
    expect(points(await c.getSeries(weekly))).toEqual(ok);
    expect(c.counters().dropped).toBe(1);
  });

  it("financials dated on fiscal quarter ends are inside their window", async () => {
    const revenue: SeriesRequest = {
      symbol: "eq-aapl",
      metric: "TOTAL_REVENUE",
      start: "2023-01-01",
      end: "2024-12-31",
      granularity: "QUARTER",
    };
    const ok = await clean(revenue);
    expect(ok.length).toBeGreaterThanOrEqual(7);
    sandbox.setHostile({ outsideWindow: ["eq-aapl"] });
    const c = client();
    expect(points(await c.getSeries(revenue))).toEqual(ok);
    expect(c.counters().dropped).toBe(1);
  });
});

describe("the store holds only what passed: the same table live and after reopening", () => {
  const runtimes: { store: PersistentSeriesStore }[] = [];
  afterEach(async () => {
    for (const r of runtimes.splice(0)) {
      await r.store.flush();
      r.store.close();
    }
  });
  function runtime(factory: IDBFactory, nowMs: number): Client {
    const store = openSeriesStore({ indexedDB: factory, writeDelayMs: 1 });
    runtimes.push({ store });
    return client([], { store, now: running(nowMs) });
  }

  it.each([
    ["outsideWindow", { outsideWindow: ["eth"] }],
    ["duplicateDates", { duplicateDates: ["eth"] }],
    ["badValues", { badValues: ["eth"] }],
  ])("%s", async (_name, hostile) => {
    const factory = new IDBFactory();
    sandbox.setHostile(hostile);
    const live = await runtime(factory, NOON).getSeries(eth);
    await runtimes[0]!.store.flush();
    sandbox.reset(); // the service is sound again: a reopen must not need it

    const reopened = runtime(factory, NOON + 60_000);
    expect(await reopened.getSeries(eth)).toEqual(live);
    expect(sandbox.stats().requests).toBe(0);
    expect(reopened.counters().dropped).toBe(0);
  });
});
