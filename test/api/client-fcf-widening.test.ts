/**
 * The free-cash-flow ratios' short-window quirk is undone by the client
 * (api/series/fcf-widening.ts), so MD.SERIES, MD.LATEST and the pane's preview all
 * see the same series. The service here is the in-memory stand-in with the
 * quirk switched on; client-sandbox.test.ts shows the same rule over real HTTP.
 */
import { createClient, type Client } from "../../src/api/client";
import { addMonths } from "../../src/core/calendar";
import type { DataPoint } from "../../src/core/domain";
import { NoDataError } from "../../src/core/errors";
import { isoToSerial } from "../../src/core/excel-date";
import { latestValue } from "../../src/functions/latest";
import { seriesTable } from "../../src/functions/series";
import type { CallContext } from "../../src/functions/call-context";
import { FakeClock } from "../support/fake-clock";
import {
  expectedPoints,
  fakeService,
  seriesHandler,
  valueOf,
  type FakeService,
  type Handler,
} from "../support/fake-service";
import { BASE, seriesCalls, TEST_KEY, track } from "../support/client-harness";

const TODAY = "2024-05-10"; // a Friday
const FCF = ["ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW", "MARKET_CAP_DIVIDE_FREE_CASH_FLOW", "FCF_YIELD"];
const QUARTER_ENDS = ["03-31", "06-30", "09-30", "12-31"];

type SeriesBody = { data: { symbols: Record<string, Record<string, unknown>> } };

/** The plain stand-in, with every FCF ratio's series rewritten by `rewrite` (given the request's start date). */
function withFcfRule(rewrite: (points: DataPoint[], startDate: string | null) => DataPoint[]): Handler {
  const plain = seriesHandler();
  return async (req) => {
    const reply = await plain(req);
    if (typeof reply === "string" || !reply.body) return reply;
    for (const series of Object.values((reply.body as SeriesBody).data.symbols)) {
      for (const metric of Object.keys(series)) {
        if (FCF.includes(metric)) series[metric] = rewrite(series[metric] as DataPoint[], req.params.get("startDate"));
      }
    }
    return reply;
  };
}

/** The service's quirk: the ratio exists only from the first calendar quarter end inside the window. */
const fromFirstQuarterEnd = withFcfRule((points) => {
  const first = points.findIndex((p) => QUARTER_ENDS.includes(p.date.slice(5)));
  return first < 0 ? [] : points.slice(first);
});

interface Rig {
  client: Client;
  clock: FakeClock;
  service: FakeService;
  ctx: CallContext;
  /** Runs the fake clock until `promise` settles (batch windows, then the widened requests). */
  drive<T>(promise: Promise<T>): Promise<T>;
}

/** A client whose clock reads TODAY, over the stand-in service; `ctx` is what a custom function gets. */
function rig(handler: Handler): Rig {
  const clock = new FakeClock(Date.UTC(2024, 4, 10, 12));
  const service = fakeService(clock, handler);
  const client = createClient({
    settings: async () => ({ apiKey: TEST_KEY, baseUrl: BASE }),
    fetch: service.fetch,
    now: clock.now,
    timers: clock,
  });
  const drive = async <T>(promise: Promise<T>): Promise<T> => {
    const tracked = track(promise);
    for (let step = 0; step < 200 && tracked.state() === "pending"; step++) await clock.advance(20);
    return tracked;
  };
  return { client, clock, service, ctx: { client, today: TODAY, call: {} }, drive };
}

/** The start date of every request that asked for `metric`. */
function startsOf(service: FakeService, metric: string): (string | null)[] {
  return seriesCalls(service)
    .filter((c) => c.metrics.includes(metric))
    .map((c) => c.params.get("startDate"));
}

describe("free-cash-flow ratios: the client widens a sparse window", () => {
  it("MD.SERIES: widens a sparse FCF ratio's window and slices the answer back to the window asked for", async () => {
    const r = rig(fromFirstQuarterEnd);
    const table = await r.drive(
      seriesTable(r.ctx, { symbols: "eq-aapl", metrics: "FCF_YIELD, PRICE", start: "2024-04-05", end: "2024-05-05" }),
    );
    expect(startsOf(r.service, "FCF_YIELD")).toEqual(["2024-04-05", addMonths("2024-04-05", -12)]);
    expect(startsOf(r.service, "PRICE")).toHaveLength(1);
    expect(table).toHaveLength(1 + 31);
    expect(table[1]).toEqual([
      isoToSerial("2024-04-05"),
      valueOf("eq-aapl", "FCF_YIELD", "2024-04-05"),
      valueOf("eq-aapl", "PRICE", "2024-04-05"),
    ]);
    expect(table[31]![0]).toBe(isoToSerial("2024-05-05"));
  });

  it("MD.SERIES: stops widening after two attempts and shows what there is", async () => {
    const r = rig(withFcfRule(() => []));
    await expect(
      r.drive(seriesTable(r.ctx, { symbols: "eq-new", metrics: "FCF_YIELD", start: "2024-04-05" })),
    ).rejects.toThrow(NoDataError);
    expect(startsOf(r.service, "FCF_YIELD")).toEqual(["2024-04-05", "2023-04-05", "2022-04-05"]);
  });

  it("MD.LATEST: an FCF ratio empty in the short window is read from the widened answer", async () => {
    const r = rig(
      withFcfRule((points, start) => (start! < "2024-01-01" ? points.filter((p) => p.date >= "2024-03-31") : [])),
    );
    expect(await r.drive(latestValue(r.ctx, { symbol: "eq-aapl", metric: "FCF_YIELD" }))).toBe(
      valueOf("eq-aapl", "FCF_YIELD", TODAY),
    );
    expect(startsOf(r.service, "FCF_YIELD")).toEqual(["2024-04-10", "2023-04-10"]);
  });

  it("cuts the widened answer back to the window, or hands it whole with keepWidened", async () => {
    const r = rig(
      withFcfRule((points, start) => (start! < "2024-01-01" ? points.filter((p) => p.date >= "2024-03-31") : [])),
    );
    const req = {
      symbol: "eq-aapl",
      metric: "FCF_YIELD",
      start: "2024-04-10",
      end: TODAY,
      granularity: "DAY" as const,
    };
    const sliced = await r.drive(r.client.getSeries(req));
    expect(sliced).toEqual({ kind: "points", points: expectedPoints("eq-aapl", "FCF_YIELD", "2024-04-10", TODAY) });
    const whole = await r.drive(r.client.getSeries(req, { keepWidened: true }));
    expect(whole).toEqual({ kind: "points", points: expectedPoints("eq-aapl", "FCF_YIELD", "2024-03-31", TODAY) });
    // The second call was answered from the cache: the same requests serve both forms.
    expect(startsOf(r.service, "FCF_YIELD")).toEqual(["2024-04-10", "2023-04-10"]);
  });

  it("leaves every other metric, and a window without a start, as the service answered", async () => {
    const r = rig(withFcfRule(() => []));
    expect(await r.drive(r.client.getSeries({ symbol: "eth", metric: "PRICE", start: "2024-04-05" }))).toEqual({
      kind: "points",
      // An omitted end is today, sent explicitly.
      points: expectedPoints("eth", "PRICE", "2024-04-05", TODAY),
    });
    expect(await r.drive(r.client.getSeries({ symbol: "eq-aapl", metric: "FCF_YIELD" }))).toEqual({
      kind: "points",
      points: [],
    });
    // The whole history, newest part first: empty, and one request over everything older says there is nothing more.
    expect(seriesCalls(r.service)).toHaveLength(3);
  });
});
