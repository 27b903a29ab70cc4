/**
 * The team gateway: fills deploy/nginx/'s templates and runs a real nginx with
 * them (`npm run gateway`, the gateway tests and the benchmark all come here).
 *
 * What is on disk while it runs, and where:
 *   run dir   (private, 0700; on /dev/shm, i.e. memory, when there is one)
 *             nginx.conf, api-proxy.conf, series-calendar.conf, mime.types,
 *             key-pass-through.conf, nginx.pid; in firm mode firm-key.conf
 *             (0600, the key in nginx syntax) exists only until nginx has
 *             read its configuration, then it is deleted. Removed at stop.
 *   state dir (the nginx prefix): logs/access.log, logs/error.log, cache/,
 *             temp/. No key in any of them (see gateway.conf.template).
 * The key is never on a command line (nginx's -g would show it in ps).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");
export const TEMPLATE_DIR = path.join(ROOT, "deploy", "nginx");

export type KeyMode = "firm" | "pass-through";

/** Cache lifetimes and timeouts, in nginx's time syntax ("1h", "5m", "90s"). */
export interface GatewayTimes {
  catalog: string;
  settled: string;
  recent: string;
  /** proxy_read_timeout (and cache-lock wait) for catalogs and insight feeds. */
  slowTimeout: string;
  timeout: string;
}

export const DEFAULT_TIMES: GatewayTimes = {
  catalog: "1h",
  settled: "1d",
  recent: "5m",
  slowTimeout: "180s",
  timeout: "60s",
};

export interface GatewayConfigInput {
  /** The service's base address: http(s)://host[:port][/path]. */
  upstream: string;
  /** nginx `listen` address, e.g. "127.0.0.1:8080". */
  listen: string;
  distDir: string;
  /** Directory the configuration files are written to (and included from). */
  confDir: string;
  /** nginx prefix: logs/, cache/, temp/. */
  stateDir: string;
  /** Path of the include that sets $md_firm_key (firm-key.conf, or key-pass-through.conf). */
  keyInclude: string;
  /** `user` directive (only when nginx starts as root). */
  workerUser?: { user: string; group: string } | null;
  paneCsp: string;
  rate?: number;
  burst?: number;
  cacheMaxSize?: string;
  times?: Partial<GatewayTimes>;
  tls?: { cert: string; key: string } | null;
  /** First day of the series calendar (default: today, local time, as nginx's $time_iso8601). */
  today?: Date;
  calendarDays?: number;
}

/** The files of one gateway configuration, by name in confDir. */
export type GatewayFiles = Record<string, string>;

/** Fills the templates. Pure: no file is read but the templates and mime.types. */
export function renderGatewayConfig(input: GatewayConfigInput): GatewayFiles {
  const upstream = parseUpstream(input.upstream);
  const times = { ...DEFAULT_TIMES, ...input.times };
  for (const [name, value] of Object.entries(times)) {
    if (!/^\d+(?:ms|s|m|h|d)?$/.test(value))
      throw new Error(`${name} must be an nginx time such as 90s, 5m, 1h or 1d, not "${value}".`);
  }
  const rate = input.rate ?? 20;
  const burst = input.burst ?? 200;
  if (!Number.isInteger(rate) || rate < 1)
    throw new Error(`The rate must be a whole number of requests per second ≥ 1, not ${rate}.`);
  if (!Number.isInteger(burst) || burst < 0) throw new Error(`The burst must be a whole number ≥ 0, not ${burst}.`);
  assertConfigSafe("content-security-policy", input.paneCsp);
  for (const [name, value] of Object.entries({
    dist: input.distDir,
    confDir: input.confDir,
    stateDir: input.stateDir,
    keyInclude: input.keyInclude,
  })) {
    assertConfigSafe(name, value);
  }

  const listen = input.tls ? `${input.listen} ssl` : input.listen;
  const values: Record<string, string> = {
    MD_USER_LINE: input.workerUser
      ? `user ${input.workerUser.user} ${input.workerUser.group};`
      : "# (no `user` directive: nginx runs as the user who starts it)",
    MD_PID_FILE: path.join(input.confDir, "nginx.pid"),
    MD_ERROR_LOG: path.join(input.stateDir, "logs", "error.log"),
    MD_ACCESS_LOG: path.join(input.stateDir, "logs", "access.log"),
    MD_CONF_DIR: input.confDir,
    MD_TEMP_DIR: path.join(input.stateDir, "temp"),
    MD_CACHE_DIR: path.join(input.stateDir, "cache"),
    MD_CACHE_MAX_SIZE: input.cacheMaxSize ?? "1g",
    MD_CALENDAR_FILE: path.join(input.confDir, "series-calendar.conf"),
    MD_LISTEN: input.tls
      ? `${listen};\n        ssl_certificate ${input.tls.cert};\n        ssl_certificate_key ${input.tls.key};\n        ssl_protocols TLSv1.2 TLSv1.3`
      : listen,
    MD_DIST: input.distDir,
    MD_KEY_INCLUDE: input.keyInclude,
    MD_PANE_CSP: input.paneCsp,
    MD_RATE: String(rate),
    MD_BURST: String(burst),
    MD_TTL_CATALOG: times.catalog,
    MD_TTL_SETTLED: times.settled,
    MD_TTL_RECENT: times.recent,
    MD_SLOW_TIMEOUT: times.slowTimeout,
    MD_TIMEOUT: times.timeout,
    MD_UPSTREAM_SCHEME: upstream.scheme,
    MD_UPSTREAM_SERVER: upstream.server,
    MD_UPSTREAM_HOST: upstream.host,
    MD_UPSTREAM_PATH: upstream.path,
    MD_UPSTREAM_TLS:
      upstream.scheme === "https" ? upstreamTlsLines(upstream.hostname) : "# (plain-HTTP upstream: no TLS settings)",
  };
  return {
    "nginx.conf": fill(readFileSync(path.join(TEMPLATE_DIR, "gateway.conf.template"), "utf8"), values),
    "api-proxy.conf": fill(readFileSync(path.join(TEMPLATE_DIR, "api-proxy.conf.template"), "utf8"), values),
    "mime.types": readFileSync(path.join(TEMPLATE_DIR, "mime.types"), "utf8"),
    "key-pass-through.conf": readFileSync(path.join(TEMPLATE_DIR, "key-pass-through.conf"), "utf8"),
    "series-calendar.conf": seriesCalendar(input.today ?? new Date(), input.calendarDays ?? 400),
  };
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{(MD_[A-Z0-9_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`The gateway template uses \${${name}}, which nothing fills.`);
    return value;
  });
}

/** Strings that go into the configuration inside double quotes or as bare words. */
function assertConfigSafe(name: string, value: string): void {
  if (/["\\$;{}\n\r]/.test(value) && name !== "content-security-policy") {
    throw new Error(
      `The ${name} path "${value}" holds a character nginx's configuration cannot take as is (", \\, $, ;, braces).`,
    );
  }
  if (name === "content-security-policy" && /["\\$\n\r]/.test(value)) {
    throw new Error(
      "The pane's Content-Security-Policy holds a character (\", \\, $) that cannot go into an nginx header.",
    );
  }
}

export interface Upstream {
  scheme: "http" | "https";
  /** host:port for the upstream block. */
  server: string;
  /** The Host header. */
  host: string;
  hostname: string;
  /** Base path without a trailing slash ("" or "/v1"). */
  path: string;
}

export function parseUpstream(raw: string): Upstream {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`The upstream "${raw}" is not an address (expected http(s)://host[:port][/path]).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`The upstream must be http:// or https://, not ${url.protocol}`);
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(
      "The upstream address must not carry a query, a fragment or credentials (the key goes in --key-file).",
    );
  }
  const scheme = url.protocol === "https:" ? "https" : "http";
  const port = url.port || (scheme === "https" ? "443" : "80");
  const basePath = url.pathname.replace(/\/+$/, "");
  if (!/^(?:\/[A-Za-z0-9._~-]+)*$/.test(basePath))
    throw new Error(`The upstream's path "${url.pathname}" holds characters the gateway does not pass on.`);
  return {
    scheme,
    server: `${url.hostname}:${port}`,
    host: url.host,
    hostname: url.hostname.replace(/^\[|\]$/g, ""),
    path: basePath,
  };
}

function upstreamTlsLines(hostname: string): string {
  const lines = ["proxy_ssl_server_name on;", `proxy_ssl_name ${hostname};`, "proxy_ssl_protocols TLSv1.2 TLSv1.3;"];
  const bundle = "/etc/ssl/certs/ca-certificates.crt";
  if (existsSync(bundle))
    lines.push("proxy_ssl_verify on;", "proxy_ssl_verify_depth 4;", `proxy_ssl_trusted_certificate ${bundle};`);
  else lines.push(`# ${bundle} is missing: the service's certificate is not verified (install ca-certificates).`);
  return lines.join("\n");
}

// ------------------------------------------------------------------ series calendar

function localIso(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function addDays(date: Date, days: number): Date {
  const copy = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  copy.setDate(copy.getDate() + days);
  return copy;
}

/**
 * A regular expression matching every YYYY-MM-DD string that sorts before
 * `cutoff` (dates in that form sort as text): for each digit, the prefix up to
 * it, a smaller digit there, and any digits after.
 */
export function beforeDatePattern(cutoff: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(cutoff)) throw new Error(`not a YYYY-MM-DD date: ${cutoff}`);
  const digits = cutoff.replace(/-/g, "");
  const alternatives: string[] = [];
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    if (d === 0) continue;
    const parts = [
      ...digits.slice(0, i).split(""),
      d === 1 ? "0" : `[0-${d - 1}]`,
      ...Array<string>(digits.length - 1 - i).fill("\\d"),
    ];
    alternatives.push(`${parts.slice(0, 4).join("")}-${parts.slice(4, 6).join("")}-${parts.slice(6).join("")}`);
  }
  return `(?:${alternatives.join("|")})`;
}

/** Days before today whose data the gateway treats as final (see gateway.conf.template). */
export const SETTLED_AFTER_DAYS = 3;

/**
 * The include of the `$md_series_settled` map: for each day D the gateway may
 * run on, "on D, an endDate before D − 3 days is settled".
 */
export function seriesCalendar(today: Date, days: number): string {
  const lines = [
    "# Generated by scripts/lib/gateway.ts: one line per day the gateway may run on.",
    `# On day D an endDate before D - ${SETTLED_AFTER_DAYS} days is settled (cached ${DEFAULT_TIMES.settled} by default);`,
    "# any other endDate, or none, is recent. Regenerate within a year (any restart of npm run gateway does).",
  ];
  for (let offset = -1; offset < days; offset++) {
    const day = addDays(today, offset);
    const cutoff = localIso(addDays(day, -SETTLED_AFTER_DAYS));
    lines.push(`"~^${localIso(day)}T[^|]*\\|${beforeDatePattern(cutoff)}$" 1;`);
  }
  return `${lines.join("\n")}\n`;
}

// ------------------------------------------------------------------ the pane's CSP

/** The CSP of dist/taskpane.html's <meta>, with connect-src narrowed to the gateway's own origin. */
export function paneCspFromDist(distDir: string): string {
  const html = readFileSync(path.join(distDir, "taskpane.html"), "utf8");
  const match = /http-equiv=["']?Content-Security-Policy["']?\s+content=(["'])(.*?)\1/i.exec(html);
  if (!match)
    throw new Error(
      `${path.join(distDir, "taskpane.html")} has no Content-Security-Policy <meta>: build the add-in first.`,
    );
  return gatewayCsp(match[2]);
}

export function gatewayCsp(metaCsp: string): string {
  const directives = metaCsp
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => (/^connect-src\s/i.test(d) ? "connect-src 'self'" : d));
  if (!directives.some((d) => /^connect-src\s/i.test(d))) directives.push("connect-src 'self'");
  return directives.join("; ");
}

// ------------------------------------------------------------------ the key

/** A key file's content as nginx variables: the query form and, for redaction, the text form. */
export function keyInclude(rawKey: string): string {
  const key = rawKey.trim();
  if (!key) throw new Error("The key file is empty.");
  if (/\s/.test(key) || [...key].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    throw new Error("The key file holds more than one word (spaces or control characters inside the key).");
  if (key.length > 1024) throw new Error("The key file holds more than 1,024 characters: is it the key?");
  const encoded = encodeURIComponent(key);
  // The text form is used only to blank echoes of the key in bodies; it must be safe inside "…".
  const text = /["\\$]/.test(key) ? encoded : key;
  return [
    "# The firm's market-data API key (written by npm run gateway; deleted once nginx has read it).",
    `set $md_firm_key "${encoded}";`,
    `set $md_firm_key_text "${text}";`,
    "",
  ].join("\n");
}

// ------------------------------------------------------------------ finding and installing nginx

export function findNginx(): string | null {
  if (process.env.MD_NGINX && existsSync(process.env.MD_NGINX)) return process.env.MD_NGINX;
  const found = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  for (const candidate of [
    "/usr/sbin/nginx",
    "/usr/local/sbin/nginx",
    "/usr/local/nginx/sbin/nginx",
    "/opt/homebrew/bin/nginx",
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export const INSTALL_HINT =
  "Install nginx: `sudo apt-get install nginx` (Debian, Ubuntu), `sudo dnf install nginx` (Fedora, RHEL), `brew install nginx` (macOS); or set MD_NGINX to its path.";

/**
 * nginx's path, installing Debian's package first when it is missing and this
 * is root on a machine with apt-get (as scripts/test.ts does for Chromium).
 * Returns the reason when there is none.
 */
export function ensureNginx(
  options: { install?: boolean; log?: (line: string) => void } = {},
): { path: string } | { missing: string } {
  const log = options.log ?? console.log;
  const existing = findNginx();
  if (existing) return { path: existing };
  const hasAptGet = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (options.install === false || process.env.MD_NO_NGINX_INSTALL === "1")
    return { missing: `nginx is not installed (installing it is turned off). ${INSTALL_HINT}` };
  if (!hasAptGet) return { missing: `nginx is not installed and this machine has no apt-get. ${INSTALL_HINT}` };
  if (process.getuid?.() !== 0)
    return { missing: `nginx is not installed, and installing it needs root. ${INSTALL_HINT}` };
  log("▶ installing Debian nginx (once): apt-get update -qq && apt-get install -y -qq nginx");
  const result = spawnSync(
    "sh",
    ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null"],
    {
      stdio: "inherit",
    },
  );
  const installed = findNginx();
  if (result.status === 0 && installed) return { path: installed };
  return { missing: `apt-get could not install nginx (exit ${result.status}). ${INSTALL_HINT}` };
}

// ------------------------------------------------------------------ running it

export interface GatewayOptions {
  upstream: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Firm mode: a file holding the firm's key (one line). Without it: pass-through mode. */
  keyFile?: string;
  distDir?: string;
  /** nginx prefix (logs, cache); default a fresh private temp dir, removed at stop. */
  stateDir?: string;
  rate?: number;
  burst?: number;
  times?: Partial<GatewayTimes>;
  tls?: { cert: string; key: string } | null;
  nginx?: string;
  /** Lines about what happens (start, stop); default silent. */
  log?: (line: string) => void;
}

export interface GatewayHandle {
  url: string;
  port: number;
  keyMode: KeyMode;
  stateDir: string;
  confDir: string;
  logsDir: string;
  cacheDir: string;
  pid: number;
  /** Resolves when nginx has exited (after stop(), or on its own). */
  exited: Promise<number | null>;
  /** Graceful stop (SIGQUIT, then SIGTERM after a few seconds); removes the run dir and a temp state dir. */
  stop(): Promise<void>;
}

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

/** A private directory for the configuration: in memory (/dev/shm) when available. */
function privateRunDir(): string {
  const bases = ["/dev/shm", os.tmpdir()];
  for (const base of bases) {
    try {
      if (!existsSync(base)) continue;
      const dir = mkdtempSync(path.join(base, "md-gateway-run-"));
      chmodSync(dir, 0o700);
      return dir;
    } catch {
      // next candidate
    }
  }
  throw new Error("Could not create a private directory for the gateway's configuration.");
}

/** Whether every directory above `file` lets others through and the file lets others read. */
function readableByOthers(file: string): boolean {
  try {
    if (!(statSync(file).mode & 0o004)) return false;
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (!(statSync(dir).mode & 0o001)) return false;
      if (dir === path.dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}

function accountIds(user: string): { uid: number; gid: number; group: string } | null {
  const id = spawnSync("id", ["-u", user], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", user], { encoding: "utf8" });
  const group = spawnSync("id", ["-gn", user], { encoding: "utf8" });
  if (id.status !== 0 || gid.status !== 0 || group.status !== 0) return null;
  return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()), group: group.stdout.trim() };
}

/**
 * As root, nginx's workers need a `user`: an unprivileged account (www-data,
 * else nobody) when dist/ is readable by others, else root itself (with a warning).
 */
function chooseWorkerUser(
  distDir: string,
  log: (line: string) => void,
): { user: string; group: string; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const readable = ["taskpane.html", "functions.js"].every((f) => readableByOthers(path.join(distDir, f)));
  if (readable) {
    for (const user of ["www-data", "nobody"]) {
      const ids = accountIds(user);
      if (ids) return { user, ...ids };
    }
  }
  log(
    `nginx workers run as root: ${readable ? "no www-data or nobody account" : `${distDir} is not readable by other users`}.`,
  );
  return { user: "root", group: accountIds("root")?.group ?? "root", uid: 0, gid: 0 };
}

/** GET /healthz of our own gateway; with --tls-cert its certificate may be self-signed, so it is not verified here. */
function healthStatus(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const get = url.startsWith("https:") ? httpsGet : httpGet;
    const request = get(url, { rejectUnauthorized: false, timeout: 1000 }, (response) => {
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
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}): ${stderr().trim() || "no message"}`);
    }
    if ((await healthStatus(`${url}/healthz`)) === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not answer ${url}/healthz within ${timeoutMs / 1000} s: ${stderr().trim()}`);
}

export async function startGateway(options: GatewayOptions): Promise<GatewayHandle> {
  const log = options.log ?? (() => {});
  const nginx = options.nginx ?? findNginx();
  if (!nginx) throw new Error(`nginx is not installed. ${INSTALL_HINT}`);
  const distDir = path.resolve(options.distDir ?? path.join(ROOT, "dist"));
  if (!existsSync(path.join(distDir, "taskpane.html")) || !existsSync(path.join(distDir, "functions.js"))) {
    throw new Error(`${distDir} holds no built add-in (taskpane.html, functions.js): run npm run build first.`);
  }
  const host = options.host ?? "127.0.0.1";
  const keyMode: KeyMode = options.keyFile ? "firm" : "pass-through";
  const rawKey = options.keyFile ? readFileSync(options.keyFile, "utf8") : null;
  const secret = rawKey === null ? null : keyInclude(rawKey);

  const tempState = !options.stateDir;
  const stateDir = path.resolve(options.stateDir ?? mkdtempSync(path.join(os.tmpdir(), "md-gateway-state-")));
  const confDir = privateRunDir();
  const worker = chooseWorkerUser(distDir, log);
  mkdirSync(stateDir, { recursive: true });
  chmodSync(stateDir, worker && worker.uid !== 0 ? 0o711 : 0o700);
  const logsDir = path.join(stateDir, "logs");
  const cacheDir = path.join(stateDir, "cache");
  const tempDir = path.join(stateDir, "temp");
  for (const dir of [logsDir, cacheDir, tempDir]) {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o700);
  }
  if (worker && worker.uid !== 0) {
    for (const dir of [cacheDir, tempDir]) chownTree(dir, worker.uid, worker.gid);
  }

  const paneCsp = paneCspFromDist(distDir);
  const keyIncludePath = path.join(confDir, secret ? "firm-key.conf" : "key-pass-through.conf");
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = options.port || (await freePort(host === "0.0.0.0" ? "127.0.0.1" : host));
    const listen = `${host.includes(":") ? `[${host}]` : host}:${port}`;
    const files = renderGatewayConfig({
      upstream: options.upstream,
      listen,
      distDir,
      confDir,
      stateDir,
      keyInclude: keyIncludePath,
      workerUser: worker ? { user: worker.user, group: worker.group } : null,
      paneCsp,
      ...(options.rate !== undefined ? { rate: options.rate } : {}),
      ...(options.burst !== undefined ? { burst: options.burst } : {}),
      ...(options.times ? { times: options.times } : {}),
      tls: options.tls ?? null,
    });
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(confDir, name), text, { mode: 0o600 });
    if (secret) writeFileSync(keyIncludePath, secret, { mode: 0o600 });

    const child = spawn(nginx, ["-p", `${stateDir}/`, "-c", path.join(confDir, "nginx.conf"), "-g", "daemon off;"], {
      stdio: ["ignore", "ignore", "pipe"],
      // Its own process group: Ctrl-C reaches this script, which stops nginx gracefully.
      detached: true,
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const scheme = options.tls ? "https" : "http";
    const url = `${scheme}://${host === "0.0.0.0" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host}:${port}`;
    try {
      await waitForHealth(url, child, () => stderr);
    } catch (error) {
      if (secret) rmSync(keyIncludePath, { force: true });
      child.kill("SIGTERM");
      await exited;
      lastError = error;
      // A port someone took between picking and binding: pick another.
      if (!options.port && /Address already in use/.test(String(error))) continue;
      rmSync(confDir, { recursive: true, force: true });
      if (tempState) rmSync(stateDir, { recursive: true, force: true });
      throw error;
    }
    // nginx has read its configuration: the key now lives only in its memory.
    if (secret) unlinkSync(keyIncludePath);
    log(`nginx ${child.pid} serving ${distDir} on ${url} (${keyMode} key mode); logs in ${logsDir}`);

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGQUIT");
          const timer = setTimeout(() => child.kill("SIGTERM"), 5000);
          await exited;
          clearTimeout(timer);
        }
        rmSync(confDir, { recursive: true, force: true });
        if (tempState) rmSync(stateDir, { recursive: true, force: true });
      })());
    return { url, port, keyMode, stateDir, confDir, logsDir, cacheDir, pid: child.pid ?? 0, exited, stop };
  }
  rmSync(confDir, { recursive: true, force: true });
  if (tempState) rmSync(stateDir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

function chownTree(dir: string, uid: number, gid: number): void {
  chownSync(dir, uid, gid);
  spawnSync("chown", ["-R", `${uid}:${gid}`, dir]);
}
