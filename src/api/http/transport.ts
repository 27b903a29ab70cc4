/**
 * The one place that calls fetch. One attempt: send, wait at most `timeoutMs`
 * for the whole body, and turn every way that can fail into a typed error.
 * Retries, concurrency and caching live above it (executor.ts, ../client.ts), so
 * tests replace fetch and nothing else.
 *
 * What comes back is distrusted: redirects are never followed to another
 * origin (the URL carries the key), the body is read through a counting
 * reader and abandoned past a size cap, an empty body is an answer to retry,
 * and the key and the token are removed from every text in the body before anyone sees it.
 */
import {
  AuthError,
  BadRequestError,
  BadResponseError,
  CancelledError,
  MarketDataError,
  mentionsKey,
  NetworkError,
  NotFoundError,
  RateLimitError,
  redact,
  redactJson,
  RedirectError,
  ServerError,
  TimeoutError,
} from "../errors";
import type { CancelSignal } from "../cancel-signal";
import { raceAbort, type Timers } from "./timers";

/** The part of `fetch` the client uses; `globalThis.fetch` fits, and so does a test double. */
export type FetchLike = (
  url: string,
  init: { signal: AbortSignal; method: "GET"; redirect: "manual"; headers?: Record<string, string> },
) => Promise<Response>;

/** `X-Cache-Status` as sent (a short word such as HIT or MISS); a test double's response without headers has none. */
function cacheStatusOf(response: Response): string | undefined {
  const said = typeof response.headers?.get === "function" ? response.headers.get("x-cache-status") : null;
  return said ? said.slice(0, 16) : undefined;
}

/** The default cap on one response body: far above any answer the client asks for (250 series × 1,000 points is about 10 MB). */
export const MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

/** Same-origin redirects followed (where the runtime shows where they point) before giving up. */
const MAX_SAME_ORIGIN_REDIRECTS = 3;

export interface AttemptOptions {
  fetch: FetchLike;
  timers: Timers;
  now: () => number;
  timeoutMs: number;
  /** The caller side: aborting it cancels the attempt (CancelledError), unlike the timeout (TimeoutError). */
  signal?: CancelSignal;
  /** For messages: the URL without its query. */
  display: string;
  apiKey: string;
  /** Largest body read; a longer one is abandoned with a clear error. Default MAX_RESPONSE_BYTES. */
  maxBytes?: number;
  /** Request headers (the gateway's `Authorization`); sent on same-origin redirects too, the only ones followed. */
  headers?: Record<string, string>;
  /** The access token the headers carry, removed like the key from whatever comes back. */
  token?: string | null;
}

export interface AttemptResult {
  status: number;
  /** The parsed body. */
  json: unknown;
  bytes: number;
  /** The firm gateway's `X-Cache-Status` (deploy/nginx/api-proxy.conf.template), when it sent one. */
  cacheStatus?: string;
}

export interface AttemptFailure {
  error: MarketDataError;
  /** Response bytes received before failing (error bodies count too). */
  bytes: number;
}

/**
 * Made on first use, so that importing the client has no side effect: the
 * pane reaches api/ through its door (index.ts) for `redact` alone, and its
 * bundle and its DOM tests (jsdom has no TextDecoder) need none of this.
 */
let decoder: TextDecoder | undefined;

/** Sends one GET. Resolves with the parsed 2xx body, or rejects with an `AttemptFailure`. */
export async function attempt(url: string, o: AttemptOptions): Promise<AttemptResult> {
  if (o.signal?.aborted) throw failure(new CancelledError(), 0);
  const controller = new AbortController();
  let timedOut = false;
  const timer = o.timers.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, o.timeoutMs);
  const onCancel = () => controller.abort();
  o.signal?.addEventListener("abort", onCancel);

  const whyAborted = (): MarketDataError | undefined => {
    if (o.signal?.aborted) return new CancelledError();
    if (timedOut) {
      return new TimeoutError(
        `The market-data service did not answer within ${formatSeconds(o.timeoutMs)} (${o.display}).`,
      );
    }
    return undefined;
  };

  const maxBytes = o.maxBytes ?? MAX_RESPONSE_BYTES;
  const counted = { bytes: 0 };
  try {
    let response: Response;
    let text: string;
    try {
      const aborted = () => new DOMException("The operation was aborted.", "AbortError");
      let target = url;
      for (let hop = 0; ; hop += 1) {
        response = await raceAbort(
          o.fetch(target, {
            signal: controller.signal,
            method: "GET",
            redirect: "manual",
            ...(o.headers ? { headers: o.headers } : {}),
          }),
          controller.signal,
          aborted,
        );
        const next = redirectTarget(response, target);
        if (next === null) break;
        void response.body?.cancel().catch(() => undefined);
        if (next === undefined || new URL(next).origin !== new URL(url).origin || hop >= MAX_SAME_ORIGIN_REDIRECTS) {
          throw failure(redirectError(response, next, o), 0);
        }
        target = next;
      }
      text = await raceAbort(readText(response, maxBytes, counted), controller.signal, aborted);
    } catch (cause) {
      if (isAttemptFailure(cause)) throw cause;
      if (cause instanceof TooLarge) throw failure(tooLargeError(maxBytes, o), counted.bytes);
      throw failure(whyAborted() ?? networkError(cause, o), counted.bytes);
    }
    const bytes = counted.bytes;
    // A body that arrived complete still counts as an answer even if the timer fired meanwhile.
    if (response.status < 200 || response.status > 299) {
      throw failure(errorFromStatus(response.status, response.statusText, text, response.headers, o), bytes);
    }
    if (text.trim() === "") {
      // The real service sends these now and then; asking again usually gets the answer.
      throw failure(
        new BadResponseError(`The market-data service sent an empty answer (${o.display}).`, { retryable: true }),
        bytes,
      );
    }
    const depth = jsonDepthOver(text, MAX_JSON_DEPTH);
    if (depth !== null) throw failure(tooDeepError(o), bytes);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw failure(badJson(text, cause, o), bytes);
    }
    // Every text from the service reaches cells and the pane: a service that quotes the key must not show it.
    if (mentionsKey(text, o.apiKey, o.token)) json = redactJson(json, o.apiKey, o.token);
    const cacheStatus = cacheStatusOf(response);
    return cacheStatus === undefined
      ? { status: response.status, json, bytes }
      : { status: response.status, json, bytes, cacheStatus };
  } finally {
    o.timers.clearTimeout(timer);
    o.signal?.removeEventListener("abort", onCancel);
  }
}

class TooLarge extends Error {}

/**
 * The body as text, counted as it streams: past `maxBytes` the read stops and
 * the connection is released, so a 400 MB (or endless) body is never held.
 */
async function readText(response: Response, maxBytes: number, counted: { bytes: number }): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw new TooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) {
    const buffer = await response.arrayBuffer();
    counted.bytes = buffer.byteLength;
    if (counted.bytes > maxBytes) throw new TooLarge();
    return (decoder ??= new TextDecoder()).decode(buffer);
  }
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    counted.bytes += value.byteLength;
    if (counted.bytes > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw new TooLarge();
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(counted.bytes);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return (decoder ??= new TextDecoder()).decode(whole);
}

function tooLargeError(maxBytes: number, o: AttemptOptions): BadResponseError {
  return new BadResponseError(
    `The market-data service sent more than ${formatMegabytes(maxBytes)} for one request (${o.display}); the answer was not read. Ask for fewer symbols or metrics, a shorter window or a coarser granularity.`,
    { retryable: false },
  );
}

/**
 * Where a redirect points: null when the response is not a redirect, undefined
 * when it is one but the runtime hides where (a browser's manual redirect is an
 * "opaqueredirect" response with status 0 and no headers).
 */
function redirectTarget(response: Response, from: string): string | null | undefined {
  if (response.type === "opaqueredirect") return undefined;
  if (response.status < 300 || response.status > 399 || response.status === 304) return null;
  const location = response.headers.get("location");
  if (!location) return undefined;
  try {
    return new URL(location, from).href;
  } catch {
    return undefined;
  }
}

/** Names where the service tried to send the request (its origin only: the redirect's own query may hold the key). */
function redirectError(response: Response, target: string | undefined, o: AttemptOptions): RedirectError {
  const status = response.type === "opaqueredirect" ? undefined : response.status;
  const http = status ? ` (HTTP ${status})` : "";
  const origin = target === undefined ? undefined : new URL(target).origin;
  const where = origin === undefined ? "another address (the browser does not say which)" : origin;
  const sameOrigin = origin !== undefined && origin === new URL(o.display).origin;
  const message = sameOrigin
    ? `The market-data service kept redirecting the request${http} (${o.display}); it was not followed further.`
    : `The market-data service tried to redirect the request to ${where}${http}. It was not followed, so your API key was not sent there. If the service has moved, set its new base URL in the Market Data pane.`;
  return new RedirectError(redact(message, o.apiKey), {
    ...(status ? { status } : {}),
    ...(origin ? { location: origin } : {}),
  });
}

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function failure(error: MarketDataError, bytes: number): AttemptFailure {
  return { error, bytes };
}

export function isAttemptFailure(value: unknown): value is AttemptFailure {
  return typeof value === "object" && value !== null && (value as AttemptFailure).error instanceof MarketDataError;
}

/**
 * Truncated JSON is retryable: a proxy or a dropped connection can cut a body
 * short and the next attempt usually arrives whole. An HTML page is not: it
 * means the base URL points at a web page (a login portal, the add-in's own
 * host), and asking again will get the same page.
 */
/**
 * How deeply a service answer may nest arrays and objects. The deepest answer
 * the interface describes is a series (`data.symbols.<s>.<m>[i]`, 5 levels);
 * everything after the read (redaction, checks, shaping, the pane) may then
 * walk an answer without counting its depth.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The first nesting depth above `max` that JSON text reaches, or null: one
 * pass over the characters, before parsing, so no later walk of a hostile
 * answer (20,000 objects deep) can run out of stack. Brackets inside strings
 * do not count.
 */
export function jsonDepthOver(text: string, max: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return depth;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return null;
}

function tooDeepError(o: AttemptOptions): BadResponseError {
  return new BadResponseError(
    `The market-data service sent an answer nested more than ${MAX_JSON_DEPTH} levels deep (${o.display}); no answer it describes is, so it was refused.`,
    { retryable: false },
  );
}

function badJson(text: string, cause: unknown, o: AttemptOptions): BadResponseError {
  const looksLikeHtml = /^\s*</.test(text);
  if (looksLikeHtml) {
    return new BadResponseError(
      `The market-data service address returned a web page instead of data (${o.display}). Check the base URL in the Market Data pane.`,
      { retryable: false },
    );
  }
  const reason = cause instanceof Error ? cause.message : "invalid JSON";
  return new BadResponseError(
    redact(`The market-data service sent an unreadable response (${o.display}): ${reason}.`, o.apiKey),
    { retryable: true },
  );
}

const NETWORK_CODES: Record<string, string> = {
  ECONNRESET: "connection reset",
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "connection timed out",
  EPIPE: "connection closed",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CLOSED: "connection closed",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
};

function networkError(cause: unknown, o: AttemptOptions): NetworkError {
  return new NetworkError(
    redact(`Could not reach the market-data service at ${o.display}: ${describeNetworkFailure(cause)}.`, o.apiKey),
  );
}

/** Node's fetch wraps the socket error in `cause`; browsers say only "Failed to fetch" (also what CORS looks like). */
function describeNetworkFailure(cause: unknown): string {
  const chain: unknown[] = [];
  for (let c: unknown = cause; c && chain.length < 4; c = (c as { cause?: unknown }).cause) chain.push(c);
  for (const c of chain) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES[code]) return NETWORK_CODES[code];
  }
  const innermost = chain[chain.length - 1];
  const message = innermost instanceof Error ? innermost.message : String(innermost ?? "unknown error");
  if (/failed to fetch|networkerror|load failed/i.test(message)) {
    return "the connection failed (offline, blocked by the browser, or the server does not allow this origin)";
  }
  return message || "unknown error";
}

/** Maps a non-2xx answer to its error kind, carrying the service's own words when it gave any. */
export function errorFromStatus(
  status: number,
  statusText: string,
  body: string,
  headers: { get(name: string): string | null },
  o: Pick<AttemptOptions, "display" | "apiKey" | "now" | "token">,
): MarketDataError {
  const said = serviceMessage(body) ?? (statusText || undefined);
  const detail = said ? `: ${said}` : "";
  const text = (message: string) => redact(message, o.apiKey, o.token);
  if (status === 401 || status === 403) {
    return new AuthError(
      text(
        `The market-data service rejected the API key (HTTP ${status}${detail}). Enter a valid key in the Market Data pane.`,
      ),
      { status },
    );
  }
  if (status === 404) {
    return new NotFoundError(text(`The market-data service has nothing at ${o.display} (HTTP 404${detail}).`), {
      status,
    });
  }
  const retryAfterMs = parseRetryAfter(headers.get("retry-after"), o.now());
  const details = retryAfterMs === undefined ? { status } : { status, retryAfterMs };
  if (status === 429) {
    return new RateLimitError(text(`Rate limited by the market-data service (HTTP 429${detail}).`), details);
  }
  if (status >= 500) {
    return new ServerError(text(`The market-data service failed (HTTP ${status}${detail}).`), details);
  }
  return new BadRequestError(text(`The market-data service refused the request (HTTP ${status}${detail}).`), {
    status,
  });
}

/**
 * An error body's message, looked for where services usually put it:
 * `error.message`, `error`, `message`, `detail` (a string, or FastAPI's list of
 * `{msg}`). A short plain-text body is used as is; HTML is not.
 */
export function serviceMessage(body: string): string | undefined {
  const trimmed = body.trim();
  if (!trimmed) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return trimmed.length <= 200 && !trimmed.startsWith("<") ? trimmed : undefined;
  }
  if (typeof parsed === "string") return parsed || undefined;
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const p = parsed as Record<string, unknown>;
  const error = p.error;
  if (typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message;
  }
  if (typeof error === "string" && error) return error;
  if (typeof p.message === "string" && p.message) return p.message;
  if (typeof p.detail === "string" && p.detail) return p.detail;
  if (Array.isArray(p.detail)) {
    const msgs = p.detail
      .map((d) => (typeof d === "object" && d !== null ? (d as { msg?: unknown }).msg : d))
      .filter((m): m is string => typeof m === "string");
    if (msgs.length) return msgs.join("; ");
  }
  return undefined;
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
