/**
 * Sign-in with MSAL.js (@azure/msal-browser, Microsoft's library), loaded on
 * demand by sign-in.ts as its own chunk: never in functions.js.
 *
 * - In Office with nested app authentication (requirement set NestedAppAuth
 *   1.1) the add-in gets tokens for the Microsoft 365 user Office has signed
 *   in, silently (the app registration needs the redirect URI
 *   `brk-multihub://<add-in host>`).
 * - Elsewhere (older Office, a plain browser) the user signs in once through a
 *   popup; auth-redirect.html hands the answer back to the pane. Later tokens
 *   come silently from MSAL's cache and refresh token.
 * - Microsoft Entra ID authorities use MSAL's Entra protocol; any other
 *   OpenID Connect provider its standard OIDC mode, trusted by host
 *   (`knownAuthorities`), its endpoints read from the provider's discovery
 *   document.
 */
import {
  createNestablePublicClientApplication,
  InteractionRequiredAuthError,
  PublicClientApplication,
  type AccountInfo,
  type AuthenticationResult,
  type Configuration,
  type IPublicClientApplication,
} from "@azure/msal-browser";
import type { IssuedToken } from "./access-tokens";
import type { GatewaySignIn } from "./gateway";
import type { SignedInUser, SignInSession } from "./session";

/** Microsoft's identity hosts (public and national clouds, External ID, B2C): MSAL's Entra protocol. */
const MICROSOFT_IDENTITY_HOST =
  /(^|\.)(login\.microsoftonline\.(com|us)|login\.partner\.microsoftonline\.cn|login\.chinacloudapi\.cn|ciamlogin\.com|b2clogin\.com)$/i;

export function isMicrosoftAuthority(authority: string): boolean {
  return MICROSOFT_IDENTITY_HOST.test(new URL(authority).hostname);
}

/** MSAL's configuration for a gateway's sign-in; the popup answers at auth-redirect.html beside the pane. */
export function msalConfiguration(config: GatewaySignIn, pageUrl: string): Configuration {
  const host = new URL(config.authority).host;
  const microsoft = isMicrosoftAuthority(config.authority);
  const entraId = /(^|\.)login\./i.test(host) && microsoft;
  return {
    auth: {
      clientId: config.clientId,
      authority: config.authority,
      redirectUri: new URL("auth-redirect.html", pageUrl).href,
      // Entra ID's own hosts are known to MSAL; every other authority is trusted by name.
      ...(entraId ? {} : { knownAuthorities: [host] }),
    },
    // Kept across pane reloads within the browser's session (MSAL encrypts what it keeps in localStorage).
    cache: { cacheLocation: "localStorage" },
    system: { protocolMode: microsoft ? "AAD" : "OIDC" },
  };
}

export interface OfficeRequirements {
  Office?: { context?: { requirements?: { isSetSupported?(name: string, version?: string): boolean } } };
}

/** Whether Office signs the user in for the add-in (nested app authentication). */
export function nestedAppAuthSupported(globals: OfficeRequirements = globalThis as OfficeRequirements): boolean {
  try {
    return globals.Office?.context?.requirements?.isSetSupported?.("NestedAppAuth", "1.1") === true;
  } catch {
    return false;
  }
}

function userOf(account: AccountInfo | null | undefined): SignedInUser | null {
  if (!account) return null;
  const username = account.username || "";
  return { name: account.name || username || "signed in", username };
}

function issued(result: AuthenticationResult): IssuedToken {
  // No expiry said: treat it as short-lived, so it is renewed soon rather than used past its end.
  return { accessToken: result.accessToken, expiresOn: result.expiresOn?.getTime() ?? Date.now() + 10 * 60_000 };
}

/** MSAL's two clients: the nestable one (Office's broker where it offers one) and the standard one. */
export interface MsalLibrary {
  nestable(configuration: Configuration): Promise<IPublicClientApplication>;
  standard(configuration: Configuration): Promise<IPublicClientApplication>;
}

export const MSAL: MsalLibrary = {
  nestable: (configuration) => createNestablePublicClientApplication(configuration),
  standard: async (configuration) => {
    const app = new PublicClientApplication(configuration);
    await app.initialize();
    return app;
  },
};

/** Where the sign-in runs: Office's sign-in surfaces (tests give stand-ins), the page, MSAL. */
export interface SignInSurroundings {
  office: OfficeRequirements;
  pageUrl: string;
  msal: MsalLibrary;
}

function here(): SignInSurroundings {
  return { office: globalThis as OfficeRequirements, pageUrl: globalThis.location.href, msal: MSAL };
}

export async function openMsalSession(
  config: GatewaySignIn,
  around: SignInSurroundings = here(),
): Promise<SignInSession> {
  const nested = nestedAppAuthSupported(around.office);
  const configuration = msalConfiguration(config, around.pageUrl);
  const app = nested ? await around.msal.nestable(configuration) : await around.msal.standard(configuration);
  const scopes = config.scopes;
  const account = () => app.getActiveAccount() ?? app.getAllAccounts()[0] ?? null;

  async function silent(forceRefresh: boolean): Promise<AuthenticationResult | null> {
    const known = account();
    // Nested app authentication knows Office's account; a popup sign-in has one only once the user signed in.
    if (!known && !nested) return null;
    try {
      const result = await app.acquireTokenSilent({ scopes, forceRefresh, ...(known ? { account: known } : {}) });
      if (result.account) app.setActiveAccount(result.account);
      return result;
    } catch (error) {
      if (error instanceof InteractionRequiredAuthError) return null;
      throw error;
    }
  }

  return {
    nested,
    provider: {
      acquireSilent: async (forceRefresh) => {
        const result = await silent(forceRefresh);
        return result ? issued(result) : null;
      },
    },
    trySilent: async () => userOf((await silent(false))?.account ?? null),
    signInInteractive: async () => {
      const result = nested ? await app.acquireTokenPopup({ scopes }) : await app.loginPopup({ scopes });
      app.setActiveAccount(result.account);
      return userOf(result.account) ?? { name: "signed in", username: "" };
    },
    signOut: async () => {
      const known = account();
      app.setActiveAccount(null);
      // Forgets the account's tokens here; the provider's own session (and Office's account) stay signed in.
      await app.clearCache(known ? { account: known } : {});
    },
  };
}
