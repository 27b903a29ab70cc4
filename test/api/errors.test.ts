import {
  AuthError,
  BadRequestError,
  BadResponseError,
  CancelledError,
  ConfigError,
  isMarketDataError,
  MarketDataError,
  NetworkError,
  noteRetries,
  NotCachedError,
  NotFoundError,
  RateLimitError,
  redact,
  ServerError,
  TimeoutError,
} from "../../src/api/errors";

describe("error classes", () => {
  it.each([
    [new AuthError("m"), "auth", false, "AuthError"],
    [new NotFoundError("m"), "not-found", false, "NotFoundError"],
    [new BadRequestError("m"), "bad-request", false, "BadRequestError"],
    [new RateLimitError("m"), "rate-limit", true, "RateLimitError"],
    [new NetworkError("m"), "network", true, "NetworkError"],
    [new TimeoutError("m"), "timeout", true, "TimeoutError"],
    [new ServerError("m"), "server", true, "ServerError"],
    [new BadResponseError("m"), "bad-response", false, "BadResponseError"],
    [new CancelledError(), "cancelled", false, "CancelledError"],
    [new NotCachedError(), "not-cached", false, "NotCachedError"],
    [new ConfigError("m"), "config", false, "ConfigError"],
  ] as const)("%s has kind %s, retryable %s", (error, kind, retryable, name) => {
    expect(error).toBeInstanceOf(MarketDataError);
    expect(error).toBeInstanceOf(Error);
    expect(error.kind).toBe(kind);
    expect(error.retryable).toBe(retryable);
    expect(error.name).toBe(name);
    expect(error.message.length).toBeGreaterThan(0);
  });

  it("carries the HTTP status and a retry-after", () => {
    const error = new RateLimitError("slow down", { status: 429, retryAfterMs: 2000 });
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(2000);
  });

  it("lets a bad response be retryable (truncated JSON)", () => {
    expect(new BadResponseError("cut", { retryable: true }).retryable).toBe(true);
  });

  it("notes the retries in the message", () => {
    const error = noteRetries(new RateLimitError("Rate limited by the market-data service (HTTP 429)."), 4);
    expect(error.message).toBe("Rate limited by the market-data service (HTTP 429); retried 4 times.");
    expect(error.retries).toBe(4);
    expect(noteRetries(new ServerError("Failed."), 1).message).toBe("Failed; retried 1 time.");
    expect(noteRetries(new ServerError("Failed."), 0).message).toBe("Failed.");
  });
});

describe("redact", () => {
  const key = "s3cr+t/key=1";
  it.each([
    ["the key itself", `key is ${key} here`, "key is *** here"],
    ["the key percent-encoded", `?APIKey=${encodeURIComponent(key)}&x=1`, "?APIKey=***&x=1"],
    ["the key form-encoded", `q=${new URLSearchParams({ a: key }).toString().slice(2)}`, "q=***"],
    ["any APIKey query value", "https://h/p/?symbols=eth&APIKey=other-key-123", "https://h/p/?symbols=eth&APIKey=***"],
    ["apikey in any case", "x?apikey=abc&y=2", "x?apikey=***&y=2"],
    ["every occurrence", `${key} and ${key}`, "*** and ***"],
    ["nothing to hide", "plain message", "plain message"],
  ])("removes %s", (_what, input, expected) => {
    expect(redact(input, key)).toBe(expected);
  });

  it("still hides APIKey values without a known key", () => {
    expect(redact("GET /x/?APIKey=abc")).toBe("GET /x/?APIKey=***");
  });
});

describe("errors from another bundle's copy of the classes", () => {
  // functions.js creates the client; the pane's bundle has its own copy of these classes (src/office/runtime-registry.ts).
  function otherCopy(): typeof import("../../src/api/errors") {
    let copy: typeof import("../../src/api/errors") | undefined;
    jest.isolateModules(() => {
      copy = jest.requireActual<typeof import("../../src/api/errors")>("../../src/api/errors");
    });
    return copy!;
  }

  it("are recognised by isMarketDataError, with their kind, though instanceof fails", () => {
    const other = otherCopy();
    expect(other.MarketDataError).not.toBe(MarketDataError);
    const error = new other.NetworkError("Could not reach the market-data service.");
    expect(error instanceof MarketDataError).toBe(false);
    expect(isMarketDataError(error)).toBe(true);
    expect(other.isMarketDataError(new AuthError("m"))).toBe(true);
  });

  it("a look-alike without the brand, or a plain Error, is not one", () => {
    expect(isMarketDataError(Object.assign(new Error("m"), { kind: "network" }))).toBe(false);
    expect(isMarketDataError(new Error("m"))).toBe(false);
    expect(isMarketDataError(null)).toBe(false);
    expect(isMarketDataError("network")).toBe(false);
  });
});
