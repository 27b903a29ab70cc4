/**
 * Series requests with the rules that hold for every function: the
 * free-cash-flow ratios' short-window quirk is undone by asking again over a
 * wider window, and one pair's failure stays that pair's.
 */
import { isMarketDataError } from "../api/errors";
import type { DataPoint, Granularity, SeriesResult } from "../core/domain";
import type { SeriesRequest } from "../api/types";
import { addMonths } from "../core/calendar";
import { NoDataError } from "../core/errors";
import { readingsOf, withoutPlaceholders } from "../core/readings";
import { inDateOrder } from "../core/series-table";
import { isFcfDerived, looksSparse } from "../core/metric-knowledge";
import type { CallContext } from "./call-context";

/** How far back the start moves, one step after the other, when a FCF ratio comes back sparse. */
export const FCF_WIDENING_MONTHS = [12, 24] as const;

export interface WindowedRequest extends SeriesRequest {
  granularity: Granularity;
}

/**
 * `slice`: the widened answer is cut back to the window asked for (the user
 * sees that window's values). `keep`: it is returned whole (MD.LATEST wants
 * the last reading wherever it is).
 */
export async function fetchSeries(
  ctx: CallContext,
  req: WindowedRequest,
  widened: "slice" | "keep" = "slice",
): Promise<SeriesResult> {
  return settledValues(ctx, await fetchWidened(ctx, req, widened));
}

/** The unsettled days' 0 placeholders as null (core/readings.ts), so no function shows or uses them as values. */
function settledValues(ctx: CallContext, result: SeriesResult): SeriesResult {
  if (result.kind !== "points") return result;
  const points = withoutPlaceholders(result.points, ctx.today);
  return points === result.points ? result : { kind: "points", points: [...points] };
}

async function fetchWidened(ctx: CallContext, req: WindowedRequest, widened: "slice" | "keep"): Promise<SeriesResult> {
  const first = await ctx.client.getSeries(req, ctx.call);
  const start = req.startDate;
  if (!isFcfDerived(req.metric) || start === undefined || first.kind !== "points") return first;
  const end = req.endDate ?? ctx.today;
  if (!looksSparse(readingsOf(first.points), start, end, req.granularity)) return first;

  let best = first;
  for (const months of FCF_WIDENING_MONTHS) {
    const wider = await ctx.client.getSeries({ ...req, startDate: addMonths(start, -months) }, ctx.call);
    if (wider.kind !== "points") break;
    const inWindow = wider.points.filter((point) => point.date >= start && point.date <= end);
    const candidate = widened === "keep" ? wider.points : inWindow;
    if (candidate.length > best.points.length) best = { kind: "points", points: candidate };
    if (!looksSparse(readingsOf(inWindow), start, end, req.granularity)) break;
  }
  return best;
}

/** Failures that belong to one (symbol, metric) pair; anything else (key, network, limits) fails the whole formula. */
function isPairFailure(error: unknown): boolean {
  return isMarketDataError(error) && (error.kind === "bad-request" || error.kind === "not-found");
}

/**
 * Several series at once (issued together, so the client batches them). A pair
 * the service refused becomes a message column like the service's own
 * in-response messages; if every pair failed, or anything failed for a reason
 * that is not the pair's, the first such error is thrown.
 */
export async function fetchSeriesColumns(
  ctx: CallContext,
  requests: readonly WindowedRequest[],
): Promise<SeriesResult[]> {
  const settled = await Promise.allSettled(requests.map((req) => fetchSeries(ctx, req)));
  const failures = settled.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
  const fatal = failures.find((error) => !isPairFailure(error));
  if (fatal !== undefined) throw fatal;
  if (failures.length > 0 && failures.length === settled.length) throw failures[0];
  return settled.map((outcome) =>
    outcome.status === "fulfilled" ? outcome.value : { kind: "message", message: (outcome.reason as Error).message },
  );
}

/** One series' readings from `start` to `end`; a message in place of the series is "no data" with the service's words. */
export async function fetchReadings(
  ctx: CallContext,
  symbol: string,
  metric: string,
  granularity: Granularity,
  start: string,
  end: string,
  widened: "slice" | "keep" = "slice",
): Promise<readonly DataPoint[]> {
  const result = await fetchSeries(ctx, { symbol, metric, granularity, startDate: start, endDate: end }, widened);
  if (result.kind === "message") throw new NoDataError(`${symbol} ${metric}: ${result.message}`);
  return inDateOrder(result.points);
}
