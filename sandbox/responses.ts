/**
 * How the sandbox writes an answer on the wire: JSON with CORS headers and no
 * caching, a CORS preflight, a body padded to a size and streamed, and a body
 * that never ends.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OpenTimers } from "./open-timers";

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  // Without this a browser client cannot read Retry-After on a 429.
  "Access-Control-Expose-Headers": "Retry-After",
};

export function sendJson(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    ...CORS_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(body);
}

export function sendPreflight(req: IncomingMessage, res: ServerResponse) {
  res.writeHead(204, {
    ...CORS_HEADERS,
    "Access-Control-Allow-Methods": "GET, OPTIONS",
    "Access-Control-Allow-Headers": req.headers["access-control-request-headers"] ?? "Content-Type",
    "Access-Control-Max-Age": "600",
    "Content-Length": "0",
  });
  res.end();
}

/** `body` (a JSON object) with a padding field in front, streamed so the whole never sits in memory; stops when the client hangs up. */
export async function sendPadded(res: ServerResponse, status: number, body: string, total: number) {
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
      // Whichever comes first ends the wait and takes the other listener with it: a "close" listener
      // left per drain would pile up on a long body (MaxListenersExceededWarning).
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.once("drain", done);
        res.once("close", done);
      });
  }
  if (!res.destroyed) res.end(tail);
}

/** Headers and the start of a JSON body, then a space a second: the body never ends. */
export function startEndlessBody(res: ServerResponse, timers: OpenTimers) {
  res.writeHead(200, {
    ...CORS_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
  });
  res.write('{"data":{"symbols":{');
  const stop = timers.every(1000, () => res.write(" "));
  res.on("close", stop);
}
