/**
 * The credentials: how a request is authorised now (the Authorisation, whether a request could be authorised), with
 * one change event whatever changed — a key or address written, or the sign-in moving. A table of starting states ×
 * changes, each heard once, with what the credentials then report.
 */
import { createHash } from "node:crypto";
import type { Authorisation } from "../../src/api";
import { Credentials, credentialsOf, type CredentialsChange } from "../../src/office/credentials";
import { clearCacheOnSettingsChange, recheckKeyOnSettingsChange } from "../../src/office/settings-changes";
import { SettingsStore, type KeyValueStorage } from "../../src/office/settings";
import { AccessTokens } from "../../src/office/sign-in/access-tokens";
import type { GatewayInfo } from "../../src/office/sign-in/gateway";
import { SignInController, type SignInSession } from "../../src/office/sign-in/sign-in";

const AUTH = { authority: "https://idp.firm.example/realms/md", clientId: "md-addin", scopes: ["md"] };
const ADA = { name: "Ada Lovelace", username: "ada@firm.example" };
const USER_KEY = "md-user-key";

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage {
  const data = new Map(Object.entries(initial));
  return {
    getItem: async (key) => data.get(key) ?? null,
    setItem: async (key, value) => void data.set(key, value),
    removeItem: async (key) => void data.delete(key),
  };
}

/** What the base address answers: a plain service, the firm's gateway, or the firm's gateway for signed-in users. */
type Service = "plain" | "firm" | "firm, signed-in only" | "pass-through, signed-in only";
const ANSWERS: Record<Service, GatewayInfo | null> = {
  plain: null,
  firm: { keyMode: "firm" },
  "firm, signed-in only": { keyMode: "firm", signIn: AUTH },
  "pass-through, signed-in only": { keyMode: "pass-through", signIn: AUTH },
};

const session: SignInSession = {
  nested: false,
  provider: { acquireSilent: async () => ({ accessToken: "tok", expiresOn: Date.now() + 3_600_000 }) },
  trySilent: async () => null,
  signInInteractive: async () => ADA,
  signOut: async () => undefined,
};

/** The credentials over a settings store whose gateway answers by address ("/api": `service`, "/other": plain). */
function world(service: Service, key: string | null, signedIn: boolean) {
  const storage = memoryStorage(key ? { "md.apiKey": key, "md.baseUrl": "/api" } : { "md.baseUrl": "/api" });
  const settings = new SettingsStore(storage, { apiKey: "", baseUrl: "" }, async (base) =>
    base === "/api" ? ANSWERS[service] : null,
  );
  const tokens = new AccessTokens();
  const credentials = new Credentials(settings, tokens);
  const controller = new SignInController(credentials, async () => session);
  return { settings, tokens, credentials, controller, signedIn };
}

type World = ReturnType<typeof world>;

/** Each change, and what the credentials publish for it: one event per setting written or sign-in state entered. */
const CHANGES: Record<string, { run(w: World): Promise<unknown>; heard: (string | undefined)[] }> = {
  "a key saved": { run: (w) => w.settings.setApiKey(USER_KEY), heard: ["apiKey"] },
  "the key removed": { run: (w) => w.settings.setApiKey(""), heard: ["apiKey"] },
  "another address": { run: (w) => w.settings.setBaseUrl("/other"), heard: ["baseUrl"] },
  // The user's click: the sign-in enters two states, each one change.
  "signed in": { run: (w) => w.controller.signIn(), heard: ["signing-in", "signed-in"] },
  "signed out": { run: (w) => w.controller.signOut(), heard: ["signed-out"] },
};

const said = (c: CredentialsChange) => c.setting ?? c.signIn?.status;

const PASS: Authorisation = { key: "pass-through", user: "anyone" };
const FIRM: Authorisation = { key: "gateway", user: "anyone" };
const FIRM_SIGNED: Authorisation = { key: "gateway", user: "signed-in" };
const PASS_SIGNED: Authorisation = { key: "pass-through", user: "signed-in" };

describe("the credentials: one event per change, and how a request is authorised after it", () => {
  it.each<[Service, string | null, boolean, keyof typeof CHANGES, Authorisation, boolean]>([
    // service, key stored, signed in first, change, → Authorisation, usable
    ["plain", null, false, "a key saved", PASS, true],
    ["plain", USER_KEY, false, "the key removed", PASS, false],
    ["plain", USER_KEY, false, "another address", PASS, true],
    ["firm", null, false, "a key saved", FIRM, true],
    ["firm", null, false, "another address", PASS, false],
    ["firm, signed-in only", null, false, "signed in", FIRM_SIGNED, true],
    ["firm, signed-in only", null, true, "signed out", FIRM_SIGNED, false],
    ["firm, signed-in only", null, true, "another address", PASS, false],
    ["firm, signed-in only", null, true, "a key saved", FIRM_SIGNED, true],
    ["pass-through, signed-in only", null, false, "signed in", PASS_SIGNED, false],
    ["pass-through, signed-in only", USER_KEY, false, "signed in", PASS_SIGNED, true],
    ["pass-through, signed-in only", USER_KEY, true, "signed out", PASS_SIGNED, false],
    ["pass-through, signed-in only", USER_KEY, true, "the key removed", PASS_SIGNED, false],
  ])("%s, key %s, signed in %s: %s → %j, usable %s", async (service, key, signedIn, change, auth, usable) => {
    const w = world(service, key, signedIn);
    const before = await w.settings.read();
    if (before.signIn) await w.controller.configure(before.signIn);
    if (signedIn) await w.controller.signIn();
    const heard: CredentialsChange[] = [];
    w.credentials.onChange((c) => heard.push(c));
    await CHANGES[change]!.run(w);
    expect(heard.map(said)).toEqual(CHANGES[change]!.heard);
    const now = await w.credentials.now();
    expect(now.auth).toEqual(auth);
    expect(now.usable).toBe(usable);
  });

  it("every sign-in state is one change; an unsubscribed listener hears neither settings nor sign-in", async () => {
    const w = world("firm, signed-in only", null, false);
    const heard: (string | undefined)[] = [];
    const stop = w.credentials.onChange((c) => heard.push(said(c)));
    await w.controller.configure(AUTH);
    await w.controller.signIn();
    await w.settings.setApiKey(USER_KEY);
    expect(heard).toEqual(["starting", "signed-out", "signing-in", "signed-in", "apiKey"]);
    stop();
    await w.controller.signOut();
    await w.settings.setBaseUrl("/other");
    expect(heard).toHaveLength(5);
  });

  it("a sign-in's provider is in the holder when its change is heard, and gone with the sign-out's", async () => {
    const w = world("firm, signed-in only", null, false);
    await w.controller.configure(AUTH);
    const holderWhenHeard: [string, boolean][] = [];
    w.credentials.onChange((c) => holderWhenHeard.push([said(c)!, w.tokens.hasProvider()]));
    await w.controller.signIn();
    await w.controller.signOut();
    expect(holderWhenHeard).toEqual([
      ["signing-in", false],
      ["signed-in", true],
      ["signed-out", false],
    ]);
  });

  it("the wiring: a sign-in neither clears the client nor rechecks the key; a key written does both", async () => {
    const w = world("firm, signed-in only", null, false);
    const asked: string[] = [];
    clearCacheOnSettingsChange(w.credentials, { clear: () => void asked.push("clear") });
    recheckKeyOnSettingsChange(w.credentials, { checkKey: async () => void asked.push("checkKey") });
    await w.controller.configure(AUTH);
    await w.controller.signIn();
    expect(asked).toEqual([]);
    await w.settings.setApiKey(USER_KEY);
    await w.settings.setBaseUrl("/other");
    expect(asked).toEqual(["clear", "checkKey", "clear"]);
  });

  it.each<[string, Service, string | null, boolean, string | null]>([
    [
      "a pass-through key: its SHA-256",
      "plain",
      USER_KEY,
      false,
      `key:${createHash("sha256").update(USER_KEY).digest("hex")}`,
    ],
    ["no key at all", "plain", null, false, null],
    ["the firm's key, for anyone", "firm", USER_KEY, false, null],
    ["signed-in users only, nobody signed in", "firm, signed-in only", null, false, null],
    [
      "signed-in users only, Ada signed in (a token that is not a JWT: her sign-in name)",
      "pass-through, signed-in only",
      USER_KEY,
      true,
      `user:${createHash("sha256").update("name ada@firm.example").digest("hex")}`,
    ],
  ])("who: %s", async (_, service, key, signedIn, who) => {
    const w = world(service, key, signedIn);
    const stored = await w.settings.read();
    if (stored.signIn) await w.controller.configure(stored.signIn);
    if (signedIn) await w.controller.signIn();
    expect(await w.credentials.who()).toBe(who);
  });

  it("who, signed in with a JWT: the SHA-256 of its issuer and oid (else sub), whoever's name is shown", async () => {
    const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.c2ln`;
    const whoWith = async (token: string) => {
      const w = world("firm, signed-in only", null, true);
      w.credentials.use({ acquireSilent: async () => ({ accessToken: token, expiresOn: Date.now() + 3_600_000 }) });
      w.credentials.signInChanged({ status: "signed-in", user: ADA, nested: false });
      return w.credentials.who();
    };
    const sha = (text: string) => `user:${createHash("sha256").update(text).digest("hex")}`;
    expect(await whoWith(jwt({ iss: "https://idp", oid: "o-1", sub: "s-1" }))).toBe(sha('["https://idp","o-1"]'));
    expect(await whoWith(jwt({ iss: "https://idp", sub: "s-1" }))).toBe(sha('["https://idp","s-1"]'));
    expect(await whoWith(jwt({ iss: "https://other", sub: "s-1" }))).not.toBe(
      await whoWith(jwt({ iss: "https://idp", sub: "s-1" })),
    );
  });

  it("the client's one channel gives the settings as read and the holder's tokens", async () => {
    const w = world("firm, signed-in only", null, false);
    const channel = w.credentials.forClient();
    expect(await channel.settings()).toEqual({ ...(await w.settings.read()), who: null });
    expect(await channel.accessToken?.({ forceRefresh: false })).toBeNull();
    await w.controller.configure(AUTH);
    await w.controller.signIn();
    expect(await channel.accessToken?.({ forceRefresh: false })).toBe("tok");
    expect(new Credentials(w.settings).forClient().accessToken).toBeUndefined();
  });

  it("a runtime without credentials (a stand-in) gets one over its parts, the same each time", async () => {
    const w = world("plain", USER_KEY, false);
    const runtime = { settings: w.settings, accessTokens: w.tokens };
    expect(credentialsOf(runtime)).toBe(credentialsOf(runtime));
    expect(credentialsOf({ ...runtime, credentials: w.credentials })).toBe(w.credentials);
    expect((await credentialsOf(runtime).now()).usable).toBe(true);
  });
});
