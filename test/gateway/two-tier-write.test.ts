/**
 * `npm run gateway -- --tier edge|cache … --write-config <dir>`: the two-tier
 * layout written for a system nginx (systemd, a container), as the examples in
 * deploy/examples/ run it. A cache node's and an edge's configurations are
 * written by the real CLI, checked with `nginx -t`, and run by real nginx
 * processes (no runner in between) with the sandbox as the service: a request
 * goes edge → cache node → sandbox. The firm key is in the key include IT
 * writes (as for one gateway), never in what the writer writes; the hop's
 * secret is only in hop-secret.conf, 0600.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, watch, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DIST } from "../../harness/bundle";
import { startSandbox, type SandboxHandle } from "../../sandbox/server";
import { freePort, keyInclude, ROOT } from "../../scripts/lib/gateway";
import { describeGateway, filesContaining, filesUnder, NGINX, statusFor } from "../support/gateway";

/** `npm run gateway -- <args>` to its end (a --write-config run exits). */
function gatewayCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/gateway.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, MD_NGINX: NGINX ?? "" },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The state directory the written configuration names, made as the writer's message says (as systemd would). */
function makeStateDir(stateDir: string): void {
  for (const sub of ["logs", "cache", "temp", "jwks"]) mkdirSync(path.join(stateDir, sub), { recursive: true });
  // Written as root, the configuration runs its workers as www-data: they write the cache and temp files.
  if (process.getuid?.() === 0)
    for (const sub of ["cache", "temp", "jwks"]) spawnSync("chown", ["www-data:www-data", path.join(stateDir, sub)]);
}

function nginxTest(confDir: string, stateDir: string): { status: number | null; stderr: string } {
  const result = spawnSync(NGINX!, ["-t", "-p", `${stateDir}/`, "-c", path.join(confDir, "nginx.conf")], {
    encoding: "utf8",
  });
  return { status: result.status, stderr: result.stderr };
}

interface Nginx {
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/**
 * nginx on the written configuration, as the systemd example runs it, once it
 * listens: nginx writes its pid file after it has opened its listening sockets,
 * so the pid file appearing (watched, not polled) is the event.
 */
async function runNginx(confDir: string, stateDir: string, timeoutMs = 15_000): Promise<Nginx> {
  const pidFile = path.join(confDir, "nginx.pid");
  rmSync(pidFile, { force: true });
  const child = spawn(NGINX!, ["-p", `${stateDir}/`, "-c", path.join(confDir, "nginx.conf"), "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  await new Promise<void>((resolve, reject) => {
    const watcher = watch(confDir, () => {
      if (existsSync(pidFile)) done();
    });
    const timer = setTimeout(() => done(new Error(`nginx did not start within ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    void exited.then(() => done(new Error(`nginx exited: ${stderr}`)));
    let settled = false;
    function done(error?: Error) {
      if (settled) return;
      settled = true;
      watcher.close();
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    }
    if (existsSync(pidFile)) done();
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, stderr: () => stderr, stop };
}

describeGateway("npm run gateway -- --tier edge|cache --write-config: the two tiers on a system nginx", () => {
  const key = `md-firm-${randomUUID()}`;
  const hopSecret = randomBytes(32).toString("hex");
  let sandbox: SandboxHandle;
  let work: string;
  let secrets: string;
  let cachePort: number;
  let edgePort: number;
  const dirs = { cacheConf: "", cacheState: "", edgeConf: "", edgeState: "" };
  const running: Nginx[] = [];
  const written: { cache?: ReturnType<typeof gatewayCli>; edge?: ReturnType<typeof gatewayCli> } = {};

  beforeAll(async () => {
    sandbox = await startSandbox({ quiet: true, apiKey: key });
    work = mkdtempSync(path.join(os.tmpdir(), "md-two-tier-write-"));
    // nginx's workers (www-data, when written as root) reach the state directories through it.
    chmodSync(work, 0o755);
    secrets = path.join(work, "secrets");
    mkdirSync(secrets, { mode: 0o700 });
    // What IT puts on a cache node: the firm key include (nginx syntax, 0600, as for one gateway) and the hop secret.
    writeFileSync(path.join(secrets, "firm-key.conf"), keyInclude(key), { mode: 0o600 });
    writeFileSync(path.join(secrets, "hop.secret"), `${hopSecret}\n`, { mode: 0o600 });
    cachePort = await freePort();
    edgePort = await freePort();
    Object.assign(dirs, {
      cacheConf: path.join(work, "cache", "conf"),
      cacheState: path.join(work, "cache", "state"),
      edgeConf: path.join(work, "edge", "conf"),
      edgeState: path.join(work, "edge", "state"),
    });
    written.cache = gatewayCli([
      "--tier=cache",
      `--upstream=${sandbox.url}`,
      `--key-include=${path.join(secrets, "firm-key.conf")}`,
      `--hop-secret-file=${path.join(secrets, "hop.secret")}`,
      `--port=${cachePort}`,
      `--write-config=${dirs.cacheConf}`,
      `--state-dir=${dirs.cacheState}`,
      `--dist=${DIST}`,
    ]);
    written.edge = gatewayCli([
      "--tier=edge",
      `--cache-nodes=127.0.0.1:${cachePort}`,
      `--hop-secret-file=${path.join(secrets, "hop.secret")}`,
      `--port=${edgePort}`,
      `--write-config=${dirs.edgeConf}`,
      `--state-dir=${dirs.edgeState}`,
      `--dist=${DIST}`,
    ]);
  }, 150_000);

  afterAll(async () => {
    await Promise.all(running.map((n) => n.stop()));
    await sandbox?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("writes a cache node's and an edge's configuration, each passing nginx -t", () => {
    expect([written.cache?.status, written.cache?.stderr]).toEqual([0, ""]);
    expect([written.edge?.status, written.edge?.stderr]).toEqual([0, ""]);
    makeStateDir(dirs.cacheState);
    makeStateDir(dirs.edgeState);
    for (const [conf, state] of [
      [dirs.cacheConf, dirs.cacheState],
      [dirs.edgeConf, dirs.edgeState],
    ]) {
      const result = nginxTest(conf, state);
      expect(result.stderr).toMatch(/syntax is ok/);
      expect(result.stderr).toMatch(/test is successful/);
      expect(result.status).toBe(0);
    }
  });

  it("run by nginx itself, edge → cache node → the service answers, and the cache node refuses anyone without the hop's secret", async () => {
    running.push(await runNginx(dirs.cacheConf, dirs.cacheState));
    running.push(await runNginx(dirs.edgeConf, dirs.edgeState));
    const url = `/api/data/api/PRICE/?symbols=eth&startDate=2024-01-01&endDate=2024-01-31`;
    const from = sandbox.requestLog().length;
    const first = await fetch(`http://127.0.0.1:${edgePort}${url}`, { signal: AbortSignal.timeout(30_000) });
    const body = await first.text();
    expect([first.status, first.headers.get("x-cache-status")]).toEqual([200, "MISS"]);
    expect(JSON.parse(body)).toHaveProperty("data");
    const again = await fetch(`http://127.0.0.1:${edgePort}${url}`, { signal: AbortSignal.timeout(30_000) });
    await again.text();
    expect([again.status, again.headers.get("x-cache-status")]).toEqual([200, "HIT"]);
    // Asked once, with the firm key the cache node added (the sandbox accepts only it).
    expect(
      sandbox
        .requestLog()
        .slice(from)
        .map((entry) => entry.path),
    ).toEqual(["/data/api/PRICE/"]);
    // Straight to the cache node, without the hop's secret: refused.
    expect(await statusFor(`http://127.0.0.1:${cachePort}${url}`, { Host: "md-cache-tier" })).toBe(403);
    expect(sandbox.requestLog().length).toBe(from + 1);
  }, 60_000);

  it("the firm key is in no file the writer wrote, and the hop's secret only in hop-secret.conf, 0600", () => {
    const written = [dirs.cacheConf, dirs.edgeConf];
    expect(filesContaining([...written, dirs.edgeState], key)).toEqual([]);
    expect(filesContaining([...written, dirs.cacheState, dirs.edgeState], hopSecret).sort()).toEqual(
      [path.join(dirs.cacheConf, "hop-secret.conf"), path.join(dirs.edgeConf, "hop-secret.conf")].sort(),
    );
    const modes = written.flatMap(filesUnder).map((file) => [path.relative(work, file), statSync(file).mode & 0o777]);
    // Everything else is world-readable (IT reads it, nginx -t reads it); the two secrets' includes are not.
    expect(modes.filter(([, mode]) => mode !== 0o644 && mode !== 0o600)).toEqual([]);
    expect(modes.filter(([, mode]) => mode === 0o600).map(([file]) => file)).toEqual(
      expect.arrayContaining(["cache/conf/hop-secret.conf", "edge/conf/hop-secret.conf"]),
    );
    // An edge names no key include of the firm's: its key include says only that the mode is firm.
    expect(filesContaining([dirs.edgeConf], "firm-key.conf")).toEqual([]);
  });
});
