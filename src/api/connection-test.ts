/**
 * The cheapest authenticated request there is: one day's PRICE of one symbol
 * (a window of explicit dates, `limit=1`). The connection test sends it; so
 * does the store's gate (store/acceptance.ts) when a reopened workbook asks
 * nothing of the network, to learn whether this account or key is still
 * accepted before stored answers are served.
 */
import { addDays, utcDateOf } from "../core/calendar";
import { sendWithRetries, type ExecutorDeps, type ResolvedSettings } from "./http/executor";
import { seriesRequest } from "./http/requests";
import { parseSeriesResponse } from "./http/responses";
import type { CallOptions } from "./types";

export interface ConnectionTestOptions {
  symbol: string;
  timeoutMs: number;
  retries: number;
}

/** Sends the request under `settings` and checks the answer's shape; rejects with the request's error. */
export async function sendConnectionTest(
  deps: ExecutorDeps,
  settings: ResolvedSettings,
  o: ConnectionTestOptions,
  opts: CallOptions = {},
): Promise<void> {
  // Explicit dates: the service answers a request without them with bare numbers, not a series.
  const today = utcDateOf(deps.now());
  const window = { start: addDays(today, -30), end: today };
  const request = seriesRequest({ symbols: [o.symbol], metrics: ["PRICE"], ...window, limit: 1 });
  const { json } = await sendWithRetries(deps, request, settings, {
    timeoutMs: o.timeoutMs,
    retries: o.retries,
    ...(opts.networkRetries === undefined ? {} : { networkRetries: opts.networkRetries }),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  parseSeriesResponse(json, [o.symbol], ["PRICE"], window);
}
