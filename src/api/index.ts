/** The shared market-data client: everything the add-in needs from src/api. */
export * from "./types";
export * from "./errors";
export { createClient, CLIENT_DEFAULTS } from "./client";
export type { Client, ClientOptions, ClientState } from "./client";
export type { FetchLike } from "./transport";
export type { Timers } from "./timers";
export {
  seriesRequest,
  flowsRequest,
  supportedMetricsRequest,
  assetSymbolsRequest,
  insightsRequest,
  requestUrl,
  displayUrl,
  normalizeBaseUrl,
  MAX_POINTS_PER_SERIES,
} from "./requests";
export type { ApiRequest, SeriesQuery, FlowsQuery } from "./requests";
export { splitWindow, mergeParts, countPeriods } from "./series-windows";
