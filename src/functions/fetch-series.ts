/**
 * Series requests with the rules that hold for every function: one pair's
 * failure stays that pair's. (The free-cash-flow ratios' short-window quirk is
 * the client's to undo: api/series/fcf-widening.ts.)
 */
import { type CallOptions, isMarketDataError, type SeriesRequest } from "../api";
import type { DataPoint, Granularity, SeriesResult } from "../core/domain";
import { MessageSeriesError } from "../core/errors";
import { withoutPlaceholders } from "../core/readings";
import { inDateOrder } from "../core/series-table";
import type { CallContext } from "./call-context";

export interface WindowedRequest extends SeriesRequest {
  granularity: Granularity;
}

/**
 * `slice`: an answer the client widened is cut back to the window asked for
 * (the user sees that window's values). `keep`: it is returned whole (MD.LATEST
 * wants the last reading wherever it is).
 */
export function fetchSeries(
  ctx: CallContext,
  req: WindowedRequest,
  widened: "slice" | "keep" = "slice",
): Promise<SeriesResult> {
  return askSeries(ctx, req, widened).then((result) => settledValues(ctx, result));
}

/**
 * The client's answer as it gives it. A promise chain rather than an async
 * function: a workbook keeps tens of thousands of these waiting at once, and a
 * suspended async function holds its frame for as long as it waits.
 */
function askSeries(ctx: CallContext, req: WindowedRequest, widened: "slice" | "keep"): Promise<SeriesResult> {
  try {
    ctx.record?.asked(req);
    return ctx.client.getSeries(req, widened === "keep" ? keepingWidened(ctx.call) : ctx.call);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The call's options with keepWidened. Copied by Object.assign, not spread:
 * every waiting MD.LATEST cell holds one, and V8 gives the spread copies made
 * here a hidden class each.
 */
function keepingWidened(call: CallOptions): CallOptions {
  const options: CallOptions = Object.assign({}, call);
  options.keepWidened = true;
  return options;
}

/** The unsettled days' 0 placeholders as null (core/readings.ts), so no function shows or uses them as values. */
function settledValues(ctx: CallContext, result: SeriesResult): SeriesResult {
  if (result.kind !== "points") return result;
  const points = withoutPlaceholders(result.points, ctx.today);
  // withoutPlaceholders returns a new array when it changes anything: no second copy.
  return points === result.points ? result : { kind: "points", points: points as DataPoint[] };
}

/** Failures that belong to one (symbol, metric) pair; anything else (key, network, limits) fails the whole formula. */
export function isPairFailure(error: unknown): boolean {
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
export function fetchReadings(
  ctx: CallContext,
  symbol: string,
  metric: string,
  granularity: Granularity,
  start: string,
  end: string,
  widened: "slice" | "keep" = "slice",
): Promise<readonly DataPoint[]> {
  return askSeries(ctx, { symbol, metric, granularity, start, end }, widened).then((answer) => {
    const result = settledValues(ctx, answer);
    if (result.kind === "message")
      throw new MessageSeriesError(`${symbol} ${metric}: ${result.message}`, result.message);
    return inDateOrder(result.points);
  });
}
