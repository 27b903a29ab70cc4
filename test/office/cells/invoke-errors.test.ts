/**
 * The Office edge: CustomFunctions.Error mapping and the invocation frame.
 * CustomFunctions is a global inside Excel; here a stand-in with the same shape.
 */
import {
  AuthError,
  BadRequestError,
  CancelledError,
  ConfigError,
  NetworkError,
  NotCachedError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "../../../src/api/errors";
import { errorCell } from "../../../src/core/cell";
import { ArgumentError, NoDataError, ResultTooLargeError } from "../../../src/core/errors";
import { FakeClient, fakePoints } from "../../support/fake-client";

import { installCustomFunctionsStandIn, StandInError } from "../../../harness/custom-functions-stand-in";

installCustomFunctionsStandIn();

const fake = FakeClient.answering();
/** The runtime's call counter, as invoke.ts uses it: one call per invocation, settled however it ends. */
const mockCalls = {
  started: 0,
  settled: 0,
  begin() {
    mockCalls.started += 1;
    let done = false;
    return () => {
      if (!done) mockCalls.settled += 1;
      done = true;
    };
  },
};
jest.mock("../../../src/office/runtime", () => ({
  getClient: () => fake,
  getRuntime: () => ({ client: fake, calls: mockCalls, dateSystem: async () => 1900 }),
}));

// Imported after the stand-ins exist.
import { PREVIEW_MESSAGE, toCustomFunctionsError, toExcelTable } from "../../../src/office/cells/errors";
import { invokeTable, invokeValue, isValuePreview } from "../../../src/functions/invoke";
import { latest, series, version } from "../../../src/functions/functions";

describe("error mapping", () => {
  it.each<[unknown, string, string | RegExp | undefined]>([
    [new ArgumentError("start", '"x" is not a date.'), "#VALUE!", 'start: "x" is not a date.'],
    [new ResultTooLargeError("The result would be about 7 MB."), "#VALUE!", "The result would be about 7 MB."],
    [
      new BadRequestError("The market-data service refused the request (HTTP 400)."),
      "#VALUE!",
      "The market-data service refused the request (HTTP 400).",
    ],
    [new NoDataError("No data for eth PRICE."), "#N/A", "No data for eth PRICE."],
    [new NotCachedError(), "#N/A", PREVIEW_MESSAGE],
    [
      new AuthError(
        "The market-data service rejected the API key (HTTP 401). Enter a valid key in the Market Data pane.",
      ),
      "#N/A",
      /rejected the API key/,
    ],
    [
      new ConfigError("No API key is set. Enter your market-data API key in the Market Data pane."),
      "#N/A",
      /No API key is set/,
    ],
    [
      new RateLimitError("Rate limited by the market-data service (HTTP 429)."),
      "#N/A",
      "Rate limited by the market-data service (HTTP 429). Wait a moment, then use Refresh all (Data tab ▸ Market Data) or re-enter the formula.",
    ],
    [
      new NetworkError("Could not reach the market-data service at http://h/: refused."),
      "#N/A",
      /Could not reach.*To try again, use Refresh all \(Data tab ▸ Market Data\) or re-enter the formula\.$/,
    ],
    [
      new TimeoutError("The market-data service did not answer within 30 s."),
      "#N/A",
      /did not answer.*To try again, use Refresh all/,
    ],
    [new ServerError("The market-data service failed (HTTP 503)."), "#N/A", /HTTP 503/],
    [new CancelledError(), "#N/A", /cancelled/],
    [new TypeError("x is undefined"), "#VALUE!", "Unexpected error in the Market Data add-in: x is undefined"],
    ["a string", "#VALUE!", "Unexpected error in the Market Data add-in: a string"],
  ])("%s → %s", (error, code, message) => {
    const mapped = toCustomFunctionsError(error) as unknown as StandInError;
    expect(mapped).toBeInstanceOf(StandInError);
    expect(mapped.code).toBe(code);
    if (message instanceof RegExp) expect(mapped.message).toMatch(message);
    else expect(mapped.message).toBe(message);
  });

  it("a client error from another bundle's copy of the classes maps by its kind, not to 'Unexpected error'", () => {
    // The pane's previews run the functions in its own bundle on the client functions.js created.
    let other: typeof import("../../../src/api/errors") | undefined;
    jest.isolateModules(() => {
      other = jest.requireActual<typeof import("../../../src/api/errors")>("../../../src/api/errors");
    });
    const error = new other!.ServerError("The market-data service failed (HTTP 503).");
    expect(error).not.toBeInstanceOf(ServerError);
    const mapped = toCustomFunctionsError(error) as unknown as StandInError;
    expect(mapped.code).toBe("#N/A");
    expect(mapped.message).toMatch(/^The market-data service failed \(HTTP 503\)\. To try again/);
  });

  it("never lets an API key through, even from an unexpected error", () => {
    const mapped = toCustomFunctionsError(
      new Error("GET http://h/data/api/PRICE/?symbols=eth&APIKey=secret-123 failed"),
    ) as unknown as StandInError;
    expect(mapped.message).not.toContain("secret-123");
  });

  it("turns error cells into CustomFunctions.Errors, keeping messages only where Excel allows them", () => {
    const [row] = toExcelTable([
      [1, "a", errorCell("#N/A", "no value"), errorCell("#DIV/0!", "zero")],
    ]) as unknown as unknown[][];
    expect(row.slice(0, 2)).toEqual([1, "a"]);
    expect(row[2]).toEqual(new StandInError("#N/A", "no value"));
    expect(row[3]).toEqual(new StandInError("#DIV/0!"));
  });
});

describe("the invocation frame", () => {
  beforeEach(() => {
    fake.series.calls.length = 0;
    fake.failWith = undefined;
    // The frame uses the machine's real date: answer whatever window is asked.
    fake.answerSeries = (req) => ({
      kind: "points",
      points: fakePoints(req.symbol, req.metric, req.start!, req.end!, "DAY", req.end!),
    });
  });

  it.each([
    [true, true],
    ["true", true],
    [false, false],
    [undefined, false],
  ])("isInValuePreview %j → preview %s", (flag, preview) => {
    expect(isValuePreview({ isInValuePreview: flag } as never)).toBe(preview);
  });

  it("a preview asks the client for cached answers only", async () => {
    await series([["eth"]], [["PRICE"]], "-3D", "TODAY", null, null as never, { isInValuePreview: true } as never);
    expect(fake.seriesCalls[0].opts?.cacheOnly).toBe(true);
    await series([["eth"]], [["PRICE"]], "-3D", "TODAY", null, null as never, { isInValuePreview: false } as never);
    expect(fake.seriesCalls[1].opts?.cacheOnly).toBe(false);
  });

  it("Excel's cancellation aborts the signal the client was given", async () => {
    const invocation: { onCanceled?: () => void } = {};
    await latest("eth", "PRICE", null, null as never, invocation as never);
    const signal = fake.seriesCalls[0].opts?.signal;
    expect(signal?.aborted).toBe(false);
    invocation.onCanceled?.();
    expect(signal?.aborted).toBe(true);
  });

  it("rejects with a CustomFunctions.Error, never a raw exception", async () => {
    await expect(series([[42]], [["PRICE"]], null, null, null, null as never, {} as never)).rejects.toBeInstanceOf(
      StandInError,
    );
    fake.failWith = new NetworkError("Could not reach the market-data service.");
    await expect(latest("eth", "PRICE", null, null as never, {} as never)).rejects.toMatchObject({ code: "#N/A" });
    await expect(
      invokeTable(undefined, async () => {
        throw new RangeError("bug");
      }),
    ).rejects.toMatchObject({ code: "#VALUE!", message: "Unexpected error in the Market Data add-in: bug" });
  });

  it("counts every call in the runtime from start to settlement: a value, a failure, a sync function", async () => {
    const before = { ...mockCalls };
    let release: (() => void) | undefined;
    const pending = invokeValue(undefined, () => new Promise<number>((resolve) => (release = () => resolve(7))));
    expect(mockCalls.started - before.started).toBe(1);
    while (!release) await new Promise((resolve) => setTimeout(resolve, 0)); // the work has started
    expect(mockCalls.settled - before.settled).toBe(0);
    release();
    await expect(pending).resolves.toBe(7);
    expect(mockCalls.settled - before.settled).toBe(1);

    fake.failWith = new NetworkError("Could not reach the market-data service.");
    await expect(latest("eth", "PRICE", null, null as never, {} as never)).rejects.toMatchObject({ code: "#N/A" });
    expect(version()).toMatch(/^\d+\.\d+\.\d+/);
    expect(mockCalls.started - before.started).toBe(3);
    expect(mockCalls.settled - before.settled).toBe(3);
  });

  it("a scalar error cell (PCT_CHANGE from zero) is thrown as its Excel error", async () => {
    await expect(invokeValue(undefined, async () => errorCell("#DIV/0!", "zero"))).rejects.toEqual(
      new StandInError("#DIV/0!"),
    );
    await expect(invokeValue(undefined, async () => 5)).resolves.toBe(5);
  });
});
