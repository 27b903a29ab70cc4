/**
 * The pane's sign-in without MSAL: the token holder cells ask (shared
 * renewal, renewed before expiry, one renewal per refused token, dropped on
 * Sign out) and the controller over a stand-in session (silent first, then
 * the user's Sign in; Sign out empties the holder at once). The gateway's
 * `auth` answer is read by the probe over real HTTP.
 */
import { createServer } from "node:http";
import { AccessTokens, RENEW_BEFORE_EXPIRY_MS, type IssuedToken } from "../../../src/office/sign-in/access-tokens";
import { GatewayProbe } from "../../../src/office/sign-in/gateway";
import {
  isMicrosoftAuthority,
  msalConfiguration,
  nestedAppAuthSupported,
} from "../../../src/office/sign-in/msal-sign-in";
import { SettingsStore } from "../../../src/office/settings";
import { SignInController, type SignInSession } from "../../../src/office/sign-in/sign-in";
import { listenLocal } from "../../support/local-server";

const AUTH = { authority: "https://login.microsoftonline.com/tenant-1/v2.0", clientId: "app-1", scopes: ["api://x/y"] };

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

function provider(tokens: (IssuedToken | null)[]) {
  const calls: boolean[] = [];
  return {
    calls,
    acquireSilent: async (force: boolean) => {
      calls.push(force);
      return tokens[Math.min(calls.length - 1, tokens.length - 1)];
    },
  };
}

describe("AccessTokens", () => {
  it("answers null until a sign-in installs a provider, and again after Sign out", async () => {
    const holder = new AccessTokens();
    expect(await holder.get()).toBeNull();
    holder.use(provider([{ accessToken: "a", expiresOn: Date.now() + 3_600_000 }]));
    expect(await holder.get()).toBe("a");
    holder.use(null);
    expect(await holder.get()).toBeNull();
  });

  it("a thousand cells at once cost one acquisition; the token is renewed before it expires", async () => {
    const c = clock();
    const p = provider([
      { accessToken: "a", expiresOn: c.now() + 3_600_000 },
      { accessToken: "b", expiresOn: c.now() + 7_200_000 },
    ]);
    const holder = new AccessTokens(c.now);
    holder.use(p);
    const tokens = await Promise.all(Array.from({ length: 1000 }, () => holder.get()));
    expect(new Set(tokens)).toEqual(new Set(["a"]));
    expect(p.calls).toEqual([false]);
    c.advance(3_600_000 - RENEW_BEFORE_EXPIRY_MS - 1);
    expect(await holder.get()).toBe("a");
    c.advance(2);
    expect(await holder.get()).toBe("b");
    expect(p.calls).toEqual([false, false]);
  });

  it("after a 401 renews once per refused token: cells refused together share the renewal", async () => {
    const c = clock();
    const p = provider([
      { accessToken: "a", expiresOn: c.now() + 3_600_000 },
      { accessToken: "b", expiresOn: c.now() + 3_600_000 },
    ]);
    const holder = new AccessTokens(c.now);
    holder.use(p);
    expect(await holder.get()).toBe("a");
    const renewed = await Promise.all([
      holder.get({ forceRefresh: true, rejected: "a" }),
      holder.get({ forceRefresh: true, rejected: "a" }),
    ]);
    expect(renewed).toEqual(["b", "b"]);
    expect(await holder.get({ forceRefresh: true, rejected: "a" })).toBe("b");
    expect(p.calls).toEqual([false, true]);
  });

  it("a provider that fails or was replaced meanwhile gives no token", async () => {
    const holder = new AccessTokens();
    holder.use({ acquireSilent: async () => Promise.reject(new Error("interaction_required")) });
    expect(await holder.get()).toBeNull();
    let release: (token: IssuedToken) => void = () => undefined;
    holder.use({ acquireSilent: () => new Promise<IssuedToken>((resolve) => (release = resolve)) });
    const pending = holder.get();
    holder.use(null);
    release({ accessToken: "late", expiresOn: Date.now() + 3_600_000 });
    expect(await pending).toBeNull();
    expect(await holder.get()).toBeNull();
  });
});

function session(overrides: Partial<SignInSession> = {}) {
  const log: string[] = [];
  const s: SignInSession = {
    nested: false,
    provider: { acquireSilent: async () => ({ accessToken: "tok", expiresOn: Date.now() + 3_600_000 }) },
    trySilent: async () => null,
    signInInteractive: async () => ({ name: "Ada Lovelace", username: "ada@firm.example" }),
    signOut: async () => void log.push("signOut"),
    ...overrides,
  };
  return { session: s, log };
}

describe("SignInController", () => {
  it("off while the gateway asks for no sign-in; MSAL is never opened", async () => {
    const open = jest.fn();
    const controller = new SignInController(new AccessTokens(), open);
    await controller.configure(undefined);
    expect(controller.state()).toEqual({ status: "off" });
    expect(open).not.toHaveBeenCalled();
  });

  it("Office's account signs in silently (nested app authentication): tokens flow with no click", async () => {
    const tokens = new AccessTokens();
    const { session: s } = session({ nested: true, trySilent: async () => ({ name: "Ada", username: "ada@firm" }) });
    const controller = new SignInController(tokens, async () => s);
    await controller.configure(AUTH);
    expect(controller.state()).toEqual({
      status: "signed-in",
      user: { name: "Ada", username: "ada@firm" },
      nested: true,
    });
    expect(await tokens.get()).toBe("tok");
  });

  it("no silent sign-in: signed out until the user clicks Sign in; Sign out stops the tokens at once", async () => {
    const tokens = new AccessTokens();
    const { session: s, log } = session();
    const controller = new SignInController(tokens, async () => s);
    const states: string[] = [];
    controller.subscribe((state) => states.push(state.status));
    await controller.configure(AUTH);
    expect(controller.state()).toEqual({ status: "signed-out" });
    expect(await tokens.get()).toBeNull();
    await controller.signIn();
    expect(controller.state()).toMatchObject({ status: "signed-in", user: { name: "Ada Lovelace" } });
    expect(await tokens.get()).toBe("tok");
    await controller.signOut();
    expect(await tokens.get()).toBeNull();
    expect(log).toEqual(["signOut"]);
    expect(states).toEqual(["starting", "signed-out", "signing-in", "signed-in", "signed-out"]);
  });

  it.each([
    { errorCode: "user_cancelled", text: /^Sign-in was cancelled/ },
    { errorCode: "popup_window_error", text: /allow pop-ups/ },
  ])("a failed sign-in ($errorCode) says so and leaves no tokens", async ({ errorCode, text }) => {
    const tokens = new AccessTokens();
    const { session: s } = session({
      signInInteractive: async () => Promise.reject(Object.assign(new Error(errorCode), { errorCode })),
    });
    const controller = new SignInController(tokens, async () => s);
    await controller.configure(AUTH);
    await controller.signIn();
    const state = controller.state();
    expect(state.status).toBe("signed-out");
    expect(state.status === "signed-out" && state.error).toEqual(
      typeof text === "string" ? text : expect.stringMatching(text),
    );
    expect(await tokens.get()).toBeNull();
  });
});

describe("MSAL's configuration (no sign-in performed)", () => {
  it.each([
    { authority: "https://login.microsoftonline.com/t/v2.0", microsoft: true, known: undefined },
    {
      authority: "https://firm.b2clogin.com/firm.onmicrosoft.com/B2C_1_signin",
      microsoft: true,
      known: ["firm.b2clogin.com"],
    },
    { authority: "https://idp.firm.example/realms/md", microsoft: false, known: ["idp.firm.example"] },
    { authority: "http://127.0.0.1:4444", microsoft: false, known: ["127.0.0.1:4444"] },
  ])("$authority: Entra protocol $microsoft", ({ authority, microsoft, known }) => {
    expect(isMicrosoftAuthority(authority)).toBe(microsoft);
    const config = msalConfiguration(
      { authority, clientId: "c", scopes: ["s"] },
      "https://addin.example.com/taskpane.html",
    );
    expect(config.system?.protocolMode).toBe(microsoft ? "AAD" : "OIDC");
    expect(config.auth.knownAuthorities).toEqual(known);
    expect(config.auth.redirectUri).toBe("https://addin.example.com/auth-redirect.html");
  });

  it("nested app authentication only where Office declares NestedAppAuth 1.1", () => {
    const office = (sets: string[]) => ({
      Office: { context: { requirements: { isSetSupported: (name: string) => sets.includes(name) } } },
    });
    expect(nestedAppAuthSupported(office(["NestedAppAuth"]))).toBe(true);
    expect(nestedAppAuthSupported(office([]))).toBe(false);
    expect(nestedAppAuthSupported({})).toBe(false);
  });
});

describe("the gateway's auth answer", () => {
  it.each([
    { what: "a usable one", auth: AUTH, signIn: AUTH },
    { what: "none", auth: undefined, signIn: undefined },
    {
      what: "one without a client id",
      auth: { ...AUTH, clientId: "" },
      signIn: { authority: "", clientId: "", scopes: [] },
    },
    {
      what: "a plain-http authority elsewhere",
      auth: { ...AUTH, authority: "http://idp.example" },
      signIn: { authority: "", clientId: "", scopes: [] },
    },
  ])("$what", async ({ auth, signIn }) => {
    const body = JSON.stringify({ keyMode: "firm", ...(auth ? { auth } : {}) });
    const local = await listenLocal(createServer((_req, res) => res.end(body)));
    const g = globalThis as { location?: unknown };
    g.location = { origin: local.url };
    try {
      const storage = new Map<string, string>([["md.baseUrl", "/api"]]);
      const probe = new GatewayProbe();
      const store = new SettingsStore(
        {
          getItem: async (k) => storage.get(k) ?? null,
          setItem: async (k, v) => void storage.set(k, v),
          removeItem: async (k) => void storage.delete(k),
        },
        { apiKey: "", baseUrl: "" },
        (base) => probe.describe(base),
      );
      const read = await store.read();
      expect(read.signIn).toEqual(signIn);
      expect(read.signedInUsersOnly).toBe(signIn ? true : undefined);
      expect(read.keyManagedByGateway).toBe(true);
    } finally {
      g.location = undefined;
      await local.close();
    }
  });
});
