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
  MIN_API_KEY_LENGTH,
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

  it.each([
    // The text around an APIKey= value is kept: a closing bracket, a sentence's full stop, a comma.
    [
      "a bracket and full stop after the value",
      "failed (GET /p/?APIKey=abc123). Check it.",
      "failed (GET /p/?APIKey=***). Check it.",
    ],
    ["a full stop at the end", "Requested with APIKey=abc123.", "Requested with APIKey=***."],
    ["a comma then more", "APIKey=abc123, then more", "APIKey=***, then more"],
    ["a dot inside the value", "x?APIKey=ab.cd.ef&y=1", "x?APIKey=***&y=1"],
    ["a fragment", "x?APIKey=abc#top", "x?APIKey=***#top"],
    ["quoted", 'url "x?APIKey=abc" sent', 'url "x?APIKey=***" sent'],
  ])("stops an APIKey= value where the value ends: %s", (_what, input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it.each([
    // A one-letter (or any too short) key is never starred where it stands as a word or inside one.
    ["a", "Metric not available for a crypto asset; APIKey=a.", "Metric not available for a crypto asset; APIKey=***."],
    ["eth", "eth PRICE: no data (key eth)", "eth PRICE: no data (key eth)"],
  ])("a key shorter than the minimum (%j) is removed only as an APIKey= value", (shortKey, input, expected) => {
    expect(shortKey.length).toBeLessThan(MIN_API_KEY_LENGTH);
    expect(redact(input, shortKey)).toBe(expected);
  });

  it.each([
    // A whole key glued to other text is still the key: only its own characters go.
    ["inside a longer word", "tokenABCDEFGH12x and ABCDEFGH12", "token***x and ***"],
    ["glued to punctuation", "(ABCDEFGH12).", "(***)."],
    ["in a chain name", "bridge-of-ABCDEFGH12", "bridge-of-***"],
  ])("removes the key's own characters and nothing around them: %s", (_what, input, expected) => {
    expect(redact(input, "ABCDEFGH12")).toBe(expected);
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
