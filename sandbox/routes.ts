/**
 * The endpoints of the interface. Each handler validates its query, answers a
 * JSON body, and throws HttpError for a request the service would refuse.
 * Order of checks: path (404), key (401), parameters (400).
 */
import { DATA_START_DAY, GRANULARITIES, type Granularity, isoOfDay, parseIsoDay } from "./dates";
import { HttpError } from "./http-error";
import type { InsightFeeds } from "./insight-feeds";
import { FLOW_TYPES, type FlowType, flowTotals } from "./flows";
import { describeMetrics } from "./metric-descriptors";
import { isFinancialMetric } from "./metric-catalog";
import {
  datelessAnswer,
  omittedSymbol,
  type RealisticAnswer,
  type RealisticOptions,
  realisticCatalogBody,
  realisticSeries,
  symbolsOrSentence,
} from "./realistic";
import { type DataContext, seriesFor } from "./series";
import { STREAK_FEEDS } from "./streaks";
import { resolveSymbol } from "./symbols";

export const MAX_POINTS = 1000;

export interface RouteContext {
  data: DataContext;
  apiKey: string;
  insights: InsightFeeds;
  /** The real service's behaviours (realistic.ts); all off by default. */
  realistic?: RealisticOptions;
}

export interface Reply {
  status: number;
  body: string;
  /** Data points in the body (series endpoints only). */
  points: number;
}

const ok = (body: unknown, points = 0): Reply => ({
  status: 200,
  body: typeof body === "string" ? body : JSON.stringify(body),
  points,
});

/** Shortens user input quoted back in an error message. */
function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function requireKey(params: URLSearchParams, apiKey: string): void {
  const key = params.get("APIKey");
  if (key === null || key === "") throw new HttpError(401, "Missing API key: pass it in the APIKey query parameter");
  if (key !== apiKey) throw new HttpError(401, "Invalid API key");
}

function dateParam(params: URLSearchParams, name: string): number | null {
  const text = params.get(name);
  if (text === null || text === "") return null;
  const day = parseIsoDay(text);
  if (day === null) throw new HttpError(400, `${name} must be a calendar date written YYYY-MM-DD, got ${quoted(text)}`);
  return day;
}

function granularityParam(params: URLSearchParams): Granularity {
  const text = params.get("granularity");
  if (text === null || text === "") return "DAY";
  const value = text.toUpperCase() as Granularity;
  if (!GRANULARITIES.includes(value))
    throw new HttpError(400, `granularity must be one of ${GRANULARITIES.join(", ")}, got ${quoted(text)}`);
  return value;
}

function limitParam(params: URLSearchParams): number {
  const text = params.get("limit");
  if (text === null) return MAX_POINTS;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= MAX_POINTS))
    throw new HttpError(400, `limit must be a whole number from 1 to ${MAX_POINTS}, got ${quoted(text)}`);
  return value;
}

function listParam(text: string | null): string[] {
  return (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function window(params: URLSearchParams, today: number, defaultSpan: number | null): { start: number; end: number } {
  const end = dateParam(params, "endDate") ?? today;
  const start = dateParam(params, "startDate") ?? (defaultSpan === null ? DATA_START_DAY : end - defaultSpan + 1);
  if (start > end) throw new HttpError(400, `startDate ${isoOfDay(start)} is after endDate ${isoOfDay(end)}`);
  return { start, end };
}

/** `/data/api/<METRICS>/` */
export function metricData(ctx: RouteContext, metricsSegment: string, params: URLSearchParams): Reply {
  requireKey(params, ctx.apiKey);
  let decoded: string;
  try {
    decoded = decodeURIComponent(metricsSegment);
  } catch {
    throw new HttpError(400, "The metric names in the path are not valid URL encoding");
  }
  const spelled = new Map<string, string>();
  for (const name of listParam(decoded)) if (!spelled.has(name.toUpperCase())) spelled.set(name.toUpperCase(), name);
  const metrics = [...spelled.keys()];
  if (metrics.length === 0)
    throw new HttpError(400, "Name at least one metric in the path: /data/api/<METRIC>[,<METRIC>…]/");
  const symbols = listParam(params.get("symbols"));
  if (symbols.length === 0)
    throw new HttpError(400, "symbols is required: one or more comma-separated symbols, e.g. symbols=eth,sol");
  const granularity = granularityParam(params);
  const financial = metrics.filter(isFinancialMetric);
  if (financial.length > 0 && granularity !== "QUARTER") {
    throw new HttpError(
      400,
      `${financial.join(", ")} ${financial.length > 1 ? "are" : "is a"} fiscal-quarter financial${financial.length > 1 ? "s" : ""}: request granularity=QUARTER (got ${granularity}${params.get("granularity") ? "" : ", the default"})`,
    );
  }
  const limit = limitParam(params);
  const { start, end } = window(params, ctx.data.today, null);
  const real = ctx.realistic;
  const dateless = !params.get("startDate") && !params.get("endDate");
  const answer: Record<string, Record<string, RealisticAnswer>> = {};
  let points = 0;
  for (const symbol of symbols) {
    if (real && omittedSymbol(real, ctx.data, symbol)) continue;
    const series: Record<string, RealisticAnswer> = {};
    for (const metric of metrics) {
      const contractual = seriesFor(ctx.data, symbol, metric, { startDay: start, endDay: end, granularity, limit });
      let result: RealisticAnswer = contractual;
      if (real) {
        const shaped = realisticSeries(real, ctx.data, symbol, metric, contractual, granularity === "DAY");
        result = real.datelessNumbers && dateless ? datelessAnswer(shaped) : shaped;
      }
      if (Array.isArray(result)) points += result.length;
      series[real?.caseEcho ? spelled.get(metric)! : metric] = result;
    }
    answer[real?.caseEcho ? symbol.toLowerCase() : symbol] = series;
  }
  return ok({ data: { symbols: real ? symbolsOrSentence(real, answer) : answer } }, points);
}

/** Flows over the last 30 days unless startDate says otherwise. */
const FLOW_DEFAULT_DAYS = 30;

/** `/flows/top/` */
export function topFlows(ctx: RouteContext, params: URLSearchParams): Reply {
  requireKey(params, ctx.apiKey);
  granularityParam(params); // validated; the response has no time axis
  const breakdown = params.get("breakdown");
  if (breakdown !== null && breakdown !== "chains")
    throw new HttpError(400, `breakdown must be "chains", got ${quoted(breakdown)}`);
  const flowType = params.get("flowType");
  if (flowType !== null && !FLOW_TYPES.includes(flowType as FlowType))
    throw new HttpError(400, `flowType must be one of netflow, inflow, outflow, got ${quoted(flowType)}`);
  const { start, end } = window(params, ctx.data.today, FLOW_DEFAULT_DAYS);
  const catalog = ctx.data.catalog;
  const requested = listParam(params.get("sourceChains"));
  const chains =
    requested.length === 0
      ? catalog.entries.filter((entry) => entry.kind === "chain")
      : requested.map((name) => {
          const entry = catalog.find(name.toLowerCase());
          if (!entry || entry.kind !== "chain")
            throw new HttpError(
              400,
              `sourceChains: ${quoted(name)} is not a chain in the asset catalog (use a chain platform_id such as "ethereum")`,
            );
          return entry;
        });
  const unique = [...new Set(chains)];
  return ok(
    flowTotals(
      ctx.data.seed,
      unique,
      start,
      Math.min(end, ctx.data.today),
      flowType ? [flowType as FlowType] : FLOW_TYPES,
    ),
  );
}

/** `/supported-metrics/` */
export function supportedMetrics(ctx: RouteContext, params: URLSearchParams): Reply {
  const name = (params.get("symbol") ?? "").trim();
  if (name === "") throw new HttpError(400, "symbol is required, e.g. /supported-metrics/?symbol=eth");
  const symbol = resolveSymbol(ctx.data.catalog, ctx.data.seed, name);
  if (!symbol) throw new HttpError(404, `Symbol ${quoted(name)} is not in the asset catalog`);
  return ok({ metrics: describeMetrics(symbol, ctx.data.today) });
}

/** `/asset/symbols/` */
export function assetSymbols(ctx: RouteContext): Reply {
  if (ctx.realistic?.catalogAsReal) return ok(realisticCatalogBody(ctx.data.catalog));
  return ok(ctx.data.catalog.body());
}

/** `/insights/<feed>/` */
export async function insightFeed(ctx: RouteContext, feed: string): Promise<Reply> {
  if (!(STREAK_FEEDS as readonly string[]).includes(feed)) {
    throw new HttpError(
      404,
      `Unknown insight feed ${quoted(feed)}: the sandbox serves /insights/streaks/ and /insights/decline-streaks/`,
    );
  }
  return ok(await ctx.insights.body(feed));
}

export const INDEX = {
  service: "Sandbox market-data API",
  note: "Synthetic, deterministic sandbox data for development and tests; not market data.",
  endpoints: [
    "/data/api/<METRICS>/",
    "/flows/top/",
    "/supported-metrics/",
    "/asset/symbols/",
    "/insights/streaks/",
    "/insights/decline-streaks/",
  ],
};

export async function route(ctx: RouteContext, path: string, params: URLSearchParams): Promise<Reply> {
  if (path === "/") return ok(INDEX);
  if (!path.endsWith("/"))
    throw new HttpError(404, `Path ${quoted(path)} must end with "/" (try ${quoted(`${path}/`)})`);
  const series = /^\/data\/api\/([^/]*)\/$/.exec(path);
  if (series) return metricData(ctx, series[1], params);
  if (path === "/flows/top/") return topFlows(ctx, params);
  if (path === "/supported-metrics/") return supportedMetrics(ctx, params);
  if (path === "/asset/symbols/") return assetSymbols(ctx);
  const insight = /^\/insights\/([^/]+)\/$/.exec(path);
  if (insight) return insightFeed(ctx, insight[1]);
  throw new HttpError(404, `No endpoint at ${quoted(path)}`);
}
