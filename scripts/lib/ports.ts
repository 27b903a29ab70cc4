/**
 * Before `npm start` (or `npm run gateway`) binds its ports: is each one free,
 * and if not, which process holds it, said the same way by both. The owner comes from `ss -ltnpH` when it is installed and
 * sees the process, else from Linux's /proc (the listening socket's inode in
 * /proc/net/tcp{,6}, then the process whose file descriptors include it).
 * Elsewhere, or without permission, the message names only the port.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import net from "node:net";

export interface PortOwner {
  pid: number;
  /** The process's command line, shortened; "" when it cannot be read. */
  command: string;
}

/** Whether `host:port` can be listened on right now (the probe closes at once). */
export function isPortFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE" || error.code === "EACCES") resolve(false);
      else reject(error);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

function commandOf(pid: number): string {
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    return text.length > 120 ? `${text.slice(0, 117)}…` : text;
  } catch {
    return "";
  }
}

/** `users:(("node",pid=1234,fd=22))` in `ss -ltnpH 'sport = :<port>'`. */
export function ownerFromSs(output: string): PortOwner | null {
  const match = /users:\(\("([^"]*)",pid=(\d+)/.exec(output);
  if (!match) return null;
  const pid = Number(match[2]);
  return { pid, command: commandOf(pid) || match[1] };
}

/** Inodes of the sockets listening on `port` in a /proc/net/tcp or tcp6 table. */
export function listeningInodes(table: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return table
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length > 9 && fields[1].endsWith(`:${hexPort}`) && fields[3] === "0A")
    .map((fields) => fields[9])
    .filter((inode) => inode !== "0");
}

function ownerFromProc(port: number): PortOwner | null {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    try {
      for (const inode of listeningInodes(readFileSync(table, "utf8"), port)) inodes.add(`socket:[${inode}]`);
    } catch {
      // no such table (not Linux, or no IPv6)
    }
  }
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`)))
          return { pid: Number(pid), command: commandOf(Number(pid)) };
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}

/** The process listening on `port`, when this machine lets us find out. */
export function portOwner(port: number): PortOwner | null {
  try {
    const output = execFileSync("ss", ["-ltnpH", `sport = :${port}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2000,
    });
    const owner = ownerFromSs(output);
    if (owner) return owner;
  } catch {
    // no ss here
  }
  return ownerFromProc(port);
}

export interface PortNeed {
  port: number;
  host: string;
  /** What runs there: "the dev server (https://localhost:3000)". */
  role: string;
  /** How to put it on another port, as typed: "MD_DEV_SERVER_PORT=3100", "--port 8180". */
  moveTo(port: number): string;
}

/** The program that needs the ports, for the message. */
export interface PortUser {
  /** As typed: "npm start". */
  command: string;
  /** The command line again with `moves` (each taken port's moveTo): "MD_DEV_SERVER_PORT=3100 npm start". */
  rerun(moves: string[]): string;
  /** Said after it, or "": "(Excel's manifest expects …)". */
  note: string;
}

export const NPM_START: PortUser = {
  command: "npm start",
  rerun: (moves) => `${moves.join(" ")} npm start`,
  note: "(then sideload the manifest the dev server serves, which names its port: the repository's manifest.xml names 3000)",
};

/** One sentence per taken port, and what to do about it. */
export function portsTakenMessage(
  taken: ReadonlyArray<PortNeed & { owner: PortOwner | null }>,
  user: PortUser = NPM_START,
): string {
  const lines = taken.map(({ port, role, owner }) => {
    const by = owner ? ` by process ${owner.pid}${owner.command ? ` (${owner.command})` : ""}` : "";
    return `Port ${port}, for ${role}, is already in use${by}.`;
  });
  const pids = [...new Set(taken.flatMap(({ owner }) => (owner ? [owner.pid] : [])))];
  const stop = pids.length
    ? `stop it (Ctrl+C in its terminal, or kill ${pids.join(" ")})`
    : "stop the program using it";
  const moved = user.rerun(taken.map((need) => need.moveTo(need.port + 100)));
  return [
    `${user.command} cannot start: a port it needs is taken.`,
    ...lines.map((line) => `  ${line}`),
    `Is another ${user.command} running? If so, use that one or ${stop}.`,
    `Or run on ${taken.length === 1 ? "another port" : "other ports"}: ${moved}${user.note ? ` ${user.note}` : ""}.`,
  ].join("\n");
}
