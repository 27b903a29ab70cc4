/**
 * The sandbox market-data API: an in-process HTTP server that implements the
 * whole interface of market-data-api.md with deterministic synthetic data,
 * plus switches for latency and faults so the client's reliability can be
 * tested. See sandbox/README.md for the endpoints and every rule it keeps.
 */
import { createServer } from "node:http";
import { AssetCatalog } from "./asset-catalog";
import { dayOfDate } from "./dates";
import { FaultInjector, type SandboxFaults } from "./faults";
import { type HostileOptions, hostileOptions } from "./hostile";
import { errorBody } from "./http-error";
import { InsightFeeds } from "./insight-feeds";
import { closer, listen, trackSockets, urlOf } from "./listening";
import { OpenTimers } from "./open-timers";
import {
  nonNegative,
  resolveOptions,
  reviseDayOption,
  type ReviseDay,
  type SandboxOptions,
  todayOption,
} from "./options";
import { type RealisticOptions, realisticOptions } from "./realistic";
import { RequestLog, type RequestLogEntry, type SandboxStats } from "./request-log";
import { requestHandler, type SandboxState } from "./request-handler";
import { sendJson } from "./responses";
import type { DataContext } from "./series";
import { computeStreakCards, type StreakFeed } from "./streaks";

export type { SandboxFaults } from "./faults";
export type { HostileOptions } from "./hostile";
export { DEMO_API_KEY, type SandboxOptions } from "./options";
export type { RealisticOptions } from "./realistic";
export type { RequestLogEntry, SandboxStats } from "./request-log";

export interface SandboxHandle {
  /** `http://<host>:<port>`, no trailing slash. */
  url: string;
  port: number;
  /** Stops listening and destroys every open socket, keep-alive ones included. */
  close(): Promise<void>;
  setFaults(faults: Partial<SandboxFaults>): void;
  setLatency(ms: number): void;
  /** Revises history from now on (see SandboxOptions.revision). */
  setRevision(revision: number): void;
  /** Revises one day from now on (see SandboxOptions.reviseDay; null: none). */
  setReviseDay(revise: ReviseDay | null): void;
  /** Moves the last day with data (see SandboxOptions.today; undefined: the current UTC date again). */
  setToday(today: string | Date | undefined): void;
  stats(): SandboxStats;
  requestLog(): RequestLogEntry[];
  /**
   * Resolves with the next request logged that matches (not one logged
   * before the call), or rejects after `timeoutMs` (default 10 s) naming `what`.
   */
  nextRequest(matches: (entry: RequestLogEntry) => boolean, what: string, timeoutMs?: number): Promise<RequestLogEntry>;
  /** Clears counters and log, and restores the start-up faults, latency, revision, revised day, today and fault sequence. */
  reset(): void;
  /** Forgets cached insight feeds: the next call of each is slow again. */
  resetInsightCache(): void;
  /** Changes failure switches; the others keep their values. */
  setHostile(hostile: Partial<HostileOptions>): void;
  /** Replaces the realistic-mode behaviours (`false` for the contract's behaviour). */
  setRealistic(realistic: boolean | Partial<RealisticOptions>): void;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const { host, apiKey, seed, today, quiet, latencyMs, insightFirstCallDelayMs } = resolveOptions(options);
  const catalog = new AssetCatalog(seed, options.assetCount, { hostileFixtures: options.hostileFixtures ?? false });
  const faults = new FaultInjector(seed, options.faults);
  const log = new RequestLog();
  const state: SandboxState = {
    latency: latencyMs,
    realistic: realisticOptions(options.realistic),
    hostile: hostileOptions(options.hostile),
    counted: 0,
    revision: nonNegative("revision", options.revision ?? 0),
    revisedDay: reviseDayOption(options.reviseDay),
    fixedToday: today,
  };
  const timers = new OpenTimers();
  const dataContext = (): DataContext => ({
    seed,
    catalog,
    today: state.fixedToday ?? dayOfDate(new Date()),
    revision: state.revision,
    revisedDay: state.revisedDay,
  });
  const insights = new InsightFeeds(
    (feed) => computeStreakCards(dataContext(), feed as StreakFeed),
    () => insightFirstCallDelayMs,
    (ms) => timers.sleep(ms),
    () => log.countInsightComputation(),
  );

  const handle = requestHandler({ apiKey, quiet, state, faults, log, insights, dataContext, timers });
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!quiet) console.error("Sandbox request failed:", error);
      if (!res.headersSent) sendJson(res, 500, errorBody(500, "Internal sandbox error"));
    });
  });
  const sockets = trackSockets(server);
  await listen(server, options.port ?? 0, host);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : Number(options.port);
  return {
    url: urlOf(host, port),
    port,
    close: closer(server, sockets, timers),
    ...sandboxControls(options, latencyMs, state, { faults, log, insights }),
  };
}

/** The handle's switches and readings while the sandbox runs; reset() goes back to `options`. */
function sandboxControls(
  options: SandboxOptions,
  startLatency: number,
  state: SandboxState,
  { faults, log, insights }: { faults: FaultInjector; log: RequestLog; insights: InsightFeeds },
): Omit<SandboxHandle, "url" | "port" | "close"> {
  return {
    setFaults: (partial) => faults.set(partial),
    setLatency: (ms) => {
      state.latency = nonNegative("latency", ms);
    },
    setRevision: (n) => {
      state.revision = nonNegative("revision", n);
    },
    setReviseDay: (revise) => {
      state.revisedDay = reviseDayOption(revise);
    },
    setToday: (today) => {
      state.fixedToday = todayOption(today);
    },
    stats: () => log.stats(),
    requestLog: () => log.log(),
    nextRequest: (matches, what, timeoutMs = 10_000) => log.next(matches, what, timeoutMs),
    reset() {
      log.clear();
      faults.reset(options.faults ?? {});
      state.latency = startLatency;
      state.revision = options.revision ?? 0;
      state.revisedDay = reviseDayOption(options.reviseDay);
      state.fixedToday = todayOption(options.today);
      state.realistic = realisticOptions(options.realistic);
      state.hostile = hostileOptions(options.hostile);
      state.counted = 0;
    },
    resetInsightCache: () => insights.clear(),
    setHostile(partial) {
      state.hostile = hostileOptions({ ...state.hostile, ...partial });
    },
    setRealistic(value) {
      state.realistic = realisticOptions(value);
    },
  };
}
