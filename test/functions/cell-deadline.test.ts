/**
 * Item 4 at the cell: every cell settles in bounded time whatever the service
 * does. A real client against the sandbox whose bodies never end (real HTTP):
 * each call ends at the client's per-call deadline, and the cell's own
 * deadline bounds the calls a function makes one after another (a catalog
 * call's deadline is longer than a series call's). Deadlines are shortened here; the defaults are checked against the
 * 60 s Excel on Mac allows (office-js #1184).
 */
import { CLIENT_DEFAULTS, createClient, type Client } from "../../src/api/client";
import { DEMO_API_KEY } from "../../sandbox/server";
import { expectNoKey, settleWithin } from "../support/real-http";

import { installCustomFunctionsStandIn, StandInError } from "../../harness/custom-functions-stand-in";

installCustomFunctionsStandIn();

const holder: { client?: Client } = {};
const mockCalls = { started: 0, settled: 0 };
jest.mock("../../src/office/runtime", () => ({
  getClient: () => holder.client,
  getRuntime: () => ({
    client: holder.client,
    calls: {
      begin() {
        mockCalls.started += 1;
        return () => (mockCalls.settled += 1);
      },
    },
    dateSystem: async () => 1900,
  }),
}));

// Imported after the stand-ins exist.
import { CELL_DEADLINE_MS, invokeTable, invokeValue } from "../../src/functions/invoke";
import { formattedLatestValue } from "../../src/functions/latest";
import { formattedSeriesTable } from "../../src/functions/series";
import { INSIGHTS_CELL_DEADLINE_MS } from "../../src/functions/insights";
import { useSandbox } from "../support/sandbox";
import { TEST_TODAY } from "../support/today";

const TODAY = TEST_TODAY;
const sandbox = useSandbox({ today: TODAY, insightFirstCallDelayMs: 0 });
beforeEach(() => {
  sandbox.reset();
  sandbox.setHostile({ endlessBody: true });
  mockCalls.started = mockCalls.settled = 0;
});
afterEach(() => sandbox.setHostile({ endlessBody: false }));

function useClient(callDeadlineMs: number, slowCallDeadlineMs: number): Client {
  holder.client = createClient({
    settings: async () => ({ apiKey: DEMO_API_KEY, baseUrl: sandbox.url }),
    callDeadlineMs,
    slowCallDeadlineMs,
    retryBaseMs: 5,
    retryMaxMs: 20,
  });
  return holder.client;
}

function invocation() {
  return { onCanceled: undefined as undefined | (() => void) } as unknown as CustomFunctions.CancelableInvocation;
}

describe("every cell settles by its deadline against a body that never ends", () => {
  it("MD.LATEST: the series call ends at the client's deadline, the cell with the message; nothing left in flight", async () => {
    const client = useClient(800, 60_000);
    const started = Date.now();
    const cell = invokeValue(
      invocation(),
      (ctx) => formattedLatestValue(ctx, { symbol: "eth", metric: "PRICE" }),
      3_000,
    );
    const [outcome] = await settleWithin([cell], 6_000);
    const error = (outcome as PromiseRejectedResult).reason as StandInError;
    expect(error).toBeInstanceOf(StandInError);
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/^No answer from the market-data service within 1 s \(eth PRICE\)\./);
    expect(Date.now() - started).toBeLessThan(5_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.state()).toMatchObject({ queued: 0, inFlight: 0 });
    expect(mockCalls).toEqual({ started: 1, settled: 1 });
    expectNoKey(error, DEMO_API_KEY);
  });

  it("calls one after another: the cell's own deadline ends them all, and they are aborted", async () => {
    const client = useClient(1_000, 1_000);
    const started = Date.now();
    const cell = invokeValue(
      invocation(),
      async (ctx) => {
        // Three calls in a row, each within the client's deadline, together past the cell's.
        for (const metric of ["PRICE", "FEES", "MC"]) {
          await ctx.client
            .getSeries({ symbol: "eth", metric, start: "2025-06-01", end: TODAY }, ctx.call)
            .catch(() => undefined);
        }
        return 1;
      },
      1_500,
    );
    const [outcome] = await settleWithin([cell], 5_000);
    const error = (outcome as PromiseRejectedResult).reason as StandInError;
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/^No answer from the market-data service within 2 s\./);
    const ms = Date.now() - started;
    expect(ms).toBeLessThan(2_500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.state()).toMatchObject({ queued: 0, inFlight: 0 });
  });

  it("MD.SERIES over many pairs: the table cell settles, none pending", async () => {
    useClient(800, 800);
    const cells = Array.from({ length: 20 }, (_, i) =>
      invokeTable(
        invocation(),
        (ctx) =>
          formattedSeriesTable(ctx, {
            symbols: [["eth"], ["btc"], ["sol"]],
            metrics: [["PRICE"], ["FEES"]],
            start: `2025-0${1 + (i % 5)}-01`,
            end: `2025-0${1 + (i % 5)}-2${i % 9}`,
          }),
        3_000,
      ),
    );
    const results = await settleWithin(cells, 6_000);
    for (const r of results) {
      expect(r.status).toBe("rejected");
      expect(((r as PromiseRejectedResult).reason as StandInError).code).toBe("#N/A");
    }
    expect(mockCalls).toEqual({ started: 20, settled: 20 });
  });

  it("the defaults stay inside Excel on Mac's 60 s: a call's, a cell's, MD.INSIGHTS' own", () => {
    expect(CLIENT_DEFAULTS.callDeadlineMs).toBeLessThan(CELL_DEADLINE_MS);
    expect(CELL_DEADLINE_MS).toBeLessThan(60_000);
    expect(INSIGHTS_CELL_DEADLINE_MS).toBeLessThan(60_000);
  });
});
