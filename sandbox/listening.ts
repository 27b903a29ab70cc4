/** The sandbox's server on the network: listening, the URL clients use, and a close that leaves nothing open. */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { OpenTimers } from "./open-timers";

export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** `http://<host>:<port>`, where a wildcard host is reached on 127.0.0.1 and an IPv6 host is bracketed. */
export function urlOf(host: string, port: number): string {
  const urlHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  return `http://${urlHost}:${port}`;
}

/** The server's open sockets, kept so close() can destroy keep-alive ones too. */
export function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return sockets;
}

/** Stops listening, ends every timer and destroys every open socket; called again, the same promise. */
export function closer(server: Server, sockets: Set<Socket>, timers: OpenTimers): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= new Promise<void>((resolve) => {
      timers.clear();
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };
}
