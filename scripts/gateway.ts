/**
 * `npm run gateway -- --upstream <service url> --port <port> [--key-file <file>] [--dist <dir>]`
 *
 * Runs a real nginx (deploy/nginx/) in front of the market-data service: it
 * serves the built add-in and proxies the service under /api/ on the same
 * origin. With --key-file the gateway holds the firm's key and caches answers
 * for everyone (firm mode); without, each analyst's key passes through and
 * nothing is cached. Installs Debian's nginx when it is missing and it can
 * (root with apt-get), or says what to install. Ctrl-C stops nginx.
 *
 * Sign-in (firm mode; required off this machine, see deploy/nginx/README.md): the
 * identity settings of scripts/lib/gateway/identity-settings.ts (--issuer,
 * --audience, --client-id, …; `--help` lists them), and
 *   --trusted-network      firm mode off this machine without sign-in: everyone who can reach
 *                          the address may spend the firm's key (see the README)
 *
 * Usage per user and day from the access log's JSON lines (requests, bytes, cache hit rate, refusals):
 *   npm run gateway -- usage <state dir>/logs/access.log [more logs…]
 *
 * Other options:
 *   --host <addr>          listen address (default 127.0.0.1; 0.0.0.0 for a team)
 *   --server-name <name>   a host name analysts use (repeatable; required with 0.0.0.0): any other Host is refused
 *   --state-dir <dir>      logs and cache, kept across restarts (default /var/lib/md-gateway/<port> as root,
 *                          else $XDG_STATE_HOME or ~/.local/state, /md-gateway/<port>); one another user could change is refused
 *   --rate <n> --burst <n> per-client request limit (default 20 r/s, burst 200)
 *   --tls-cert <pem> --tls-key <pem>   serve HTTPS (Excel loads add-ins only over HTTPS)
 *   --syslog <host:port>   also send the access log's JSON lines to a syslog server (UDP), e.g. a SIEM's collector
 *   --write-config <dir>   write the configuration for a system nginx and exit;
 *                          with --key-include <file> (firm mode, see deploy/nginx/README.md);
 *                          with --tier, one node of the two tiers (a cache node: --key-include, not --key-file)
 *
 * Past one machine, the two-tier layout (scripts/lib/gateway/tier.ts, deploy/nginx/README.md):
 *   --tier cache --key-file <file> --hop-secret-file <file> --upstream <service url>
 *                          a cache node: the firm key, the cache; admits only requests with the hop's secret
 *   --tier edge --cache-nodes <host:port>,<host:port>… --hop-secret-file <file> [sign-in settings]
 *                          an edge: sign-in, allowlists, per-user limits; each request to the cache
 *                          node the consistent hash of its cache key names (no key, no cache, no --upstream)
 *   The hop secret file holds one secret a line (openssl rand -hex 32): an edge sends the first, a cache
 *   node admits each (add the new one on the cache nodes, then put it first on the edges, then drop the old).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  CACHE_NODE_CSP,
  checkExposure,
  defaultStateDir,
  discoverJwksUri,
  ensureNginx,
  findNjsModule,
  HOP_INCLUDE,
  hopSecretInclude,
  identityArgs,
  identityFromArgs,
  identityHelp,
  identityUsage,
  type FirmKeyCheck,
  type GatewayTier,
  type IdentitySettings,
  paneCspFromDist,
  renderGatewayConfig,
  readHopSecrets,
  ROOT,
  serverNamesFor,
  startGateway,
  tierRate,
  tierServerNames,
} from "./lib/gateway";
import { usageReport } from "./lib/gateway/usage-report";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

// `npm run gateway -- usage <access.log>…`: the usage report (usage-report.ts), nothing started.
if (process.argv[2] === "usage") {
  const logs = process.argv.slice(3);
  if (!logs.length)
    fail("npm run gateway -- usage <access.log>… (the gateway's JSON access log, e.g. <state dir>/logs/access.log)");
  const missing = logs.find((file) => !existsSync(file));
  if (missing) fail(`${missing} does not exist.`);
  console.log(usageReport(logs.map((file) => readFileSync(file, "utf8")).join("\n")).table);
  process.exit(0);
}

const { values } = parseArgs({
  options: {
    upstream: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    "key-file": { type: "string" },
    dist: { type: "string" },
    "state-dir": { type: "string" },
    rate: { type: "string" },
    burst: { type: "string" },
    "tls-cert": { type: "string" },
    "tls-key": { type: "string" },
    "write-config": { type: "string" },
    "key-include": { type: "string" },
    ...identityArgs(),
    "trusted-network": { type: "boolean" },
    "server-name": { type: "string", multiple: true },
    tier: { type: "string" },
    "cache-nodes": { type: "string", multiple: true },
    "hop-secret-file": { type: "string" },
    syslog: { type: "string" },
    help: { type: "boolean" },
  },
});

if (values.help) {
  console.log(`${readUsage()}\n\nSign-in:\n${identityHelp()}`);
  process.exit(0);
}

function readUsage(): string {
  return `npm run gateway -- --upstream <service url> --port <port> [--key-file <file>] [${identityUsage()} | --trusted-network] [--dist <dir>] [--host <addr>] [--server-name <name>]… [--state-dir <dir>] [--rate <n>] [--burst <n>] [--tls-cert <pem> --tls-key <pem>] [--syslog <host:port>] [--write-config <dir> [--key-include <file>]]
  two tiers: … --tier cache --key-file <file> --hop-secret-file <file>   |   … --tier edge --cache-nodes <host:port>,… --hop-secret-file <file> (no --upstream, no --key-file)`;
}

/** --tier and what goes with it, checked (the runner checks the rest: tier.ts). */
function tierFromArgs(): GatewayTier | null {
  const nodes = (values["cache-nodes"] ?? []).flatMap((list) => list.split(",")).filter(Boolean);
  if (!values.tier) {
    if (nodes.length || values["hop-secret-file"])
      fail("--cache-nodes and --hop-secret-file go with --tier edge or --tier cache.");
    return null;
  }
  if (values["write-config"] && values["key-file"])
    fail(
      "--write-config writes no key: a cache node's configuration includes the firm key include (--key-include <file>).",
    );
  if (values["write-config"] && values.tier === "cache" && !values["key-include"])
    fail("A cache node's configuration needs the firm key include: --key-include <file> (see deploy/nginx/README.md).");
  if (values["key-include"] && values.tier === "edge")
    fail("An edge holds no key: --key-include goes to the cache nodes.");
  const hopSecretFile = values["hop-secret-file"];
  if (!hopSecretFile)
    fail(`--tier ${values.tier} needs --hop-secret-file <file> (the edge → cache hop's shared secret).`);
  if (!existsSync(hopSecretFile)) fail(`The hop secret file ${hopSecretFile} does not exist.`);
  if (values.tier === "cache") {
    if (nodes.length) fail("--cache-nodes is an edge's option (--tier edge).");
    return { role: "cache", hopSecretFile: path.resolve(hopSecretFile) };
  }
  if (values.tier !== "edge") fail(`--tier is edge or cache, not ${values.tier}.`);
  if (!nodes.length) fail("An edge needs its cache nodes: --cache-nodes <host:port>,<host:port>.");
  return { role: "edge", cacheNodes: nodes, hopSecretFile: path.resolve(hopSecretFile) };
}

const tier = tierFromArgs();
if (!values.upstream && tier?.role !== "edge") fail(`--upstream <service url> is required.\n${readUsage()}`);
const port = Number(values.port ?? 8080);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a port number, not ${values.port}.`);
const host = values.host ?? "127.0.0.1";
const distDir = path.resolve(values.dist ?? path.join(ROOT, "dist"));
const rate = values.rate === undefined ? undefined : Number(values.rate);
const burst = values.burst === undefined ? undefined : Number(values.burst);
if ((values["tls-cert"] === undefined) !== (values["tls-key"] === undefined))
  fail("--tls-cert and --tls-key go together.");
const tls =
  values["tls-cert"] && values["tls-key"]
    ? { cert: path.resolve(values["tls-cert"]), key: path.resolve(values["tls-key"]) }
    : null;
if (values["key-file"] && !existsSync(values["key-file"])) fail(`The key file ${values["key-file"]} does not exist.`);

let identity: IdentitySettings | null = null;
try {
  identity = identityFromArgs(values);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (identity && !values["key-file"] && !values["key-include"] && tier?.role !== "edge")
  fail("Sign-in protects the firm's key: it goes with --key-file (firm mode).");

/** A fresh clone has no build: make one whose service address is the gateway's /api. */
function ensureBuild(): void {
  if (existsSync(path.join(distDir, "functions.js")) && existsSync(path.join(distDir, "taskpane.html"))) return;
  if (values.dist) fail(`${distDir} holds no built add-in (functions.js, taskpane.html).`);
  const scheme = tls ? "https" : "http";
  const addinUrl = process.env.MD_ADDIN_URL ?? `${scheme}://${host === "0.0.0.0" ? os.hostname() : host}:${port}`;
  console.log(
    `No build in ${distDir}: building the add-in for this gateway (MD_BASE_URL=/api, MD_ADDIN_URL=${addinUrl}).`,
  );
  const result = spawnSync(path.join(ROOT, "node_modules", ".bin", "webpack"), ["--mode", "production"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, MD_BASE_URL: process.env.MD_BASE_URL ?? "/api", MD_ADDIN_URL: addinUrl },
  });
  if (result.status !== 0) fail("The build failed.");
}

async function writeConfig(dir: string): Promise<void> {
  const confDir = path.resolve(dir);
  const stateDir = path.resolve(values["state-dir"] ?? path.join(confDir, "state"));
  mkdirSync(confDir, { recursive: true });
  const keyInclude = values["key-include"]
    ? path.resolve(values["key-include"])
    : path.join(confDir, tier?.role === "edge" ? "edge-key-mode.conf" : "key-pass-through.conf");
  checkExposure({
    host,
    // An edge spends the firm's key through its cache nodes; a cache node admits only its edges (the hop's secret).
    keyMode: values["key-include"] || tier?.role === "edge" ? "firm" : "pass-through",
    identity,
    trustedNetwork: values["trusted-network"] || tier?.role === "cache",
  });
  const files = renderGatewayConfig({
    upstream: values.upstream ?? null,
    tier,
    listen: `${host}:${port}`,
    jsModule: findNjsModule() ?? "/usr/lib/nginx/modules/ngx_http_js_module.so",
    serverNames: serverNamesFor(host, tierServerNames(tier, values["server-name"])),
    identity: identity ? { ...identity, jwksUri: identity.jwksUri ?? (await discoverJwksUri(identity.issuer)) } : null,
    distDir,
    confDir,
    stateDir,
    keyInclude,
    workerUser: process.getuid?.() === 0 ? { user: "www-data", group: "www-data" } : null,
    paneCsp: tier?.role === "cache" ? CACHE_NODE_CSP : paneCspFromDist(distDir, identity),
    // Nothing checks the firm key of a system nginx's configuration: /healthz says so.
    keyCheck:
      tier?.role === "edge"
        ? { firmKey: "unchecked", checkedAt: null, detail: "the firm key is on the cache tier" }
        : values["key-include"]
          ? { firmKey: "unchecked", checkedAt: null, detail: "the configuration was written for a system nginx" }
          : { firmKey: "none", checkedAt: null },
    ...tierRate(tier, { rate, burst }),
    tls,
    syslog: values.syslog ?? null,
  });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(confDir, name), text, { mode: 0o644 });
  if (tier) writeHopInclude(confDir, tier);
  console.log(`Wrote ${Object.keys(files).join(", ")} to ${confDir}.
Create ${stateDir}/{logs,cache,temp,jwks} (cache, temp and jwks writable by the workers' user), then:
  nginx -t -p ${stateDir}/ -c ${path.join(confDir, "nginx.conf")}
${tier ? `The hop's secret is in ${path.join(confDir, HOP_INCLUDE)} (0600: the master reads it as root); write the configuration again after changing ${tier.hopSecretFile}.\n` : ""}${tier?.role === "edge" ? "An edge: no key, no cache (the cache nodes have them)." : values["key-include"] ? `Firm mode: ${keyInclude} must exist (0600, owned by root): see deploy/nginx/README.md.` : "Pass-through mode (no --key-include): each analyst's key passes through, nothing is cached."}`);
}

/**
 * hop-secret.conf, the hop's secret in nginx syntax, as the written nginx.conf includes it: created 0600
 * (never world-readable, like the firm key include), replacing any earlier one rather than writing into it.
 */
function writeHopInclude(confDir: string, tier: GatewayTier): void {
  let text: string;
  try {
    text = hopSecretInclude(tier, readHopSecrets(tier.hopSecretFile), "written");
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const file = path.join(confDir, HOP_INCLUDE);
  rmSync(file, { force: true });
  writeFileSync(file, text, { mode: 0o600, flag: "wx" });
}

function firmKeyLine(check: FirmKeyCheck): string {
  const at = check.checkedAt ? ` at ${check.checkedAt}` : "";
  switch (check.firmKey) {
    case "accepted":
      return `accepted by the service (checked${at})`;
    case "refused":
      return `REFUSED by the service (${check.detail}, checked${at}): see the warning below`;
    case "unchecked":
      return `not checked: ${check.detail} (restart the gateway to check again)`;
    default:
      return "none (pass-through mode)";
  }
}

async function main(): Promise<void> {
  ensureBuild();
  if (values["write-config"]) {
    await writeConfig(values["write-config"]);
    return;
  }
  const nginx = ensureNginx();
  if ("missing" in nginx) fail(nginx.missing);
  const stateDir = path.resolve(values["state-dir"] ?? defaultStateDir(port));
  const gateway = await startGateway({
    ...(values.upstream ? { upstream: values.upstream } : {}),
    tier,
    port,
    host,
    distDir,
    stateDir,
    nginx: nginx.path,
    jsModule: nginx.jsModule,
    identity,
    trustedNetwork: values["trusted-network"] ?? false,
    ...(values["server-name"] ? { serverNames: values["server-name"] } : {}),
    ...(values["key-file"] ? { keyFile: path.resolve(values["key-file"]) } : {}),
    ...(rate !== undefined ? { rate } : {}),
    ...(burst !== undefined ? { burst } : {}),
    tls,
    syslog: values.syslog ?? null,
    log: (line) => console.log(line),
  });
  console.log(`
Market Data gateway (nginx pid ${gateway.pid}) on ${gateway.url}
  • the add-in:   ${gateway.url}/taskpane.html   (manifest: ${gateway.url}/manifest.xml)
  • the service:  ${gateway.url}/api/…  →  ${tier?.role === "edge" ? `the cache nodes ${tier.cacheNodes.join(", ")}` : values.upstream}
  • key mode:     ${gateway.keyMode === "firm" ? "firm (the gateway adds the key; analysts enter none; answers cached for everyone)" : "pass-through (each analyst's own key; nothing cached)"}
  • firm key:     ${firmKeyLine(gateway.keyCheck)}
  • sign-in:      ${identity ? `every /api/ request needs an access token from ${identity.issuer} for ${identity.audience}` : values["trusted-network"] ? "none: the network is trusted (--trusted-network)" : "none (this machine only)"}
  • tier:         ${tier?.role === "edge" ? "an edge of the two-tier layout (no key, no cache: the cache nodes have them)" : tier?.role === "cache" ? "a cache node of the two-tier layout (answers only requests with the hop's secret)" : "one gateway"}
  • health:       ${gateway.url}/healthz
  • logs, cache:  ${gateway.logsDir}, ${gateway.cacheDir}
The add-in's service address must be /api (build with MD_BASE_URL=/api, or set it in Settings → Advanced).
Press Ctrl+C to stop.`);
  if (gateway.keyCheck.firmKey === "refused")
    console.error(`
WARNING: the market-data service refused the firm key in ${values["key-file"]} (${gateway.keyCheck.detail}).
Every answer the gateway fetches for analysts will be this refusal until the key is replaced:
put the right key in the file and restart the gateway. /healthz says "firmKey":"refused" meanwhile.`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping nginx…");
    await gateway.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const code = await gateway.exited;
  if (!stopping) {
    await gateway.stop();
    fail(`nginx exited on its own (${code}); see ${gateway.logsDir}/error.log.`);
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
