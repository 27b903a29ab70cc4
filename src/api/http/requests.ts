/**
 * Request builders: every endpoint of the interface description as a typed
 * value (path + query, wire names exactly as documented), kept apart from the
 * one place that calls fetch (transport.ts). A request never holds the API
 * key: the key is added only when the URL is assembled for sending, so a
 * request can be logged, compared and cached without it.
 */
import { isIsoDate } from "../../core/calendar";
import {
  FLOW_TYPES,
  GRANULARITIES,
  type DateWindow,
  type FlowType,
  type Granularity,
  type SeriesWindow,
} from "../../core/domain";
import { BadRequestError, ConfigError } from "../errors";

/** The service's cap on `limit` and on points per series in one response. */
export const MAX_POINTS_PER_SERIES = 1000;

/** Which per-attempt timeout applies: catalogs and insight feeds may take a minute server-side on a cold cache. */
export type TimeoutClass = "normal" | "slow";

export interface ApiRequest {
  /** Relative to the base URL, with the trailing slash the service requires. */
  path: string;
  /** Wire name → value, in a stable order (the order is part of cache and log identity). */
  query: [string, string][];
  timeoutClass: TimeoutClass;
}

export interface SeriesQuery extends SeriesWindow {
  symbols: readonly string[];
  metrics: readonly string[];
  limit?: number;
}

const METRIC_NAME = /^[A-Z0-9_]+$/;
const FEED_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** `GET /data/api/<METRICS>/?symbols=…` (4.1). Metrics are joined in the path, symbols in `symbols`. */
export function seriesRequest(q: SeriesQuery): ApiRequest {
  if (q.metrics.length === 0) throw new BadRequestError("No metric given.");
  if (q.symbols.length === 0) throw new BadRequestError("No symbol given.");
  for (const metric of q.metrics) assertMetricName(metric);
  for (const symbol of q.symbols) assertSymbol(symbol);
  const query: [string, string][] = [["symbols", q.symbols.join(",")]];
  query.push(...windowQuery(q));
  if (q.granularity !== undefined) query.push(["granularity", assertGranularity(q.granularity)]);
  if (q.limit !== undefined) {
    if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > MAX_POINTS_PER_SERIES) {
      throw new BadRequestError(`The limit must be a whole number from 1 to ${MAX_POINTS_PER_SERIES}, not ${q.limit}.`);
    }
    query.push(["limit", String(q.limit)]);
  }
  return { path: `data/api/${q.metrics.join(",")}/`, query, timeoutClass: "normal" };
}

export interface FlowsQuery extends DateWindow {
  sourceChains: readonly string[];
  flowType: FlowType;
  granularity?: Granularity;
}

/** `GET /flows/top/` (4.2), always broken down by chain. One flow type per request: the service answers one key per `flowType`. */
export function flowsRequest(q: FlowsQuery): ApiRequest {
  if (q.sourceChains.length === 0) throw new BadRequestError("No source chain given.");
  for (const chain of q.sourceChains) assertSymbol(chain);
  if (!FLOW_TYPES.includes(q.flowType)) {
    throw new BadRequestError(`Unknown flow type "${q.flowType}": use ${FLOW_TYPES.join(", ")}.`);
  }
  const query = windowQuery(q);
  if (q.granularity !== undefined) query.push(["granularity", assertGranularity(q.granularity)]);
  query.push(["sourceChains", q.sourceChains.join(",")], ["breakdown", "chains"], ["flowType", q.flowType]);
  return { path: "flows/top/", query, timeoutClass: "normal" };
}

/**
 * A window in the service's names: the one place they are written. Its dates
 * are trusted, checked once where they entered the client (client.ts).
 */
function windowQuery(window: DateWindow): [string, string][] {
  const query: [string, string][] = [];
  if (window.start !== undefined) query.push(["startDate", window.start]);
  if (window.end !== undefined) query.push(["endDate", window.end]);
  return query;
}

/** `GET /supported-metrics/?symbol=…` (4.3). */
export function supportedMetricsRequest(symbol: string): ApiRequest {
  assertSymbol(symbol);
  return { path: "supported-metrics/", query: [["symbol", symbol]], timeoutClass: "slow" };
}

/** `GET /asset/symbols/` (4.4). */
export function assetSymbolsRequest(): ApiRequest {
  return { path: "asset/symbols/", query: [], timeoutClass: "slow" };
}

/** `GET /insights/<feed>/` (4.5–4.7); `feed` is a path segment such as "streaks" or "decline-streaks". */
export function insightsRequest(feed: string): ApiRequest {
  if (!FEED_NAME.test(feed)) {
    throw new BadRequestError(`"${feed}" is not an insight feed name (letters, digits and dashes, e.g. streaks).`);
  }
  return { path: `insights/${feed}/`, query: [], timeoutClass: "slow" };
}

/**
 * Validates and normalises a base URL: https, or http for a service on this
 * computer only (the key travels in the query, readable by anyone on the
 * path of a plain-text connection); no user name or password (the key is the
 * credential, and an address with a password in it ends up in logs and
 * screenshots); surrounding space and trailing slashes dropped (so
 * "https://host/" and "https://host" are the same service), a path prefix
 * kept ("https://host/v1"). A path alone ("/api", the team gateway) is on the
 * add-in's own host: it resolves against the page's origin (the shared
 * runtime's webview, where functions.js also runs).
 */
export function normalizeBaseUrl(raw: string | undefined): string {
  let trimmed = (raw ?? "").trim().replace(/\/+$/, "");
  if (!trimmed) {
    throw new ConfigError("No market-data service address is set. Enter the base URL in the Market Data pane.");
  }
  if (trimmed.startsWith("/") && !trimmed.startsWith("//")) {
    const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
    if (!origin || !/^https?:\/\//.test(origin)) {
      throw new ConfigError(
        `The market-data base URL "${trimmed}" is a path on the add-in's host, which is not known here.`,
      );
    }
    trimmed = `${origin}${trimmed}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new ConfigError(`The market-data base URL "${trimmed}" is not a valid address (expected https://host/…).`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(`The market-data base URL must start with http:// or https://, not "${parsed.protocol}".`);
  }
  if (parsed.search || parsed.hash) {
    throw new ConfigError("The market-data base URL must not contain a query (?…) or fragment (#…).");
  }
  if (parsed.username || parsed.password) {
    throw new ConfigError(
      "The market-data base URL must not contain a user name or password (user:password@host): the API key is the only credential the add-in sends.",
    );
  }
  if (parsed.protocol === "http:" && !isLoopback(parsed.hostname)) {
    throw new ConfigError(
      `The market-data base URL must start with https:// (http:// is only allowed for a service on this computer, such as the local sandbox), not "http://${parsed.host}".`,
    );
  }
  return trimmed;
}

/** localhost, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]") return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return octets !== null && Number(octets[1]) === 127 && octets.slice(2).every((o) => Number(o) <= 255);
}

/**
 * The URL to send. With `apiKey` it carries `APIKey` last; without (or with an
 * empty one: a gateway that holds the firm's key), it is the display form used
 * in logs and messages. Commas stay literal: they are legal
 * in paths and queries, keep URLs short (the length cap counts), and match the
 * interface description's examples.
 */
export function requestUrl(baseUrl: string, request: ApiRequest, apiKey?: string): string {
  const query = !apiKey ? request.query : [...request.query, ["APIKey", apiKey] as [string, string]];
  const qs = query.map(([name, value]) => `${name}=${encodeQueryValue(value)}`).join("&");
  return `${baseUrl}/${encodePath(request.path)}${qs ? `?${qs}` : ""}`;
}

/** The URL as it may be shown to a user: no query at all, so no key and no noise. */
export function displayUrl(baseUrl: string, request: ApiRequest): string {
  return `${baseUrl}/${encodePath(request.path)}`;
}

/**
 * How long the URL of a series request over one window would be, as a
 * function of the characters its symbol and metric lists take (see
 * `listChars`), so that packing symbols under the length cap stays linear.
 */
export function seriesUrlLength(
  baseUrl: string,
  apiKey: string,
  window: Omit<SeriesQuery, "symbols" | "metrics">,
): (symbolsChars: number, metricsChars: number) => number {
  const skeleton = requestUrl(baseUrl, seriesRequest({ ...window, symbols: ["s"], metrics: ["M"] }), apiKey).length - 2;
  return (symbolsChars, metricsChars) => skeleton + symbolsChars + metricsChars;
}

/** Characters a list adds to a URL: encoded items plus literal commas. */
export function listChars(items: Iterable<string>): number {
  let chars = 0;
  let count = 0;
  for (const item of items) {
    chars += encodeQueryValue(item).length;
    count += 1;
  }
  return chars + Math.max(0, count - 1);
}

function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ",");
}

function encodePath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment).replace(/%2C/gi, ","))
    .join("/");
}

export function assertMetricName(metric: string): string {
  if (!METRIC_NAME.test(metric)) {
    throw new BadRequestError(
      `"${metric}" is not a metric name (uppercase letters, digits and underscores, e.g. PRICE).`,
    );
  }
  return metric;
}

export function assertSymbol(symbol: string): string {
  if (!symbol || symbol.trim() !== symbol || symbol.includes(",")) {
    throw new BadRequestError(`"${symbol}" is not a symbol (one non-empty name without commas or spaces around it).`);
  }
  return symbol;
}

export function assertGranularity(granularity: string): Granularity {
  if (!(GRANULARITIES as readonly string[]).includes(granularity)) {
    throw new BadRequestError(`Unknown granularity "${granularity}": use ${GRANULARITIES.join(", ")}.`);
  }
  return granularity as Granularity;
}

/** `YYYY-MM-DD` and a real calendar date (no 2024-02-30). */
export function assertIsoDate(value: string, what: string): string {
  if (isIsoDate(value)) return value;
  throw new BadRequestError(`The ${what} "${value}" is not a date in the form YYYY-MM-DD.`);
}

/**
 * A caller's dates, checked where they enter the client and nowhere after:
 * the batcher, the store and the request builders trust a window. (A cell's
 * window was parsed before, in the cell's own words: core/arguments.ts.)
 */
export function checkedDates(req: DateWindow): DateWindow {
  const window: DateWindow = {};
  if (req.start !== undefined) window.start = assertIsoDate(req.start, "start date");
  if (req.end !== undefined) window.end = assertIsoDate(req.end, "end date");
  return window;
}

/** A series' window, checked (see checkedDates): its dates, its granularity, its dates in order. */
export function validateWindow(req: DateWindow & { granularity?: string }): SeriesWindow {
  const window: SeriesWindow = checkedDates(req);
  if (req.granularity !== undefined) window.granularity = assertGranularity(req.granularity);
  if (window.start && window.end && window.start > window.end) {
    throw new BadRequestError(`The start date ${window.start} is after the end date ${window.end}.`);
  }
  return window;
}
