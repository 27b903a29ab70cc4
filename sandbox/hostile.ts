/**
 * Failure switches: a broken or hostile service, for the client's defences.
 * Unlike the random faults (faults.ts) each switch is deterministic: it
 * answers every request it applies to the same way.
 *
 * - `poisonSymbols`: a `/data/api/` request naming one of them fails with
 *   HTTP 500 as a whole, every time (the real service does this for an
 *   unsupported symbol inside a multi-symbol request);
 * - `maxUrlLength`: a request whose path and query are longer is refused with
 *   414 URI Too Long (a server's or proxy's request-line limit);
 * - `redirectTo`: every request is answered 302 to the same path and query
 *   on another origin — the API key included, as a moved host or a man in the
 *   middle would send it;
 * - `endlessBody`: the answer's headers and first bytes arrive, then one space
 *   a second, forever: a body that never ends;
 * - `echoKey`: the service quotes the key it was sent in its texts — catalog
 *   titles, metric descriptions, insight cards, flow chain names and the
 *   messages in place of series;
 * - `trickyJson`: the series of the listed symbols come back with values as
 *   hexadecimal text (`"0x1F"`, first, third… metric) or dates with a time
 *   (second, fourth… metric), and flows name chains `__proto__` and
 *   `constructor`;
 * - `hugeBodyBytes`: every answer is padded to that many bytes, streamed;
 * - `bigSeries`: every series in a `/data/api/` answer is that many daily
 *   points, one a day from the request's `startDate` on (most of them after
 *   its `endDate`: no window holds 150,000 days), valued 1, 2, 3…;
 * - `deepInsights`: every insight card gets a `DETAIL` field nested that many
 *   objects deep (`{"next":{"next":…}}`);
 * - `dataEverywhere`: every series in a `/data/api/` answer is a point for
 *   every day of the window asked for (at most 1,000), valued 1, whatever the
 *   asset's history: a service with data in every window, centuries back.
 * - `outsideWindow`: the listed symbols' series end with one more point,
 *   dated 2099-01-01, outside any window asked for;
 * - `duplicateDates`: the listed symbols' series end with their newest date
 *   sent a second time, with a different value (the old one + 1);
 * - `badValues`: the listed symbols' series carry, on every other point
 *   (the second, fourth…), a value that is not a finite number: the texts
 *   "NaN", "Infinity", "-Infinity" and "12.5" and the number 1e999 (which
 *   JSON parsers read as Infinity), in turn;
 * - `longTitles`: the listed symbols' asset catalog titles are padded to
 *   40,000 characters, more than the 32,767 an Excel cell holds.
 *
 * and a service that leaks the key or varies its answers in ways a shared
 * cache must not pass on (the team gateway's tests):
 * - `locationKey`: every answer is a 201 whose `Location` is the request's
 *   own path and query, the key included;
 * - `echoRequestUrl`: every answer carries `x-request-url` with the request's
 *   path and query, the key included;
 * - `gzipBody`: every answer is gzip-compressed (`Content-Encoding: gzip`),
 *   whatever the request's `Accept-Encoding` says;
 * - `escapedKey`: every JSON answer gains a `note` quoting the key in JSON
 *   escapes (`\/` for each `/`, `\uXXXX` for its first character);
 * - `chunkedEmpty`: every answer is a 200 with an empty chunked body (no
 *   `Content-Length`);
 * - `reflectHeaders`: the listed request headers are copied into every JSON
 *   answer (`"reflected": {…}`), as a service that varies on them would;
 * - `keyInHeaders`, `encodedKey`: the key in the allowed response headers,
 *   or in a body in a form a text search misses (encoded-key.ts).
 */
import { ENCODED_KEY_FORMS, type EncodedKeyForm, KEY_HEADERS, type KeyHeader } from "./encoded-key";
import { errorBody } from "./http-error";

export interface HostileOptions {
  poisonSymbols: string[];
  maxUrlLength: number | null;
  redirectTo: string | null;
  /** `true`: every endpoint; a list: the paths starting with one of these (e.g. "/data/api/"). */
  endlessBody: boolean | string[];
  echoKey: boolean;
  trickyJson: string[];
  hugeBodyBytes: number | null;
  locationKey: boolean;
  echoRequestUrl: boolean;
  gzipBody: boolean;
  escapedKey: boolean;
  chunkedEmpty: boolean;
  reflectHeaders: string[];
  keyInHeaders: KeyHeader[];
  encodedKey: EncodedKeyForm | null;
  bigSeries: number | null;
  deepInsights: number | null;
  dataEverywhere: boolean;
  outsideWindow: string[];
  duplicateDates: string[];
  badValues: string[];
  longTitles: string[];
}

export const NOT_HOSTILE: HostileOptions = {
  poisonSymbols: [],
  maxUrlLength: null,
  redirectTo: null,
  endlessBody: false,
  echoKey: false,
  trickyJson: [],
  hugeBodyBytes: null,
  locationKey: false,
  echoRequestUrl: false,
  gzipBody: false,
  escapedKey: false,
  chunkedEmpty: false,
  reflectHeaders: [],
  keyInHeaders: [],
  encodedKey: null,
  bigSeries: null,
  deepInsights: null,
  dataEverywhere: false,
  outsideWindow: [],
  duplicateDates: [],
  badValues: [],
  longTitles: [],
};

export type HostileKind =
  | "poison"
  | "url-too-long"
  | "redirect"
  | "endless-body"
  | "tricky-json"
  | "huge-body"
  | "leaky-headers"
  | "gzip-body"
  | "escaped-key"
  | "chunked-empty"
  | "encoded-key"
  | "big-series"
  | "deep-insights"
  | "data-everywhere"
  | "outside-window"
  | "duplicate-date"
  | "bad-values"
  | "long-title";

/** The switches that take a list of symbols whose series they change. */
const SYMBOL_LISTS = ["trickyJson", "outsideWindow", "duplicateDates", "badValues", "longTitles"] as const;

export function hostileOptions(partial: Partial<HostileOptions> = {}): HostileOptions {
  const options = { ...NOT_HOSTILE, ...partial };
  if (!Array.isArray(options.poisonSymbols) || options.poisonSymbols.some((s) => typeof s !== "string" || !s.trim())) {
    throw new RangeError("hostile.poisonSymbols must be a list of symbols");
  }
  options.poisonSymbols = options.poisonSymbols.map((s) => s.trim().toLowerCase());
  for (const field of SYMBOL_LISTS) {
    const list = options[field];
    if (!Array.isArray(list)) throw new RangeError(`hostile.${field} must be a list of symbols`);
    options[field] = list.map((s) => String(s).trim().toLowerCase());
  }
  if (!Array.isArray(options.reflectHeaders))
    throw new RangeError("hostile.reflectHeaders must be a list of header names");
  options.reflectHeaders = options.reflectHeaders.map((s) => String(s).trim().toLowerCase());
  if (!Array.isArray(options.keyInHeaders) || options.keyInHeaders.some((h) => !KEY_HEADERS.includes(h)))
    throw new RangeError(`hostile.keyInHeaders must be a list of ${KEY_HEADERS.join(", ")}`);
  if (options.encodedKey !== null && !ENCODED_KEY_FORMS.includes(options.encodedKey))
    throw new RangeError(
      `hostile.encodedKey must be one of ${ENCODED_KEY_FORMS.join(", ")}, got ${options.encodedKey}`,
    );
  if (options.hugeBodyBytes !== null && !(Number.isInteger(options.hugeBodyBytes) && options.hugeBodyBytes > 0)) {
    throw new RangeError(`hostile.hugeBodyBytes must be a whole number > 0, got ${options.hugeBodyBytes}`);
  }
  for (const field of ["bigSeries", "deepInsights"] as const) {
    const value = options[field];
    if (value !== null && !(Number.isInteger(value) && value > 0 && value <= 5_000_000)) {
      throw new RangeError(`hostile.${field} must be a whole number from 1 to 5,000,000, got ${value}`);
    }
  }
  if (typeof options.dataEverywhere !== "boolean") throw new RangeError("hostile.dataEverywhere must be true or false");
  if (options.maxUrlLength !== null && !(Number.isInteger(options.maxUrlLength) && options.maxUrlLength > 0)) {
    throw new RangeError(`hostile.maxUrlLength must be a whole number > 0, got ${options.maxUrlLength}`);
  }
  if (options.redirectTo !== null) {
    let origin: string;
    try {
      origin = new URL(options.redirectTo).origin;
    } catch {
      throw new RangeError(
        `hostile.redirectTo must be an origin such as http://127.0.0.1:4000, got ${options.redirectTo}`,
      );
    }
    if (origin === "null")
      throw new RangeError(`hostile.redirectTo must be an http(s) origin, got ${options.redirectTo}`);
    options.redirectTo = origin;
  }
  return options;
}

export interface Interception {
  kind: HostileKind;
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** What a switch answers in place of the endpoint, or null to let the request through. `rawUrl` is the request line's path and query. */
export function intercept(
  options: HostileOptions,
  path: string,
  rawUrl: string,
  params: URLSearchParams,
): Interception | "endless" | null {
  if (path === "/") return null;
  if (options.redirectTo !== null) {
    return { kind: "redirect", status: 302, body: "", headers: { Location: `${options.redirectTo}${rawUrl}` } };
  }
  if (options.maxUrlLength !== null && rawUrl.length > options.maxUrlLength) {
    return {
      kind: "url-too-long",
      status: 414,
      body: errorBody(
        414,
        `URI Too Long: the request line is ${rawUrl.length} characters, the limit is ${options.maxUrlLength}`,
      ),
      headers: {},
    };
  }
  if (options.poisonSymbols.length > 0 && path.startsWith("/data/api/")) {
    const symbols = (params.get("symbols") ?? "").split(",").map((s) => s.trim().toLowerCase());
    if (symbols.some((s) => options.poisonSymbols.includes(s))) {
      return { kind: "poison", status: 500, body: errorBody(500, "Internal Server Error"), headers: {} };
    }
  }
  const endless = options.endlessBody;
  if (endless === true || (Array.isArray(endless) && endless.some((prefix) => path.startsWith(prefix))))
    return "endless";
  return null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The body with the listed symbols' series and the flows' chain names made tricky (see the header). */
export function trickyInto(path: string, body: string, symbols: readonly string[]): string {
  if (symbols.length === 0 || body === "") return body;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body;
  }
  if (path === "/flows/top/" && isObject(json)) {
    // Spelled into the text: an object literal's __proto__ would set the prototype instead of a key.
    const extra = '"__proto__":5,"constructor":7,';
    return JSON.stringify(json)
      .replace(/"(inflow|netflow|outflow)":\{/g, (match) => `${match}${extra}`)
      .replace(/,\}/g, "}");
  }
  if (path.startsWith("/data/api/") && isObject(json) && isObject(json.data) && isObject(json.data.symbols)) {
    for (const [symbol, row] of Object.entries(json.data.symbols)) {
      if (!symbols.includes(symbol.toLowerCase()) || !isObject(row)) continue;
      Object.values(row).forEach((series, i) => {
        if (!Array.isArray(series)) return;
        for (const point of series) {
          if (!isObject(point)) continue;
          if (i % 2 === 0 && typeof point.val === "number")
            point.val = `0x${Math.abs(Math.round(point.val)).toString(16).toUpperCase()}`;
          else if (typeof point.date === "string") point.date = `${point.date}T00:00:00Z`;
        }
      });
    }
  }
  return JSON.stringify(json);
}

/**
 * An endpoint's answer as the switches that change answers (`echoKey`,
 * `trickyJson`) shape it; `quirk` says when the JSON was made tricky.
 */
export function hostileReply<R extends { body: string }>(
  options: HostileOptions,
  path: string,
  params: URLSearchParams,
  reply: R,
): { reply: R; quirk?: HostileKind } {
  if (options.echoKey) reply = { ...reply, body: echoKeyInto(path, reply.body, params.get("APIKey") ?? "") };
  const sized = sizedInto(options, path, params, reply.body);
  if (sized) return { reply: { ...reply, body: sized.body }, quirk: sized.quirk };
  if (options.trickyJson.length > 0 && (path === "/flows/top/" || path.startsWith("/data/api/"))) {
    const tricky = trickyInto(path, reply.body, options.trickyJson);
    if (tricky !== reply.body) return { reply: { ...reply, body: tricky }, quirk: "tricky-json" };
  }
  if (path === "/asset/symbols/" && options.longTitles.length > 0) {
    const long = longTitlesInto(reply.body, options.longTitles);
    if (long !== reply.body) return { reply: { ...reply, body: long }, quirk: "long-title" };
  }
  if (path.startsWith("/data/api/")) {
    const unsound = unsoundInto(reply.body, options);
    if (unsound.quirk) return { reply: { ...reply, body: unsound.body }, quirk: unsound.quirk };
  }
  return { reply };
}

/** How long `longTitles` makes a title: more than the 32,767 characters an Excel cell holds. */
export const LONG_TITLE_LENGTH = 40_000;

/** The asset catalog with the listed symbols' titles padded to LONG_TITLE_LENGTH characters. */
function longTitlesInto(body: string, symbols: readonly string[]): string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body;
  }
  if (!isObject(json) || !Array.isArray(json.assets)) return body;
  let changed = false;
  for (const asset of json.assets) {
    if (!isObject(asset) || typeof asset.symbol !== "string" || typeof asset.title !== "string") continue;
    if (!symbols.includes(asset.symbol.toLowerCase())) continue;
    asset.title = `${asset.title} ${"and more ".repeat(LONG_TITLE_LENGTH / 9)}`.slice(0, LONG_TITLE_LENGTH);
    changed = true;
  }
  return changed ? JSON.stringify(json) : body;
}

/** The date `outsideWindow` adds: after any window a sandbox series can be asked for. */
export const OUTSIDE_WINDOW_DATE = "2099-01-01";
/** `badValues`' values, in turn; the marker is sent as the JSON number 1e999 (JSON.stringify cannot write Infinity). */
const INFINITE_MARKER = "__1e999__";
const BAD_VALUES: readonly string[] = ["NaN", "Infinity", INFINITE_MARKER, "-Infinity", "12.5"];

/** A series answer with the `outsideWindow`, `duplicateDates` and `badValues` switches applied (see the header). */
export function unsoundInto(body: string, options: HostileOptions): { body: string; quirk?: HostileKind } {
  const { outsideWindow, duplicateDates, badValues } = options;
  if (body === "" || outsideWindow.length + duplicateDates.length + badValues.length === 0) return { body };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { body };
  }
  if (!isObject(json) || !isObject(json.data) || !isObject(json.data.symbols)) return { body };
  let quirk: HostileKind | undefined;
  for (const [symbol, row] of Object.entries(json.data.symbols)) {
    const name = symbol.toLowerCase();
    if (!isObject(row)) continue;
    for (const series of Object.values(row)) {
      if (!Array.isArray(series)) continue;
      if (badValues.includes(name)) {
        series.forEach((point, i) => {
          if (i % 2 === 1 && isObject(point)) point.val = BAD_VALUES[((i - 1) / 2) % BAD_VALUES.length];
        });
        if (series.length > 1) quirk = "bad-values";
      }
      if (duplicateDates.includes(name) && series.length > 0) {
        const newest = series[series.length - 1] as Json;
        series.push({ date: newest.date, val: typeof newest.val === "number" ? newest.val + 1 : 1 });
        quirk = "duplicate-date";
      }
      if (outsideWindow.includes(name)) {
        series.push({ date: OUTSIDE_WINDOW_DATE, val: 1 });
        quirk = "outside-window";
      }
    }
  }
  return quirk ? { body: JSON.stringify(json).replaceAll(`"${INFINITE_MARKER}"`, "1e999"), quirk } : { body };
}

/** The body with the key quoted in the texts a careless service would quote it in. */
export function echoKeyInto(path: string, body: string, key: string): string {
  if (!key || body === "") return body;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return body;
  }
  if (path === "/asset/symbols/" && isObject(json) && Array.isArray(json.assets)) {
    for (const asset of json.assets.slice(0, 5))
      if (isObject(asset)) asset.title = `${String(asset.title)} (requested with APIKey=${key})`;
  } else if (path === "/supported-metrics/" && isObject(json) && Array.isArray(json.metrics)) {
    for (const item of json.metrics) {
      if (!isObject(item)) continue;
      for (const descriptor of Object.values(item)) {
        if (!isObject(descriptor)) continue;
        descriptor.description = `${String(descriptor.description)} Served to key ${key}.`;
        descriptor.methodology = `See https://example.com/sandbox/methodology?APIKey=${encodeURIComponent(key)}`;
      }
    }
  } else if (path.startsWith("/insights/") && isObject(json) && Array.isArray(json.rows)) {
    for (const row of json.rows.slice(0, 5)) {
      if (!isObject(row)) continue;
      row.DATE_RANGE = `${String(row.DATE_RANGE)} (key ${key})`;
      row.ENTITY_ID = `${String(row.ENTITY_ID)}-${key}`;
    }
  } else if (path === "/flows/top/" && isObject(json)) {
    for (const flows of Object.values(json)) if (isObject(flows)) flows[`bridge-of-${key}`] = 1;
  } else if (path.startsWith("/data/api/") && isObject(json) && isObject(json.data)) {
    const symbols = json.data.symbols;
    if (typeof symbols === "string") json.data.symbols = `${symbols} (key ${key})`;
    else if (isObject(symbols)) {
      for (const row of Object.values(symbols)) {
        if (!isObject(row)) continue;
        for (const [metric, series] of Object.entries(row))
          if (typeof series === "string") row[metric] = `${series} Requested with APIKey=${key}.`;
      }
    }
  }
  return JSON.stringify(json);
}

/** The key as a JSON string's content with every `/` written `\/` and its first character as `\uXXXX`. */
export function jsonEscapedKey(key: string): string {
  if (!key) return "";
  const first = `\\u${key.charCodeAt(0).toString(16).padStart(4, "0")}`;
  return first + key.slice(1).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\//g, "\\/");
}

/** Headers and body changes of the leaking switches (see the header); the body is JSON text. */
export function leakyReply(
  options: HostileOptions,
  rawUrl: string,
  key: string,
  requestHeaders: Record<string, string | string[] | undefined>,
  status: number,
  body: string,
): { status: number; body: string; headers: Record<string, string>; quirk?: HostileKind } {
  const headers: Record<string, string> = {};
  let quirk: HostileKind | undefined;
  if (options.locationKey) {
    headers.Location = rawUrl;
    if (status === 200) status = 201;
    quirk = "leaky-headers";
  }
  if (options.echoRequestUrl) {
    headers["x-request-url"] = rawUrl;
    quirk = "leaky-headers";
  }
  if (body.startsWith("{") && options.escapedKey && key) {
    body = `{"note":"requested with ${jsonEscapedKey(key)}",${body.slice(1)}`;
    quirk = "escaped-key";
  }
  if (body.startsWith("{") && options.reflectHeaders.length > 0) {
    const reflected: Record<string, string> = {};
    for (const name of options.reflectHeaders) {
      const value = requestHeaders[name];
      if (value !== undefined) reflected[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    body = `{"reflected":${JSON.stringify(reflected)},${body.slice(1)}`;
  }
  return { status, body, headers, ...(quirk ? { quirk } : {}) };
}

const DAY_MS = 86_400_000;

/** `count` daily points from `start` on, as JSON text (built as text: a million objects would be slow to stringify). */
function dailyPointsJson(start: string, count: number, value: (i: number) => number): string {
  const first = Date.parse(`${start}T00:00:00Z`);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const date = new Date(first + i * DAY_MS).toISOString().slice(0, 10);
    out.push(`{"date":"${date}","val":${value(i)}}`);
  }
  return `[${out.join(",")}]`;
}

/**
 * The body as `bigSeries`, `dataEverywhere` or `deepInsights` shape it (see
 * the header), or null when none applies. Series are spliced in as text after
 * the rest of the answer is serialised.
 */
const DEEP_PLACEHOLDER = "\u0000DEEP";

function sizedInto(
  options: HostileOptions,
  path: string,
  params: URLSearchParams,
  body: string,
): { body: string; quirk: HostileKind } | null {
  if (body === "") return null;
  if (path.startsWith("/insights/") && options.deepInsights !== null) {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return null;
    }
    if (!isObject(json) || !Array.isArray(json.rows)) return null;
    const depth = options.deepInsights;
    const deep = `${'{"next":'.repeat(depth)}1${"}".repeat(depth)}`;
    for (const row of json.rows) if (isObject(row)) row.DETAIL = DEEP_PLACEHOLDER;
    return { body: JSON.stringify(json).split(JSON.stringify(DEEP_PLACEHOLDER)).join(deep), quirk: "deep-insights" };
  }
  if (!path.startsWith("/data/api/") || (options.bigSeries === null && !options.dataEverywhere)) return null;
  const start = params.get("startDate");
  const end = params.get("endDate");
  if (start === null || !/^\d{4}-\d{2}-\d{2}$/.test(start)) return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isObject(json) || !isObject(json.data)) return null;
  const metrics = decodeURIComponent(path.slice("/data/api/".length).replace(/\/$/, "")).split(",");
  const symbols = (params.get("symbols") ?? "").split(",");
  let points: string;
  if (options.bigSeries !== null) {
    points = dailyPointsJson(start, options.bigSeries, (i) => i + 1);
  } else {
    const days = end === null ? 1 : Math.floor((Date.parse(end) - Date.parse(start)) / DAY_MS) + 1;
    points = dailyPointsJson(start, Math.max(0, Math.min(1000, days)), () => 1);
  }
  const placeholder = "\u0000SERIES";
  const table: Record<string, Record<string, string>> = {};
  for (const symbol of symbols) table[symbol] = Object.fromEntries(metrics.map((metric) => [metric, placeholder]));
  json.data.symbols = table;
  return {
    body: JSON.stringify(json).split(JSON.stringify(placeholder)).join(points),
    quirk: options.bigSeries !== null ? "big-series" : "data-everywhere",
  };
}
