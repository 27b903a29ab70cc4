/**
 * The two-tier layout (`npm run gateway -- --tier edge|cache`): past one
 * machine, on nginx itself.
 *
 *   edge gateways   TLS, sign-in, the endpoint and Host allowlists, header hygiene, per-user limits;
 *                   no key, no cache (edge-proxy.conf.template, edge-tier.conf.template)
 *        │  one cache node per request, by consistent hash of the cache key;
 *        │  the hop's shared secret in X-MD-Hop
 *        ▼
 *   cache nodes     the firm key, the cache, identical requests collapsed, stale answers while the
 *                   service is down: today's gateway, admitting only requests with the secret
 *
 * Why a shared secret and not mutual TLS for the hop: it is one file on each
 * side, read like the firm key (never in argv, a log or a file nginx keeps),
 * rotated without a certificate authority (each line of the file is accepted,
 * the first is sent), and nginx checks it before anything else. It does not
 * encrypt: the hop is meant for the firm's private network, as the link to the
 * service tier is; across a network the firm does not trust, put the hop on
 * TLS as well (not written by `npm run gateway` yet).
 */
import { readFileSync } from "node:fs";

export type GatewayTier =
  | {
      role: "edge";
      /** The cache nodes, `host:port` each (the edges of one layout list the same nodes, in any order). */
      cacheNodes: string[];
      /** The hop's shared secret: a file, one secret a line; the first is sent. */
      hopSecretFile: string;
    }
  | {
      role: "cache";
      /** The hop's shared secret: a file, one secret a line; a request with any of them is admitted. */
      hopSecretFile: string;
    };

/** The Host an edge asks a cache node for (a cache node answers it besides its own names). */
export const CACHE_TIER_HOST = "md-cache-tier";
/** The include holding the hop's secret, in the configuration directory (0600). */
export const HOP_INCLUDE = "hop-secret.conf";
/** The request header that carries the hop's secret. */
export const HOP_HEADER = "X-MD-Hop";

const SECRET = /^[A-Za-z0-9_-]{32,256}$/;

/**
 * The secrets in a hop secret file: non-empty lines, each 32 to 256 letters,
 * digits, "-" or "_" (`openssl rand -hex 32` makes one). Errors name the line,
 * never its text.
 */
export function readHopSecrets(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(
      `The hop secret file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}).`,
      { cause: error },
    );
  }
  const secrets = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (secrets.length === 0) throw new Error(`The hop secret file ${file} is empty.`);
  secrets.forEach((secret, n) => {
    if (!SECRET.test(secret))
      throw new Error(
        `Line ${n + 1} of the hop secret file ${file} is not a secret of 32 to 256 letters, digits, "-" or "_" ` +
          "(make one with: openssl rand -hex 32).",
      );
  });
  return secrets;
}

/** A cache node's address as an edge lists it: host:port, the host a name, an IPv4 address or [IPv6]. */
export function parseCacheNode(text: string): string {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535)
    throw new Error(`"${text}" is not a cache node's address: give host:port (e.g. cache-1.internal:8081).`);
  return `${match[1]}:${port}`;
}

/**
 * hop-secret.conf, the include that holds the secret (written at start,
 * deleted once nginx has read it, as firm-key.conf is). An edge: the secret
 * it sends. A cache node: $md_hop_refused, "" for a request that carries one
 * of the secrets and 1 otherwise — a case-sensitive regular expression, as
 * a map's plain strings are matched ignoring case.
 */
export function hopSecretInclude(
  tier: GatewayTier,
  secrets: string[],
  kept: "deleted" | "written" = "deleted",
): string {
  const head =
    kept === "deleted"
      ? "# The two-tier layout's hop secret (written by npm run gateway; deleted once nginx has read it)."
      : "# The two-tier layout's hop secret (written by npm run gateway --write-config, 0600: keep it so).";
  if (tier.role === "edge")
    return [head, "map $md_request_path $md_hop_secret {", `    default "${secrets[0]}";`, "}", ""].join("\n");
  return [
    head,
    "map $http_x_md_hop $md_hop_refused {",
    `    "~^(?:${secrets.join("|")})$" "";`,
    "    default 1;",
    "}",
    "",
  ].join("\n");
}

/** A cache node sees only its edges' addresses, which limit per user: its own limit is only a ceiling. */
const CACHE_NODE_RATE = 100_000;

/** The per-client limit a node is written with: a cache node's defaults to CACHE_NODE_RATE (the edges limit per user). */
export function tierRate(
  tier: GatewayTier | null | undefined,
  given: { rate?: number; burst?: number },
): { rate?: number; burst?: number } {
  const cache = tier?.role === "cache";
  const rate = given.rate ?? (cache ? CACHE_NODE_RATE : undefined);
  const burst = given.burst ?? (cache ? CACHE_NODE_RATE : undefined);
  return { ...(rate !== undefined ? { rate } : {}), ...(burst !== undefined ? { burst } : {}) };
}

/** The host names a node answers: a cache node answers its edges' CACHE_TIER_HOST as well. */
export function tierServerNames(
  tier: GatewayTier | null | undefined,
  names: string[] | undefined,
): string[] | undefined {
  return tier?.role === "cache" ? [...(names ?? []), CACHE_TIER_HOST] : names;
}

/** A cache node serves no page of the add-in: its Content-Security-Policy allows nothing. */
export const CACHE_NODE_CSP = "default-src 'none'";

/** How an edge treats its cache nodes (edge-tier.conf.template, edge-proxy.conf.template). */
const HOP = { connectTimeout: "2s", maxFails: 1, failTimeout: "10s" };

/** The placeholders the tier sets in the templates: on one gateway, every tier line commented out. */
export function tierTemplateValues(tier: GatewayTier | null): Record<string, string> {
  const role = tier?.role ?? null;
  const values: Record<string, string> = {
    MD_IF_CACHE: role === "edge" ? "# " : "",
    MD_IF_TIER: role ? "" : "# ",
    MD_IF_CACHE_NODE: role === "cache" ? "" : "# ",
    MD_ONWARD_CONF: role === "edge" ? "edge-proxy.conf" : "api-proxy.conf",
    MD_NEXT_HOP_CONF: role === "edge" ? "edge-tier.conf" : "service-tier.conf",
  };
  if (tier?.role !== "edge") return values;
  const nodes = tier.cacheNodes.map(parseCacheNode);
  if (nodes.length === 0) throw new Error("An edge needs at least one cache node (--cache-node host:port).");
  if (new Set(nodes).size !== nodes.length) throw new Error("A cache node is listed twice.");
  return {
    ...values,
    MD_CACHE_TIER_HOST: CACHE_TIER_HOST,
    MD_CACHE_NODE_SERVERS: nodes
      .map((node) => `    server ${node} max_fails=${HOP.maxFails} fail_timeout=${HOP.failTimeout};`)
      .join("\n"),
    MD_HOP_CONNECT_TIMEOUT: HOP.connectTimeout,
    MD_HOP_MAX_FAILS: String(HOP.maxFails),
    MD_HOP_FAIL_TIMEOUT: HOP.failTimeout,
    MD_HOP_TRIES: String(nodes.length),
  };
}
