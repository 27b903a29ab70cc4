import {
  AuthError,
  BadRequestError,
  BadResponseError,
  CancelledError,
  MarketDataError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "../../../src/api/errors";
import {
  attempt,
  errorFromStatus,
  isAttemptFailure,
  parseRetryAfter,
  serviceMessage,
  type FetchLike,
} from "../../../src/api/http/transport";
import { FakeClock } from "../../support/fake-clock";
import { fakeService, type Handler } from "../../support/fake-service";

const KEY = "sekret-key-42";
const ctx = { display: "https://h/data/api/PRICE/", apiKey: KEY, now: () => Date.parse("2025-01-01T00:00:00Z") };
const noHeaders = { get: () => null };

describe("HTTP status → error", () => {
  it.each([
    [
      401,
      AuthError,
      "The market-data service rejected the API key (HTTP 401: bad key). Enter a valid key in the Market Data pane.",
    ],
    [
      403,
      AuthError,
      "The market-data service rejected the API key (HTTP 403: bad key). Enter a valid key in the Market Data pane.",
    ],
    [404, NotFoundError, "The market-data service has nothing at https://h/data/api/PRICE/ (HTTP 404: bad key)."],
    [400, BadRequestError, "The market-data service refused the request (HTTP 400: bad key)."],
    [422, BadRequestError, "The market-data service refused the request (HTTP 422: bad key)."],
    [429, RateLimitError, "Rate limited by the market-data service (HTTP 429: bad key)."],
    [500, ServerError, "The market-data service failed (HTTP 500: bad key)."],
    [503, ServerError, "The market-data service failed (HTTP 503: bad key)."],
  ] as const)("%i → %p", (status, type, message) => {
    const error = errorFromStatus(status, "", JSON.stringify({ error: "bad key" }), noHeaders, ctx);
    expect(error).toBeInstanceOf(type);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it("redacts the key when the service echoes it", () => {
    const error = errorFromStatus(401, "", JSON.stringify({ message: `key ${KEY} is unknown` }), noHeaders, ctx);
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain("key *** is unknown");
  });

  it("falls back to the status text", () => {
    expect(errorFromStatus(502, "Bad Gateway", "", noHeaders, ctx).message).toBe(
      "The market-data service failed (HTTP 502: Bad Gateway).",
    );
  });

  it.each([
    ['{"error":{"message":"nested"}}', "nested"],
    ['{"error":"flat"}', "flat"],
    ['{"message":"msg"}', "msg"],
    ['{"detail":"det"}', "det"],
    ['{"detail":[{"msg":"field a"},{"msg":"field b"}]}', "field a; field b"],
    ['"just a string"', "just a string"],
    ["plain text reason", "plain text reason"],
    ["<html><body>502</body></html>", undefined],
    ['{"unrelated":1}', undefined],
    ["", undefined],
  ])("finds the message in %s", (body, expected) => {
    expect(serviceMessage(body)).toBe(expected);
  });

  it.each([
    ["2", 2000],
    ["0", 0],
    ["1.5", 1500],
    ["Wed, 01 Jan 2025 00:00:30 GMT", 30_000],
    ["Tue, 31 Dec 2024 23:59:00 GMT", 0],
    ["soon", undefined],
    [null, undefined],
  ])("Retry-After %j → %j ms", (header, expected) => {
    expect(parseRetryAfter(header, ctx.now())).toBe(expected);
  });

  it("carries Retry-After on the rate-limit error", () => {
    const error = errorFromStatus(
      429,
      "",
      "",
      { get: (n: string) => (n === "retry-after" ? "3" : null) },
      ctx,
    ) as RateLimitError;
    expect(error.retryAfterMs).toBe(3000);
  });
});

describe("one attempt", () => {
  async function run(
    handler: Handler | FetchLike,
    options: { timeoutMs?: number; signal?: AbortSignal; advance?: number } = {},
  ) {
    const clock = new FakeClock();
    const fetch =
      typeof handler === "function" && handler.length === 2
        ? (handler as FetchLike)
        : fakeService(clock, handler as Handler).fetch;
    const promise = attempt("https://h/data/api/PRICE/?symbols=eth&APIKey=" + KEY, {
      fetch,
      timers: clock,
      now: clock.now,
      timeoutMs: options.timeoutMs ?? 1000,
      display: ctx.display,
      apiKey: KEY,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const outcome = promise.then(
      (value) => ({ value }),
      (failure: unknown) => ({ failure }),
    );
    await clock.advance(options.advance ?? 0);
    return outcome;
  }

  function errorOf(outcome: { value?: unknown; failure?: unknown }): MarketDataError {
    expect(isAttemptFailure(outcome.failure)).toBe(true);
    return (outcome.failure as { error: MarketDataError }).error;
  }

  it("returns the parsed body and its size", async () => {
    const outcome = await run(() => ({ body: { data: { symbols: {} } } }));
    expect(outcome).toEqual({ value: { status: 200, json: { data: { symbols: {} } }, bytes: 23 } });
  });

  it("maps a dropped connection to a NetworkError naming the cause, without the key", async () => {
    const error = errorOf(await run(() => "reset" as const));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(
      "Could not reach the market-data service at https://h/data/api/PRICE/: connection reset.",
    );
  });

  it("maps a browser's opaque failure to a NetworkError that suggests the likely causes", async () => {
    const error = errorOf(await run(async () => Promise.reject(new TypeError("Failed to fetch")), {}));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain("offline, blocked by the browser, or the server does not allow this origin");
  });

  it("times out a hanging request", async () => {
    const error = errorOf(await run(() => "hang" as const, { timeoutMs: 500, advance: 500 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe("The market-data service did not answer within 0.5 s (https://h/data/api/PRICE/).");
  });

  it("times out even when fetch ignores its signal", async () => {
    const deaf: FetchLike = (_url, _init) => new Promise<Response>(() => undefined);
    const error = errorOf(await run(deaf, { timeoutMs: 200, advance: 200 }));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it("reports a caller's abort as a cancellation, not a timeout", async () => {
    const controller = new AbortController();
    const clock = new FakeClock();
    const promise = attempt("https://h/x/", {
      fetch: fakeService(clock, () => "hang").fetch,
      timers: clock,
      now: clock.now,
      timeoutMs: 1000,
      display: "https://h/x/",
      apiKey: KEY,
      signal: controller.signal,
    }).catch((failure: { error: MarketDataError }) => failure.error);
    await clock.advance(10);
    controller.abort();
    expect(await promise).toBeInstanceOf(CancelledError);
  });

  it.each([
    ["truncated JSON", '{"data":{"symb', true],
    ["an HTML page", "<!doctype html><title>Sign in</title>", false],
  ])("refuses %s as a bad response (retryable: %s)", async (_name, body, retryable) => {
    const error = errorOf(await run(() => ({ body })));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.retryable).toBe(retryable);
  });

  it("counts the bytes of an error body", async () => {
    const outcome = (await run(() => ({ status: 503, body: "overloaded" }))) as { failure?: unknown };
    expect((outcome.failure as { bytes: number }).bytes).toBe(10);
  });
});
