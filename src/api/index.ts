/**
 * The one door into src/api/ for the rest of the add-in (functions, office,
 * the pane, refresh): the client's contract, its typed errors, and the
 * factory. Everything else in api/ is the client's inside; lint refuses a
 * deep import from outside (eslint.config.mjs). Tests and the benchmark may
 * reach inside to test the parts. The domain vocabulary the answers are made
 * of (DataPoint, SeriesResult, …) is core's: import it from core/domain.
 */
export * from "./types";
export * from "./errors";
export { createClient, CLIENT_DEFAULTS } from "./client";
export type { Client, ClientOptions, ClientState } from "./client";
export type { FetchLike } from "./transport";
export type { Timers } from "./timers";
export { openSeriesStore } from "./series-store";
export type { SeriesStore, SeriesStoreOptions } from "./series-store-types";
export { normalizeBaseUrl } from "./requests";
