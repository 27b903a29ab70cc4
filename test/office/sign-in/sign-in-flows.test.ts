/**
 * Which sign-in runs where: {Microsoft Entra ID, a Keycloak-like OpenID Connect provider, Azure AD B2C} × {Office
 * with nested app authentication, Office without it, Excel on the web with and without a login hint, a plain
 * browser}, over stand-ins for Office's sign-in surfaces (test/support/office-sign-in) and MSAL's two clients. For
 * each: the flow that ran, whether the user had to click Sign in, and that the token reaches the gateway (the
 * request's Authorization header, as http/request-auth.ts makes it).
 */
import { SettingsStore, SIGNED_OUT_KEY } from "../../../src/office/settings";
import { signedOutMarks } from "../../../src/office/sign-in/sign-in";
import {
  ADA,
  PANE_ORIGIN,
  PROVIDERS,
  rig,
  SIGNED_IN,
  type Host,
  type Provider,
} from "../../support/office-sign-in/rig";

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

describe("Office's own sign-in window blocked (NAA, popup_window_error)", () => {
  // Microsoft's NAA sample (OfficeDev/Office-Add-in-samples, Samples/auth/Office-Add-in-SSO-NAA,
  // src/taskpane/authConfig.ts, handleInteractiveTokenError) signs in through the Office dialog then.
  it("Entra on the web without a login hint: the Office dialog signs in, and its token reaches the gateway", async () => {
    const r = rig("Entra", "web, no login hint", undefined, undefined, { popupBlocked: true });
    await r.controller.configure(r.config);
    expect(r.controller.state().status).toBe("signed-out");
    await r.controller.signIn();
    // Signed in on the provider's page, not as Office's account: Settings does not say "your Office account".
    expect(r.controller.state()).toMatchObject({
      status: "signed-in",
      user: { username: ADA.username },
      nested: false,
    });
    expect(r.broker.record.calls).toEqual(["nested acquireTokenSilent", "nested acquireTokenPopup"]);
    expect(r.office.dialogs.record.opened).toHaveLength(1);
    const url = new URL(r.office.dialogs.record.opened[0]!);
    expect(`${url.origin}${url.pathname}`).toBe(`${PANE_ORIGIN}/sign-in-dialog.html`);
    expect(url.searchParams.get("authority")).toBe(PROVIDERS.Entra);
    const grant = await r.auth.beforeRequest(SIGNED_IN);
    expect(grant.headers).toEqual({ Authorization: "Bearer Entra-dialog-token" });
  });

  it("renews through Office's broker, with the dialog's user as the login hint, once the dialog's token is due", async () => {
    const r = rig("Entra", "web, no login hint", undefined, undefined, { popupBlocked: true });
    await r.controller.configure(r.config);
    await r.controller.signIn();
    const now = Date.now();
    jest.spyOn(Date, "now").mockReturnValue(now + 3_600_000);
    try {
      expect((await r.auth.beforeRequest(SIGNED_IN)).headers).toEqual({ Authorization: "Bearer Entra-naa-token" });
    } finally {
      jest.restoreAllMocks();
    }
    expect(r.broker.record.calls).toContain(`nested ssoSilent ${ADA.username}`);
    expect(r.controller.state().status).toBe("signed-in");
  });

  it("and the dialog blocked too: one sentence saying what to allow, no MSAL code", async () => {
    const r = rig("Entra", "web, no login hint", () => ({ open: 12009 }), undefined, { popupBlocked: true });
    await r.controller.configure(r.config);
    await r.controller.signIn();
    const state = r.controller.state();
    const text = state.status === "signed-out" ? state.error : undefined;
    expect(text).toMatch(/allow/);
    expect(text).not.toMatch(/popup_window_error|aka\.ms/);
    expect(await r.tokens.get()).toBeNull();
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

  it("lasts past a reload: no silent sign-in until the user clicks Sign in, which signs in again", async () => {
    const r = rig(provider, host);
    await r.controller.configure(r.config);
    if (r.controller.state().status !== "signed-in") await r.controller.signIn();
    await r.controller.signOut();

    const reloaded = r.reload();
    const before = [...r.broker.record.calls, ...r.client.calls].length;
    await reloaded.configure(r.config);
    expect(reloaded.state()).toEqual({ status: "signed-out" });
    expect([...r.broker.record.calls, ...r.client.calls]).toHaveLength(before);
    expect(await r.tokens.get()).toBeNull();

    await reloaded.signIn();
    expect(reloaded.state()).toMatchObject({ status: "signed-in", user: { username: ADA.username } });
    // Signed in again: the next load signs in silently where Office's broker can (the mark is gone).
    const again = r.reload();
    await again.configure(r.config);
    if (provider === "Entra" && host === "NAA (Windows)") expect(again.state()).toMatchObject({ status: "signed-in" });
  });
});

describe("where a Sign out is kept", () => {
  it("in the settings' storage, as the provider's address only (no token, no account); Sign in removes it", async () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: async (key: string) => data.get(key) ?? null,
      setItem: async (key: string, value: string) => void data.set(key, value),
      removeItem: async (key: string) => void data.delete(key),
    };
    const settings = new SettingsStore(storage, { apiKey: "", baseUrl: "" });
    const marks = signedOutMarks(settings);
    await marks.write(PROVIDERS.Entra, true);
    expect([...data]).toEqual([[SIGNED_OUT_KEY, PROVIDERS.Entra]]);
    expect(await marks.read(PROVIDERS.Entra)).toBe(true);
    expect(await marks.read(PROVIDERS.Keycloak)).toBe(false);
    // Signing in with another provider leaves this one's mark; signing in with it again removes it.
    await marks.write(PROVIDERS.Keycloak, false);
    expect(data.get(SIGNED_OUT_KEY)).toBe(PROVIDERS.Entra);
    await marks.write(PROVIDERS.Entra, false);
    expect([...data]).toEqual([]);
  });
});
