/**
 * A second `npm start` while the first still runs: it must say which port is
 * taken, by which process when the machine lets it find out, and what to do —
 * not print a stack trace. Runs scripts/start.ts for real against ports this
 * test occupies (random ones, moved there with MD_DEV_SERVER_PORT and
 * MD_SANDBOX_PORT), and checks the owner lookup on its own.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { isPortFree, listeningInodes, ownerFromSs, portOwner, portsTakenMessage } from "../../scripts/lib/ports";

const ROOT = path.resolve(__dirname, "../..");

function listen(host: string, port = 0): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen({ port, host }, () => resolve(server));
  });
}

const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A port nothing listens on (found by listening on 0, then closing). */
async function freePort(): Promise<number> {
  const server = await listen("127.0.0.1");
  const port = portOf(server);
  await close(server);
  return port;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm start`'s script; kills it if it has not exited within 60 s (it would be starting servers). */
function runStart(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/start.ts"], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGTERM"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("npm start when its ports are taken", () => {
  it("the dev server's port is taken: exit 1 naming the port, this process and what to do, no stack trace", async () => {
    const occupied = await listen("localhost");
    const devPort = portOf(occupied);
    const sandboxPort = await freePort();
    try {
      const run = await runStart({ MD_DEV_SERVER_PORT: String(devPort), MD_SANDBOX_PORT: String(sandboxPort) });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("npm start cannot start: a port it needs is taken.");
      const owner = process.platform === "linux" ? ` by process ${process.pid} (` : "";
      expect(run.stderr).toContain(
        `Port ${devPort}, for the dev server (https://localhost:${devPort}), is already in use${owner}`,
      );
      expect(run.stderr).toContain("Is another npm start running?");
      expect(run.stderr).toContain(`MD_DEV_SERVER_PORT=${devPort + 100} npm start`);
      expect(run.stderr).not.toContain(`Port ${sandboxPort}`);
      expect(run.stderr + run.stdout).not.toMatch(/^\s+at /m);
      // Nothing was started: the sandbox's port is still free.
      expect(await isPortFree(sandboxPort, "127.0.0.1")).toBe(true);
    } finally {
      await close(occupied);
    }
  }, 90_000);

  it("both ports taken: both are named", async () => {
    const dev = await listen("localhost");
    const sandbox = await listen("127.0.0.1");
    try {
      const run = await runStart({ MD_DEV_SERVER_PORT: String(portOf(dev)), MD_SANDBOX_PORT: String(portOf(sandbox)) });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Port ${portOf(dev)}, for the dev server`);
      expect(run.stderr).toContain(
        `Port ${portOf(sandbox)}, for the sandbox API (http://127.0.0.1:${portOf(sandbox)}), is already in use`,
      );
      expect(run.stderr + run.stdout).not.toMatch(/^\s+at /m);
    } finally {
      await close(dev);
      await close(sandbox);
    }
  }, 90_000);
});

describe("finding who holds a port", () => {
  it("isPortFree: false while a server listens, true once it has closed", async () => {
    const server = await listen("127.0.0.1");
    const port = portOf(server);
    expect(await isPortFree(port, "127.0.0.1")).toBe(false);
    await close(server);
    expect(await isPortFree(port, "127.0.0.1")).toBe(true);
  });

  (process.platform === "linux" ? it : it.skip)(
    "portOwner finds this process listening (Linux: ss or /proc)",
    async () => {
      const server = await listen("127.0.0.1");
      try {
        const owner = portOwner(portOf(server));
        expect(owner?.pid).toBe(process.pid);
        expect(owner?.command).toMatch(/node|jest/);
      } finally {
        await close(server);
      }
    },
  );

  it("reads ss's process column", () => {
    expect(ownerFromSs('LISTEN 0 511 127.0.0.1:3000 0.0.0.0:* users:(("node",pid=4242424,fd=22))')).toEqual({
      pid: 4242424,
      command: "node",
    });
    expect(ownerFromSs("LISTEN 0 511 127.0.0.1:3000 0.0.0.0:*")).toBeNull();
  });

  it("reads the listening sockets' inodes of a /proc/net/tcp table", () => {
    const table = [
      "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
      "   0: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 123456 1 0000000000000000 100 0 0 10 0",
      "   1: 0100007F:0BB8 0100007F:9C40 01 00000000:00000000 00:00000000 00000000  1000        0 654321 1 0000000000000000 20 4 30 10 -1",
      "   2: 00000000:0BB9 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 777 1 0000000000000000 100 0 0 10 0",
    ].join("\n");
    expect(listeningInodes(table, 3000)).toEqual(["123456"]);
    expect(listeningInodes(table, 3001)).toEqual(["777"]);
    expect(listeningInodes(table, 3002)).toEqual([]);
  });

  it("without an owner the message names the port and still says what to do", () => {
    const text = portsTakenMessage([
      {
        port: 3000,
        host: "localhost",
        role: "the dev server (https://localhost:3000)",
        moveTo: (to: number) => `MD_DEV_SERVER_PORT=${to}`,
        owner: null,
      },
    ]);
    expect(text).toBe(
      [
        "npm start cannot start: a port it needs is taken.",
        "  Port 3000, for the dev server (https://localhost:3000), is already in use.",
        "Is another npm start running? If so, use that one or stop the program using it.",
        "Or run on another port: MD_DEV_SERVER_PORT=3100 npm start (then sideload the manifest the dev server serves, which names its port: the repository's manifest.xml names 3000).",
      ].join("\n"),
    );
  });
});
