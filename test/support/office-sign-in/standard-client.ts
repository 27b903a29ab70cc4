/**
 * MSAL's standard client (PublicClientApplication) over a stand-in identity
 * provider, for the table tests of which flow runs where: it records what the
 * add-in asks (a popup, a silent call with a login hint, a cache read) and
 * issues the provider's tokens. The real MSAL against the real provider runs in
 * test/browser/gateway-signin.test.ts.
 *
 * `expire()` models the end of what MSAL can renew without the user: a
 * single-page app's refresh token "is valid for only 24 hours" and is not
 * renewed past that (Microsoft Learn, *Refresh tokens in the Microsoft identity
 * platform*, https://learn.microsoft.com/entra/identity-platform/refresh-tokens),
 * and where the provider's own session does not answer a hidden frame either,
 * MSAL's silent calls throw InteractionRequiredAuthError.
 */
import {
  BrowserAuthError,
  InteractionRequiredAuthError,
  type AccountInfo,
  type AuthenticationResult,
  type Configuration,
  type IPublicClientApplication,
} from "@azure/msal-browser";

export interface StandardClientOptions {
  /** Who the provider signs in. */
  user: { username: string; name: string };
  /** The token the provider issues for the nth request (1-based). */
  issue(n: number): string;
  /** The plain browser blocks the popup (MSAL's popup_window_error). */
  popupBlocked?: boolean;
  /** The provider's session answers a hidden frame for this login hint (ssoSilent). */
  ssoFor?: string;
}

export function standardClient(options: StandardClientOptions) {
  const calls: string[] = [];
  let issued = 0;
  let expired = false;
  const accounts: AccountInfo[] = [];
  const account: AccountInfo = {
    homeAccountId: `${options.user.username}.home`,
    environment: "idp",
    tenantId: "",
    username: options.user.username,
    localAccountId: options.user.username,
    name: options.user.name,
  };
  const result = (scopes: string[], authority: string): AuthenticationResult => {
    if (!accounts.includes(account)) accounts.push(account);
    return {
      authority,
      uniqueId: account.localAccountId,
      tenantId: "",
      scopes,
      account,
      idToken: "",
      idTokenClaims: {},
      accessToken: options.issue(++issued),
      fromCache: false,
      expiresOn: new Date(Date.now() + 3_600_000),
      tokenType: "Bearer",
      correlationId: "standard",
    };
  };
  const make = async (configuration: Configuration): Promise<IPublicClientApplication> => {
    const authority = configuration.auth.authority ?? "";
    let active: AccountInfo | null = null;
    const app = {
      initialize: async () => undefined,
      getActiveAccount: () => active,
      setActiveAccount: (a: AccountInfo | null) => void (active = a),
      getAllAccounts: () => [...accounts],
      getAccount: (filter: { username?: string }) => accounts.find((a) => a.username === filter.username) ?? null,
      acquireTokenSilent: async ({ scopes, account: who }: { scopes: string[]; account?: AccountInfo }) => {
        calls.push("acquireTokenSilent");
        if (!who || !accounts.includes(who) || expired)
          throw new InteractionRequiredAuthError(
            "interaction_required",
            "c",
            "AADSTS700084: The refresh token expired.",
          );
        return result(scopes, authority);
      },
      ssoSilent: async ({ scopes, loginHint }: { scopes: string[]; loginHint?: string }) => {
        calls.push(`ssoSilent ${loginHint ?? ""}`.trim());
        if (expired || !loginHint || loginHint !== options.ssoFor)
          throw new InteractionRequiredAuthError("login_required", "c", "The provider's session does not answer.");
        return result(scopes, authority);
      },
      loginPopup: async ({ scopes }: { scopes: string[] }) => {
        calls.push("loginPopup");
        if (options.popupBlocked) throw new BrowserAuthError("popup_window_error", "standard");
        return result(scopes, authority);
      },
      acquireTokenPopup: async ({ scopes }: { scopes: string[] }) => {
        calls.push("acquireTokenPopup");
        if (options.popupBlocked) throw new BrowserAuthError("popup_window_error", "standard");
        return result(scopes, authority);
      },
      clearCache: async () => {
        calls.push("clearCache");
        accounts.length = 0;
      },
    };
    return app as unknown as IPublicClientApplication;
  };
  return {
    make,
    calls,
    /** What MSAL can renew without the user has run out (the 24-hour limit, the provider's session gone). */
    expire: () => void (expired = true),
  };
}
