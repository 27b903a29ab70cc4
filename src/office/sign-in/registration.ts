/**
 * What IT registers for the add-in's sign-in, in one place: the redirect URIs
 * of the app registration (or the identity provider's public client), the
 * scope the add-in asks for and the gateway checks, and the settings the build
 * and the gateway take. The code reads its values here (msal-sign-in.ts's
 * redirect URI); README.md ("Deploying for a team", "Sign-in (firm mode)")
 * and deploy/nginx/README.md ("Sign-in (firm mode)") show exactly these, and
 * test/office/sign-in/registration.test.ts compares them.
 *
 * Every redirect URI is of the single-page application type (MSAL.js, PKCE):
 *
 * - `brk-multihub://<add-in host>`: nested app authentication, Office's own
 *   broker signing the user in. Microsoft Learn, *Enable single sign-on in an
 *   Office Add-in with nested app authentication*
 *   (https://learn.microsoft.com/office/dev/add-ins/develop/enable-nested-app-authentication-in-your-add-in),
 *   "Add a trusted broker through SPA redirect": the redirect URI "must be of
 *   type Single Page Application and conform to the following scheme.
 *   brk-multihub://your-add-in-domain", the origin only, no path
 *   (`brk-multihub://localhost:3000`, not `…/go`). Microsoft Entra ID only.
 * - `https://<add-in host>/auth-redirect.html`: where MSAL's interactive
 *   sign-in lands (the redirectUri MSAL sends, msal-sign-in.ts), which hands
 *   the answer back to the page that asked; the same page of Microsoft Learn:
 *   Excel on the web needs a redirect of the standard flow besides the broker.
 * - `https://<add-in host>/sign-in-dialog.html`: the add-in's page that Office
 *   opens with `displayDialogAsync` for a provider nested app authentication
 *   does not serve (Microsoft Learn, *Authenticate and authorize with the
 *   Office dialog API*), and for Microsoft Entra ID where Office's own sign-in
 *   window cannot open (Microsoft's NAA sample), which runs MSAL's redirect
 *   flow and `messageParent`s the result.
 *
 * Any other OpenID Connect provider registers the two https pages (no
 * broker). The host is the add-in's, as the build's `MD_ADDIN_URL` names it
 * (its port included, if any).
 */

/** Where MSAL's interactive sign-in lands (built from src/taskpane/auth-redirect.ts by webpack.config.js). */
export const AUTH_REDIRECT_PAGE = "auth-redirect.html";
/** The Office dialog's sign-in page. */
export const SIGN_IN_DIALOG_PAGE = "sign-in-dialog.html";
/** The scope a Microsoft Entra ID app registration exposes for the gateway (Expose an API). */
export const ENTRA_SCOPE_NAME = "access_as_user";

export interface RedirectUri {
  uri: string;
  /** Who sends it. */
  why: string;
  /** Microsoft Entra ID only (nested app authentication), or every provider. */
  providers: "entra" | "all";
}

/** The redirect URIs to register for an add-in served at `host` (e.g. `md.example.com`, `localhost:3000`). */
export function redirectUris(host: string): RedirectUri[] {
  return [
    { uri: `brk-multihub://${host}`, why: "nested app authentication (Office's broker)", providers: "entra" },
    { uri: `https://${host}/${AUTH_REDIRECT_PAGE}`, why: "MSAL's interactive sign-in", providers: "all" },
    { uri: `https://${host}/${SIGN_IN_DIALOG_PAGE}`, why: "the Office dialog's sign-in page", providers: "all" },
  ];
}

/** The redirect URI MSAL sends from a page of the add-in: its sign-in landing page beside it. */
export function authRedirectUri(pageUrl: string): string {
  return new URL(AUTH_REDIRECT_PAGE, pageUrl).href;
}

/** Microsoft Entra ID: the Application ID URI and the scope the add-in asks for (the gateway's `--scope`). */
export function entraApi(host: string, clientId: string): { applicationIdUri: string; scope: string } {
  const applicationIdUri = `api://${host}/${clientId}`;
  return { applicationIdUri, scope: `${applicationIdUri}/${ENTRA_SCOPE_NAME}` };
}

/** The build's settings for a team's gateway on `host`: the add-in's address, and the service at `/api` beside it. */
export function buildSettings(host: string): { MD_ADDIN_URL: string; MD_BASE_URL: string } {
  return { MD_ADDIN_URL: `https://${host}`, MD_BASE_URL: "/api" };
}

/** The gateway's identity options for Microsoft Entra ID (v2 access tokens: `iss` ends in /v2.0, `aud` is the client id). */
export function entraGatewayOptions(host: string, clientId: string, tenant: string): string[] {
  return [
    "--issuer",
    `https://login.microsoftonline.com/${tenant}/v2.0`,
    "--audience",
    clientId,
    "--client-id",
    clientId,
    "--tenant",
    tenant,
    "--scope",
    entraApi(host, clientId).scope,
  ];
}
