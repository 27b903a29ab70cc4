/**
 * The team gateway: fills deploy/nginx/'s templates and runs a real nginx with
 * them (`npm run gateway`, the gateway tests and the benchmark all come here).
 *
 * What is on disk while it runs, and where:
 *   run dir   (private, 0700; on /dev/shm, i.e. memory, when there is one)
 *             nginx.conf, api-proxy.conf, series-calendar.conf, mime.types,
 *             gateway.js, key-pass-through.conf, nginx.pid; in firm mode firm-key.conf
 *             (0600, the key in nginx syntax) exists only until nginx has
 *             read its configuration, then it is deleted. Removed at stop.
 *   state dir (the nginx prefix): logs/access.log, logs/error.log, cache/,
 *             jwks/ (the identity provider's keys), temp/ (and the service
 *             tier's socket, temp/service-tier.sock). No key in any of them
 *             (see gateway.conf.template).
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
import { isPortFree, portOwner, portsTakenMessage, type PortUser } from "./ports";

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
  /** How long the identity provider's keys are kept. */
  jwks: string;
  /** How long a refetch on an unknown kid is kept: at most one refetch per this time. */
  jwksRefresh: string;
}

export const DEFAULT_TIMES: GatewayTimes = {
  catalog: "1h",
  settled: "1d",
  recent: "5m",
  slowTimeout: "180s",
  timeout: "60s",
  jwks: "1h",
  jwksRefresh: "10s",
};

/** The largest answer of the service the gateway passes on and caches (bytes). */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Who may use the gateway (firm mode's sign-in): every /api/ request needs an
 * OpenID Connect access token from `issuer` for `audience`.
 */
export interface IdentitySettings {
  /** The tokens' `iss`, exactly (Entra ID: https://login.microsoftonline.com/<tenant id>/v2.0). */
  issuer: string;
  /** The tokens' `aud` (Entra ID, v2 tokens: the API's application (client) id). */
  audience: string;
  /** The add-in's client id (told to the add-in by /api/_gateway). */
  clientId: string;
  /** Where the add-in signs in (MSAL's authority); default: the issuer without a trailing /v2.0. */
  authority?: string;
  /** What the add-in asks for; default [`<audience>/.default`]. */
  scopes?: string[];
  /** Required `tid` (Entra ID tenant id). */
  tenant?: string;
  /** A value the `groups` or `roles` claim must hold. */
  group?: string;
  /** The issuer's keys; default: read from <issuer>/.well-known/openid-configuration at start. */
  jwksUri?: string;
  /** Tolerance for `exp` and `nbf`, seconds; default 60. */
  clockSkewSeconds?: number;
}

/** What /api/_gateway tells the add-in about signing in (read by src/office's gateway probe). */
export interface GatewayAuthAnswer {
  authority: string;
  clientId: string;
  scopes: string[];
}

/** Characters the identity settings may hold: they go into nginx strings and a JSON literal. */
const IDENTITY_SAFE = /^[A-Za-z0-9._~:/?#@!&()*+,;=%[\]-]+$/;

export function checkIdentity(identity: IdentitySettings): Required<Omit<IdentitySettings, "jwksUri">> & {
  jwksUri?: string;
} {
  const fields: [string, string | undefined][] = [
    ["issuer", identity.issuer],
    ["audience", identity.audience],
    ["client id", identity.clientId],
    ["authority", identity.authority],
    ["tenant", identity.tenant],
    ["group", identity.group],
    ["JWKS address", identity.jwksUri],
    ...(identity.scopes ?? []).map((scope): [string, string] => ["scope", scope]),
  ];
  for (const [name, value] of fields) {
    if (value === undefined) continue;
    if (!value || !IDENTITY_SAFE.test(value) || value.includes(";"))
      throw new Error(
        `The ${name} "${value}" is empty or holds a character the gateway cannot pass on (quotes, $, spaces, ;).`,
      );
  }
  for (const [name, value] of [
    ["issuer", identity.issuer],
    ["authority", identity.authority],
    ["JWKS address", identity.jwksUri],
  ] as const) {
    if (value === undefined) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`The ${name} "${value}" is not an address.`);
    }
    if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname)))
      throw new Error(`The ${name} must be an https:// address (http:// only on this machine), not ${value}.`);
  }
  const skew = identity.clockSkewSeconds ?? 60;
  if (!Number.isInteger(skew) || skew < 0 || skew > 600)
    throw new Error(`The clock skew must be 0 to 600 seconds, not ${skew}.`);
  return {
    issuer: identity.issuer,
    audience: identity.audience,
    clientId: identity.clientId,
    authority: identity.authority ?? identity.issuer.replace(/\/v2\.0\/?$/, ""),
    scopes: identity.scopes?.length ? identity.scopes : [`${identity.audience}/.default`],
    tenant: identity.tenant ?? "",
    group: identity.group ?? "",
    clockSkewSeconds: skew,
    ...(identity.jwksUri ? { jwksUri: identity.jwksUri } : {}),
  };
}

/** The answer of /api/_gateway; `$md_key_mode` is filled by nginx from the key include. */
export function gatewayAnswer(identity: ReturnType<typeof checkIdentity> | null): string {
  const auth: GatewayAuthAnswer | undefined = identity
    ? { authority: identity.authority, clientId: identity.clientId, scopes: identity.scopes }
    : undefined;
  return JSON.stringify({ keyMode: "$md_key_mode", ...(auth ? { auth } : {}) });
}

/** 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Firm mode spends the firm's key for whoever reaches the gateway. On this
 * machine only (loopback) that is one person; anywhere else it must know who
 * asks (identity settings) — unless whoever runs it says the network itself
 * is trusted (every machine that can reach the address may use the key).
 */
export function checkExposure(options: {
  host: string;
  keyMode: KeyMode;
  identity: IdentitySettings | null | undefined;
  trustedNetwork?: boolean;
}): void {
  if (options.keyMode !== "firm" || options.identity || options.trustedNetwork || isLoopback(options.host)) return;
  throw new Error(
    `Firm mode on ${options.host} (reachable from other machines) needs sign-in: give the identity settings ` +
      "(--issuer, --audience, --client-id; see deploy/nginx/README.md), or --trusted-network if every machine " +
      "that can reach this address may spend the firm's key.",
  );
}

/** The host names the gateway answers for: this machine's names, the listen address, and the given ones. */
export function serverNamesFor(host: string, names: readonly string[] = []): string[] {
  const all = ["localhost", "127.0.0.1", "[::1]"];
  const listen = host.includes(":") ? `[${host.replace(/^\[|\]$/g, "")}]` : host;
  if (host !== "0.0.0.0" && host !== "::" && !all.includes(listen)) all.push(listen);
  for (const name of names) {
    if (!/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/.test(name))
      throw new Error(`"${name}" is not a host name (give names without scheme or port, e.g. md.example.com).`);
    if (!all.includes(name.toLowerCase())) all.push(name.toLowerCase());
  }
  return all;
}

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
  /** nginx's JavaScript module (load_module); null when nginx has it built in. */
  jsModule: string | null;
  /** Host names the gateway answers for (serverNamesFor); any other Host is refused. */
  serverNames: string[];
  /** Sign-in (firm mode); null or absent: none. `jwksUri` must be known (startGateway discovers it). */
  identity?: (IdentitySettings & { jwksUri: string }) | null;
  /** The largest service answer passed on and cached, bytes (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  paneCsp: string;
  rate?: number;
  burst?: number;
  cacheMaxSize?: string;
  times?: Partial<GatewayTimes>;
  tls?: { cert: string; key: string } | null;
  /** What /healthz says of the firm key (default: unchecked in firm mode, none in pass-through). */
  keyCheck?: FirmKeyCheck;
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
  const identity = input.identity ? { ...checkIdentity(input.identity), jwksUri: input.identity.jwksUri } : null;
  const maxBody = input.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBody) || maxBody < 1024)
    throw new Error(`The body cap must be ≥ 1024 bytes, not ${maxBody}.`);
  if (input.jsModule) assertConfigSafe("jsModule", input.jsModule);
  if (input.serverNames.length === 0) throw new Error("The gateway needs at least one host name.");
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
    MD_LISTEN: listen,
    MD_TLS: input.tls
      ? `ssl_certificate ${input.tls.cert};\n        ssl_certificate_key ${input.tls.key};\n        ssl_protocols TLSv1.2 TLSv1.3;`
      : "# (plain HTTP: TLS ends in front of the gateway)",
    MD_JS_MODULE_LINE: input.jsModule
      ? `load_module ${input.jsModule};`
      : "# (nginx's JavaScript module is built in: no load_module)",
    MD_JS_FILE: path.join(input.confDir, "gateway.js"),
    MD_SERVER_NAMES: input.serverNames.join(" "),
    MD_INNER_SOCKET: path.join(input.stateDir, "temp", "service-tier.sock"),
    MD_MAX_BODY: String(maxBody),
    // One byte more than the cap, so that a longer body shows as longer (and is refused), not cut.
    MD_SUBREQUEST_BUFFER: String(maxBody + 1),
    MD_GATEWAY_JSON: gatewayAnswer(identity),
    MD_KEY_CHECK_JSON: keyCheckJson(input.keyCheck ?? null),
    MD_AUTH_REQUEST: identity ? "auth_request /_md_auth;" : "# (no sign-in: no identity settings)",
    MD_AUTH_HTTP: identity
      ? `    proxy_cache_path ${path.join(input.stateDir, "jwks")} levels=1 keys_zone=md_jwks:1m max_size=10m inactive=7d use_temp_path=off;\n`
      : "",
    MD_AUTH_LOCATIONS: identity ? authLocations(identity, times) : "",
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
    "gateway.js": readFileSync(path.join(TEMPLATE_DIR, "gateway.js"), "utf8"),
    "series-calendar.conf": seriesCalendar(input.today ?? new Date(), input.calendarDays ?? 400),
  };
}

/**
 * The sign-in locations: the check (gateway.js) and the issuer's keys, kept
 * by nginx's own cache (njs 0.7.9 has no shared memory between requests).
 * On a kid it does not know, gateway.js asks /_md_jwks_refresh, whose own
 * short-lived entry bounds how often the issuer is asked again.
 */
function authLocations(identity: ReturnType<typeof checkIdentity> & { jwksUri: string }, times: GatewayTimes): string {
  const jwks = new URL(identity.jwksUri);
  const tls =
    jwks.protocol === "https:"
      ? upstreamTlsLines(jwks.hostname.replace(/^\[|\]$/g, "")).replace(/\n/g, "\n            ")
      : "# (plain-HTTP issuer on this machine)";
  const port = jwks.port || (jwks.protocol === "https:" ? "443" : "80");
  const target = `${jwks.protocol}//${jwks.hostname}:${port}${jwks.pathname}${jwks.search}`;
  const keysLocation = (name: string, cacheKey: string, lifetime: string) => `
        location = ${name} {
            internal;
            proxy_pass ${target};
            proxy_http_version 1.1;
            proxy_pass_request_headers off;
            proxy_pass_request_body off;
            proxy_set_header Host "${jwks.host}";
            proxy_set_header Accept "application/json";
            proxy_set_header Accept-Encoding "identity";
            ${tls}
            proxy_connect_timeout 5s;
            proxy_read_timeout 10s;
            proxy_cache md_jwks;
            proxy_cache_key "${cacheKey}";
            proxy_cache_valid 200 ${lifetime};
            proxy_cache_lock on;
            proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;
            proxy_ignore_headers Cache-Control Expires Set-Cookie Vary X-Accel-Expires;
            subrequest_output_buffer_size 256k;
        }`;
  return `
        # ------------------------------------------------------------ sign-in
        location = /_md_auth {
            internal;
            set $md_oidc_issuer "${identity.issuer}";
            set $md_oidc_audience "${identity.audience}";
            set $md_oidc_tenant "${identity.tenant}";
            set $md_oidc_group "${identity.group}";
            set $md_oidc_clock_skew ${identity.clockSkewSeconds};
            js_content gateway.verifyAccessToken;
        }${keysLocation("/_md_jwks", "jwks", times.jwks)}${keysLocation("/_md_jwks_refresh", "jwks-refresh", times.jwksRefresh)}
`;
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

/**
 * The CSP of dist/taskpane.html's <meta>, with connect-src narrowed to the gateway's own origin and, with
 * sign-in, the identity provider's (MSAL reads its discovery document and redeems the popup's code there).
 */
export function paneCspFromDist(
  distDir: string,
  identity?: Pick<IdentitySettings, "issuer" | "authority"> | null,
): string {
  const html = readFileSync(path.join(distDir, "taskpane.html"), "utf8");
  const match = /http-equiv=["']?Content-Security-Policy["']?\s+content=(["'])(.*?)\1/i.exec(html);
  if (!match)
    throw new Error(
      `${path.join(distDir, "taskpane.html")} has no Content-Security-Policy <meta>: build the add-in first.`,
    );
  return gatewayCsp(match[2], identity ? [signInOrigin(identity)] : []);
}

/** The identity provider's origin, as the add-in signs in there (the authority, else the issuer). */
export function signInOrigin(identity: Pick<IdentitySettings, "issuer" | "authority">): string {
  return new URL(identity.authority ?? identity.issuer).origin;
}

/** The pane's policy for the gateway: connect-src is the gateway's own origin, and `alsoConnect` (the identity provider). */
export function gatewayCsp(metaCsp: string, alsoConnect: string[] = []): string {
  const connect = ["connect-src 'self'", ...alsoConnect].join(" ");
  const directives = metaCsp
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => (/^connect-src\s/i.test(d) ? connect : d));
  if (!directives.some((d) => /^connect-src\s/i.test(d))) directives.push(connect);
  return directives.join("; ");
}

// ------------------------------------------------------------------ the firm key, checked at start

/**
 * What the service said of the firm key when the gateway started: "accepted"
 * (a series request with it answered 2xx), "refused" (401 or 403),
 * "unchecked" (no answer either way: unreachable, 5xx, 429, a redirect; or a
 * configuration written for a system nginx, which nothing checks), "none"
 * (pass-through mode: the gateway holds no key). Never the key itself.
 */
export interface FirmKeyCheck {
  firmKey: "accepted" | "refused" | "unchecked" | "none";
  /** When the service was asked (ISO 8601, UTC); null when it was not. */
  checkedAt: string | null;
  /** Why it is refused or unchecked, in words ("the service answered HTTP 401"). */
  detail?: string;
}

/** The fields /healthz adds for the firm key: JSON members inside nginx's single-quoted `return` text. */
export function keyCheckJson(check: FirmKeyCheck | null): string {
  const fields: FirmKeyCheck = check ?? { firmKey: "unchecked", checkedAt: null, detail: "not checked" };
  // Characters nginx's quoted string or the JSON would take as syntax are dropped from the words.
  const detail = fields.detail?.replace(/['"\\$\n\r{}]/g, "");
  const json = JSON.stringify({
    firmKey: fields.firmKey,
    checkedAt: fields.checkedAt,
    ...(detail ? { firmKeyDetail: detail } : {}),
  });
  return json.slice(1, -1);
}

/** A settled day's date, UTC: what the key check asks the service for. */
function settledDay(now: Date): string {
  return new Date(now.getTime() - 10 * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Asks the service for one settled day of one series with the firm key, as the
 * gateway will (the key in APIKey; a redirect not followed, so the key goes
 * nowhere else). The answer's status says whether the key is accepted.
 */
export async function checkFirmKey(
  upstream: string,
  rawKey: string,
  options: { timeoutMs?: number; now?: Date } = {},
): Promise<FirmKeyCheck> {
  const base = parseUpstream(upstream);
  const now = options.now ?? new Date();
  const day = settledDay(now);
  const url =
    `${base.scheme}://${base.host}${base.path}/data/api/PRICE/?symbols=btc&startDate=${day}&endDate=${day}` +
    `&APIKey=${encodeURIComponent(rawKey.trim())}`;
  const checkedAt = now.toISOString();
  try {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { Accept: "application/json", "User-Agent": "market-data-gateway" },
      signal: AbortSignal.timeout(options.timeoutMs ?? 8000),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { firmKey: "accepted", checkedAt };
    if (response.status === 401 || response.status === 403)
      return { firmKey: "refused", checkedAt, detail: `the service answered HTTP ${response.status}` };
    if (response.status >= 300 && response.status < 400)
      return {
        firmKey: "unchecked",
        checkedAt,
        detail: `the service answered with a redirect (HTTP ${response.status}): its upstream address needs updating`,
      };
    return { firmKey: "unchecked", checkedAt, detail: `the service answered HTTP ${response.status}` };
  } catch (error) {
    // The reason only (a code or the timeout), never fetch's message, which could quote the address and its key.
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const reason =
      error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
        ? `no answer within ${(options.timeoutMs ?? 8000) / 1000} s`
        : typeof cause?.code === "string"
          ? cause.code
          : "no connection";
    return { firmKey: "unchecked", checkedAt, detail: `the service could not be reached (${reason})` };
  }
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
  "Install nginx and its JavaScript module: `sudo apt-get install nginx libnginx-mod-http-js` (Debian, Ubuntu), `sudo dnf install nginx nginx-mod-njs` (Fedora, RHEL), `brew install nginx` (macOS, njs built from source); or set MD_NGINX and MD_NGINX_JS_MODULE to their paths.";

/** nginx's JavaScript module (njs) as a loadable module, or null. */
export function findNjsModule(): string | null {
  if (process.env.MD_NGINX_JS_MODULE && existsSync(process.env.MD_NGINX_JS_MODULE))
    return process.env.MD_NGINX_JS_MODULE;
  for (const candidate of [
    "/usr/lib/nginx/modules/ngx_http_js_module.so",
    "/usr/lib64/nginx/modules/ngx_http_js_module.so",
    "/usr/local/nginx/modules/ngx_http_js_module.so",
    "/etc/nginx/modules/ngx_http_js_module.so",
    "/opt/homebrew/lib/nginx/modules/ngx_http_js_module.so",
  ]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * nginx's path, installing Debian's package first when it is missing and this
 * is root on a machine with apt-get (as scripts/test.ts does for Chromium).
 * Returns the reason when there is none.
 */
export function ensureNginx(
  options: { install?: boolean; log?: (line: string) => void } = {},
): { path: string; jsModule: string } | { missing: string } {
  const log = options.log ?? console.log;
  const existing = findNginx();
  const jsModule = findNjsModule();
  if (existing && jsModule) return { path: existing, jsModule };
  const what = existing ? "nginx's JavaScript module (njs)" : "nginx";
  const hasAptGet = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (options.install === false || process.env.MD_NO_NGINX_INSTALL === "1")
    return { missing: `${what} is not installed (installing it is turned off). ${INSTALL_HINT}` };
  if (!hasAptGet) return { missing: `${what} is not installed and this machine has no apt-get. ${INSTALL_HINT}` };
  if (process.getuid?.() !== 0)
    return { missing: `${what} is not installed, and installing it needs root. ${INSTALL_HINT}` };
  log("▶ installing Debian nginx and its JavaScript module (once): apt-get install -y -qq nginx libnginx-mod-http-js");
  const result = spawnSync(
    "sh",
    [
      "-c",
      "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx libnginx-mod-http-js >/dev/null",
    ],
    { stdio: "inherit" },
  );
  const installed = findNginx();
  const installedModule = findNjsModule();
  if (result.status === 0 && installed && installedModule) return { path: installed, jsModule: installedModule };
  return { missing: `apt-get could not install ${what} (exit ${result.status}). ${INSTALL_HINT}` };
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
  /** nginx's JavaScript module; default findNjsModule(). */
  jsModule?: string | null;
  /** Host names analysts reach the gateway by (besides this machine's own); any other Host is refused. */
  serverNames?: string[];
  /** Sign-in: every /api/ request needs an access token from this issuer. */
  identity?: IdentitySettings | null;
  /** Firm mode off this machine without sign-in: the network itself decides who may use the key. */
  trustedNetwork?: boolean;
  maxBodyBytes?: number;
  /** Lines about what happens (start, stop); default silent. */
  log?: (line: string) => void;
}

export interface GatewayHandle {
  url: string;
  port: number;
  keyMode: KeyMode;
  /** Whether every /api/ request needs an access token. */
  signIn: boolean;
  /** What the service said of the firm key at start (also in /healthz). */
  keyCheck: FirmKeyCheck;
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

export async function startGateway(options: GatewayOptions): Promise<GatewayHandle> {
  const log = options.log ?? (() => {});
  const nginx = options.nginx ?? findNginx();
  if (!nginx) throw new Error(`nginx is not installed. ${INSTALL_HINT}`);
  const distDir = path.resolve(options.distDir ?? path.join(ROOT, "dist"));
  if (!existsSync(path.join(distDir, "taskpane.html")) || !existsSync(path.join(distDir, "functions.js"))) {
    throw new Error(`${distDir} holds no built add-in (taskpane.html, functions.js): run npm run build first.`);
  }
  const jsModule = options.jsModule === undefined ? findNjsModule() : options.jsModule;
  if (options.jsModule === undefined && !jsModule)
    throw new Error(`nginx's JavaScript module (njs) is not installed. ${INSTALL_HINT}`);
  const host = options.host ?? "127.0.0.1";
  const keyMode: KeyMode = options.keyFile ? "firm" : "pass-through";
  checkExposure({ host, keyMode, identity: options.identity, trustedNetwork: options.trustedNetwork });
  const serverNames = serverNamesFor(host, options.serverNames);
  if (!isLoopback(host) && (host === "0.0.0.0" || host === "::") && !options.serverNames?.length)
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
    rawKey === null ? { firmKey: "none", checkedAt: null } : await checkFirmKey(options.upstream, rawKey);

  const tempState = !options.stateDir;
  const stateDir = path.resolve(options.stateDir ?? mkdtempSync(path.join(os.tmpdir(), "md-gateway-state-")));
  const confDir = privateRunDir();
  const worker = chooseWorkerUser(distDir, log);
  mkdirSync(stateDir, { recursive: true });
  chmodSync(stateDir, worker && worker.uid !== 0 ? 0o711 : 0o700);
  const logsDir = path.join(stateDir, "logs");
  const cacheDir = path.join(stateDir, "cache");
  const tempDir = path.join(stateDir, "temp");
  const jwksDir = path.join(stateDir, "jwks");
  for (const dir of [logsDir, cacheDir, tempDir, jwksDir]) {
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o700);
  }
  // A socket left by a gateway that did not stop cleanly would stop nginx from listening.
  rmSync(path.join(tempDir, "service-tier.sock"), { force: true });
  if (worker && worker.uid !== 0) {
    for (const dir of [cacheDir, tempDir, jwksDir]) chownTree(dir, worker.uid, worker.gid);
  }

  const paneCsp = paneCspFromDist(distDir, identity);
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
      jsModule,
      serverNames,
      identity,
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      paneCsp,
      ...(options.rate !== undefined ? { rate: options.rate } : {}),
      ...(options.burst !== undefined ? { burst: options.burst } : {}),
      ...(options.times ? { times: options.times } : {}),
      tls: options.tls ?? null,
      keyCheck,
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
    const url = urlFor(port);
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
      // Taken between the check and nginx binding it: said the same way.
      const taken = /Address already in use/.test(String(error)) ? await gatewayPortTaken(host, port, url) : null;
      throw taken ? new Error(taken) : error;
    }
    // nginx has read its configuration: the key now lives only in its memory.
    if (secret) unlinkSync(keyIncludePath);
    log(
      `nginx (pid ${child.pid}) serving ${distDir} on ${url} (${keyMode} key mode${identity ? ", sign-in required" : ""}); logs in ${logsDir}`,
    );

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
    return {
      url,
      port,
      keyMode,
      signIn: identity !== null,
      keyCheck,
      stateDir,
      confDir,
      logsDir,
      cacheDir,
      pid: child.pid ?? 0,
      exited,
      stop,
    };
  }
  rmSync(confDir, { recursive: true, force: true });
  if (tempState) rmSync(stateDir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error(String(lastError));
}

/** The issuer's key set address, from its OpenID Connect discovery document. */
export async function discoverJwksUri(issuer: string): Promise<string> {
  const address = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  let document: { issuer?: unknown; jwks_uri?: unknown };
  try {
    const response = await fetch(address, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    document = (await response.json()) as typeof document;
  } catch (error) {
    throw new Error(
      `Could not read the issuer's discovery document ${address} (${error instanceof Error ? error.message : String(error)}); give --jwks-uri.`,
      { cause: error },
    );
  }
  if (document.issuer !== issuer)
    throw new Error(`${address} names the issuer "${String(document.issuer)}", not "${issuer}": check --issuer.`);
  if (typeof document.jwks_uri !== "string") throw new Error(`${address} gives no jwks_uri; give --jwks-uri.`);
  return document.jwks_uri;
}

function chownTree(dir: string, uid: number, gid: number): void {
  chownSync(dir, uid, gid);
  spawnSync("chown", ["-R", `${uid}:${gid}`, dir]);
}
