/**
 * What the gateway is started with and what it hands back (GatewayOptions,
 * GatewayHandle), and the settings beside them: where the templates are, the
 * key modes, the body cap (cache lifetimes and timeouts: times.ts). Identity settings:
 * identity-settings.ts.
 */
import os from "node:os";
import path from "node:path";
import type { FirmKeyCheck } from "./firm-key";
import type { IdentitySettings } from "./identity-settings";
import type { GatewayTier } from "./tier";
import type { GatewayTimes } from "./times";

export const ROOT = path.resolve(__dirname, "../../..");
export const TEMPLATE_DIR = path.join(ROOT, "deploy", "nginx");

export type KeyMode = "firm" | "pass-through";

export { DEFAULT_TIMES, type GatewayTimes } from "./times";

/** The largest answer of the service the gateway passes on and caches (bytes). */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The default state directory for `port`, outside the world-writable temp
 * directory (where another local user could create it first): root's in
 * /var/lib/md-gateway/<port>; anyone else's in their own XDG state
 * directory, $XDG_STATE_HOME (an absolute path, else ~/.local/state, as the
 * XDG Base Directory specification says)/md-gateway/<port>.
 */
export function defaultStateDir(
  port: number,
  who: { uid: number; env: NodeJS.ProcessEnv; home: string } = {
    uid: process.getuid?.() ?? -1,
    env: process.env,
    home: os.homedir(),
  },
): string {
  if (who.uid === 0) return path.join("/var/lib/md-gateway", String(port));
  const xdg = who.env.XDG_STATE_HOME;
  const stateHome = xdg && path.isAbsolute(xdg) ? xdg : path.join(who.home, ".local", "state");
  return path.join(stateHome, "md-gateway", String(port));
}

export interface GatewayOptions {
  /** The service's address; not needed by an edge of the two-tier layout (its cache nodes ask the service). */
  upstream?: string;
  /**
   * The two-tier layout (tier.ts): an edge (sign-in, allowlists, limits; no key, no cache) forwarding to the cache
   * nodes, or a cache node (keyFile required; admits only requests with the hop's secret). Default: one gateway.
   */
  tier?: GatewayTier | null;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Firm mode: a file holding the firm's key (one line). Without it: pass-through mode. */
  keyFile?: string;
  distDir?: string;
  /**
   * nginx prefix (logs, cache); default a fresh private temp dir, removed at stop (npm run gateway
   * passes defaultStateDir(port)). One the runner did not create, or that another user can change, is refused.
   */
  stateDir?: string;
  rate?: number;
  burst?: number;
  /** Per client address: token checks per second that reach sign-in.js (a verified token is kept, so mostly failures), and the burst. */
  signInRate?: number;
  signInBurst?: number;
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
  /** Also send the access log's JSON lines to this syslog server, "host:port" (UDP). */
  syslog?: string | null;
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
