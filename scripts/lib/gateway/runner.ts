/**
 * The team gateway: runs a real nginx with the configuration config-writer.ts
 * fills from deploy/nginx/ (`npm run gateway`, the gateway tests and the
 * benchmark all come here).
 *
 * What is on disk while it runs, and where:
 *   run dir   (private, 0700; on /dev/shm, i.e. memory, when there is one)
 *             nginx.conf, api-proxy.conf, service-tier.conf, series-calendar.conf,
 *             mime.types, service-tier.js, key-pass-through.conf, nginx.pid;
 *             with sign-in sign-in.conf and sign-in.js; in firm mode firm-key.conf
 *             (0600, the key in nginx syntax) exists only until nginx has
 *             read its configuration, then it is deleted. Removed at stop.
 *             Two tiers (tier.ts): an edge has edge-proxy.conf, edge-tier.conf and
 *             edge-key-mode.conf instead of the service tier's files and no key; an edge
 *             and a cache node have hop-secret.conf, deleted as firm-key.conf is.
 *   state dir (the nginx prefix): logs/access.log, logs/error.log, cache/,
 *             jwks/ (the identity provider's keys), temp/ (and the service
 *             tier's socket, temp/service-tier.sock). No key in any of them
 *             (see gateway.conf.template).
 * The key is never on a command line (nginx's -g would show it in ps).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { isPortFree, portOwner, portsTakenMessage, type PortUser } from "../ports";
import { renderGatewayConfig } from "./config-writer";
import { checkExposure, serverNamesFor } from "./exposure";
import { isLoopback } from "./loopback";
import { checkFirmKey, keyInclude, type FirmKeyCheck } from "./firm-key";
import { discoverJwksUri } from "./identity-settings";
import { findNginx, findNjsModule, INSTALL_HINT } from "./nginx-install";
import { ROOT, type GatewayHandle, type GatewayOptions, type KeyMode } from "./options";
import { metaCspFromDist, paneCspFromDist, paneFrameRewrite } from "./pane-csp";
import { chooseWorkerUser, prepareStateDir, privateRunDir, type WorkerUser } from "./state-dir";
import {
  CACHE_NODE_CSP,
  CACHE_TIER_HOST,
  HOP_HEADER,
  HOP_INCLUDE,
  hopSecretInclude,
  readHopSecrets,
  tierRate,
  tierServerNames,
} from "./tier";

export async function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** GET /healthz of our own gateway; with --tls-cert its certificate may be self-signed, so it is not verified here. */
function healthStatus(url: string, headers: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const get = url.startsWith("https:") ? httpsGet : httpGet;
    const request = get(url, { rejectUnauthorized: false, timeout: 1000, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? null);
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(null));
  });
}

async function waitForHealth(
  url: string,
  child: ChildProcess,
  stderr: () => string,
  headers: Record<string, string>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}): ${stderr().trim() || "no message"}`);
    }
    if ((await healthStatus(`${url}/healthz`, headers)) === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not answer ${url}/healthz within ${timeoutMs / 1000} s: ${stderr().trim()}`);
}

/** `npm run gateway` for the port-taken message (scripts/lib/ports.ts, as `npm start` says it). */
export const GATEWAY_PORT_USER: PortUser = {
  command: "npm run gateway",
  rerun: (moves) => `npm run gateway -- <the same options> ${moves.join(" ")}`,
  note: "(and the add-in's address, MD_ADDIN_URL, with it)",
};

/** The port-taken message for the gateway's `host:port`, naming what holds it when this machine can tell. */
async function gatewayPortTaken(host: string, port: number, url: string): Promise<string | null> {
  const bindHost = host.replace(/^\[|\]$/g, "");
  if (await isPortFree(port, bindHost)) return null;
  return portsTakenMessage(
    [{ port, host: bindHost, role: `the gateway (${url})`, moveTo: (to) => `--port ${to}`, owner: portOwner(port) }],
    GATEWAY_PORT_USER,
  );
}

/** Everything a start needs, checked before nginx is run. */
interface StartPlan {
  options: GatewayOptions;
  log: (line: string) => void;
  nginx: string;
  distDir: string;
  jsModule: string | null;
  host: string;
  keyMode: KeyMode;
  serverNames: string[];
  identity: (NonNullable<GatewayOptions["identity"]> & { jwksUri: string }) | null;
  /** The key include's text (firm mode), else null. */
  secret: string | null;
  /** hop-secret.conf's text (two tiers), else null. */
  hopInclude: string | null;
  /** What the runner's own /healthz check sends (a cache node admits only requests with the hop's secret). */
  healthHeaders: Record<string, string>;
  keyCheck: FirmKeyCheck;
  urlFor: (port: number) => string;
}

async function planStart(options: GatewayOptions): Promise<StartPlan> {
  const log = options.log ?? (() => {});
  const nginx = options.nginx ?? findNginx();
  if (!nginx) throw new Error(`nginx is not installed. ${INSTALL_HINT}`);
  const distDir = path.resolve(options.distDir ?? path.join(ROOT, "dist"));
  // A cache node serves no file of the add-in (the edges do).
  const servesAddin = options.tier?.role !== "cache";
  if (
    servesAddin &&
    (!existsSync(path.join(distDir, "taskpane.html")) || !existsSync(path.join(distDir, "functions.js")))
  ) {
    throw new Error(`${distDir} holds no built add-in (taskpane.html, functions.js): run npm run build first.`);
  }
  const jsModule = options.jsModule === undefined ? findNjsModule() : options.jsModule;
  if (options.jsModule === undefined && !jsModule)
    throw new Error(`nginx's JavaScript module (njs) is not installed. ${INSTALL_HINT}`);
  const host = options.host ?? "127.0.0.1";
  const tier = options.tier ?? null;
  checkTier(options);
  // Read (and refused when malformed) before the service is asked anything.
  const hopSecrets = tier ? readHopSecrets(tier.hopSecretFile) : null;
  // An edge spends the firm's key through its cache nodes: firm mode, as exposed as one gateway.
  const keyMode: KeyMode = options.keyFile || tier?.role === "edge" ? "firm" : "pass-through";
  // A cache node admits only its edges (the hop's secret), which check who asks.
  const trustedNetwork = options.trustedNetwork || tier?.role === "cache";
  checkExposure({ host, keyMode, identity: options.identity, trustedNetwork });
  const serverNames = serverNamesFor(host, tierServerNames(tier, options.serverNames));
  if (!isLoopback(host) && (host === "0.0.0.0" || host === "::") && !options.serverNames?.length && !tier)
    throw new Error(
      `On ${host} say which host names analysts use (--server-name md.example.com): requests for any other name are refused.`,
    );
  const identity = options.identity
    ? { ...options.identity, jwksUri: options.identity.jwksUri ?? (await discoverJwksUri(options.identity.issuer)) }
    : null;
  const rawKey = options.keyFile ? readFileSync(options.keyFile, "utf8") : null;
  const secret = rawKey === null ? null : keyInclude(rawKey);
  const scheme = options.tls ? "https" : "http";
  const urlFor = (port: number) =>
    `${scheme}://${host === "0.0.0.0" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host}:${port}`;
  // A port that is taken is said once, as npm start says it, not as nginx's bind() error five times over.
  if (options.port) {
    const taken = await gatewayPortTaken(host, options.port, urlFor(options.port));
    if (taken) throw new Error(taken);
  }
  const keyCheck: FirmKeyCheck =
    tier?.role === "edge"
      ? { firmKey: "unchecked", checkedAt: null, detail: "the firm key is on the cache tier" }
      : rawKey === null
        ? { firmKey: "none", checkedAt: null }
        : await checkFirmKey(options.upstream!, rawKey);
  const hopInclude = tier && hopSecrets ? hopSecretInclude(tier, hopSecrets) : null;
  const healthHeaders: Record<string, string> =
    tier?.role === "cache" && hopSecrets ? { [HOP_HEADER]: hopSecrets[0], Host: CACHE_TIER_HOST } : {};
  return {
    options,
    log,
    nginx,
    distDir,
    jsModule,
    host,
    keyMode,
    serverNames,
    identity,
    secret,
    hopInclude,
    healthHeaders,
    keyCheck,
    urlFor,
  };
}

/** What each role needs, and refuses. */
function checkTier(options: GatewayOptions): void {
  const role = options.tier?.role;
  if (role !== "edge" && !options.upstream) throw new Error("The gateway needs the service's address (--upstream).");
  if (role === "edge" && options.keyFile)
    throw new Error("An edge holds no key: the firm key goes to the cache nodes (--tier cache --key-file …).");
  if (role === "cache" && !options.keyFile)
    throw new Error("A cache node adds the firm's key to what it asks the service: it needs --key-file.");
  if (role === "cache" && options.identity)
    throw new Error("A cache node checks no sign-in (the edges do): give the identity settings to the edges.");
}

/** Where one start writes and keeps things. */
interface StartDirs {
  stateDir: string;
  /** The state dir is a fresh temp dir, removed at stop. */
  tempState: boolean;
  confDir: string;
  logsDir: string;
  cacheDir: string;
  worker: WorkerUser | null;
  paneCsp: string;
  paneFrame: { from: string; to: string };
  keyIncludePath: string;
}

function startDirs(plan: StartPlan): StartDirs {
  const { options } = plan;
  const tempState = !options.stateDir;
  const stateDir = path.resolve(options.stateDir ?? mkdtempSync(path.join(os.tmpdir(), "md-gateway-state-")));
  const worker = chooseWorkerUser(plan.distDir, plan.log);
  // Checked (and refused) before anything else is written.
  const { logsDir, cacheDir } = prepareStateDir(stateDir, worker);
  const confDir = privateRunDir();
  return {
    stateDir,
    tempState,
    confDir,
    logsDir,
    cacheDir,
    worker,
    paneCsp: plan.options.tier?.role === "cache" ? CACHE_NODE_CSP : paneCspFromDist(plan.distDir, plan.identity),
    paneFrame: paneFrameRewrite(metaCspFromDist(plan.distDir), plan.identity),
    keyIncludePath: path.join(
      confDir,
      plan.secret
        ? "firm-key.conf"
        : plan.options.tier?.role === "edge"
          ? "edge-key-mode.conf"
          : "key-pass-through.conf",
    ),
  };
}

/** Writes the configuration for `port` (and the key include, in firm mode) into the run dir. */
function writeConfiguration(plan: StartPlan, dirs: StartDirs, port: number): void {
  const { options, host } = plan;
  const files = renderGatewayConfig({
    upstream: options.upstream ?? null,
    tier: options.tier ?? null,
    listen: `${host.includes(":") ? `[${host}]` : host}:${port}`,
    distDir: plan.distDir,
    confDir: dirs.confDir,
    stateDir: dirs.stateDir,
    keyInclude: dirs.keyIncludePath,
    workerUser: dirs.worker ? { user: dirs.worker.user, group: dirs.worker.group } : null,
    jsModule: plan.jsModule,
    serverNames: plan.serverNames,
    identity: plan.identity,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    paneCsp: dirs.paneCsp,
    paneFrame: dirs.paneFrame,
    ...tierRate(options.tier, options),
    ...(options.signInRate !== undefined ? { signInRate: options.signInRate } : {}),
    ...(options.signInBurst !== undefined ? { signInBurst: options.signInBurst } : {}),
    ...(options.times ? { times: options.times } : {}),
    tls: options.tls ?? null,
    keyCheck: plan.keyCheck,
    syslog: options.syslog ?? null,
  });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dirs.confDir, name), text, { mode: 0o600 });
  if (plan.secret) writeFileSync(dirs.keyIncludePath, plan.secret, { mode: 0o600 });
  if (plan.hopInclude) writeFileSync(hopIncludePath(dirs), plan.hopInclude, { mode: 0o600 });
}

const hopIncludePath = (dirs: StartDirs) => path.join(dirs.confDir, HOP_INCLUDE);

/** The includes that hold a secret: deleted once nginx has read its configuration (or failed to start). */
function removeSecrets(plan: StartPlan, dirs: StartDirs): void {
  if (plan.secret) rmSync(dirs.keyIncludePath, { force: true });
  if (plan.hopInclude) rmSync(hopIncludePath(dirs), { force: true });
}

function removeDirs(dirs: StartDirs): void {
  rmSync(dirs.confDir, { recursive: true, force: true });
  if (dirs.tempState) rmSync(dirs.stateDir, { recursive: true, force: true });
}

function spawnNginx(plan: StartPlan, dirs: StartDirs): { child: ChildProcess; stderr: () => string } {
  const child = spawn(
    plan.nginx,
    ["-p", `${dirs.stateDir}/`, "-c", path.join(dirs.confDir, "nginx.conf"), "-g", "daemon off;"],
    {
      stdio: ["ignore", "ignore", "pipe"],
      // Its own process group: Ctrl-C reaches this script, which stops nginx gracefully.
      detached: true,
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, stderr: () => stderr };
}

function handleFor(
  plan: StartPlan,
  dirs: StartDirs,
  child: ChildProcess,
  exited: Promise<number | null>,
  port: number,
): GatewayHandle {
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGQUIT");
        const timer = setTimeout(() => child.kill("SIGTERM"), 5000);
        await exited;
        clearTimeout(timer);
      }
      removeDirs(dirs);
    })());
  return {
    url: plan.urlFor(port),
    port,
    keyMode: plan.keyMode,
    signIn: plan.identity !== null,
    keyCheck: plan.keyCheck,
    stateDir: dirs.stateDir,
    confDir: dirs.confDir,
    logsDir: dirs.logsDir,
    cacheDir: dirs.cacheDir,
    pid: child.pid ?? 0,
    exited,
    stop,
  };
}

function roleWords(plan: StartPlan): string {
  const tier = plan.options.tier;
  if (tier?.role === "cache") return "a cache node of the two-tier layout";
  if (tier?.role === "edge") return `an edge serving ${plan.distDir}, forwarding to ${tier.cacheNodes.join(", ")}`;
  return `serving ${plan.distDir}`;
}

export async function startGateway(options: GatewayOptions): Promise<GatewayHandle> {
  const plan = await planStart(options);
  const { host } = plan;
  const dirs = startDirs(plan);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = options.port || (await freePort(host === "0.0.0.0" ? "127.0.0.1" : host));
    writeConfiguration(plan, dirs, port);
    const { child, stderr } = spawnNginx(plan, dirs);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const url = plan.urlFor(port);
    try {
      await waitForHealth(url, child, stderr, plan.healthHeaders);
    } catch (error) {
      removeSecrets(plan, dirs);
      child.kill("SIGTERM");
      await exited;
      lastError = error;
      // A port someone took between picking and binding: pick another.
      if (!options.port && /Address already in use/.test(String(error))) continue;
      removeDirs(dirs);
      // Taken between the check and nginx binding it: said the same way.
      const taken = /Address already in use/.test(String(error)) ? await gatewayPortTaken(host, port, url) : null;
      throw taken ? new Error(taken) : error;
    }
    // nginx has read its configuration: the key (and the hop's secret) now live only in its memory.
    removeSecrets(plan, dirs);
    plan.log(
      `nginx (pid ${child.pid}) ${roleWords(plan)} on ${url} (${plan.keyMode} key mode${plan.identity ? ", sign-in required" : ""}); logs in ${dirs.logsDir}`,
    );
    return handleFor(plan, dirs, child, exited, port);
  }
  removeDirs(dirs);
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}
