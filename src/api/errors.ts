/**
 * The client's errors: one class per failure kind, so callers branch on
 * `instanceof` or `kind` instead of parsing messages (the model is ky's and
 * octokit's HTTPError / TimeoutError split). Every message is written for the
 * analyst who sees it in a cell or in the pane, and none carries the API key:
 * whatever text reaches a message goes through `redact` first.
 */

export type MarketDataErrorKind =
  | "auth"
  | "not-found"
  | "bad-request"
  | "rate-limit"
  | "network"
  | "timeout"
  | "server"
  | "bad-response"
  | "cancelled"
  | "not-cached"
  | "config";

export interface MarketDataErrorDetails {
  status?: number;
  /** How long the service asked to wait before a retry (`Retry-After` on a 429 or 503). */
  retryAfterMs?: number;
  /** Overrides the kind's default (only bad-response uses this: truncated JSON is worth a retry, a wrong shape is not). */
  retryable?: boolean;
}

/**
 * Marks the client's errors across bundles: functions.js creates the client,
 * and code in the pane's bundle (the builders' previews run the functions
 * there) has its own copy of these classes, so `instanceof` alone would not
 * recognise the client's errors (src/office/runtime-registry.ts).
 */
const BRAND = Symbol.for("market-data.error");

export class MarketDataError extends Error {
  readonly [BRAND] = true;
  readonly kind: MarketDataErrorKind;
  readonly status?: number;
  /** Whether sending the same request again may succeed. */
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  /** How many times the request was retried before this error was final. */
  retries = 0;

  constructor(kind: MarketDataErrorKind, message: string, retryable: boolean, details: MarketDataErrorDetails = {}) {
    super(message);
    this.name = "MarketDataError";
    this.kind = kind;
    this.retryable = details.retryable ?? retryable;
    if (details.status !== undefined) this.status = details.status;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

/** 401/403: the key is missing, wrong or not entitled. */
export class AuthError extends MarketDataError {
  constructor(message: string, details?: MarketDataErrorDetails) {
    super("auth", message, false, details);
    this.name = "AuthError";
  }
}

/** 404: no such resource (unknown path, feed, or an asset the service does not know). */
export class NotFoundError extends MarketDataError {
  constructor(message: string, details?: MarketDataErrorDetails) {
    super("not-found", message, false, details);
    this.name = "NotFoundError";
  }
}

/** 400/422 and other 4xx, and arguments refused before any request is sent. */
export class BadRequestError extends MarketDataError {
  constructor(message: string, details?: MarketDataErrorDetails) {
    super("bad-request", message, false, details);
    this.name = "BadRequestError";
  }
}

/** 429. `retryAfterMs` is what the service asked for, when it said. */
export class RateLimitError extends MarketDataError {
  constructor(message: string, details?: MarketDataErrorDetails) {
    super("rate-limit", message, true, details);
    this.name = "RateLimitError";
  }
}

/** The connection failed: DNS, refused, reset, dropped mid-body, CORS. */
export class NetworkError extends MarketDataError {
  constructor(message: string, details?: MarketDataErrorDetails) {
    super("network", message, true, details);
    this.name = "NetworkError";
  }
}

/** No complete answer within the per-attempt timeout. */
export class TimeoutError extends MarketDataError {
  constructor(message: string, details?: MarketDataErrorDetails) {
    super("timeout", message, true, details);
    this.name = "TimeoutError";
  }
}

/** 5xx. */
export class ServerError extends MarketDataError {
  constructor(message: string, details?: MarketDataErrorDetails) {
    super("server", message, true, details);
    this.name = "ServerError";
  }
}

/** A 2xx whose body is not what the interface description promises. */
export class BadResponseError extends MarketDataError {
  constructor(message: string, details?: MarketDataErrorDetails) {
    super("bad-response", message, false, details);
    this.name = "BadResponseError";
  }
}

/** The caller's AbortSignal fired (Excel cancelled the cell, the pane navigated away). */
export class CancelledError extends MarketDataError {
  constructor(message = "The market-data request was cancelled.") {
    super("cancelled", message, false);
    this.name = "CancelledError";
  }
}

/** `cacheOnly` was asked (formula value preview) and the answer is neither cached nor in flight. */
export class NotCachedError extends MarketDataError {
  constructor(message = "Not loaded yet: market data is fetched when the formula is entered, not during preview.") {
    super("not-cached", message, false);
    this.name = "NotCachedError";
  }
}

/** The settings cannot produce a request: no base URL, an invalid one, no API key. */
export class ConfigError extends MarketDataError {
  constructor(message: string) {
    super("config", message, false);
    this.name = "ConfigError";
  }
}

/** What a cell without a usable sign-in shows: the pane, not the cell, signs in. */
export const SIGN_IN_MESSAGE = "Sign in to Market Data (pane ▸ Settings)";

/**
 * The gateway lets in only signed-in people and there is no usable token: nobody signed in yet, the sign-in
 * expired and could not be renewed silently, or the gateway refused the renewed token too. Not retried: after
 * signing in, Refresh all asks again.
 */
export class SignInRequiredError extends MarketDataError {
  constructor(message: string = SIGN_IN_MESSAGE, details?: MarketDataErrorDetails) {
    super("auth", message, false, details);
    this.name = "SignInRequiredError";
  }
}

/** What a cell shows once the sign-in could not be renewed without the user (the pane says the same). */
export const SIGN_IN_EXPIRED_MESSAGE = "Your sign-in expired — sign in again (pane ▸ Settings)";

/** The sign-in was in use and can no longer be renewed silently: the token source says so in its own words. */
export class SignInExpiredError extends SignInRequiredError {
  constructor() {
    super(SIGN_IN_EXPIRED_MESSAGE);
    this.name = "SignInExpiredError";
  }
}

/**
 * One symbol the service fails every request for (an HTTP 5xx for any request
 * naming it, while the same request without it is answered): found by
 * isolating it from a batch (series/batcher.ts). It is that symbol's failure,
 * not the other callers', so it fails only the cells that asked for it.
 */
export class UnservedSymbolError extends MarketDataError {
  readonly symbol: string;
  constructor(symbol: string, cause: MarketDataError) {
    const said = /\(HTTP \d{3}[^)]*\)/.exec(cause.message)?.[0] ?? `(HTTP ${cause.status ?? "5xx"})`;
    super(
      "not-found",
      `${symbol}: the market-data service fails every request that includes this symbol ${said}, while the other symbols sent with it were answered. Check the symbol.`,
      false,
      cause.status === undefined ? {} : { status: cause.status },
    );
    this.name = "UnservedSymbolError";
    this.symbol = symbol;
  }
}

/**
 * The service answered with a redirect, which the client never follows to
 * another origin: the request carries the API key, and a redirect (a moved
 * host, a captive portal, a man in the middle) must not deliver it to a host
 * the user did not configure. `location` is the origin it pointed at, when
 * the runtime says (browsers do not).
 */
export class RedirectError extends MarketDataError {
  readonly location?: string;
  constructor(message: string, details: MarketDataErrorDetails & { location?: string } = {}) {
    super("config", message, false, details);
    this.name = "RedirectError";
    if (details.location !== undefined) this.location = details.location;
  }
}

/** A client error, from this bundle's copy of the classes or another's (see BRAND). */
export function isMarketDataError(value: unknown): value is MarketDataError {
  return (
    value instanceof MarketDataError ||
    (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true)
  );
}

const REDACTED = "***";

/**
 * The shortest API key Settings accepts (src/office/settings.ts). A shorter
 * one is refused: it is not a whole key, and a key as short as a word would
 * make `redact` star that word wherever a message says it.
 */
export const MIN_API_KEY_LENGTH = 8;

/**
 * A token's segments (a JWT's header, payload and signature) and the runs of its base64 shorter than this are not
 * hidden on their own: a short one could be a word of the message (every JWT's header starts "eyJ").
 */
const MIN_TOKEN_PART = 16;

/** Each secret's forms, worked out once (a few at a time: the key, the token, the ones just replaced). */
const formsOf = new Map<string, string[]>();

function remembered(secret: string, make: () => string[]): string[] {
  let forms = formsOf.get(secret);
  if (!forms) {
    if (formsOf.size >= 8) formsOf.clear();
    // Longest first: a form inside a longer one (a segment inside the token) is replaced after it.
    forms = [...new Set(make())].filter((form) => form !== "").sort((a, b) => b.length - a.length);
    formsOf.set(secret, forms);
  }
  return forms;
}

/** The UTF-8 bytes of `text`, written out: not every runtime the functions run in has TextEncoder (jsdom has not). */
function utf8(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return Uint8Array.from(bytes);
}

/**
 * The runs of base64 and base64url text that the secret's bytes alone decide, for each of the three places it can
 * start in an encoded stream (after 0, 1 or 2 bytes of something else: "Bearer <token>", "APIKey=<key>" encoded
 * whole); the characters that also carry a neighbour's bits are left out. As the gateway finds them
 * (deploy/nginx/service-tier.js `base64Runs`).
 */
function base64Runs(secret: string, minLength: number): string[] {
  const bytes = utf8(secret);
  const runs: string[] = [];
  for (const lead of [0, 1, 2]) {
    const stream = new Uint8Array(lead + bytes.length);
    stream.set(bytes, lead);
    const end = Math.floor((stream.length * 8) / 6);
    const standard = base64(stream);
    for (const text of [standard, standard.replace(/\+/g, "-").replace(/\//g, "_")]) {
      const run = text.slice(lead === 0 ? 0 : lead + 1, end);
      if (run.length >= minLength) runs.push(run);
    }
  }
  return runs;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Base64 of bytes (RFC 4648 §4), padded; written out rather than `btoa`, which not every runtime of the client has. */
function base64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += BASE64[(n >> 18) & 63]! + BASE64[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? BASE64[(n >> 6) & 63]! : "=";
    out += i + 2 < bytes.length ? BASE64[n & 63]! : "=";
  }
  return out;
}

function keyForms(apiKey: string): string[] {
  return remembered(`key ${apiKey}`, () => [
    apiKey,
    encodeURIComponent(apiKey),
    new URLSearchParams({ k: apiKey }).toString().slice(2),
    ...base64Runs(apiKey, MIN_API_KEY_LENGTH),
  ]);
}

/** An access token as it may come back: whole, each segment long enough to matter, in base64 or base64url. */
function tokenForms(token: string): string[] {
  return remembered(`token ${token}`, () => [
    token,
    ...token.split(".").filter((segment) => segment.length >= MIN_TOKEN_PART),
    ...base64Runs(token, MIN_TOKEN_PART),
  ]);
}

function without(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  return out;
}

/** Removes an access token from text: whole, any of its segments, or base64 of it (`redact` does the key). */
export function redactToken(text: string, token: string | null | undefined): string {
  return token ? without(text, tokenForms(token)) : text;
}

/**
 * An `APIKey=` query value, whatever it is: it ends at `&`, `#`, white space,
 * a quote or bracket, `)`, or a `.`, `,` or `;` that ends a sentence (followed
 * by white space, `)` or the end), so "(…?APIKey=abc)." keeps its ")." and a
 * key with a dot inside stays whole.
 */
const APIKEY_VALUE = /(apikey=)(?:[^&\s#"'<>()[\],;.]|[.,;](?![\s)\]]|$))*/gi;

/**
 * Removes the API key from text: any `APIKey=` query value whatever it is (a
 * key from an earlier setting, or one the service echoes back), and the key
 * itself, in every encoding a URL or a message may carry it (%-encoded, base64
 * and base64url at any alignment), and the access token where one is given
 * (`redactToken`). Only the key's
 * own characters are replaced, so the text around it is never touched. A key
 * shorter than MIN_API_KEY_LENGTH (Settings refuses those; one may be left
 * from an older version) is removed only as an `APIKey=` value: matched
 * anywhere, a one-letter key would star that letter in every word.
 */
export function redact(text: string, apiKey?: string, token?: string | null): string {
  let out = redactToken(text, token);
  // The key first: an APIKey= value stops at a "," or ")" a key may hold, which would leave the key's rest.
  if (apiKey && apiKey.length >= MIN_API_KEY_LENGTH) out = without(out, keyForms(apiKey));
  return out.replace(APIKEY_VALUE, `$1${REDACTED}`);
}

/**
 * Whether `text` holds the key or the token in a form `redact` removes, or any `APIKey=` value: a cheap test before
 * walking a whole body.
 */
export function mentionsKey(text: string, apiKey?: string, token?: string | null): boolean {
  if (/apikey=/i.test(text)) return true;
  if (token && tokenForms(token).some((form) => text.includes(form))) return true;
  if (!apiKey || apiKey.length < MIN_API_KEY_LENGTH) return false;
  return keyForms(apiKey).some((form) => text.includes(form));
}

/**
 * A parsed body with the key (and the token) removed from every string in it, keys of
 * objects included (a chain or an entity named after it). Objects keep their
 * prototype (none, for JSON.parse's own-property `__proto__` keys too).
 */
export function redactJson(value: unknown, apiKey: string, token?: string | null): unknown {
  if (typeof value === "string") return redact(value, apiKey, token);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, apiKey, token));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, redact(key, apiKey, token), {
      value: redactJson(item, apiKey, token),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** Appends how often the request was retried: "…(HTTP 429); retried 4 times." */
export function noteRetries<E extends MarketDataError>(error: E, retries: number): E {
  if (retries <= 0) return error;
  error.retries = retries;
  error.message = `${error.message.replace(/\.$/, "")}; retried ${retries} time${retries === 1 ? "" : "s"}.`;
  return error;
}
