/**
 * Who may use the gateway (firm mode's sign-in), in one place: each identity
 * setting's command-line option, its check and default, the values it gives
 * deploy/nginx/sign-in.conf.template (what sign-in.js checks) and what the
 * add-in is told at /api/_gateway (src/core/gateway-answer.ts).
 *
 * A new setting is a field of IdentitySettings, a row of IDENTITY_OPTIONS
 * (the option, its help, how it is checked; checks run in the rows' order),
 * and its use: a field of oidcRules (with its check in
 * deploy/nginx/sign-in.js, which reads them from one variable), or a field of
 * signInAnswer (with the field in src/core/gateway-answer.ts, which the add-in
 * reads); and its line in deploy/nginx/README.md. Three files either way.
 */
import type { GatewaySignIn } from "../../../src/core/gateway-answer";
import { isLoopback } from "./loopback";
import type { GatewayTimes } from "./times";
import { upstreamTlsLines } from "./upstream";

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
  /** The application the tokens must be issued to (`azp`, or Entra v1's `appid`); default: not checked. */
  authorizedParty?: string;
  /** The issuer's keys; default: read from <issuer>/.well-known/openid-configuration at start. */
  jwksUri?: string;
  /** Tolerance for `exp` and `nbf`, seconds; default 60. */
  clockSkewSeconds?: number;
}

interface IdentityOption {
  /** The command-line option (`--<option>`). */
  option: string;
  /** What its value is, in the usage line (`--issuer <url>`). */
  arg: string;
  /** How the setting is named in messages. */
  name: string;
  /** For `npm run gateway -- --help`. */
  help: string;
  /** Required with sign-in. */
  required?: boolean;
  /** An address: https://, or http:// on this machine only. */
  address?: boolean;
  /** Repeatable: the setting is a list. */
  multiple?: boolean;
}

/** The identity settings given on the command line, by their field of IdentitySettings. */
export const IDENTITY_OPTIONS = {
  issuer: {
    option: "issuer",
    arg: "url",
    name: "issuer",
    help: "the access tokens' issuer (iss), e.g. https://login.microsoftonline.com/<tenant id>/v2.0",
    required: true,
    address: true,
  },
  audience: {
    option: "audience",
    arg: "aud",
    name: "audience",
    help: "the access tokens' audience (aud)",
    required: true,
  },
  clientId: {
    option: "client-id",
    arg: "id",
    name: "client id",
    help: "the add-in's client id (told to the add-in by /api/_gateway)",
    required: true,
  },
  authority: {
    option: "authority",
    arg: "url",
    name: "authority",
    help: "where the add-in signs in (default: the issuer without /v2.0)",
    address: true,
  },
  tenant: { option: "tenant", arg: "tid", name: "tenant", help: "required tenant id (tid)" },
  group: { option: "group", arg: "id", name: "group", help: "a value the groups or roles claim must hold" },
  authorizedParty: {
    option: "authorized-party",
    arg: "id",
    name: "authorized party",
    help: "the client id the tokens must be issued to (azp or appid), e.g. the add-in's",
  },
  jwksUri: {
    option: "jwks-uri",
    arg: "url",
    name: "JWKS address",
    help: "the issuer's keys (default: from its discovery document)",
    address: true,
  },
  scopes: {
    option: "scope",
    arg: "scope",
    name: "scope",
    help: "what the add-in asks for (repeatable; default <audience>/.default)",
    multiple: true,
  },
} as const satisfies Partial<Record<keyof IdentitySettings, IdentityOption>>;

type OptionField = keyof typeof IDENTITY_OPTIONS;
const OPTION_FIELDS = Object.keys(IDENTITY_OPTIONS) as OptionField[];

/** The options for node:util's parseArgs. */
export function identityArgs(): Record<string, { type: "string"; multiple?: boolean }> {
  return Object.fromEntries(
    Object.values(IDENTITY_OPTIONS).map((o: IdentityOption) => [
      o.option,
      o.multiple ? { type: "string", multiple: true } : { type: "string" },
    ]),
  );
}

/** The sign-in options in the usage line: `--issuer <url> … [--authority <url>] [--scope <scope>]…`. */
export function identityUsage(): string {
  return Object.values(IDENTITY_OPTIONS)
    .map((o: IdentityOption) => {
      const one = `--${o.option} <${o.arg}>`;
      return o.required ? one : `[${one}]${o.multiple ? "…" : ""}`;
    })
    .join(" ");
}

/** The sign-in options as `--help` lists them, one a line. */
export function identityHelp(): string {
  return Object.values(IDENTITY_OPTIONS)
    .map((o: IdentityOption) => `  ${`--${o.option} <${o.arg}>`.padEnd(23)}${o.help}`)
    .join("\n");
}

/**
 * The identity settings from parseArgs' values, or null when none is given;
 * throws when some but not all of the required ones are.
 */
export function identityFromArgs(values: Record<string, unknown>): IdentitySettings | null {
  const given = OPTION_FIELDS.filter((f) => values[IDENTITY_OPTIONS[f].option] !== undefined);
  const required = OPTION_FIELDS.filter((f) => (IDENTITY_OPTIONS[f] as IdentityOption).required);
  const requiredGiven = required.filter((f) => given.includes(f));
  if (requiredGiven.length > 0 && requiredGiven.length < required.length) {
    const names = required.map((f) => `--${IDENTITY_OPTIONS[f].option}`);
    throw new Error(`Sign-in needs ${names.slice(0, -1).join(", ")} and ${names.at(-1)} together.`);
  }
  if (requiredGiven.length === 0) return null;
  const settings: Record<string, unknown> = {};
  for (const field of given) {
    const value = values[IDENTITY_OPTIONS[field].option];
    if (Array.isArray(value) && value.length === 0) continue;
    if (value) settings[field] = value;
  }
  return settings as unknown as IdentitySettings;
}

/** Identity settings checked, with their defaults filled in. */
export type CheckedIdentity = Required<Omit<IdentitySettings, "jwksUri" | "authorizedParty">> & {
  jwksUri?: string;
  authorizedParty: string;
};

/** Characters the identity settings may hold: they go into nginx strings and a JSON literal. */
const IDENTITY_SAFE = /^[A-Za-z0-9._~:/?#@!&()*+,;=%[\]-]+$/;

function checkText(name: string, value: string): void {
  if (!value || !IDENTITY_SAFE.test(value) || value.includes(";"))
    throw new Error(
      `The ${name} "${value}" is empty or holds a character the gateway cannot pass on (quotes, $, spaces, ;).`,
    );
}

function checkAddress(name: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`The ${name} "${value}" is not an address.`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname)))
    throw new Error(`The ${name} must be an https:// address (http:// only on this machine), not ${value}.`);
}

export function checkIdentity(identity: IdentitySettings): CheckedIdentity {
  const options = OPTION_FIELDS.map((f) => [f, IDENTITY_OPTIONS[f] as IdentityOption] as const);
  for (const [field, option] of options) {
    const value = identity[field];
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) checkText(option.name, one);
  }
  for (const [field, option] of options) {
    const value = identity[field];
    if (option.address && typeof value === "string") checkAddress(option.name, value);
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
    authorizedParty: identity.authorizedParty ?? "",
    clockSkewSeconds: skew,
    ...(identity.jwksUri ? { jwksUri: identity.jwksUri } : {}),
  };
}

/** What /api/_gateway tells the add-in about signing in. */
export function signInAnswer(identity: CheckedIdentity): GatewaySignIn {
  return { authority: identity.authority, clientId: identity.clientId, scopes: identity.scopes };
}

/** The answer of /api/_gateway; `$md_key_mode` is filled by nginx from the key include. */
export function gatewayAnswer(identity: CheckedIdentity | null): string {
  return JSON.stringify({ keyMode: "$md_key_mode", ...(identity ? { auth: signInAnswer(identity) } : {}) });
}

/** OpenID Connect's own scopes: they say what the ID token holds, not what the access token is for. */
const OIDC_SCOPES = ["openid", "profile", "email", "offline_access"];

/** The scopes an access token for the gateway must hold one of: what the add-in asks for, less .default and OIDC's own. */
export function requiredScopes(identity: CheckedIdentity): string[] {
  return identity.scopes.filter((s) => !s.endsWith("/.default") && s !== ".default" && !OIDC_SCOPES.includes(s));
}

/** An nginx time ("90s", "10m", "1h") in whole seconds. */
export function nginxSeconds(time: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(time);
  if (!match) throw new Error(`"${time}" is not an nginx time such as 90s, 5m or 1h.`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[match[2] ?? "s"] ?? 1;
  return Math.floor(Number(match[1]) * unit);
}

/**
 * What sign-in.js checks every token against ($md_oidc_rules, one value in
 * sign-in-tier.conf.template): a setting nginx checks is a field here and its
 * check in sign-in.js. Base64, so no value can reach nginx's syntax (a `$`
 * would be read as a variable, a quote would end the string).
 */
export function oidcRules(identity: CheckedIdentity): Record<string, string | number> {
  return {
    issuer: identity.issuer,
    audience: identity.audience,
    tenant: identity.tenant,
    group: identity.group,
    scopes: requiredScopes(identity).join(" "),
    authorizedParty: identity.authorizedParty,
    clockSkew: identity.clockSkewSeconds,
  };
}

/**
 * The placeholders of sign-in.conf.template and sign-in-tier.conf.template:
 * what sign-in.js checks (`$md_oidc_rules`: oidcRules), where the issuer's
 * keys are, and how long keys and verdicts are kept.
 */
export function signInTemplateValues(
  identity: CheckedIdentity & { jwksUri: string },
  times: GatewayTimes,
): Record<string, string> {
  const keySeconds = nginxSeconds(times.jwks);
  const signedInSeconds = nginxSeconds(times.signedIn);
  if (keySeconds < 1 || keySeconds > 900)
    throw new Error(`The key set's lifetime must be 1 s to 15 min, not ${times.jwks}.`);
  if (signedInSeconds > 60) throw new Error(`A verified token is kept a minute at most, not ${times.signedIn}.`);
  const jwks = new URL(identity.jwksUri);
  const port = jwks.port || (jwks.protocol === "https:" ? "443" : "80");
  return {
    MD_OIDC_RULES: Buffer.from(JSON.stringify(oidcRules(identity))).toString("base64"),
    MD_SIGNED_IN_SECONDS: String(signedInSeconds),
    MD_JWKS_SECONDS: String(keySeconds),
    MD_JWKS_GRACE_SECONDS: String(nginxSeconds(times.jwksGrace)),
    MD_JWKS_TARGET: `${jwks.protocol}//${jwks.hostname}:${port}${jwks.pathname}${jwks.search}`,
    MD_JWKS_HOST: jwks.host,
    MD_JWKS_TLS:
      jwks.protocol === "https:"
        ? upstreamTlsLines(jwks.hostname.replace(/^\[|\]$/g, "")).replace(/\n/g, "\n    ")
        : "# (plain-HTTP issuer on this machine)",
    MD_TTL_JWKS: times.jwks,
    MD_TTL_JWKS_REFRESH: times.jwksRefresh,
  };
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
