/**
 * Servers on this machine: listen on a free port of 127.0.0.1 (port 0, so
 * suites and benches never collide) and close without waiting for idle
 * keep-alive connections. Used by the static server for dist/ and the test
 * suites' fixture services (test/support/local-server.ts).
 */
import type http from "node:http";
import type { AddressInfo } from "node:net";

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
