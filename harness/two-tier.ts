/**
 * A two-tier gateway layout on this machine (loopback), as the two-tier test
 * and the morning-storm benchmark run it: `cacheNodes` cache nodes (the firm
 * key, the cache) started first, then `edges` edge gateways (sign-in, the
 * allowlists, per-user limits) that hash each request to one of them. Each
 * is a real nginx started by the gateway's own runner, as
 * `npm run gateway -- --tier cache|edge` starts one; the hop's shared secret
 * is a fresh one in a private file.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startGateway, type GatewayHandle, type GatewayOptions, type IdentitySettings } from "../scripts/lib/gateway";

export interface TwoTierOptions {
  /** The service's address (the sandbox's). */
  upstream: string;
  /** The firm's key (default a fresh md-firm-…): only the cache nodes get it. */
  key?: string;
  /** The edges' sign-in settings (null: none, loopback only). */
  identity: IdentitySettings | null;
  edges?: number;
  cacheNodes?: number;
  /** What every node is started with besides (nginx, dist, rate, …). */
  common?: Partial<GatewayOptions>;
}

export interface TwoTierLayout {
  edges: GatewayHandle[];
  cacheNodes: GatewayHandle[];
  key: string;
  /** The edge → cache hop's shared secret (the tests look for it where it must not be). */
  hopSecret: string;
  close(): Promise<void>;
}

export async function startTwoTier(options: TwoTierOptions): Promise<TwoTierLayout> {
  const key = options.key ?? `md-firm-${randomUUID()}`;
  const hopSecret = randomBytes(32).toString("hex");
  const secrets = mkdtempSync(path.join(os.tmpdir(), "md-two-tier-"));
  const keyFile = path.join(secrets, "firm.key");
  const hopSecretFile = path.join(secrets, "hop.secret");
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  writeFileSync(hopSecretFile, `${hopSecret}\n`, { mode: 0o600 });
  const started: GatewayHandle[] = [];
  const close = async () => {
    await Promise.all(started.map((g) => g.stop()));
    rmSync(secrets, { recursive: true, force: true });
  };
  try {
    const cacheNodes = await Promise.all(
      Array.from({ length: options.cacheNodes ?? 2 }, async () => {
        const node = await startGateway({
          ...options.common,
          upstream: options.upstream,
          port: 0,
          keyFile,
          tier: { role: "cache", hopSecretFile },
        });
        started.push(node);
        return node;
      }),
    );
    const edges = await Promise.all(
      Array.from({ length: options.edges ?? 3 }, async () => {
        const edge = await startGateway({
          ...options.common,
          port: 0,
          identity: options.identity,
          tier: { role: "edge", hopSecretFile, cacheNodes: cacheNodes.map((n) => `127.0.0.1:${n.port}`) },
        });
        started.push(edge);
        return edge;
      }),
    );
    return { edges, cacheNodes, key, hopSecret, close };
  } catch (error) {
    await close();
    throw error;
  }
}
