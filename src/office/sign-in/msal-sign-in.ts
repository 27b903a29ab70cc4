/**
 * Sign-in with MSAL.js (@azure/msal-browser, Microsoft's library), loaded on
 * demand by sign-in.ts as its own chunk: never in functions.js. Which flow
 * runs where is flow.ts's choice (Microsoft's NAA documentation and sample):
 *
 * - "nested": Office's broker signs in the Microsoft 365 user Office has
 *   (the app registration needs `brk-multihub://<add-in host>`); on Excel on
 *   the web with Office's login hint and ssoSilent first. Sign out forgets the
 *   account here only: MSAL's NAA controller throws on clearCache ("No (throws
 *   exception)" in the NAA page's table of MSAL methods), and Office's own
 *   account stays signed in to Office. Where Office's own sign-in window
 *   cannot open (MSAL's `popup_window_error`), the Office dialog, as in
 *   Microsoft's NAA sample.
 * - "office-dialog": MSAL's standard client; the user signs in on the add-in's
 *   dialog page in the Office dialog (office-dialog.ts), which hands the token
 *   back. Later tokens come silently: from MSAL's cache where the dialog
 *   shares the pane's storage, else by ssoSilent with the user's name as login
 *   hint (a hidden frame to the provider: its origin is in the pane's
 *   frame-src where sign-in is configured).
 * - "popup": a plain browser; MSAL's popup lands on auth-redirect.html.
 *
 * Microsoft Entra ID authorities use MSAL's Entra protocol; any other OpenID
 * Connect provider its standard OIDC mode, trusted by host (`knownAuthorities`),
 * its endpoints read from the provider's discovery document.
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
import { RENEW_BEFORE_EXPIRY_MS, type IssuedToken } from "./access-tokens";
import {
  chooseFlow,
  isEntraWorkforceAuthority,
  officeLoginHint,
  readHost,
  type OfficeGlobals,
  type SignInFlow,
  type SignInHost,
} from "./flow";
import { providerUnreachable, withinDeadline } from "./deadline";
import { dialogUrl, signInThroughDialog } from "./office-dialog";
import type { GatewaySignIn } from "./gateway";
import { authRedirectUri } from "./registration";
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
      redirectUri: authRedirectUri(pageUrl),
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
  office: OfficeGlobals;
  pageUrl: string;
  msal: MsalLibrary;
  /** How the provider is asked whether it answers before a window opens (its discovery document). */
  fetch?: (url: string, init?: { signal?: AbortSignal }) => Promise<unknown>;
}

/** How long the provider has to answer before the pane says it does not (within the controller's 15 s). */
const PROVIDER_ANSWER_MS = 10_000;

/**
 * Whether the provider answers, asked before a window opens: MSAL would open it and wait 60 s for a page that
 * never comes (then say "timed_out"). Any HTTP answer will do (MSAL says what is wrong with it); none within
 * PROVIDER_ANSWER_MS is a `provider_unreachable` failure.
 */
async function providerAnswers(authority: string, fetchFn: SignInSurroundings["fetch"]): Promise<void> {
  if (!fetchFn) return;
  const controller = new AbortController();
  const url = `${authority.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  try {
    await withinDeadline(fetchFn(url, { signal: controller.signal }), PROVIDER_ANSWER_MS, () => controller.abort());
  } catch (error) {
    throw (error as { errorCode?: string })?.errorCode ? error : providerUnreachable();
  }
}

function here(): SignInSurroundings {
  return {
    office: globalThis as unknown as OfficeGlobals,
    pageUrl: globalThis.location.href,
    msal: MSAL,
    fetch: globalThis.fetch?.bind(globalThis),
  };
}

export async function openMsalSession(
  config: GatewaySignIn,
  around: SignInSurroundings = here(),
): Promise<SignInSession> {
  const host = readHost(around.office);
  const flow = chooseFlow(config.authority, host);
  const configuration = msalConfiguration(config, around.pageUrl);
  if (flow === "nested") return nestedSession(config, await around.msal.nestable(configuration), host, around);
  return standardSession(config, await around.msal.standard(configuration), flow, host, around);
}

/** MSAL's silent call: its result, or null where only the user can go on (interaction required). */
async function orInteraction(call: () => Promise<AuthenticationResult>): Promise<AuthenticationResult | null> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof InteractionRequiredAuthError) return null;
    throw error;
  }
}

/** MSAL's word for a sign-in window that could not open (PopupClient: `empty_window_error` rethrown as this). */
function popupBlocked(error: unknown): boolean {
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  return code === "popup_window_error" || code === "empty_window_error";
}

function nestedSession(
  config: GatewaySignIn,
  app: IPublicClientApplication,
  host: SignInHost,
  around: SignInSurroundings,
): SignInSession {
  const scopes = config.scopes;
  const office = around.office;
  let known: AccountInfo | null = null;
  /** The Office dialog's token, where Office's own window could not open, until it is due; and whom it signed in. */
  const fromDialog = new DialogToken();
  let dialogUser: string | null = null;
  const keep = (result: AuthenticationResult | null) => {
    if (result?.account) known = result.account;
    return result;
  };
  // After the dialog, Office's broker knows no account of ours: the dialog's user is the login hint (ssoSilent).
  const silent = (forceRefresh: boolean) =>
    orInteraction(() =>
      !known && dialogUser
        ? app.ssoSilent({ scopes, loginHint: dialogUser })
        : app.acquireTokenSilent({ scopes, forceRefresh, ...(known ? { account: known } : {}) }),
    ).then(keep);
  return {
    // Office's own account, unless the user signed in on the provider's page in the dialog.
    get nested() {
      return dialogUser === null && !fromDialog.held;
    },
    provider: {
      acquireSilent: (forceRefresh) => fromDialog.orSilent(forceRefresh, silent),
    },
    trySilent: async () => {
      // Excel on the web: Office's login hint, with ssoSilent, as Microsoft's NAA page asks.
      const hint = host.web ? await officeLoginHint(office) : null;
      const result = hint ? await orInteraction(() => app.ssoSilent({ scopes, loginHint: hint })) : await silent(false);
      return userOf(keep(result)?.account);
    },
    signInInteractive: async () => {
      try {
        const result = keep(await app.acquireTokenPopup({ scopes }));
        return userOf(result?.account) ?? { name: "signed in", username: "" };
      } catch (error) {
        // Office's own sign-in window could not open (a pop-up blocker on the web): as Microsoft's NAA sample does
        // (OfficeDev/Office-Add-in-samples, Samples/auth/Office-Add-in-SSO-NAA, src/taskpane/authConfig.ts,
        // handleInteractiveTokenError: BrowserAuthError "popup_window_error" → displayDialogAsync), the user
        // signs in on the add-in's dialog page in the Office dialog, with MSAL's standard client there.
        if (!popupBlocked(error) || !host.ui) throw error;
        const answer = await signInThroughDialog(host.ui, dialogUrl(around.pageUrl, config));
        fromDialog.hold(answer);
        dialogUser = answer.user.username || null;
        return answer.user;
      }
    },
    signOut: async () => {
      // Forget the account here; no clearCache (NAA throws on it) and Office's own account stays signed in.
      known = null;
      fromDialog.forget();
      dialogUser = null;
      app.setActiveAccount(null);
    },
  };
}

function standardSession(
  config: GatewaySignIn,
  app: IPublicClientApplication,
  flow: SignInFlow,
  host: SignInHost,
  around: SignInSurroundings,
): SignInSession {
  const scopes = config.scopes;
  /** The dialog's token until it is due, and who signed in there (the login hint for renewal). */
  const fromDialog = new DialogToken();
  let username: string | null = null;
  const account = () => app.getActiveAccount() ?? app.getAllAccounts()[0] ?? null;

  async function silent(forceRefresh: boolean): Promise<AuthenticationResult | null> {
    const known = account();
    const cached = known
      ? await orInteraction(() => app.acquireTokenSilent({ scopes, forceRefresh, account: known }))
      : null;
    // The provider's session in a hidden frame, for the user the dialog signed in (or Office's user on the web).
    const hint =
      username ??
      (host.web && isEntraWorkforceAuthority(config.authority) ? await officeLoginHint(around.office) : null);
    const result = cached ?? (hint ? await orInteraction(() => app.ssoSilent({ scopes, loginHint: hint })) : null);
    if (result?.account) app.setActiveAccount(result.account);
    return result;
  }

  return {
    nested: false,
    provider: {
      acquireSilent: (forceRefresh) => fromDialog.orSilent(forceRefresh, silent),
    },
    trySilent: async () => userOf((await silent(false))?.account),
    signInInteractive: async () => {
      await providerAnswers(config.authority, around.fetch);
      if (flow === "office-dialog" && host.ui) {
        const answer = await signInThroughDialog(host.ui, dialogUrl(around.pageUrl, config));
        fromDialog.hold(answer);
        username = answer.user.username || null;
        return answer.user;
      }
      const result = await app.loginPopup({ scopes });
      app.setActiveAccount(result.account);
      return userOf(result.account) ?? { name: "signed in", username: "" };
    },
    signOut: async () => {
      const known = account();
      fromDialog.forget();
      username = null;
      app.setActiveAccount(null);
      // Forgets the account's tokens here; the provider's own session stays signed in.
      await app.clearCache(known ? { account: known } : {});
    },
  };
}

/** The Office dialog's token, held until it is due; then MSAL's silent renewal. */
class DialogToken {
  private token: IssuedToken | null = null;

  get held(): boolean {
    return this.token !== null;
  }

  hold(answer: IssuedToken): void {
    this.token = { accessToken: answer.accessToken, expiresOn: answer.expiresOn };
  }

  forget(): void {
    this.token = null;
  }

  async orSilent(
    forceRefresh: boolean,
    silent: (forceRefresh: boolean) => Promise<AuthenticationResult | null>,
  ): Promise<IssuedToken | null> {
    if (this.token && !forceRefresh && this.token.expiresOn - RENEW_BEFORE_EXPIRY_MS > Date.now()) return this.token;
    this.token = null;
    return issuedOrNull(await silent(forceRefresh));
  }
}

function issuedOrNull(result: AuthenticationResult | null): IssuedToken | null {
  return result ? issued(result) : null;
}
