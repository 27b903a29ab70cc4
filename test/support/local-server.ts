/**
 * Test servers on this machine: listenLocal (harness/local-server.ts: a free
 * port of 127.0.0.1, closed without waiting for idle keep-alive connections),
 * a server that refuses every connection, and passing a request on to a sandbox.
 */
import http from "node:http";
import { listenLocal, type LocalServer } from "../../harness/local-server";
import { useWorld } from "./use-world";

export { listenLocal, type LocalServer };

/**
 * An address that cannot be reached: a server on a free port of 127.0.0.1
 * that closes every connection as it accepts it, so a request fails as it does
 * against a service the network refuses. It keeps its port while the suite
 * runs: a port merely released (where nothing listens) can be taken by
 * another suite's server before the test reaches it, and then answers.
 */
export function startRefusingServer(): Promise<LocalServer> {
  const server = http.createServer();
  server.on("connection", (socket) => socket.destroy());
  return listenLocal(server);
}

/** startRefusingServer for the suite or describe block this is called in. */
export function useRefusingServer(): LocalServer {
  return useWorld("the refusing server (useRefusingServer)", startRefusingServer);
}

/** Answers `req` with what `upstream` (a sandbox URL) answers to the same path and query, with `headers` added. */
export function passOn(
  upstream: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  headers: Record<string, string>,
): void {
  fetch(`${upstream}${req.url ?? "/"}`).then(
    async (answer) => {
      res.writeHead(answer.status, {
        ...headers,
        "Content-Type": answer.headers.get("content-type") ?? "application/json",
      });
      res.end(Buffer.from(await answer.arrayBuffer()));
    },
    () => res.writeHead(502, headers).end(JSON.stringify({ error: "upstream failed" })),
  );
}
