/**
 * A service that accepts connections and never answers, for the pane's
 * bounded waits: requests whose path `holds` names are accepted and left open
 * (no status, no byte) until the server closes; every other request is passed
 * to a real sandbox, so the rest of the pane works as usual around the silence.
 * And an address nothing listens on, for a refused connection.
 */
import http from "node:http";
import net from "node:net";
import { listenLocal, passOn, type LocalServer } from "./local-server";
import { useWorld } from "./use-world";

export interface SilentServer extends LocalServer {
  /** Paths held open so far, in order (query strings dropped: they carry the key). */
  held: string[];
}

const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "Retry-After" };

/** Holds the requests whose path `holds` accepts; proxies everything else to `upstream` (a sandbox URL). */
export async function startSilentServer(upstream: string, holds: (path: string) => boolean): Promise<SilentServer> {
  const held: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        ...CORS,
        "Access-Control-Allow-Methods": "GET, OPTIONS",
        "Access-Control-Allow-Headers": "*",
      });
      res.end();
      return;
    }
    if (holds(url.pathname)) {
      // Never answered: closing the server (closeAllConnections) ends it.
      held.push(url.pathname);
      return;
    }
    passOn(upstream, req, res, CORS);
  });
  return { ...(await listenLocal(server)), held };
}

/** startSilentServer for the suite or describe block this is called in, in front of the sandbox `upstream` reads. */
export function useSilentServer(upstream: () => string, holds: (path: string) => boolean): SilentServer {
  return useWorld("the silent server (useSilentServer)", () => startSilentServer(upstream(), holds));
}

/**
 * http://127.0.0.1:<port> of a port nothing listens on: a connection to it is refused at once (RST). The port
 * is one the system just handed out and took back; another server could take it before the test uses it, which
 * the test would see as an answer (and fail loudly), never as a silent pass.
 */
export async function closedPortUrl(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
