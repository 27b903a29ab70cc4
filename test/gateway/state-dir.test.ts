/**
 * A local user who prepares a path before the gateway starts gets nothing:
 * not the firm key (a listener of theirs on the service tier's socket), not a
 * request, not a write (nginx runs as root and opens its logs as root). The
 * "other user" is a second uid that owns no account (a spare number): the
 * test plays it with child processes started under that uid. Needs root
 * (to start as another uid, and to be the gateway nginx runs as root for):
 * without it the suite is skipped and says why.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { startSandbox, type SandboxHandle } from "../../sandbox/server";
import { defaultStateDir, startGateway, type GatewayHandle } from "../../scripts/lib/gateway";
import { DIST } from "../../harness/bundle";
import { describeGateway, NGINX } from "../support/gateway";

const IS_ROOT = process.getuid?.() === 0;

/** A uid and gid no account uses: the other local user. */
function spareId(): number {
  const taken = new Set(
    readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .map((line) => Number(line.split(":")[2])),
  );
  for (let id = 40_000; id < 41_000; id++) if (!taken.has(id)) return id;
  throw new Error("no spare uid between 40000 and 41000");
}
const OTHER = IS_ROOT ? spareId() : -1;

const describeAsRoot: jest.Describe = IS_ROOT
  ? describeGateway
  : (((name: string, fn: jest.EmptyFunction) => {
      console.warn(`SKIPPED "${name}": it needs root (to play a second local user, and to start nginx as root).`);
      return describe.skip(name, fn);
    }) as unknown as jest.Describe);

/** A command run as the other user; throws with its stderr when it fails. */
function asOther(command: string, ...args: string[]): void {
  const result = spawnSync(command, args, { uid: OTHER, gid: OTHER, encoding: "utf8", env: { PATH: "/usr/bin:/bin" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} as uid ${OTHER}: ${result.stderr}`);
}

/** The other user's listener on a Unix socket: records each request it receives (the first line and every header). */
interface Listener {
  requests: string[];
  /** Listens on `socketPath` (as the other user); resolves once listening. */
  listen(socketPath: string): Promise<void>;
  /** Resolves with the first request received, or rejects after `timeoutMs`. */
  firstRequest(timeoutMs: number): Promise<string>;
  close(): void;
}

const LISTENER = `
const net = require("net");
const rl = require("readline").createInterface({ input: process.stdin });
rl.on("line", (socketPath) => {
  net.createServer((c) => {
    let text = "";
    c.on("data", (d) => {
      text += d;
      if (!text.includes("\\r\\n\\r\\n")) return;
      process.stdout.write(JSON.stringify({ request: text }) + "\\n");
      c.end('HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: 11\\r\\nConnection: close\\r\\n\\r\\n{"data":{}}');
    });
  }).listen(socketPath, () => {
    // Anyone may connect (nginx's workers run as another account).
    require("fs").chmodSync(socketPath, 0o777);
    process.stdout.write(JSON.stringify({ listening: socketPath }) + "\\n");
  });
});`;

function otherUsersListener(): Listener {
  const child: ChildProcess = spawn(process.execPath, ["-e", LISTENER], {
    uid: OTHER,
    gid: OTHER,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const requests: string[] = [];
  const waiting: ((line: { listening?: string; request?: string }) => void)[] = [];
  createInterface({ input: child.stdout! }).on("line", (text) => {
    const line = JSON.parse(text) as { listening?: string; request?: string };
    if (line.request) requests.push(line.request);
    for (const wake of waiting.splice(0)) wake(line);
  });
  const next = (
    what: string,
    timeoutMs: number,
    matches: (line: { listening?: string; request?: string }) => boolean,
  ) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the other user's listener: no ${what} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const wake = (line: { listening?: string; request?: string }) => {
        if (matches(line)) {
          clearTimeout(timer);
          resolve();
        } else waiting.push(wake);
      };
      waiting.push(wake);
    });
  return {
    requests,
    async listen(socketPath) {
      const listening = next("listening", 10_000, (line) => line.listening === socketPath);
      child.stdin!.write(`${socketPath}\n`);
      await listening;
    },
    async firstRequest(timeoutMs) {
      if (requests.length === 0) await next("request", timeoutMs, (line) => line.request !== undefined);
      return requests[0];
    },
    close: () => child.kill(),
  };
}

/** Every path under `dir` (directories end in "/"), sorted; symbolic links are not followed. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      const isDir = lstatSync(full).isDirectory();
      out.push(`${prefix}${name}${isDir ? "/" : ""}`);
      if (isDir) walk(full, `${prefix}${name}/`);
    }
  };
  walk(dir, "");
  return out;
}

let sandbox: SandboxHandle;
let base: string;
let keyFile: string;
const key = `md-firm-${randomUUID()}`;

function start(stateDir: string): Promise<GatewayHandle> {
  return startGateway({ upstream: sandbox.url, port: 0, distDir: DIST, nginx: NGINX ?? undefined, keyFile, stateDir });
}

/** What a start in a prepared path gave: the runner's refusal, or (it started) what the other user got. */
interface Outcome {
  refused: string | null;
  /** Requests the other user's listener received (with the firm key, if any). */
  received: string[];
}

describeAsRoot("a state directory another local user prepared (nginx as root)", () => {
  beforeAll(async () => {
    sandbox = await startSandbox({ quiet: true, apiKey: key });
    // A shared, sticky, world-writable directory, as /tmp is.
    base = mkdtempSync(path.join(os.tmpdir(), "md-gw-shared-"));
    chmodSync(base, 0o1777);
    const secrets = mkdtempSync(path.join(os.tmpdir(), "md-gw-key-"));
    keyFile = path.join(secrets, "firm.key");
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(base, { recursive: true, force: true });
    rmSync(path.dirname(keyFile), { recursive: true, force: true });
  });

  it("created first, with a listener on the service tier's socket: refused, nothing written, no request", async () => {
    const stateDir = path.join(base, "md-gateway-created-first");
    asOther("mkdir", "-m", "0777", stateDir);
    asOther("mkdir", "-m", "0777", path.join(stateDir, "temp"));
    const listener = otherUsersListener();
    const outcome: Outcome = { refused: null, received: [] };
    let before: string[] = [];
    try {
      await listener.listen(path.join(stateDir, "temp", "service-tier.sock"));
      before = tree(stateDir);
      let gateway: GatewayHandle | null = null;
      try {
        gateway = await start(stateDir);
      } catch (error) {
        outcome.refused = String(error);
      }
      if (gateway) {
        // It started in the other user's directory: they own it, so they swap temp/ for their own and listen again.
        try {
          asOther("mv", path.join(stateDir, "temp"), path.join(stateDir, "temp.taken"));
          asOther("mkdir", path.join(stateDir, "temp"));
          await listener.listen(path.join(stateDir, "temp", "service-tier.sock"));
          await fetch(`${gateway.url}/api/data/api/PRICE/?symbols=eth&startDate=2024-01-01&endDate=2024-01-02`, {
            signal: AbortSignal.timeout(10_000),
          }).catch(() => null);
          await listener.firstRequest(10_000).catch(() => null);
        } finally {
          await gateway.stop();
        }
      }
    } finally {
      listener.close();
    }
    // Named, never printed: a failing run would show the request's line.
    outcome.received = listener.requests.map((text) => text.split(key).join("<the firm key>"));
    expect({ ...outcome, written: tree(stateDir).filter((entry) => !before.includes(entry)) }).toEqual({
      refused: expect.stringContaining(`${stateDir} belongs to uid ${OTHER}`),
      received: [],
      written: [],
    });
  });

  it("a symbolic link at its path: refused, nothing written where it points", async () => {
    const theirs = path.join(base, "theirs-link-target");
    const stateDir = path.join(base, "md-gateway-symlink");
    asOther("mkdir", "-m", "0777", theirs);
    asOther("ln", "-s", theirs, stateDir);
    let refused: string | null = null;
    await start(stateDir).then(
      (gateway) => gateway.stop(),
      (error: unknown) => (refused = String(error)),
    );
    expect({ refused, written: tree(theirs) }).toEqual({
      refused: expect.stringContaining(`${stateDir} is a symbolic link`),
      written: [],
    });
  });

  it("a parent directory the other user owns: refused, nothing created in it", async () => {
    const parent = path.join(base, "theirs-parent");
    asOther("mkdir", "-m", "0755", parent);
    const stateDir = path.join(parent, "state");
    let refused: string | null = null;
    await start(stateDir).then(
      (gateway) => gateway.stop(),
      (error: unknown) => (refused = String(error)),
    );
    expect({ refused, written: tree(parent) }).toEqual({
      refused: expect.stringContaining(`${parent} belongs to uid ${OTHER}`),
      written: [],
    });
  });

  it("a symbolic link for access.log: refused, the file it points at untouched", async () => {
    const stateDir = path.join(base, "md-gateway-log-link");
    const first = await start(stateDir);
    await first.stop();
    const victim = path.join(base, "victim.txt");
    writeFileSync(victim, "");
    rmSync(path.join(stateDir, "logs", "access.log"), { force: true });
    symlinkSync(victim, path.join(stateDir, "logs", "access.log"));
    let refused: string | null = null;
    await start(stateDir).then(
      async (gateway) => {
        await fetch(`${gateway.url}/taskpane.html`).then((r) => r.text());
        await gateway.stop();
      },
      (error: unknown) => (refused = String(error)),
    );
    expect({ refused, victim: readFileSync(victim, "utf8") }).toEqual({
      refused: expect.stringContaining(`${path.join(stateDir, "logs", "access.log")} is a symbolic link`),
      victim: "",
    });
  });

  it("one whose parents it creates too: the workers still reach their directories (the service tier's socket)", async () => {
    const stateDir = path.join(base, "made", "by", "the-runner", "state");
    const gateway = await start(stateDir);
    try {
      const response = await fetch(
        `${gateway.url}/api/data/api/PRICE/?symbols=eth&startDate=2024-01-03&endDate=2024-01-04`,
      );
      expect([response.status, lstatSync(path.join(base, "made")).mode & 0o777]).toEqual([200, 0o755]);
      await response.text();
    } finally {
      await gateway.stop();
    }
  });

  it("a state directory it created is used again on the next start", async () => {
    const stateDir = path.join(base, "md-gateway-again");
    const first = await start(stateDir);
    await first.stop();
    const again = await start(stateDir);
    await again.stop();
    expect(lstatSync(stateDir).uid).toBe(0);
  });
});

describe("the default state directory", () => {
  it("is outside the world-writable temp directory: /var/lib for root, the user's own state directory otherwise", () => {
    expect(defaultStateDir(8080, { uid: 0, env: {}, home: "/root" })).toBe("/var/lib/md-gateway/8080");
    expect(defaultStateDir(8080, { uid: 1000, env: {}, home: "/home/ada" })).toBe(
      "/home/ada/.local/state/md-gateway/8080",
    );
    expect(defaultStateDir(8080, { uid: 1000, env: { XDG_STATE_HOME: "/srv/ada-state" }, home: "/home/ada" })).toBe(
      "/srv/ada-state/md-gateway/8080",
    );
    // A relative XDG_STATE_HOME is ignored, as the XDG Base Directory specification says.
    expect(defaultStateDir(8080, { uid: 1000, env: { XDG_STATE_HOME: "state" }, home: "/home/ada" })).toBe(
      "/home/ada/.local/state/md-gateway/8080",
    );
  });
});
