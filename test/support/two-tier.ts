/**
 * The two-tier world (harness/two-tier.ts) for the suite it is called in: the
 * sandbox (accepting only the firm's key), 2 cache nodes and 3 edges, started
 * before and stopped after.
 */
import { randomUUID } from "node:crypto";
import { startSandbox, type SandboxHandle } from "../../sandbox/server";
import type { GatewayOptions, IdentitySettings } from "../../scripts/lib/gateway";
import { startTwoTier, type TwoTierLayout } from "../../harness/two-tier";
import { DIST } from "../../harness/bundle";
import { NGINX } from "./gateway";
import { useWorld } from "./use-world";

export interface TwoTierWorld {
  sandbox: SandboxHandle;
  layout: TwoTierLayout;
  close(): Promise<void>;
}

/** `identity` is asked when the block starts (the identity provider is up by then); `common` goes to every node. */
export function useTwoTier(
  identity: () => IdentitySettings | null,
  common: Partial<GatewayOptions> = {},
  timeoutMs = 90_000,
): TwoTierWorld {
  return useWorld(
    "the two-tier layout (useTwoTier)",
    async () => {
      const key = `md-firm-${randomUUID()}`;
      const sandbox = await startSandbox({ quiet: true, insightFirstCallDelayMs: 10, apiKey: key });
      let layout: TwoTierLayout;
      try {
        layout = await startTwoTier({
          upstream: sandbox.url,
          key,
          identity: identity(),
          common: { distDir: DIST, nginx: NGINX ?? undefined, ...common },
        });
      } catch (error) {
        await sandbox.close();
        throw error;
      }
      return {
        sandbox,
        layout,
        async close() {
          await layout.close();
          await sandbox.close();
        },
      };
    },
    timeoutMs,
  );
}
