/**
 * The sandbox market-data API: an in-process HTTP server that implements the
 * whole interface of market-data-api.md with deterministic synthetic data,
 * plus switches for latency and faults so the client's reliability can be
 * tested. See sandbox/README.md for the endpoints and every rule it keeps.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { AssetCatalog } from "./asset-catalog";
import { dayOfDate, parseIsoDay } from "./dates";
import { FaultInjector, type FaultKind, type SandboxFaults } from "./faults";
import { echoKeyInto, type HostileOptions, hostileOptions, intercept, trickyInto } from "./hostile";
import { errorBody, HttpError } from "./http-error";
import { InsightFeeds } from "./insight-feeds";
import { type RealisticOptions, realisticOptions } from "./realistic";
import { RequestLog, redactQuery, type RequestLogEntry, type SandboxStats } from "./request-log";
import { type Reply, route, type RouteContext } from "./routes";
import type { DataContext } from "./series";
import { computeStreakCards, type StreakFeed } from "./streaks";

export type { SandboxFaults } from "./faults";
export type { HostileOptions } from "./hostile";
export type { RealisticOptions } from "./realistic";
export type { RequestLogEntry, SandboxStats } from "./request-log";

/** The documented demo key the sandbox accepts unless told otherwise. */
export const DEMO_API_KEY = "md-sandbox-demo";

export interface SandboxOptions {
  /** 0 (the default) picks a free port. The CLI's default is 3001. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The key `/data/api/` and `/flows/top/` require. Default DEMO_API_KEY. */
  apiKey?: string;
  /** Delay before every GET is answered, ms. Default 0. */
  latencyMs?: number;
  /** Delay of the first uncached call of an insight feed, ms. Default 200 (the CLI uses 3000). */
  insightFirstCallDelayMs?: number;
  /** Size of the asset catalog: filler tokens are added to reach it. Default: the named set only (no filler); it is always present. */
  assetCount?: number;
  /** Add the tokens with markup-like titles (`<img src=x onerror=…>`, `<b>Bold</b> Token`, …) that rendering tests need. Default false. */
  hostileFixtures?: boolean;
  faults?: Partial<SandboxFaults>;
  /** Seeds the data and the fault sequence. Default 1. */
  seed?: number;
  /** Revises history: every series value is scaled by 1 + revision, as a methodology change would. Default 0. */
  revision?: number;
  /** Last day with data, `YYYY-MM-DD` or a Date. Default: the current UTC date, read per request. */
  today?: string | Date;
  /** No console output. Default true (the CLI passes false). */
  quiet?: boolean;
  /** Play the real service's behaviours (sandbox/realistic.ts): `true` for all of them, or some. Default off. */
  realistic?: boolean | Partial<RealisticOptions>;
  /** Failure switches of a broken or hostile service (sandbox/hostile.ts). Default none. */
  hostile?: Partial<HostileOptions>;
}

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
  /** Moves the last day with data (see SandboxOptions.today; undefined: the current UTC date again). */
  setToday(today: string | Date | undefined): void;
  stats(): SandboxStats;
  requestLog(): RequestLogEntry[];
  /**
   * Resolves with the next request logged that matches (not one logged
   * before the call), or rejects after `timeoutMs` (default 10 s) naming `what`.
   */
  nextRequest(matches: (entry: RequestLogEntry) => boolean, what: string, timeoutMs?: number): Promise<RequestLogEntry>;
  /** Clears counters and log, and restores the start-up faults, latency, revision, today and fault sequence. */
  reset(): void;
  /** Forgets cached insight feeds: the next call of each is slow again. */
  resetInsightCache(): void;
  /** Changes failure switches; the others keep their values. */
  setHostile(hostile: Partial<HostileOptions>): void;
  /** Replaces the realistic-mode behaviours (`false` for the contract's behaviour). */
  setRealistic(realistic: boolean | Partial<RealisticOptions>): void;
}

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  // Without this a browser client cannot read Retry-After on a 429.
  "Access-Control-Expose-Headers": "Retry-After",
};

function nonNegative(name: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a number ≥ 0, got ${value}`);
  return value;
}

function todayOption(today: string | Date | undefined): number | null {
  if (today === undefined) return null;
  const day = typeof today === "string" ? parseIsoDay(today) : dayOfDate(today);
  if (day === null || Number.isNaN(day))
    throw new RangeError(`today must be a YYYY-MM-DD date or a Date, got ${String(today)}`);
  return day;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const host = options.host ?? "127.0.0.1";
  const apiKey = options.apiKey ?? DEMO_API_KEY;
  if (apiKey === "") throw new RangeError("apiKey must not be empty");
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  let fixedToday = todayOption(options.today);
  const quiet = options.quiet ?? true;
  const startLatency = nonNegative("latencyMs", options.latencyMs ?? 0);
  const insightDelay = nonNegative("insightFirstCallDelayMs", options.insightFirstCallDelayMs ?? 200);
  const catalog = new AssetCatalog(seed, options.assetCount, { hostileFixtures: options.hostileFixtures ?? false });
  const faults = new FaultInjector(seed, options.faults);
  const log = new RequestLog();
  let latency = startLatency;
  let realistic = realisticOptions(options.realistic);
  let hostile = hostileOptions(options.hostile);
  /** Requests counted for the realistic mode's every-Nth empty body. */
  let counted = 0;
  /** Open never-ending bodies, so close() can end them. */
  const endless = new Set<NodeJS.Timeout>();

  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  let revision = nonNegative("revision", options.revision ?? 0);
  const dataContext = (): DataContext => ({ seed, catalog, today: fixedToday ?? dayOfDate(new Date()), revision });
  const insights = new InsightFeeds(
    (feed) => computeStreakCards(dataContext(), feed as StreakFeed),
    () => insightDelay,
    sleep,
    () => log.countInsightComputation(),
  );

  const finish = (entry: Omit<RequestLogEntry, "ms">, started: number) => {
    const complete = { ...entry, ms: Math.round(performance.now() - started) };
    log.record(complete);
    if (!quiet) {
      const query = complete.query ? `?${complete.query}` : "";
      const fault = complete.fault ? ` [fault: ${complete.fault}]` : "";
      console.log(`${complete.method} ${complete.path}${query} → ${complete.status} (${complete.ms} ms)${fault}`);
    }
  };

  const send = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      ...CORS_HEADERS,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(body)),
      "Cache-Control": "no-store",
      ...headers,
    });
    res.end(body);
  };

  /** `body` (a JSON object) with a padding field in front, streamed so the whole never sits in memory; stops when the client hangs up. */
  const sendPadded = async (res: ServerResponse, status: number, body: string, total: number) => {
    const head = '{"padding":"';
    const tail = `",${body.slice(1)}`;
    const padding = Math.max(0, total - head.length - Buffer.byteLength(tail));
    res.writeHead(status, {
      ...CORS_HEADERS,
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(head.length + padding + Buffer.byteLength(tail)),
      "Cache-Control": "no-store",
    });
    res.write(head);
    const chunk = "x".repeat(64 * 1024);
    for (let left = padding; left > 0 && !res.destroyed; left -= chunk.length) {
      const ok = res.write(left >= chunk.length ? chunk : chunk.slice(0, left));
      if (!ok)
        await new Promise<void>((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
    }
    if (!res.destroyed) res.end(tail);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const at = new Date().toISOString();
    const method = req.method ?? "GET";
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const path = q < 0 ? raw : raw.slice(0, q);
    const search = q < 0 ? "" : raw.slice(q + 1);
    const entry = {
      at,
      method,
      path,
      query: redactQuery(search),
      points: 0,
      fault: null as FaultKind | null,
      quirk: undefined as string | undefined,
    };

    if (method === "OPTIONS") {
      res.writeHead(204, {
        ...CORS_HEADERS,
        "Access-Control-Allow-Methods": "GET, OPTIONS",
        "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "Content-Type",
        "Access-Control-Max-Age": "600",
        "Content-Length": "0",
      });
      res.end();
      return finish({ ...entry, status: 204 }, started);
    }
    if (method !== "GET") {
      send(res, 405, errorBody(405, `Method ${method} is not allowed: the API is read-only, use GET`), {
        Allow: "GET, OPTIONS",
      });
      return finish({ ...entry, status: 405 }, started);
    }

    if (latency > 0) await sleep(latency);
    const draw = faults.draw();
    if (draw.drop) {
      req.socket.destroy();
      return finish({ ...entry, status: "dropped", fault: "drop" }, started);
    }
    if (draw.serverError) {
      const text =
        draw.serverError === 500
          ? "Internal server error (injected sandbox fault)"
          : "Service unavailable (injected sandbox fault)";
      send(res, draw.serverError, errorBody(draw.serverError, text));
      return finish({ ...entry, status: draw.serverError, fault: "server-error" }, started);
    }
    if (draw.rateLimit) {
      const seconds = faults.settings.retryAfterSeconds;
      send(res, 429, errorBody(429, `Rate limit exceeded (injected sandbox fault): retry after ${seconds} s`), {
        "Retry-After": String(seconds),
      });
      return finish({ ...entry, status: 429, fault: "rate-limit" }, started);
    }

    const params = new URLSearchParams(search);
    const intercepted = intercept(hostile, path, raw, params);
    if (intercepted === "endless") {
      // Headers and the start of a JSON body, then a space a second: the body never ends.
      res.writeHead(200, {
        ...CORS_HEADERS,
        "Content-Type": "application/json; charset=utf-8",
        "Cache-Control": "no-store",
      });
      res.write('{"data":{"symbols":{');
      const ticker = setInterval(() => res.write(" "), 1000);
      endless.add(ticker);
      res.on("close", () => {
        clearInterval(ticker);
        endless.delete(ticker);
      });
      return finish({ ...entry, status: 200, quirk: "endless-body" }, started);
    }
    if (intercepted) {
      send(res, intercepted.status, intercepted.body, intercepted.headers);
      return finish({ ...entry, status: intercepted.status, quirk: intercepted.kind }, started);
    }

    let reply: Reply;
    const context: RouteContext = { data: dataContext(), apiKey, insights, realistic };
    try {
      reply = await route(context, path, params);
    } catch (error) {
      if (error instanceof HttpError) {
        send(res, error.status, errorBody(error.status, error.message), error.headers);
        return finish({ ...entry, status: error.status }, started);
      }
      if (!quiet) console.error("Sandbox handler failed:", error);
      send(res, 500, errorBody(500, "Internal sandbox error"));
      return finish({ ...entry, status: 500 }, started);
    }
    if (path !== "/" && realistic.emptyBodyEvery > 0 && ++counted % realistic.emptyBodyEvery === 0) {
      send(res, 200, "");
      return finish({ ...entry, status: 200, quirk: "empty-body" }, started);
    }
    if (hostile.echoKey) reply = { ...reply, body: echoKeyInto(path, reply.body, params.get("APIKey") ?? "") };
    if (hostile.trickyJson.length > 0 && (path === "/flows/top/" || path.startsWith("/data/api/"))) {
      const tricky = trickyInto(path, reply.body, hostile.trickyJson);
      if (tricky !== reply.body) {
        entry.quirk = "tricky-json";
        reply = { ...reply, body: tricky };
      }
    }
    if (hostile.hugeBodyBytes !== null && reply.body.startsWith("{")) {
      await sendPadded(res, reply.status, reply.body, hostile.hugeBodyBytes);
      return finish({ ...entry, status: reply.status, quirk: "huge-body" }, started);
    }
    if (draw.badJson) {
      // Cut mid-body so the JSON cannot parse; Content-Length matches what is sent.
      send(res, 200, reply.body.slice(0, Math.max(1, Math.floor(reply.body.length / 2))));
      return finish({ ...entry, status: 200, fault: "bad-json" }, started);
    }
    send(res, reply.status, reply.body);
    finish({ ...entry, status: reply.status, points: reply.points }, started);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!quiet) console.error("Sandbox request failed:", error);
      if (!res.headersSent) send(res, 500, errorBody(500, "Internal sandbox error"));
    });
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : Number(options.port);
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const ticker of endless) clearInterval(ticker);
        endless.clear();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
    setFaults: (partial) => faults.set(partial),
    setLatency: (ms) => {
      latency = nonNegative("latency", ms);
    },
    setRevision: (n) => {
      revision = nonNegative("revision", n);
    },
    setToday: (today) => {
      fixedToday = todayOption(today);
    },
    stats: () => log.stats(),
    requestLog: () => log.log(),
    nextRequest: (matches, what, timeoutMs = 10_000) => log.next(matches, what, timeoutMs),
    reset() {
      log.clear();
      faults.reset(options.faults ?? {});
      latency = startLatency;
      revision = options.revision ?? 0;
      fixedToday = todayOption(options.today);
      realistic = realisticOptions(options.realistic);
      hostile = hostileOptions(options.hostile);
      counted = 0;
    },
    resetInsightCache: () => insights.clear(),
    setHostile(partial) {
      hostile = hostileOptions({ ...hostile, ...partial });
    },
    setRealistic(value) {
      realistic = realisticOptions(value);
    },
  };
}
