/**
 * An in-memory stand-in for the service, behind a fetch double: unit tests
 * drive the client with it on a FakeClock (the integration tests use the real
 * sandbox over HTTP). The default handler answers series requests with a
 * simple deterministic value per (symbol, metric, date) that tests recompute
 * on their own (`valueOf`).
 */
import type { FetchLike } from "../../src/api/http/transport";
import type { FakeClock } from "./fake-clock";

export interface FakeReply {
  status?: number;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Server think time, on the fake clock. */
  delayMs?: number;
}

export interface FakeRequest {
  url: URL;
  path: string;
  params: URLSearchParams;
  /** Time on the fake clock when the request was sent. */
  at: number;
}

/** "reset": the connection drops; "hang": no answer until aborted. */
export type Handler = (req: FakeRequest) => FakeReply | "reset" | "hang" | Promise<FakeReply | "reset" | "hang">;

export interface FakeService {
  fetch: FetchLike;
  calls: FakeRequest[];
  /** Requests whose signal was aborted by the client. */
  aborted: FakeRequest[];
}

export function fakeService(clock: FakeClock, handler: Handler = seriesHandler()): FakeService {
  const calls: FakeRequest[] = [];
  const aborted: FakeRequest[] = [];
  const fetch: FetchLike = (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      const req: FakeRequest = { url, path: url.pathname, params: url.searchParams, at: clock.now() };
      calls.push(req);
      const abortError = () => new DOMException("This operation was aborted", "AbortError");
      if (init.signal.aborted) {
        aborted.push(req);
        reject(abortError());
        return;
      }
      let timer: unknown;
      init.signal.addEventListener(
        "abort",
        () => {
          aborted.push(req);
          clock.clearTimeout(timer);
          reject(abortError());
        },
        { once: true },
      );
      void Promise.resolve(handler(req)).then((reply) => {
        if (reply === "hang") return;
        if (reply === "reset") {
          const cause = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
          reject(new TypeError("fetch failed", { cause }));
          return;
        }
        const send = () => {
          const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
          resolve(new Response(body, { status: reply.status ?? 200, headers: reply.headers ?? {} }));
        };
        if (reply.delayMs) timer = clock.setTimeout(send, reply.delayMs);
        else send();
      }, reject);
    });
  return { fetch, calls, aborted };
}

/** The value the fake service reports for a pair on a date: independent of the client's code. */
export function valueOf(symbol: string, metric: string, date: string): number {
  let h = 0;
  for (const ch of `${symbol}/${metric}`) h = (h * 31 + ch.charCodeAt(0)) % 9973;
  return h + Date.parse(`${date}T00:00:00Z`) / 86_400_000;
}

export const FAKE_TODAY = "2025-06-15";

/** Every date from start to end inclusive, or the 5 days up to FAKE_TODAY without a start. */
export function datesBetween(start: string | null, end: string | null): string[] {
  const last = Date.parse(`${end ?? FAKE_TODAY}T00:00:00Z`);
  const first = start ? Date.parse(`${start}T00:00:00Z`) : last - 4 * 86_400_000;
  const out: string[] = [];
  for (let t = first; t <= last; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

export interface SeriesHandlerOptions {
  /** Symbols answered with a message string in place of their series. */
  messageFor?: (symbol: string, metric: string) => string | undefined;
  /** Pairs that make the whole request a 400 (the service refusing one bad pair). */
  refuse?: (symbol: string, metric: string) => boolean;
  delayMs?: number;
}

/** Answers `/data/api/<METRICS>/` like the service: daily points over the window, capped at the last 1,000. */
export function seriesHandler(o: SeriesHandlerOptions = {}): Handler {
  return (req) => {
    const match = /\/data\/api\/([^/]+)\/$/.exec(req.path);
    if (!match) return { status: 404, body: { error: "no such path" } };
    const metrics = decodeURIComponent(match[1]!).split(",");
    const symbols = (req.params.get("symbols") ?? "").split(",");
    for (const s of symbols) {
      for (const m of metrics) {
        if (o.refuse?.(s, m)) return { status: 400, body: { error: { message: `Unknown metric ${m} for ${s}` } } };
      }
    }
    const dates = datesBetween(req.params.get("startDate"), req.params.get("endDate")).slice(-1000);
    const out: Record<string, Record<string, unknown>> = {};
    for (const s of symbols) {
      out[s] = {};
      for (const m of metrics) {
        const message = o.messageFor?.(s, m);
        out[s]![m] = message ?? dates.map((date) => ({ date, val: valueOf(s, m, date) }));
      }
    }
    return { body: { data: { symbols: out } }, ...(o.delayMs ? { delayMs: o.delayMs } : {}) };
  };
}

/** Expected points for a pair over a window, computed from the fake service's rule. */
export function expectedPoints(symbol: string, metric: string, start: string | null, end: string | null) {
  return datesBetween(start, end).map((date) => ({ date, val: valueOf(symbol, metric, date) }));
}
