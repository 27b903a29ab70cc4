/**
 * Which sign-in runs where: {Microsoft Entra ID, a Keycloak-like OpenID Connect provider, Azure AD B2C} × {Office
 * with nested app authentication, Office without it, Excel on the web with and without a login hint, a plain
 * browser}, over stand-ins for Office's sign-in surfaces (test/support/office-sign-in) and MSAL's two clients. For
 * each: the flow that ran, whether the user had to click Sign in, and that the token reaches the gateway (the
 * request's Authorization header, as http/request-auth.ts makes it).
 */
import { createRequestAuth } from "../../../src/api/http/request-auth";
import { AccessTokens } from "../../../src/office/sign-in/access-tokens";
import { openMsalSession } from "../../../src/office/sign-in/msal-sign-in";
import { SignInController } from "../../../src/office/sign-in/sign-in";
import { naaBroker, officeHost, type DialogStep, type OfficeHostOptions } from "../../support/office-sign-in/office";
import { standardClient } from "../../support/office-sign-in/standard-client";

const PANE = "https://addin.example.com/taskpane.html";
const PANE_ORIGIN = "https://addin.example.com";
const SIGNED_IN = { key: "gateway", user: "signed-in" } as const;
const ADA = { username: "ada@firm.example", name: "Ada Lovelace" };

const PROVIDERS = {
  Entra: "https://login.microsoftonline.com/7f0e4f6c-0000-4000-8000-00000000f1f0/v2.0",
  Keycloak: "https://idp.firm.example/realms/md",
  B2C: "https://firm.b2clogin.com/firm.onmicrosoft.com/B2C_1_signin",
} as const;
type Provider = keyof typeof PROVIDERS;

const HOSTS: Record<string, OfficeHostOptions | null> = {
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
type Host = keyof typeof HOSTS;

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
export function rig(provider: Provider, host: Host, dialog?: (url: string) => DialogStep) {
  const options = HOSTS[host];
  const web = options?.platform === "OfficeOnline";
  const broker = naaBroker({ ...ADA, tenantId: "t" }, () => `${provider}-naa-token`, false, web);
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
  const around = { office: office.globals, pageUrl: PANE, msal: { nestable: broker.make, standard: client.make } };
  const controller = new SignInController(tokens, (c) => openMsalSession(c, around));
  const auth = createRequestAuth(
    (o) => tokens.get(o),
    () => undefined,
  );
  return { broker, client, office, config, tokens, controller, auth };
}

interface Row {
  provider: Provider;
  host: Host;
  flow: "nested" | "dialog" | "popup";
  click: boolean;
  calls: string[];
  token: string;
}

const dialogRow = (provider: Provider, host: Host): Row => ({
  provider,
  host,
  flow: "dialog",
  click: true,
  calls: [],
  token: `${provider}-dialog-token`,
});

const ROWS: Row[] = [
  {
    provider: "Entra",
    host: "NAA (Windows)",
    flow: "nested",
    click: false,
    calls: ["nested acquireTokenSilent"],
    token: "Entra-naa-token",
  },
  dialogRow("Keycloak", "NAA (Windows)"),
  dialogRow("B2C", "NAA (Windows)"),
  dialogRow("Entra", "no NAA (older Office)"),
  dialogRow("Keycloak", "no NAA (older Office)"),
  dialogRow("B2C", "no NAA (older Office)"),
  {
    provider: "Entra",
    host: "web, login hint",
    flow: "nested",
    click: false,
    calls: [`nested ssoSilent ${ADA.username}`],
    token: "Entra-naa-token",
  },
  dialogRow("Keycloak", "web, login hint"),
  dialogRow("B2C", "web, login hint"),
  {
    provider: "Entra",
    host: "web, no login hint",
    flow: "nested",
    click: true,
    calls: ["nested acquireTokenSilent", "nested acquireTokenPopup"],
    token: "Entra-naa-token",
  },
  dialogRow("Keycloak", "web, no login hint"),
  dialogRow("B2C", "web, no login hint"),
  ...(["Entra", "Keycloak", "B2C"] as const).map((provider): Row => ({
    provider,
    host: "plain browser",
    flow: "popup",
    click: true,
    calls: ["loginPopup"],
    token: `${provider}-token-\\d+`,
  })),
];

describe.each(ROWS)("$provider in $host", ({ provider, host, flow, click, calls, token }) => {
  it(`signs in through ${flow === "nested" ? "Office's broker" : flow === "dialog" ? "the Office dialog" : "a popup"}${click ? " when the user clicks Sign in" : " with no click"}, and the token reaches the gateway`, async () => {
    const r = rig(provider, host);
    await r.controller.configure(r.config);
    expect(r.controller.state().status).toBe(click ? "signed-out" : "signed-in");
    if (click) await r.controller.signIn();
    expect(r.controller.state()).toMatchObject({ status: "signed-in", user: { username: ADA.username } });

    const ran = [...r.broker.record.calls, ...r.client.calls];
    if (flow === "dialog") {
      expect(r.broker.record.calls).toEqual([]);
      expect(r.office.dialogs.record.opened).toHaveLength(1);
      const url = new URL(r.office.dialogs.record.opened[0]!);
      expect(`${url.origin}${url.pathname}`).toBe(`${PANE_ORIGIN}/sign-in-dialog.html`);
      expect(url.searchParams.get("authority")).toBe(PROVIDERS[provider]);
      expect(r.client.calls).not.toContain("loginPopup");
    } else {
      expect(ran).toEqual(calls);
      expect(r.office.dialogs.record.opened).toEqual([]);
    }
    const grant = await r.auth.beforeRequest(SIGNED_IN);
    expect(grant.headers).toEqual({ Authorization: expect.stringMatching(new RegExp(`^Bearer ${token}$`)) });
  });
});

describe.each([
  { provider: "Entra" as const, host: "NAA (Windows)" as const, clearCache: false },
  { provider: "Keycloak" as const, host: "NAA (Windows)" as const, clearCache: true },
  { provider: "Entra" as const, host: "no NAA (older Office)" as const, clearCache: true },
  { provider: "B2C" as const, host: "plain browser" as const, clearCache: true },
])("Sign out, $provider in $host", ({ provider, host, clearCache }) => {
  it(`stops the tokens at once and forgets the account here${clearCache ? " (MSAL's cache cleared)" : " without clearCache, which NAA throws on"}`, async () => {
    const r = rig(provider, host);
    await r.controller.configure(r.config);
    if (r.controller.state().status !== "signed-in") await r.controller.signIn();
    expect(r.controller.state().status).toBe("signed-in");
    await r.controller.signOut();
    expect(r.controller.state()).toEqual({ status: "signed-out" });
    expect(await r.tokens.get()).toBeNull();
    expect(r.broker.record.calls).not.toContain("clearCache");
    expect(r.client.calls.includes("clearCache")).toBe(clearCache);
  });
});
