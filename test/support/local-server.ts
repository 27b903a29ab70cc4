/**
 * Test servers on this machine: listen on a free port of 127.0.0.1 (port 0,
 * so suites never collide) and close without waiting for idle keep-alive
 * connections. Used by the static server for dist/ and the fixture services.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { useWorld } from "./use-world";

export interface LocalServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  close(): Promise<void>;
}

/** Starts `server` on a free port of 127.0.0.1. */
export async function listenLocal(server: http.Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

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
