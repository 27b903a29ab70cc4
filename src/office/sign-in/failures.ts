/**
 * What the pane says when signing in fails: one sentence, what happened and
 * what to do, never MSAL's code or its aka.ms link. MSAL's codes (msal-browser
 * BrowserAuthErrorCodes, msal-common ClientAuthErrorCodes), the provider's
 * OAuth error (RFC 6749 §4.1.2.1) and Microsoft Entra ID's AADSTS numbers in
 * the description (Microsoft Learn, *Microsoft Entra authentication and
 * authorization error codes*), and the Office dialog's (office-dialog.ts).
 */
import { AUTH_REDIRECT_PAGE } from "./registration";

/** Where the pane says the user signs in: the provider's host, for the words. */
function providerName(authority: string | undefined): string {
  try {
    return authority ? new URL(authority).host : "your organisation";
  } catch {
    return "your organisation";
  }
}

export const SIGN_IN_EXPIRED = "Your sign-in expired — sign in again.";

const UNREACHABLE = new Set([
  "timed_out",
  "no_network_connectivity",
  "endpoints_resolution_error",
  "provider_unreachable",
  "get_request_failed",
  "post_request_failed",
  "network_error",
  "openid_config_error",
]);

export function signInFailure(error: unknown, authority?: string, pageOrigin?: string): string {
  const code = String((error as { errorCode?: unknown })?.errorCode ?? "");
  const text = `${(error as { errorMessage?: unknown })?.errorMessage ?? ""} ${
    error instanceof Error ? error.message : ""
  }`;
  const provider = providerName(authority);
  if (code === "user_cancelled" || code === "user_canceled")
    return "Sign-in was cancelled: click Sign in when you are ready.";
  if (code === "dialog_closed") return "The sign-in window was closed before you finished: click Sign in to try again.";
  if (code === "dialog_blocked")
    return "The sign-in window was blocked: allow it when Office or the browser asks (or allow pop-ups for this add-in's site), then click Sign in again.";
  if (code === "popup_window_error" || code === "empty_window_error")
    return "The sign-in window could not open: allow pop-ups for this add-in's site, then click Sign in again.";
  if (code === "interaction_in_progress")
    return "A sign-in window is already open: finish it, or close it and click Sign in again.";
  if (UNREACHABLE.has(code))
    return `The sign-in service at ${provider} did not answer: check your network connection and click Sign in again, or tell your administrator if it goes on.`;
  if (/AADSTS50011|redirect_uri|redirect uri/i.test(text) || code === "invalid_redirect_uri")
    return `The sign-in service at ${provider} does not accept this add-in's sign-in address: ask your administrator to register ${
      pageOrigin ?? "the add-in's address"
    }/${AUTH_REDIRECT_PAGE} as a redirect address for the add-in's app.`;
  if (code === "consent_required" || /AADSTS65001|AADSTS90094|consent/i.test(text))
    return "Your organisation has not yet approved Market Data for your account: ask your administrator to grant consent to the add-in's app.";
  if (/AADSTS50020|AADSTS700016|AADSTS90072|AADSTS50177|AADSTS90002/i.test(text))
    return "This account is not in the organisation the gateway signs in with: sign in with your work account there, or ask your administrator.";
  if (code === "dialog_failed")
    return "Office could not open the sign-in window: tell your administrator (the add-in's sign-in page did not load).";
  if (code === "unsupported_method")
    return "Office could not sign you in for Market Data: click Sign in to try again, or tell your administrator if it goes on.";
  return `Signing in with ${provider} did not work: click Sign in to try again, and tell your administrator if it happens again.`;
}
