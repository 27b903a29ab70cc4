/**
 * Item 1 over real HTTP: one symbol the service fails (the sandbox's
 * poisoned symbol answers HTTP 500 for any request naming it) is isolated by
 * halving the batch; every other caller gets its value; a service that fails
 * everything is reported as down after six requests; a request too long for
 * the server (414) is split and the length learned.
 */
import { createClient, type Client, type ClientOptions } from "../../src/api/client";
import { ServerError, UnservedSymbolError } from "../../src/api/errors";
import type { SeriesResult } from "../../src/core/domain";
import { DEMO_API_KEY } from "../../sandbox/server";
import { expectNoKey, settleWithin } from "../support/real-http";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const TODAY = TEST_TODAY;
const WINDOW = { start: "2025-05-01", end: "2025-05-31" };
let symbols: string[];
const reference = new Map<string, unknown>();

const sandbox = useSandbox({ today: TODAY, insightFirstCallDelayMs: 0, assetCount: 300 });
beforeAll(async () => {
  symbols = Array.from({ length: 50 }, (_, i) => `sbx${String(i + 1).padStart(5, "0")}`);
  const q = new URLSearchParams({
    symbols: symbols.join(","),
    startDate: WINDOW.start,
    endDate: WINDOW.end,
    APIKey: DEMO_API_KEY,
  });
  const body = (await (await fetch(`${sandbox.url}/data/api/PRICE/?${q}`)).json()) as {
    data: { symbols: Record<string, { PRICE: unknown }> };
  };
  for (const s of symbols) reference.set(s, body.data.symbols[s]!.PRICE);
});
beforeEach(() => sandbox.reset());

function client(options: Partial<ClientOptions> = {}, logs: string[] = []): Client {
  return createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    retryBaseMs: 5,
    retryMaxMs: 20,
    logger: (line) => logs.push(line),
    ...options,
  });
}

function dataRequests(): { symbols: string[]; status: number | string }[] {
  return sandbox
    .requestLog()
    .filter((e) => e.path.startsWith("/data/api/"))
    .map((e) => ({ symbols: new URLSearchParams(e.query).get("symbols")!.split(","), status: e.status }));
}

describe("one symbol the service fails, inside a batch", () => {
  it.each([0, 24, 49])(
    "poisoned symbol at position %i of 50: 49 exact values, the bad cell names it, at most 2 + 2·⌈log₂ 50⌉ = 14 requests",
    async (position) => {
      const bad = symbols[position]!;
      sandbox.setHostile({ poisonSymbols: [bad] });
      const logs: string[] = [];
      const c = client({}, logs);
      const results = await settleWithin(
        symbols.map((symbol) => c.getSeries({ symbol, metric: "PRICE", ...WINDOW })),
        20_000,
      );
      results.forEach((r, i) => {
        if (symbols[i] === bad) {
          expect(r.status).toBe("rejected");
          const error = (r as PromiseRejectedResult).reason as UnservedSymbolError;
          expect(error).toBeInstanceOf(UnservedSymbolError);
          expect(error.message).toBe(
            `${bad}: the market-data service fails every request that includes this symbol (HTTP 500: Internal Server Error), while the other symbols sent with it were answered. Check the symbol.`,
          );
        } else {
          expect(r).toEqual({ status: "fulfilled", value: { kind: "points", points: reference.get(symbols[i]!) } });
        }
      });
      const sent = dataRequests();
      // The whole and its retry, then two requests per level down to the bad symbol (5 or 6 levels for 50).
      expect(sent.length).toBeGreaterThanOrEqual(2 + 2 * Math.floor(Math.log2(50)));
      expect(sent.length).toBeLessThanOrEqual(2 + 2 * Math.ceil(Math.log2(50)));
      console.log(`one bad symbol at position ${position} of 50: ${sent.length} requests`);
      // The whole request, then its one retry, then halves.
      expect(sent[0]!.symbols).toHaveLength(50);
      expect(sent[1]!.symbols).toEqual(sent[0]!.symbols);
      expect(sent.slice(2).every((r) => r.symbols.length <= 25)).toBe(true);
      expect(sent.filter((r) => r.symbols.length === 1 && r.symbols[0] === bad)).toHaveLength(1);
      expect(c.state()).toMatchObject({ queued: 0, inFlight: 0 });
      expectNoKey([results, logs], DEMO_API_KEY);
    },
  );

  it("the next batch sends the known bad symbol alone: 2 requests, the others exact", async () => {
    const bad = symbols[7]!;
    sandbox.setHostile({ poisonSymbols: [bad] });
    const c = client();
    await settleWithin(
      symbols.map((symbol) => c.getSeries({ symbol, metric: "PRICE", ...WINDOW })),
      20_000,
    );
    sandbox.reset();
    sandbox.setHostile({ poisonSymbols: [bad] });
    const other = { start: "2025-04-01", end: "2025-04-30" };
    const results = await settleWithin(
      symbols.map((symbol) => c.getSeries({ symbol, metric: "PRICE", ...other })),
      20_000,
    );
    expect(dataRequests().map((r) => r.symbols.length)).toEqual([49, 1]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(49);
    expect((results[7] as PromiseRejectedResult).reason).toBeInstanceOf(UnservedSymbolError);
  });

  it("two bad symbols in different halves are both isolated; the other 48 exact", async () => {
    const bad = [symbols[3]!, symbols[40]!];
    sandbox.setHostile({ poisonSymbols: bad });
    const c = client();
    const results = await settleWithin(
      symbols.map((symbol) => c.getSeries({ symbol, metric: "PRICE", ...WINDOW })),
      20_000,
    );
    results.forEach((r, i) => {
      if (bad.includes(symbols[i]!)) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(UnservedSymbolError);
      else
        expect((r as PromiseFulfilledResult<SeriesResult>).value).toEqual({
          kind: "points",
          points: reference.get(symbols[i]!),
        });
    });
    expect(dataRequests().length).toBeLessThanOrEqual(2 + 4 * Math.ceil(Math.log2(50)));
  });

  it("a service that fails everything is reported down after 6 requests (no storm)", async () => {
    sandbox.setFaults({ serverErrorRate: 1 });
    const c = client();
    const results = await settleWithin(
      symbols.map((symbol) => c.getSeries({ symbol, metric: "PRICE", ...WINDOW })),
      20_000,
    );
    for (const r of results) {
      const error = (r as PromiseRejectedResult).reason as Error;
      expect(error).toBeInstanceOf(ServerError);
      expect(error.message).toMatch(
        /^The market-data service failed \(HTTP 50[03]: .+\); retried 1 time; every part of the request failed as well, so the service itself is failing, not one symbol\.$/,
      );
    }
    // The whole and its retry, both halves, both halves of the first half: nothing answered, so the service is down.
    expect(sandbox.stats().requests).toBe(6);
  });

  it("a symbol alone still gets the full retries for a 5xx (no batch to isolate it from)", async () => {
    sandbox.setHostile({ poisonSymbols: ["sbx00001"] });
    const c = client({ retries: 3 });
    const error = (await c
      .getSeries({ symbol: "sbx00001", metric: "PRICE", ...WINDOW })
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe("The market-data service failed (HTTP 500: Internal Server Error); retried 3 times.");
    expect(sandbox.stats().requests).toBe(4);
  });
});

describe("a request too long for the server", () => {
  it("a 414 is split by halves, every value exact, and the next batch fits the learned length", async () => {
    const q = new URLSearchParams({
      symbols: symbols.join(","),
      startDate: WINDOW.start,
      endDate: WINDOW.end,
      APIKey: DEMO_API_KEY,
    });
    const fees = (await (await fetch(`${sandbox.url}/data/api/FEES/?${q}`)).json()) as {
      data: { symbols: Record<string, { FEES: unknown }> };
    };
    sandbox.reset();
    sandbox.setHostile({ maxUrlLength: 300 });
    const c = client();
    const metrics = ["PRICE", "FEES"];
    const requests = symbols.flatMap((symbol) => metrics.map((metric) => ({ symbol, metric, ...WINDOW })));
    const results = await settleWithin(
      requests.map((r) => c.getSeries(r)),
      20_000,
    );
    results.forEach((r, i) => {
      const { symbol, metric } = requests[i]!;
      const points = metric === "PRICE" ? reference.get(symbol) : fees.data.symbols[symbol]!.FEES;
      expect(r).toEqual({ status: "fulfilled", value: { kind: "points", points } });
    });
    const first = dataRequests();
    expect(first.filter((r) => r.status === 414).length).toBeGreaterThan(0);
    sandbox.reset();
    sandbox.setHostile({ maxUrlLength: 300 });
    const other = { start: "2025-04-01", end: "2025-04-30" };
    const again = await settleWithin(
      requests.map((r) => c.getSeries({ ...r, ...other })),
      20_000,
    );
    expect(again.every((r) => r.status === "fulfilled")).toBe(true);
    expect(dataRequests().filter((r) => r.status === 414)).toEqual([]);
  });
});
