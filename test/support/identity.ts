/**
 * The identity provider of the sign-in tests (harness/identity.ts: a real
 * OpenID Connect provider and the tokens an attacker would make), and its
 * set-up for a suite.
 */
import {
  type IdentityProvider,
  type IdentityProviderOptions,
  startIdentityProvider,
  TEST_AUDIENCE,
  TEST_TENANT,
} from "../../harness/identity";
import type { IdentitySettings } from "../../scripts/lib/gateway";
import { useWorld } from "./use-world";

export * from "../../harness/identity";

/** The identity provider for the suite or describe block this is called in (started before, stopped after). */
export function useIdentityProvider(timeoutMs = 60_000, options: IdentityProviderOptions = {}): IdentityProvider {
  return useWorld("the identity provider (useIdentityProvider)", () => startIdentityProvider(options), timeoutMs);
}

/**
 * The gateway's identity settings for this provider's tokens: its issuer, the
 * test audience and tenant, the add-in's client, and `group` as the group or
 * role every token must hold.
 */
export function gatewayIdentity(provider: IdentityProvider, group: string): IdentitySettings {
  return {
    issuer: provider.issuer,
    audience: TEST_AUDIENCE,
    clientId: "md-addin-client",
    tenant: TEST_TENANT,
    group,
    scopes: [`${TEST_AUDIENCE}/access_as_user`],
  };
}
