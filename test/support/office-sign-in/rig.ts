/**
 * One row of the sign-in tables: a provider (Entra, Keycloak-like, B2C), a host (Office with or without NAA,
 * Excel on the web with or without a login hint, a plain browser), and the pane's sign-in over the stand-ins of
 * Office's surfaces and MSAL's clients, with the token holder and the request seam cells use.
 */
import { createRequestAuth } from "../../../src/api/http/request-auth";
import { AccessTokens } from "../../../src/office/sign-in/access-tokens";
import { openMsalSession } from "../../../src/office/sign-in/msal-sign-in";
import { SignInController } from "../../../src/office/sign-in/sign-in";
import { naaBroker, officeHost, type DialogScript, type DialogStep, type OfficeHostOptions } from "./office";
import { standardClient } from "./standard-client";

/** How the sign-in reaches the provider before opening a window (its discovery document). */
export type ProviderFetch = (url: string, init?: { signal?: AbortSignal }) => Promise<{ ok: boolean; status: number }>;

/** A provider that answers. */
export const answering: ProviderFetch = async () => ({ ok: true, status: 200 });

export const PANE = "https://addin.example.com/taskpane.html";
export const PANE_ORIGIN = "https://addin.example.com";
export const SIGNED_IN = { key: "gateway", user: "signed-in" } as const;
export const ADA = { username: "ada@firm.example", name: "Ada Lovelace" };

export const PROVIDERS = {
  Entra: "https://login.microsoftonline.com/7f0e4f6c-0000-4000-8000-00000000f1f0/v2.0",
  Keycloak: "https://idp.firm.example/realms/md",
  B2C: "https://firm.b2clogin.com/firm.onmicrosoft.com/B2C_1_signin",
} as const;
export type Provider = keyof typeof PROVIDERS;

export const HOSTS: Record<string, OfficeHostOptions | null> = {
  "NAA (Windows)": { platform: "PC", nestedAppAuth: true },
  "no NAA (older Office)": { platform: "PC", nestedAppAuth: false },
  "web, login hint": {
    platform: "OfficeOnline",
    nestedAppAuth: true,
    authContext: { userPrincipalName: ADA.username, loginHint: ADA.username },
  },
  "web, no login hint": { platform: "OfficeOnline", nestedAppAuth: true, authContext: {} },
  "plain browser": null,
};
export type Host = keyof typeof HOSTS;

/** The dialog page signed the user in at the provider: its message to the pane. */
export function dialogSignedIn(token: string, origin = PANE_ORIGIN): DialogStep {
  return {
    message: JSON.stringify({
      kind: "md-sign-in",
      ok: true,
      accessToken: token,
      expiresOn: Date.now() + 3_600_000,
      user: ADA,
    }),
    origin,
  };
}

/** Office, its broker, the standard client and the dialog page for one row. */
export function rig(
  provider: Provider,
  host: Host,
  dialog?: DialogScript,
  fetchFn: ProviderFetch = answering,
  naa: { popupBlocked?: boolean } = {},
) {
  const options = HOSTS[host];
  const web = options?.platform === "OfficeOnline";
  const broker = naaBroker(
    { ...ADA, tenantId: "t" },
    () => `${provider}-naa-token`,
    false,
    web,
    naa.popupBlocked === true,
  );
  const client = standardClient({
    user: ADA,
    issue: (n) => `${provider}-token-${n}`,
    ssoFor: ADA.username,
  });
  const office = officeHost(
    options && { ...options, dialog: dialog ?? (() => dialogSignedIn(`${provider}-dialog-token`)) },
  );
  const config = { authority: PROVIDERS[provider], clientId: "md-addin-client", scopes: ["api://md/access_as_user"] };
  const tokens = new AccessTokens();
  const around = {
    office: office.globals,
    pageUrl: PANE,
    msal: { nestable: broker.make, standard: client.make },
    fetch: fetchFn,
  };
  // What this computer keeps of a Sign out (the settings' storage), shared by every page load of the rig.
  const signedOutOf = new Map<string, boolean>();
  const marks = {
    read: async (authority: string) => signedOutOf.get(authority) === true,
    write: async (authority: string, out: boolean) => void signedOutOf.set(authority, out),
  };
  const load = () => new SignInController(tokens, (c) => openMsalSession(c, around), marks);
  const controller = load();
  const auth = createRequestAuth(
    (o) => tokens.get(o),
    () => undefined,
  );
  /** The pane loaded again (a reload, Excel reopened): a new controller over the same Office, MSAL and storage. */
  const reload = load;
  return { broker, client, office, config, tokens, controller, auth, reload };
}
