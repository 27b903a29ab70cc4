/**
 * The one door into src/api/ for the rest of the add-in (functions, office,
 * the pane, refresh): the client's contract, its typed errors, and the
 * factory. Everything else in api/ is the client's inside; lint refuses a
 * deep import from outside (eslint.config.mjs). Tests and the benchmark may
 * reach inside to test the parts. The domain vocabulary the answers are made
 * of (DataPoint, SeriesResult, …) is core's: import it from core/domain.
 *
 * Three rooms, each one system, and the client's own parts at the top:
 *
 *   http/     one request: building it (requests), authorising it
 *             (request-auth: the key, the gateway's key, the signed-in user's
 *             token), sending it (executor: concurrency, retries; transport:
 *             the one fetch, timeouts, body caps), reading it (responses),
 *             retry, timers, semaphore
 *   series/   series windows: cutting a window into parts (windows), asking
 *             history backwards until it ends (history-walk), the batcher and
 *             its refused-request isolation (batcher, isolation, their shared
 *             batch-types), packing into requests (batch-plan), sparse
 *             free-cash-flow widening (fcf-widening)
 *   store/    the persistent IndexedDB store: the store itself
 *             (persistent-store), its vocabulary (types), its IndexedDB
 *             requests, memory working set, write queue, the pure window plan,
 *             and the read-through the client puts in front of the batcher
 *   (top)     client (the facade), client-options, types, errors, the
 *             settings reader, call deadline, cache, pending and single loads
 *
 * The route a cell takes to the wire, file by file:
 *
 *   functions/*  →  client.ts (checks the question, cache, call deadline)
 *     →  store/read-through.ts (settled daily days from the store)
 *        or series/windows.ts (a long window cut into parts)
 *     →  series/history-walk.ts (parts asked newest first, until data ends)
 *     →  series/batcher.ts (the batch window; joins pending-loads.ts)
 *     →  series/batch-plan.ts (symbols × metrics packed into requests)
 *     →  http/requests.ts (the URL; the key never in it)
 *     →  http/executor.ts (semaphore, retries, Retry-After)
 *     →  http/transport.ts (fetch, timeouts, body cap)  →  the service
 *
 * Catalogs, feeds and flows take the short way: client.ts → single-loads.ts
 * → http/requests.ts → http/executor.ts → http/transport.ts.
 */
export * from "./types";
export * from "./errors";
export { CallSignal } from "./cancel-signal";
export { createClient, CLIENT_DEFAULTS } from "./client";
export type { Client, ClientOptions, ClientState } from "./client";
export type { FetchLike } from "./http/transport";
export { authorisationOf, type Authorisation } from "./http/request-auth";
export type { Timers } from "./http/timers";
export { openSeriesStore } from "./store/persistent-store";
export type { PersistentSeriesStore, PersistentSeriesStoreOptions } from "./store/types";
export { normalizeBaseUrl } from "./http/requests";
export type { AnswerLogView, AnswerSource, AnsweringRequest, PairAnswer, Revision, StoredRange } from "./answer-log";
export { fetchOf } from "./answer-log";
