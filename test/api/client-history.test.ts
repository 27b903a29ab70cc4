/**
 * Item 3 over real HTTP, against the realistic sandbox (which answers a
 * request without dates with bare numbers): every series request carries
 * both dates; an omitted start is the whole history, read 1,000 points at a
 * time from the newest until the service has no more, and never before the
 * asset kind's earliest data (2009-01-03 for crypto); a window reaching
 * centuries before any data costs what the data holds.
 */
import { createClient, type Client } from "../../src/api/client";
import type { DataPoint } from "../../src/core/domain";
import { DEMO_API_KEY } from "../../sandbox/server";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const TODAY = TEST_TODAY;
const OFFSET = Date.parse(`${TODAY}T12:00:00Z`) - Date.now();

// Realistic, without the empty bodies (they would add retries to the request counts).
const sandbox = useSandbox({ today: TODAY, insightFirstCallDelayMs: 0, realistic: { emptyBodyEvery: 0 } });
beforeEach(() => sandbox.reset());

function client(): Client {
  return createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    // The sandbox's day, with time running (the batch window needs a moving clock).
    now: () => Date.now() + OFFSET,
  });
}

/** The sandbox's own series, one calendar year per request (each under 1,000 days). */
async function history(symbol: string, metric: string, from = 2018): Promise<DataPoint[]> {
  const points: DataPoint[] = [];
  for (let year = from; year <= Number(TODAY.slice(0, 4)); year++) {
    const q = new URLSearchParams({
      symbols: symbol,
      startDate: `${year}-01-01`,
      endDate: `${year}-12-31`,
      APIKey: DEMO_API_KEY,
    });
    const body = (await (await fetch(`${sandbox.url}/data/api/${metric}/?${q}`)).json()) as {
      data: { symbols: Record<string, Record<string, DataPoint[]>> | string };
    };
    if (typeof body.data.symbols !== "string") points.push(...body.data.symbols[symbol]![metric]!);
  }
  sandbox.reset();
  return points;
}

function seriesRequests() {
  return sandbox
    .requestLog()
    .filter((e) => e.path.startsWith("/data/api/"))
    .map((e) => new URLSearchParams(e.query));
}

describe("no date-less requests, no silent caps", () => {
  it("an omitted start is the whole history: every point since 2018, more than 1,000, walked newest first", async () => {
    const expected = await history("eth", "PRICE");
    expect(expected.length).toBeGreaterThan(2500);
    const result = await client().getSeries({ symbol: "eth", metric: "PRICE" });
    expect(result).toEqual({ kind: "points", points: expected });
    const sent = seriesRequests();
    for (const q of sent) {
      expect(q.get("startDate")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(q.get("endDate")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // The parts with data (cut from 2009-01-03 on, so the newest may be short), then the first empty part
    // before 2018-01-01: the walk stops there.
    expect(sent.length).toBeGreaterThanOrEqual(Math.ceil(expected.length / 1000) + 1);
    expect(sent.length).toBeLessThanOrEqual(Math.ceil(expected.length / 1000) + 2);
    expect(sent[0]!.get("endDate")).toBe(TODAY);
    const ends = sent.map((q) => q.get("endDate")!);
    expect([...ends].sort().reverse()).toEqual(ends);
  });

  it.each([
    // 999 weeks from 2009-01-03, the earliest crypto data, reach past today: one part.
    ["weekly", "WEEK" as const, "btc", "FEES", 1],
    // 1,000 quarters reach back past 1900: the whole history is one part.
    ["quarterly financials", "QUARTER" as const, "eq-aapl", "TOTAL_REVENUE", 1],
  ])(
    "the whole history at a coarser granularity (%s) takes few requests",
    async (_name, granularity, symbol, metric, requests) => {
      const result = await client().getSeries({ symbol, metric, granularity });
      expect(result.kind === "points" && result.points.length).toBeGreaterThan(20);
      expect(seriesRequests()).toHaveLength(requests);
    },
  );

  it("a window starting centuries before the data (-1900Y) costs no more than the data it finds", async () => {
    const expected = await history("eth", "FEES");
    const result = await client().getSeries({ symbol: "eth", metric: "FEES", start: "0125-06-16", end: TODAY });
    expect(result).toEqual({ kind: "points", points: expected });
    // Read from 2009-01-03 on (not 0125): 7 parts of 1,000 days, the data in 3 or 4 of them, then one empty.
    expect(seriesRequests().length).toBeLessThanOrEqual(Math.ceil(expected.length / 1000) + 2);
    expect(seriesRequests()[0]!.get("endDate")).toBe(TODAY);
  });

  it("a long window without any data costs two requests: its newest part, then one over everything older", async () => {
    const result = await client().getSeries({
      symbol: "eth",
      metric: "PRICE",
      start: "1980-01-01",
      end: "2017-12-31",
    });
    expect(result).toEqual({ kind: "points", points: [] });
    const sent = seriesRequests();
    expect(sent).toHaveLength(2);
    // Everything older reaches back to 2009-01-03, the earliest crypto data, not to 1980.
    expect([sent[1]!.get("startDate"), sent[1]!.get("endDate")]).toEqual([
      "2009-01-03",
      sent[0]!.get("startDate") && expect.any(String),
    ]);
  });

  it.each([
    // 2009-01-03 … 2025-06-15: 6,008 days, 7 parts; every one holds data, so the walk reads them all.
    ["eth", "FEES", "2009-01-03", 7],
    // 2000-01-01 … 2025-06-15: 9,298 days, 10 parts.
    ["eq-coin", "PRICE", "2000-01-01", 10],
  ])(
    "against a service with data for any date, -1900Y of %s %s is read from its kind's earliest date (%s): %i requests",
    async (symbol, metric, earliest, parts) => {
      sandbox.setHostile({ dataEverywhere: true });
      const result = await client().getSeries({ symbol, metric, start: "0125-06-16", end: TODAY });
      const sent = seriesRequests();
      expect(sent).toHaveLength(parts);
      expect(sent.length).toBeLessThanOrEqual(12);
      expect(sent.map((q) => q.get("startDate")).sort()[0]).toBe(earliest);
      expect(result.kind === "points" && result.points[0]!.date).toBe(earliest);
    },
  );

  it("a window that ends before any crypto data is answered without a request", async () => {
    sandbox.setHostile({ dataEverywhere: true });
    const result = await client().getSeries({ symbol: "eth", metric: "PRICE", start: "1950-01-01", end: "2008-12-31" });
    expect(result).toEqual({
      kind: "message",
      message: "No data before 2009-01-03 for a crypto asset (Bitcoin's first block): the window ends 2008-12-31.",
    });
    expect(seriesRequests()).toHaveLength(0);
  });

  it("a pair the service answers with a sentence costs one request, and keeps the sentence", async () => {
    const result = await client().getSeries({ symbol: "base", metric: "PRICE" });
    expect(result).toEqual({ kind: "message", message: "Metric not available for asset." });
    expect(seriesRequests()).toHaveLength(1);
  });

  it("the connection test sends dates too", async () => {
    await client().testConnection();
    const [q] = seriesRequests();
    expect(q!.get("startDate")).toBeTruthy();
    expect(q!.get("endDate")).toBe(TODAY);
  });
});
