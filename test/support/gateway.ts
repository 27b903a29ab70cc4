/**
 * The gateway suites' world: the in-process sandbox behind a real nginx run
 * with the generated configuration (scripts/lib/gateway/), and ways to look
 * at everything nginx wrote. `useGatewayRig(options)` sets it up for a suite
 * or describe block and stops it after; `useGateway(upstream)` is nginx alone
 * in front of another address. Without nginx the suites are declared with
 * describe.skip and print why, so they show as skipped, never as passed;
 * `npm test` installs Debian's nginx when it can (root with apt-get).
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, watch, writeFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import os from "node:os";
import path from "node:path";
import { startSandbox, type SandboxHandle, type SandboxOptions } from "../../sandbox/server";
import {
  findNginx,
  findNjsModule,
  startGateway as startNginxGateway,
  type GatewayHandle,
  type GatewayOptions,
} from "../../scripts/lib/gateway";
import { DIST } from "../../harness/bundle";
import { useWorld } from "./use-world";

export const NGINX = findNginx();
export const NJS_MODULE = findNjsModule();

const NO_NGINX = NGINX
  ? "no nginx JavaScript module (njs) found (npm test installs Debian's libnginx-mod-http-js when it runs as root with apt-get; or install it, or set MD_NGINX_JS_MODULE)"
  : "no nginx found (npm test installs Debian's nginx when it runs as root with apt-get; or install it, or set MD_NGINX)";

/** `describe`, or `describe.skip` with the reason printed when there is no nginx or no njs. */
export const describeGateway: jest.Describe =
  NGINX && NJS_MODULE
    ? describe
    : (((name: string, fn: jest.EmptyFunction) => {
        console.warn(`SKIPPED gateway suite "${name}": ${NO_NGINX}.`);
        return describe.skip(name, fn);
      }) as unknown as jest.Describe);

export interface GatewayRigOptions {
  /** Firm mode (default): the key is in a file the gateway reads; false: pass-through, the analyst's key is sent on. */
  firm?: boolean;
  /** The key (default a fresh md-firm-…): the sandbox accepts only this one. */
  key?: string;
  sandbox?: SandboxOptions;
  gateway?: Partial<GatewayOptions>;
}

/** The gateway alone, in front of an upstream the test chose. */
export interface GatewayAlone {
  gateway: GatewayHandle;
  /** The firm's key (firm mode). */
  key: string;
  keyFile: string | null;
  close(): Promise<void>;
}

export interface GatewayRig extends GatewayAlone {
  sandbox: SandboxHandle;
}

/** nginx run with the generated configuration in front of `upstream`, with the firm's key in a file of its own (firm mode). */
export async function startGatewayAlone(
  upstream: string,
  options: Omit<GatewayRigOptions, "sandbox"> = {},
): Promise<GatewayAlone> {
  const key = options.key ?? `md-firm-${randomUUID()}`;
  const secrets = mkdtempSync(path.join(os.tmpdir(), "md-gateway-key-"));
  const keyFile = options.firm === false ? null : path.join(secrets, "firm.key");
  if (keyFile) writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  let gateway: GatewayHandle;
  try {
    gateway = await startNginxGateway({
      upstream,
      port: 0,
      distDir: DIST,
      nginx: NGINX ?? undefined,
      ...(keyFile ? { keyFile } : {}),
      ...options.gateway,
    });
  } catch (error) {
    rmSync(secrets, { recursive: true, force: true });
    throw error;
  }
  return {
    gateway,
    key,
    keyFile,
    async close() {
      let problems: string[];
      try {
        problems = auditProblems(gateway, key);
      } finally {
        await gateway.stop();
        rmSync(secrets, { recursive: true, force: true });
      }
      if (problems.length) throw new Error(`The gateway's files at its stop:\n${problems.join("\n")}`);
    },
  };
}

export async function startGatewayRig(options: GatewayRigOptions = {}): Promise<GatewayRig> {
  const key = options.key ?? `md-firm-${randomUUID()}`;
  const sandbox = await startSandbox({ quiet: true, insightFirstCallDelayMs: 10, apiKey: key, ...options.sandbox });
  let alone: GatewayAlone;
  try {
    alone = await startGatewayAlone(sandbox.url, { ...options, key });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    ...alone,
    sandbox,
    async close() {
      await alone.close();
      await sandbox.close();
    },
  };
}

/**
 * The gateway world for the suite or describe block this is called in: the
 * sandbox behind nginx, started in a beforeAll (nginx and the sandbox can
 * outlast jest's default timeout on a loaded machine, hence `timeoutMs`),
 * stopped in an afterAll.
 */
export function useGatewayRig(
  options: GatewayRigOptions | (() => GatewayRigOptions) = {},
  timeoutMs = 60_000,
): GatewayRig {
  // A function when the options depend on another world started before it (an identity provider's issuer).
  const resolve = typeof options === "function" ? options : () => options;
  return useWorld("the gateway rig (useGatewayRig)", () => startGatewayRig(resolve()), timeoutMs);
}

/** The gateway alone in front of the address `upstream` gives when the block starts (a service that is down, say). */
export function useGateway(
  upstream: () => Promise<string>,
  options: Omit<GatewayRigOptions, "sandbox"> = {},
  timeoutMs = 60_000,
): GatewayAlone {
  return useWorld("the gateway (useGateway)", async () => startGatewayAlone(await upstream(), options), timeoutMs);
}

/** Every regular file under `dir`. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else if (stat.isFile()) out.push(full);
    }
  };
  walk(dir);
  return out;
}

/** The files under `dirs` whose bytes contain `needle` (as text or URL-encoded). */
export function filesContaining(dirs: string[], needle: string): string[] {
  const forms = [needle, encodeURIComponent(needle)].map((f) => Buffer.from(f));
  return dirs.flatMap(filesUnder).filter((file) => {
    const bytes = readFileSync(file);
    return forms.some((form) => bytes.includes(form));
  });
}

/** The fields of one access log line (log_format md_gateway, deploy/nginx/README.md "The access log"). */
export const ACCESS_LOG_FIELDS = [
  "time",
  "msec",
  "request_id",
  "client",
  "user",
  "name",
  "tenant",
  "request",
  "endpoint",
  "symbols",
  "metrics",
  "status",
  "cache",
  "bytes",
  "refusal",
  "upstream_status",
  "upstream_time",
  "request_time",
] as const;
export type AccessEntry = Record<(typeof ACCESS_LOG_FIELDS)[number], string>;

/** Access log lines read as the JSON objects they are (a line that is not one throws, naming it). */
export function accessEntries(lines: string[]): AccessEntry[] {
  return lines.map((line) => {
    try {
      return JSON.parse(line) as AccessEntry;
    } catch {
      throw new Error(`An access log line is not JSON: ${line}`);
    }
  });
}

/** A JSON Web Token's first two segments (a header and a payload, base64url of JSON objects). */
const TOKEN_LIKE = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}/;

/**
 * What every gateway of the tests must hold at its stop (checked by close()): each access
 * log line is JSON with every field, and no log, cache file or error log holds the firm key
 * (as written or URL-encoded) or anything shaped like an access token.
 */
export function auditProblems(gateway: GatewayHandle, firmKey: string): string[] {
  const problems: string[] = [];
  const file = path.join(gateway.logsDir, "access.log");
  const lines = existsSync(file) ? accessLog(gateway) : [];
  for (const line of lines) {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      problems.push(`an access log line is not JSON: ${line.slice(0, 200)}`);
      continue;
    }
    const missing = ACCESS_LOG_FIELDS.filter((field) => typeof entry[field] !== "string");
    if (missing.length) problems.push(`an access log line lacks ${missing.join(", ")}: ${line.slice(0, 200)}`);
  }
  const dirs = [gateway.logsDir, gateway.cacheDir].filter((dir) => existsSync(dir));
  for (const found of filesContaining(dirs, firmKey)) problems.push(`the firm key is in ${found}`);
  for (const found of dirs.flatMap(filesUnder)) {
    if (TOKEN_LIKE.test(readFileSync(found, "latin1"))) problems.push(`an access token is in ${found}`);
  }
  return problems;
}

/** GET with a Host header of our own (fetch does not send one it is given). */
export function statusFor(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers, timeout: 10_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("timeout", () => request.destroy(new Error(`no answer from ${url}`)));
    request.on("error", reject);
  });
}

export function accessLog(gateway: GatewayHandle): string[] {
  return readFileSync(path.join(gateway.logsDir, "access.log"), "utf8").split("\n").filter(Boolean);
}

/**
 * The access log once a line matching `matches` is in it: nginx writes a
 * request's line after it has sent the answer (the log phase), so a test that
 * reads the log right after its response arrived can miss it. Waits for the
 * file to change (fs.watch), checking again on each change; rejects after
 * `timeoutMs` naming `what`.
 */
export function accessLogWith(
  gateway: GatewayHandle,
  matches: RegExp,
  what: string,
  timeoutMs = 10_000,
): Promise<string[]> {
  const file = path.join(gateway.logsDir, "access.log");
  const found = () => {
    const lines = existsSync(file) ? accessLog(gateway) : [];
    return lines.some((line) => matches.test(line)) ? lines : null;
  };
  return new Promise((resolve, reject) => {
    const now = found();
    if (now) return resolve(now);
    const watcher = watch(gateway.logsDir, () => {
      const lines = found();
      if (!lines) return;
      finish();
      resolve(lines);
    });
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`No access log line for ${what} within ${timeoutMs} ms`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      watcher.close();
    };
    // A write between the first check and the watch starting: check once more.
    const late = found();
    if (late) {
      finish();
      resolve(late);
    }
  });
}

export interface Fetched {
  url: string;
  status: number;
  headers: string;
  body: string;
}

/** A fetch for the bundle that records every request and full response (headers and body) it saw. */
export function recordingFetch(seen: Fetched[] = []): { fetch: typeof fetch; seen: Fetched[] } {
  const wrapped = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await fetch(input, init);
    const body = await response.clone().text();
    seen.push({
      url: String(input instanceof Request ? input.url : input),
      status: response.status,
      headers: [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n"),
      body,
    });
    return response;
  }) as typeof fetch;
  return { fetch: wrapped, seen };
}

/** Requests the sandbox saw for an exact path (e.g. "/insights/streaks/"). */
export function sandboxRequests(sandbox: SandboxHandle, pathname: string): number {
  // The stats count every request; the request log keeps only the newest 10,000.
  return sandbox.stats().byPath[pathname] ?? 0;
}

/** Today as the gateway sees it (its local date), YYYY-MM-DD. */
export function localToday(offsetDays = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + offsetDays);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
