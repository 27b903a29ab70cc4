/**
 * Fills deploy/nginx/'s templates into the files of one gateway
 * configuration. TypeScript only fills in values here: every directive is in
 * a template (gateway.conf, api-proxy.conf, service-tier.conf, sign-in.conf, sign-in-tier.conf;
 * an edge of the two-tier layout: edge-proxy.conf, edge-tier.conf, edge-key-mode.conf)
 * or in the njs beside them (service-tier.js, sign-in.js).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { keyCheckJson, type FirmKeyCheck } from "./firm-key";
import {
  checkIdentity,
  gatewayAnswer,
  signInTemplateValues,
  type CheckedIdentity,
  type IdentitySettings,
} from "./identity-settings";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMES, TEMPLATE_DIR, type GatewayTimes } from "./options";
import { seriesCalendar } from "./series-calendar";
import { tierTemplateValues, type GatewayTier } from "./tier";
import { parseUpstream, upstreamTlsLines } from "./upstream";

export interface GatewayConfigInput {
  /** The service's base address: http(s)://host[:port][/path]; null on an edge of the two-tier layout (its cache nodes ask the service). */
  upstream: string | null;
  /** The two-tier layout: this gateway an edge or a cache node (tier.ts); null or absent: one gateway. */
  tier?: GatewayTier | null;
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
  /** taskpane.html's own frame-src, rewritten as nginx serves it (pane-csp.ts paneFrameRewrite); none: unchanged. */
  paneFrame?: { from: string; to: string };
  rate?: number;
  burst?: number;
  /** Per client address: token checks per second that reach sign-in.js, and the burst (default 10, 50). */
  signInRate?: number;
  signInBurst?: number;
  cacheMaxSize?: string;
  times?: Partial<GatewayTimes>;
  tls?: { cert: string; key: string } | null;
  /** What /healthz says of the firm key (default: unchecked in firm mode, none in pass-through). */
  keyCheck?: FirmKeyCheck;
  /** First day of the series calendar (default: today, local time, as nginx's $time_iso8601). */
  today?: Date;
  calendarDays?: number;
  /** Also send the access log's JSON lines to this syslog server ("host:port", UDP; nginx's own syslog: target). */
  syslog?: string | null;
}

/** The files of one gateway configuration, by name in confDir. */
export type GatewayFiles = Record<string, string>;

/** The input checked, with its defaults filled in. */
interface CheckedInput {
  upstream: ReturnType<typeof parseUpstream> | null;
  times: GatewayTimes;
  rate: number;
  burst: number;
  signInRate: number;
  signInBurst: number;
  maxBody: number;
  identity: (CheckedIdentity & { jwksUri: string }) | null;
}

function checkInput(input: GatewayConfigInput): CheckedInput {
  if (input.upstream === null && input.tier?.role !== "edge")
    throw new Error("The gateway needs the service's address (--upstream).");
  const upstream = input.upstream === null ? null : parseUpstream(input.upstream);
  const times = { ...DEFAULT_TIMES, ...input.times };
  for (const [name, value] of Object.entries(times)) {
    if (!/^\d+(?:ms|s|m|h|d)?$/.test(value))
      throw new Error(`${name} must be an nginx time such as 90s, 5m, 1h or 1d, not "${value}".`);
  }
  const [rate, burst] = checkRate("", input.rate ?? 20, input.burst ?? 200);
  const [signInRate, signInBurst] = checkRate("sign-in ", input.signInRate ?? 10, input.signInBurst ?? 50);
  assertConfigSafe("content-security-policy", input.paneCsp);
  assertConfigSafe("content-security-policy", paneFrameOf(input).from);
  assertConfigSafe("content-security-policy", paneFrameOf(input).to);
  for (const [name, value] of Object.entries({
    dist: input.distDir,
    confDir: input.confDir,
    stateDir: input.stateDir,
    keyInclude: input.keyInclude,
  })) {
    assertConfigSafe(name, value);
  }
  const identity = input.identity ? { ...checkIdentity(input.identity), jwksUri: input.identity.jwksUri } : null;
  const maxBody = input.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBody) || maxBody < 1024)
    throw new Error(`The body cap must be ≥ 1024 bytes, not ${maxBody}.`);
  if (input.jsModule) assertConfigSafe("jsModule", input.jsModule);
  if (input.serverNames.length === 0) throw new Error("The gateway needs at least one host name.");
  return { upstream, times, rate, burst, signInRate, signInBurst, maxBody, identity };
}

/** A syslog server as nginx's syslog: target takes it: a host name or IPv4 address, or [IPv6], and a port. */
export function syslogServer(value: string): string {
  const match = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/.exec(value);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > 65535)
    throw new Error(`--syslog must be host:port (a syslog server listening on UDP), not "${value}".`);
  return value;
}

/** taskpane.html's frame-src rewrite; none given: the directive as the build writes it, unchanged. */
function paneFrameOf(input: GatewayConfigInput): { from: string; to: string } {
  return input.paneFrame ?? { from: "frame-src 'self'", to: "frame-src 'self'" };
}

function checkRate(what: string, rate: number, burst: number): [number, number] {
  if (!Number.isInteger(rate) || rate < 1)
    throw new Error(`The ${what}rate must be a whole number of requests per second ≥ 1, not ${rate}.`);
  if (!Number.isInteger(burst) || burst < 0)
    throw new Error(`The ${what}burst must be a whole number ≥ 0, not ${burst}.`);
  return [rate, burst];
}

/** The placeholders of gateway.conf, api-proxy.conf and service-tier.conf (README.md beside them says what each is). */
function templateValues(input: GatewayConfigInput, checked: CheckedInput): Record<string, string> {
  const { upstream, times, maxBody, identity } = checked;
  return {
    ...tierTemplateValues(input.tier ?? null),
    ...(upstream ? upstreamValues(upstream) : {}),
    MD_USER_LINE: input.workerUser
      ? `user ${input.workerUser.user} ${input.workerUser.group};`
      : "# (no `user` directive: nginx runs as the user who starts it)",
    MD_PID_FILE: path.join(input.confDir, "nginx.pid"),
    MD_ERROR_LOG: path.join(input.stateDir, "logs", "error.log"),
    MD_ACCESS_LOG: path.join(input.stateDir, "logs", "access.log"),
    MD_SYSLOG_ACCESS_LOG: input.syslog
      ? `access_log syslog:server=${syslogServer(input.syslog)},tag=md_gateway,severity=info md_gateway;`
      : "# (no syslog: --syslog host:port sends the same JSON lines to a syslog server)",
    MD_CONF_DIR: input.confDir,
    MD_TEMP_DIR: path.join(input.stateDir, "temp"),
    MD_CACHE_DIR: path.join(input.stateDir, "cache"),
    MD_CACHE_MAX_SIZE: input.cacheMaxSize ?? "1g",
    MD_CALENDAR_FILE: path.join(input.confDir, "series-calendar.conf"),
    MD_LISTEN: input.tls ? `${input.listen} ssl` : input.listen,
    MD_TLS: input.tls
      ? `ssl_certificate ${input.tls.cert};\n        ssl_certificate_key ${input.tls.key};\n        ssl_protocols TLSv1.2 TLSv1.3;`
      : "# (plain HTTP: TLS ends in front of the gateway)",
    MD_JS_MODULE_LINE: input.jsModule
      ? `load_module ${input.jsModule};`
      : "# (nginx's JavaScript module is built in: no load_module)",
    MD_SERVER_NAMES: input.serverNames.join(" "),
    MD_INNER_SOCKET: path.join(input.stateDir, "temp", "service-tier.sock"),
    MD_MAX_BODY: String(maxBody),
    // One byte more than the cap, so that a longer body shows as longer (and is refused), not cut.
    MD_SUBREQUEST_BUFFER: String(maxBody + 1),
    MD_GATEWAY_JSON: gatewayAnswer(identity),
    MD_KEY_CHECK_JSON: keyCheckJson(input.keyCheck ?? null),
    // Sign-in's lines are written as they are with identity settings, commented out without.
    MD_IF_SIGN_IN: identity ? "" : "# ",
    MD_JWKS_DIR: path.join(input.stateDir, "jwks"),
    MD_SIGNED_IN_DIR: path.join(input.stateDir, "temp", "signed-in"),
    MD_SIGN_IN_SOCKET: path.join(input.stateDir, "temp", "sign-in.sock"),
    MD_SIGN_IN_RATE: String(checked.signInRate),
    MD_SIGN_IN_BURST: String(checked.signInBurst),
    MD_DIST: input.distDir,
    MD_KEY_INCLUDE: input.keyInclude,
    MD_PANE_CSP: input.paneCsp,
    MD_PANE_FRAME_FROM: paneFrameOf(input).from,
    MD_PANE_FRAME_TO: paneFrameOf(input).to,
    MD_RATE: String(checked.rate),
    MD_BURST: String(checked.burst),
    MD_TTL_CATALOG: times.catalog,
    MD_TTL_SETTLED: times.settled,
    MD_TTL_RECENT: times.recent,
    MD_SLOW_TIMEOUT: times.slowTimeout,
    MD_TIMEOUT: times.timeout,
  };
}

/** The service tier's placeholders (service-tier.conf: not written on an edge). */
function upstreamValues(upstream: ReturnType<typeof parseUpstream>): Record<string, string> {
  return {
    MD_UPSTREAM_SCHEME: upstream.scheme,
    MD_UPSTREAM_SERVER: upstream.server,
    MD_UPSTREAM_HOST: upstream.host,
    MD_UPSTREAM_PATH: upstream.path,
    MD_UPSTREAM_TLS:
      upstream.scheme === "https" ? upstreamTlsLines(upstream.hostname) : "# (plain-HTTP upstream: no TLS settings)",
  };
}

const template = (name: string) => readFileSync(path.join(TEMPLATE_DIR, name), "utf8");

/**
 * Fills the templates. Pure: no file is read but deploy/nginx/'s. sign-in.conf,
 * sign-in-tier.conf and sign-in.js are written only with identity settings (nginx.conf includes
 * them then, and only then).
 */
export function renderGatewayConfig(input: GatewayConfigInput): GatewayFiles {
  const checked = checkInput(input);
  const values = templateValues(input, checked);
  const signInValues = checked.identity
    ? { ...values, ...signInTemplateValues(checked.identity, checked.times) }
    : null;
  const signIn: GatewayFiles = signInValues
    ? {
        "sign-in.conf": fill(template("sign-in.conf.template"), signInValues),
        "sign-in-tier.conf": fill(template("sign-in-tier.conf.template"), signInValues),
        "sign-in.js": template("sign-in.js"),
      }
    : {};
  // An edge of the two-tier layout asks the cache tier instead of the service: no service tier, no key.
  const onward: GatewayFiles =
    input.tier?.role === "edge"
      ? {
          "edge-proxy.conf": fill(template("edge-proxy.conf.template"), values),
          "edge-tier.conf": fill(template("edge-tier.conf.template"), values),
          "edge-key-mode.conf": template("edge-key-mode.conf"),
        }
      : {
          "api-proxy.conf": fill(template("api-proxy.conf.template"), values),
          "service-tier.conf": fill(template("service-tier.conf.template"), values),
          "key-pass-through.conf": template("key-pass-through.conf"),
          "service-tier.js": template("service-tier.js"),
        };
  return {
    "nginx.conf": fill(template("gateway.conf.template"), values),
    ...onward,
    "mime.types": template("mime.types"),
    ...signIn,
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
