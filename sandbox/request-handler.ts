/**
 * One request's way through the sandbox, in layers: the method (a CORS
 * preflight; the API is read-only), the latency, an injected fault, a failure
 * switch that answers in place of the endpoint, the endpoint, then the
 * shaping of its reply (realistic mode's empty bodies, the hostile switches,
 * a cut body). Each layer either answers, saying how for the request log, or
 * lets the request through to the next.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type FaultDraw, faultAnswer, type FaultInjector, type FaultKind } from "./faults";
import { gzipSync } from "node:zlib";
import { encodedKeyReply, keyHeaders } from "./encoded-key";
import { type HostileOptions, hostileReply, intercept, leakyReply } from "./hostile";
import { errorBody, HttpError } from "./http-error";
import type { InsightFeeds } from "./insight-feeds";
import type { OpenTimers } from "./open-timers";
import type { RealisticOptions } from "./realistic";
import { consoleLine, type RequestLog, redactQuery, type RequestLogEntry } from "./request-log";
import { sendJson, sendPadded, sendPreflight, startEndlessBody } from "./responses";
import { type Reply, route, type RouteContext } from "./routes";
import type { DataContext } from "./series";

/** What the handle's setters change while the sandbox runs. */
export interface SandboxState {
  latency: number;
  revision: number;
  /** One day revised (SandboxOptions.reviseDay); null: none. */
  revisedDay: { day: number; scale: number } | null;
  /** The fixed last day with data; null: the current UTC date. */
  fixedToday: number | null;
  realistic: RealisticOptions;
  hostile: HostileOptions;
  /** Requests counted for the realistic mode's every-Nth empty body. */
  counted: number;
}

export interface RequestHandlerParts {
  apiKey: string;
  quiet: boolean;
  state: SandboxState;
  faults: FaultInjector;
  log: RequestLog;
  insights: InsightFeeds;
  dataContext: () => DataContext;
  timers: OpenTimers;
}

type LogEntry = Omit<RequestLogEntry, "ms">;
/** How a layer answered, for the log (the rest of the entry is the request's). */
type Answered = Pick<LogEntry, "status"> & Partial<Pick<LogEntry, "points" | "fault" | "quirk">>;

interface Arrival {
  raw: string;
  path: string;
  search: string;
  /** The log entry but for how it was answered. */
  entry: Omit<LogEntry, "status">;
}

export function requestHandler(parts: RequestHandlerParts) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const arrival = arrivalOf(req);
    const answered = await answer(parts, req, res, arrival);
    const complete = { ...arrival.entry, ...answered, ms: Math.round(performance.now() - started) };
    parts.log.record(complete);
    if (!parts.quiet) console.log(consoleLine(complete));
  };
}

function arrivalOf(req: IncomingMessage): Arrival {
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
  return { raw, path, search, entry };
}

async function answer(
  parts: RequestHandlerParts,
  req: IncomingMessage,
  res: ServerResponse,
  { raw, path, search, entry }: Arrival,
): Promise<Answered> {
  if (entry.method === "OPTIONS") {
    sendPreflight(req, res);
    return { status: 204 };
  }
  if (entry.method !== "GET") {
    const message = `Method ${entry.method} is not allowed: the API is read-only, use GET`;
    sendJson(res, 405, errorBody(405, message), { Allow: "GET, OPTIONS" });
    return { status: 405 };
  }
  if (parts.state.latency > 0) await parts.timers.sleep(parts.state.latency);
  const draw = parts.faults.draw();
  const fault = answerFault(req, res, draw, parts.faults);
  if (fault) return fault;
  const params = new URLSearchParams(search);
  const intercepted = answerInterception(parts, res, path, raw, params);
  if (intercepted) return intercepted;
  const routed = await answerRoute(parts, res, path, params);
  if ("answered" in routed) return routed.answered;
  return answerReply(parts, req, res, { path, raw }, params, routed.reply, draw);
}

function answerFault(
  req: IncomingMessage,
  res: ServerResponse,
  draw: FaultDraw,
  faults: FaultInjector,
): Answered | null {
  const fault = faultAnswer(draw, faults.settings.retryAfterSeconds);
  if (fault === null) return null;
  if (fault.fault === "drop") {
    req.socket.destroy();
    return { status: "dropped", fault: "drop" };
  }
  sendJson(res, fault.status, fault.body, fault.headers);
  return { status: fault.status, fault: fault.fault };
}

function answerInterception(
  parts: RequestHandlerParts,
  res: ServerResponse,
  path: string,
  raw: string,
  params: URLSearchParams,
): Answered | null {
  const intercepted = intercept(parts.state.hostile, path, raw, params);
  if (intercepted === "endless") {
    startEndlessBody(res, parts.timers);
    return { status: 200, quirk: "endless-body" };
  }
  if (!intercepted) return null;
  sendJson(res, intercepted.status, intercepted.body, intercepted.headers);
  return { status: intercepted.status, quirk: intercepted.kind };
}

/** The endpoint's reply, or its refusal already answered. */
async function answerRoute(
  parts: RequestHandlerParts,
  res: ServerResponse,
  path: string,
  params: URLSearchParams,
): Promise<{ reply: Reply } | { answered: Answered }> {
  const { apiKey, insights, state } = parts;
  const context: RouteContext = { data: parts.dataContext(), apiKey, insights, realistic: state.realistic };
  try {
    return { reply: await route(context, path, params) };
  } catch (error) {
    if (error instanceof HttpError) {
      sendJson(res, error.status, errorBody(error.status, error.message), error.headers);
      return { answered: { status: error.status } };
    }
    if (!parts.quiet) console.error("Sandbox handler failed:", error);
    sendJson(res, 500, errorBody(500, "Internal sandbox error"));
    return { answered: { status: 500 } };
  }
}

async function answerReply(
  { state }: RequestHandlerParts,
  req: IncomingMessage,
  res: ServerResponse,
  { path, raw }: { path: string; raw: string },
  params: URLSearchParams,
  endpointReply: Reply,
  draw: FaultDraw,
): Promise<Answered> {
  const { realistic } = state;
  if (path !== "/" && realistic.emptyBodyEvery > 0 && ++state.counted % realistic.emptyBodyEvery === 0) {
    sendJson(res, 200, "");
    return { status: 200, quirk: "empty-body" };
  }
  const { hostile } = state;
  if (hostile.chunkedEmpty) {
    // No Content-Length: Node sends "Transfer-Encoding: chunked" and the empty last chunk.
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
    res.end();
    return { status: 200, quirk: "chunked-empty" };
  }
  const { reply, quirk } = hostileReply(state.hostile, path, params, endpointReply);
  const leaky = leakyReply(hostile, raw, params.get("APIKey") ?? "", req.headers, reply.status, reply.body);
  if (hostile.gzipBody) {
    const zipped = gzipSync(leaky.body);
    res.writeHead(leaky.status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Encoding": "gzip",
      "Content-Length": String(zipped.length),
      ...leaky.headers,
    });
    res.end(zipped);
    return { status: leaky.status, points: reply.points, quirk: "gzip-body" };
  }
  if (hostile.keyInHeaders.length > 0 || hostile.encodedKey !== null) {
    const key = params.get("APIKey") ?? "";
    const encoded = hostile.encodedKey
      ? encodedKeyReply(hostile.encodedKey, key, leaky.body)
      : { bytes: Buffer.from(leaky.body), headers: {} };
    sendJson(res, leaky.status, encoded.bytes, {
      ...leaky.headers,
      ...encoded.headers,
      ...keyHeaders(hostile.keyInHeaders, key),
    });
    return { status: leaky.status, points: reply.points, quirk: hostile.encodedKey ? "encoded-key" : "leaky-headers" };
  }
  if (leaky.quirk || hostile.reflectHeaders.length > 0) {
    sendJson(res, leaky.status, leaky.body, leaky.headers);
    return { status: leaky.status, points: reply.points, quirk: leaky.quirk ?? quirk };
  }
  if (state.hostile.hugeBodyBytes !== null && reply.body.startsWith("{")) {
    await sendPadded(res, reply.status, reply.body, state.hostile.hugeBodyBytes);
    return { status: reply.status, quirk: "huge-body" };
  }
  if (draw.badJson) {
    // Cut mid-body so the JSON cannot parse; Content-Length matches what is sent.
    sendJson(res, 200, reply.body.slice(0, Math.max(1, Math.floor(reply.body.length / 2))));
    return { status: 200, fault: "bad-json", quirk };
  }
  sendJson(res, reply.status, reply.body);
  return { status: reply.status, points: reply.points, quirk };
}
