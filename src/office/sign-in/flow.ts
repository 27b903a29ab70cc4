/**
 * Which sign-in runs where, from Microsoft's documentation and its NAA sample:
 *
 * - Office's broker (nested app authentication, MSAL's
 *   createNestablePublicClientApplication) only for Microsoft Entra ID
 *   workforce authorities (login.microsoftonline.com/<tenant>, a national
 *   cloud's equivalent; Microsoft accounts through /common or /consumers):
 *   "NAA supports both Microsoft Accounts and Microsoft Entra ID (work/school)
 *   identities. It doesn't support Azure Active Directory B2C" (Microsoft
 *   Learn, *Enable SSO in an Office Add-in using nested app authentication*,
 *   https://learn.microsoft.com/office/dev/add-ins/develop/enable-nested-app-authentication-in-your-add-in).
 *   MSAL's NAA controller sends every request to Office's Microsoft broker,
 *   whatever the authority, so another provider there fails.
 * - Every other OpenID Connect provider, B2C and External ID, and Office
 *   without NestedAppAuth 1.1: MSAL's standard client, interactively in the
 *   Office dialog (office-dialog.ts). Microsoft's NAA sample
 *   (OfficeDev/Office-Add-in-samples, auth/Office-Add-in-SSO-NAA) falls back
 *   to displayDialogAsync when Office's own prompt cannot open.
 * - A popup (MSAL's loginPopup) only in a plain browser, outside Office.
 * - Excel on the web: "When running in Word, Excel, or PowerPoint in the
 *   browser, you must provide a login hint to MSAL" (the NAA page above): the
 *   hint from Office.auth.getAuthContext() (NestedAppAuth 1.1, Office.AuthContext
 *   userPrincipalName / loginHint) goes to MSAL's ssoSilent first.
 */
import type { OfficeUi } from "./office-dialog";

export type SignInFlow = "nested" | "office-dialog" | "popup";

const ENTRA_WORKFORCE_HOST =
  /^(login\.microsoftonline\.(com|us)|login\.partner\.microsoftonline\.cn|login\.chinacloudapi\.cn)$/i;

/** A Microsoft Entra ID workforce (or Microsoft account) authority: one Office's broker can sign in for. */
export function isEntraWorkforceAuthority(authority: string): boolean {
  try {
    return ENTRA_WORKFORCE_HOST.test(new URL(authority).hostname);
  } catch {
    return false;
  }
}

/** What the page learns of Office: `globalThis` in the add-in, a stand-in in tests. */
export interface OfficeGlobals {
  Office?: {
    context?: {
      requirements?: { isSetSupported?(name: string, version?: string): boolean };
      diagnostics?: { platform?: unknown };
      ui?: Partial<OfficeUi>;
    };
    auth?: { getAuthContext?(): Promise<{ userPrincipalName?: string; loginHint?: string }> };
  };
}

/** Where the pane runs, as sign-in cares. */
export interface SignInHost {
  /** In Office (a platform is known), as opposed to a plain browser. */
  inOffice: boolean;
  /** Office declares NestedAppAuth 1.1. */
  nestedAppAuth: boolean;
  /** Excel on the web (Office.PlatformType.OfficeOnline). */
  web: boolean;
  /** Office's dialog API, where there is one. */
  ui: OfficeUi | null;
}

function guarded<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

export function readHost(globals: OfficeGlobals): SignInHost {
  const context = guarded(() => globals.Office?.context, undefined);
  const platform = guarded(() => context?.diagnostics?.platform, undefined);
  const nestedAppAuth = guarded(() => context?.requirements?.isSetSupported?.("NestedAppAuth", "1.1") === true, false);
  const ui = guarded(() => context?.ui, undefined);
  return {
    inOffice: typeof platform === "string" && platform !== "",
    nestedAppAuth,
    web: platform === "OfficeOnline",
    ui: ui && typeof ui.displayDialogAsync === "function" ? (ui as OfficeUi) : null,
  };
}

export function chooseFlow(authority: string, host: SignInHost): SignInFlow {
  if (host.inOffice && host.nestedAppAuth && isEntraWorkforceAuthority(authority)) return "nested";
  if (host.inOffice && host.ui) return "office-dialog";
  return "popup";
}

/** Excel on the web's login hint (Office.auth.getAuthContext()), or null. Never rejects. */
export async function officeLoginHint(globals: OfficeGlobals): Promise<string | null> {
  try {
    const context = await globals.Office?.auth?.getAuthContext?.();
    return context?.userPrincipalName || context?.loginHint || null;
  } catch {
    return null;
  }
}
