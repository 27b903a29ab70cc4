/**
 * Validation at the boundary: every 2xx body is checked against the shapes of
 * the interface description before anything else sees it, so a malformed
 * answer becomes one BadResponseError here instead of a TypeError in a cell.
 *
 * The checks are strict where a wrong shape means the answer cannot be used
 * or could be misread: a value is a JSON number (the text "0x1F" is not 31), a
 * date is exactly YYYY-MM-DD, and maps keyed by the service's text never touch
 * Object.prototype (a chain named "__proto__" or "constructor" is just a
 * name). They are tolerant where the real service is known to vary
 * (real-service.md): a sentence in place of a series, of a symbol or of the
 * whole `data.symbols`; a bare number or null in place of a series; `val:
 * null`; keys in any case; an absent metric; the catalog's `artemis_id` and
 * `coingecko_id` names; a null or upper-case catalog symbol.
 *
 * A series answer is also checked point by point against the window it was
 * asked for (`parseSeriesResponse`'s `window`: the batcher hands it over, so
 * every function's series pass here, and the store only ever merges what
 * passed): see `soundPoints` for the rules. What breaks one is dropped and
 * counted; only a pair none of whose points is sound fails, with the reason.
 */
import { hasIsoDateShape, isIsoDate } from "../../core/calendar";
import { periodStartOf } from "../../core/periods";
import { BadResponseError } from "../errors";
import type {
  AssetRecord,
  DataPoint,
  FlowType,
  FlowsResult,
  InsightCard,
  MetricDescriptor,
  SeriesResult,
  SeriesWindow,
} from "../../core/domain";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function malformed(what: string): BadResponseError {
  return new BadResponseError(`The market-data service sent a malformed response: ${what}.`);
}

const EMPTY: SeriesResult = { kind: "points", points: [] };

/**
 * (symbol, metric) → series, for the pairs a series request asked for. A pair
 * whose own part of the body is malformed holds its error, so it fails its
 * callers alone.
 */
export type SeriesTable = Map<string, Map<string, SeriesResult | BadResponseError>>;

/** Why a point of a series answer was dropped (see `soundPoints`). */
export type DropReason = "not a point" | "not a date" | "not a number" | "outside the window" | "a date sent again";

/** Points dropped from one pair's answer, by reason. */
export type DroppedPoints = Partial<Record<DropReason, number>>;

/** Told of every pair some of whose points were dropped. */
export type OnDropped = (symbol: string, metric: string, dropped: DroppedPoints) => void;

/**
 * Reads a metric-data response (2.3) for the symbols × metrics that were
 * requested. Keys are matched case-insensitively (the real service answers
 * symbols lower case and metrics as spelled in the request). An absent symbol
 * or metric is an empty series, as the description allows; so is every pair
 * when `data.symbols` is a sentence or null (the real service says "Latest
 * data not available for this asset." when the window holds no data).
 *
 * `window`: the window the request asked for; every point is checked against
 * it (soundPoints), and `onDropped` hears of what was dropped. Without it the
 * points are still checked, except for the window.
 */
export function parseSeriesResponse(
  body: unknown,
  symbols: readonly string[],
  metrics: readonly string[],
  window?: SeriesWindow,
  onDropped?: OnDropped,
): SeriesTable {
  if (!isObject(body) || !isObject(body.data) || !("symbols" in body.data)) {
    throw malformed("expected { data: { symbols: { … } } }");
  }
  const answered = body.data.symbols;
  const noData = typeof answered === "string" || answered === null;
  if (!noData && !isObject(answered)) throw malformed(`data.symbols is ${describe(answered)}, not an object`);
  const bySymbol = noData ? new Map<string, unknown>() : lowerKeys(answered);
  const table: SeriesTable = new Map();
  for (const symbol of symbols) {
    const entry = bySymbol.get(symbol.toLowerCase());
    const row = new Map<string, SeriesResult | BadResponseError>();
    table.set(symbol, row);
    if (typeof entry === "string") {
      // A message for the whole symbol (unknown symbol): it answers every metric asked of it.
      for (const metric of metrics) row.set(metric, { kind: "message", message: entry });
      continue;
    }
    if (entry === undefined || entry === null) {
      for (const metric of metrics) row.set(metric, EMPTY);
      continue;
    }
    if (!isObject(entry)) {
      const error = malformed(`symbol "${symbol}" maps to ${describe(entry)}, not an object of series`);
      for (const metric of metrics) row.set(metric, error);
      continue;
    }
    const byMetric = lowerKeys(entry);
    for (const metric of metrics) {
      try {
        row.set(metric, parseSeries(byMetric.get(metric.toLowerCase()), symbol, metric, window, onDropped));
      } catch (error) {
        if (!(error instanceof BadResponseError)) throw error;
        row.set(metric, error);
      }
    }
  }
  return table;
}

function parseSeries(
  value: unknown,
  symbol: string,
  metric: string,
  window: SeriesWindow | undefined,
  onDropped: OnDropped | undefined,
): SeriesResult {
  if (value === undefined || value === null) return EMPTY;
  if (typeof value === "string") return { kind: "message", message: value };
  if (typeof value === "number") {
    // What the service answers a request without dates: the latest value, with no date to put it on.
    return {
      kind: "message",
      message: `The service answered one undated value (${value}) instead of a series.`,
    };
  }
  if (!Array.isArray(value))
    throw malformed(`series ${symbol}/${metric} is ${describe(value)}, not an array of points`);
  const { points, dropped, firstProblem } = soundPoints(value, `${symbol}/${metric}`, window);
  if (firstProblem !== null) {
    onDropped?.(symbol, metric, dropped);
    // Nothing sound left: the pair fails and the cell says why, rather than showing "no data".
    if (points.length === 0) throw malformed(firstProblem);
  }
  return { kind: "points", points };
}

/**
 * The one check every series answer passes before anything shows or stores
 * it. The rules, and what breaks them:
 *
 * - a point is an object with a `date` that is exactly `YYYY-MM-DD` and a real
 *   calendar day, and a `val` that is a finite JSON number or null (absent is
 *   null: no value that day, never a zero) — else the point is dropped: text
 *   such as "NaN", "Infinity" or "0x1F" is not a number, and neither is 1e999
 *   (parsed as Infinity);
 * - its date is inside the window asked for: from the first day of the
 *   period holding the window's start (a WEEK, MONTH, QUARTER or YEAR row is
 *   dated on its period's first day, which can precede the start; daily rows
 *   and the financials, dated on fiscal quarter ends, lie inside) to the
 *   window's end — else dropped;
 * - dates ascend, each once: an answer out of order is put in order (nothing
 *   is lost), and of a date sent more than once **the last one the service
 *   sent wins**, the earlier ones are dropped. The store merges only these
 *   points, so a workbook reopened shows what it showed live.
 *
 * `firstProblem` describes the first dropped point (null when none was).
 */
export function soundPoints(
  raw: readonly unknown[],
  pair: string,
  window?: SeriesWindow,
): { points: DataPoint[]; dropped: DroppedPoints; firstProblem: string | null } {
  const from = window?.start === undefined ? undefined : periodStartOf(window.start, window.granularity ?? "DAY");
  const to = window?.end;
  const dropped: DroppedPoints = {};
  let firstProblem: string | null = null;
  const drop = (reason: DropReason, problem: () => string) => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
    firstProblem ??= problem();
  };
  const kept: DataPoint[] = [];
  let sorted = true;
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i];
    if (!isObject(item)) {
      drop("not a point", () => `a point of ${pair} is ${describe(item)}`);
      continue;
    }
    const date = typeof item.date === "string" && isPointDate(item.date) ? item.date : null;
    if (date === null) {
      drop("not a date", () => dateProblem(item.date, `a point of ${pair}`));
      continue;
    }
    // A null (or absent) reading is "no value on this date", never a zero.
    const val = item.val === null || item.val === undefined ? null : strictNumber(item.val);
    if (val === undefined) {
      drop("not a number", () => `the value of ${pair} on ${date} is ${describeValue(item.val)}, not a number`);
      continue;
    }
    if ((from !== undefined && date < from) || (to !== undefined && date > to)) {
      drop(
        "outside the window",
        () => `a point of ${pair} is dated ${date}, outside the window asked for (${from ?? "…"} to ${to ?? "…"})`,
      );
      continue;
    }
    const previous = kept[kept.length - 1];
    if (previous && previous.date > date) sorted = false;
    kept.push({ date, val });
  }
  // Stable: points of one date keep the order they were sent in, so the last sent is last.
  if (!sorted) kept.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const points: DataPoint[] = [];
  for (const point of kept) {
    const last = points[points.length - 1];
    if (last && last.date === point.date) {
      drop("a date sent again", () => `${pair} has ${point.date} more than once`);
      points[points.length - 1] = point;
    } else {
      points.push(point);
    }
  }
  return { points, dropped, firstProblem };
}

/** Dates already found to be calendar days: an answer repeats the same few for every series in it. */
const POINT_DATES = new Set<string>();
const POINT_DATES_HELD = 8192;

/** `isIsoDate`, remembered for the dates that are. */
function isPointDate(text: string): boolean {
  if (POINT_DATES.has(text)) return true;
  if (!isIsoDate(text)) return false;
  if (POINT_DATES.size >= POINT_DATES_HELD) POINT_DATES.clear();
  POINT_DATES.add(text);
  return true;
}

/** Why a point's date is not one: not YYYY-MM-DD, or not a calendar day. */
function dateProblem(value: unknown, what: string): string {
  const date = typeof value === "string" ? value : "";
  if (hasIsoDateShape(date)) return `${what} is dated ${date}, which is not a calendar day`;
  return `${what} has ${typeof value === "string" ? `the date ${JSON.stringify(value.slice(0, 40))}` : "no date"}, not YYYY-MM-DD`;
}

/**
 * The flow response (2.8); the requested flow type's key must be there. The
 * map of chains has no prototype: chain names are the service's text. A null
 * value is a chain without a number (a blank cell), not a zero.
 */
export function parseFlowsResponse(body: unknown, flowType: FlowType): Record<string, number> {
  if (!isObject(body) || !Object.prototype.hasOwnProperty.call(body, flowType)) {
    throw malformed(`expected "${flowType}" to map chains to numbers`);
  }
  const flows = body[flowType];
  if (!isObject(flows)) throw malformed(`expected "${flowType}" to map chains to numbers`);
  const out = Object.create(null) as Record<string, number>;
  for (const [chain, raw] of Object.entries(flows)) {
    if (raw === null) continue;
    const value = strictNumber(raw);
    if (value === undefined) throw malformed(`the ${flowType} of "${chain}" is ${describeValue(raw)}, not a number`);
    out[chain] = value;
  }
  return out;
}

export function mergeFlows(parts: [FlowType, Record<string, number>][]): FlowsResult {
  const result = Object.create(null) as FlowsResult;
  for (const [type, values] of parts) result[type] = values;
  return result;
}

/**
 * The asset catalog (2.6). The real service names the ids `artemis_id` and
 * `coingecko_id` (read as `platform_id` and `aggregator_id`), and some of its
 * symbols are upper case (lowercased here, as the add-in writes every symbol)
 * or null (the platform id stands in: the service accepts it as a symbol). A
 * record with neither is dropped, not fatal: one bad row must not hide
 * thousands.
 */
export function parseAssetsResponse(body: unknown): { assets: AssetRecord[]; dropped: number } {
  if (!isObject(body) || !Array.isArray(body.assets)) throw malformed("expected { assets: [ … ] }");
  const assets: AssetRecord[] = [];
  let dropped = 0;
  for (const raw of body.assets) {
    if (!isObject(raw)) {
      dropped += 1;
      continue;
    }
    const id = nonBlank(raw.platform_id) ?? nonBlank(raw.artemis_id);
    const symbol = (nonBlank(raw.symbol) ?? id)?.toLowerCase();
    const platformId = id ?? symbol;
    if (!symbol || !platformId) {
      dropped += 1;
      continue;
    }
    assets.push({
      platform_id: platformId,
      symbol,
      aggregator_id: nonBlank(raw.aggregator_id) ?? nonBlank(raw.coingecko_id) ?? null,
      title: str(raw.title) ?? symbol,
      color: str(raw.color) ?? "",
    });
  }
  return { assets, dropped };
}

/** The metric catalog (2.5): `[{NAME: descriptor}]` flattened to descriptors with `name`. */
export function parseMetricsResponse(body: unknown): MetricDescriptor[] {
  if (!isObject(body) || !Array.isArray(body.metrics)) throw malformed("expected { metrics: [ … ] }");
  const out: MetricDescriptor[] = [];
  for (const item of body.metrics) {
    if (!isObject(item)) throw malformed(`a metrics entry is ${describe(item)}`);
    for (const [name, raw] of Object.entries(item)) {
      if (!isObject(raw)) throw malformed(`the descriptor of ${name} is ${describe(raw)}`);
      out.push(toDescriptor(name, raw));
    }
  }
  return out;
}

function toDescriptor(name: string, d: Json): MetricDescriptor {
  const descriptor: MetricDescriptor = {
    name,
    label: str(d.label) ?? name,
    description: str(d.description) ?? "",
    tags: Array.isArray(d.tags)
      ? d.tags.filter(isObject).map((t) => ({ value: str(t.value) ?? "", label: str(t.label) ?? str(t.value) ?? "" }))
      : [],
    aggregation_type: str(d.aggregation_type) ?? "",
    unit: str(d.unit) ?? "",
    internal_data_source: str(d.internal_data_source) ?? "",
    source: str(d.source) ?? "",
    base_metric: str(d.base_metric) ?? null,
    accepts_date: d.accepts_date === true,
    cuts: Array.isArray(d.cuts)
      ? d.cuts
          .filter(isObject)
          .map((c) => ({ granularity: str(c.granularity) ?? "", dimension_type: str(c.dimension_type) ?? "" }))
      : [],
    thumbnail_url: str(d.thumbnail_url) ?? null,
    source_link: str(d.source_link) ?? null,
    methodology: str(d.methodology) ?? null,
  };
  // The newer reference's fields, only when present, so the older shape stays distinguishable.
  if ("currency_type" in d) descriptor.currency_type = str(d.currency_type) ?? null;
  if ("earliest_fiscal_period" in d) descriptor.earliest_fiscal_period = str(d.earliest_fiscal_period) ?? null;
  if ("latest_fiscal_period" in d) descriptor.latest_fiscal_period = str(d.latest_fiscal_period) ?? null;
  if ("priority" in d) descriptor.priority = strictNumber(d.priority) ?? null;
  return descriptor;
}

/**
 * An insight feed (2.7): `{ rows: [card] }`. Feeds other than the two
 * described carry other fields, so a row is kept whole; only `SPARKLINE` is
 * normalised (always an array) because the pane draws it unconditionally.
 */
export function parseInsightsResponse(body: unknown): InsightCard[] {
  if (!isObject(body) || !Array.isArray(body.rows)) throw malformed("expected { rows: [ … ] }");
  return body.rows.map((row, i) => {
    if (!isObject(row)) throw malformed(`insight row ${i + 1} is ${describe(row)}`);
    const sparkline = Array.isArray(row.SPARKLINE) ? row.SPARKLINE : [];
    return { ...row, SPARKLINE: sparkline } as InsightCard;
  });
}

function lowerKeys(obj: Json): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const [key, value] of Object.entries(obj)) {
    const lower = key.toLowerCase();
    if (!map.has(lower)) map.set(lower, value);
  }
  return map;
}

/** A JSON number that fits a double; anything else (text such as "0x1F" or "1e3", booleans, 1e400) is undefined. */
function strictNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function nonBlank(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A value for a message: short text quoted, numbers as written, other kinds by name. */
function describeValue(value: unknown): string {
  if (typeof value === "string")
    return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "number") return String(value);
  return describe(value);
}
