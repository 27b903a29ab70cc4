/**
 * The identity provider of the sign-in tests (harness/identity.ts: a real
 * OpenID Connect provider and the tokens an attacker would make), and its
 * set-up for a suite.
 */
import { type IdentityProvider, type IdentityProviderOptions, startIdentityProvider } from "../../harness/identity";
import { useWorld } from "./use-world";

export * from "../../harness/identity";

/** The identity provider for the suite or describe block this is called in (started before, stopped after). */
export function useIdentityProvider(timeoutMs = 60_000, options: IdentityProviderOptions = {}): IdentityProvider {
  return useWorld("the identity provider (useIdentityProvider)", () => startIdentityProvider(options), timeoutMs);
}
