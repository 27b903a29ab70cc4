/**
 * How the add-in's requests are authorised now, in one place: the key (the
 * user's, the build's demo key, or the firm gateway's), whether the gateway
 * lets in only signed-in users and who is signed in, with one change event
 * for all of it. The client gets its credentials from here on one channel
 * (`forClient`: the settings and the token source); the runtime's wiring
 * (settings-changes.ts), the refresh feature (commands.ts) and the pane ask
 * here whether a request could be authorised, never the token holder itself.
 *
 * Where each part comes from:
 * - the key and the base address: the settings store, whose every write is a
 *   change here (heard as the store publishes it, at once: what follows a
 *   write is still the write's, its failure too);
 * - the gateway's modes (its key, sign-in asked for or not): the settings'
 *   read, which asks the gateway of the base address (sign-in/gateway.ts);
 * - the sign-in: the pane's controller (sign-in/sign-in.ts) gives the token
 *   holder its provider through `use` and reports each state it enters
 *   (`signInChanged`), one change each.
 */
import { authorisationOf, type Authorisation, type ClientCredentials } from "../api";
import type { SettingName, SettingsStore, StoredSettings } from "./settings";
import type { AccessTokens, TokenProvider } from "./sign-in/access-tokens";
import type { SignInSink, SignInState } from "./sign-in/session";

/** What changed: a setting written (as the settings store says it), or the sign-in's state. */
export type CredentialsChange =
  { setting: SettingName; signIn?: undefined } | { setting?: undefined; signIn: SignInState };

export type CredentialsListener = (change: CredentialsChange) => void;

/** Who hears of changes: the credentials, or (the pane's tests) the settings store alone, whose writes are changes too. */
export interface CredentialsEvents {
  onChange(listener: CredentialsListener): () => void;
}

/** How a request would be authorised if sent now. */
export interface CredentialsNow {
  settings: StoredSettings;
  auth: Authorisation;
  /**
   * A request could be authorised: there is a key to send (the user's or the build's) or the gateway adds its own,
   * and, where the gateway lets in only signed-in users, the token holder gives a token.
   */
  usable: boolean;
}

type SettingsSide = Pick<SettingsStore, "read" | "onChange">;

export class Credentials implements CredentialsEvents, SignInSink {
  private readonly listeners = new Set<CredentialsListener>();
  private signIn: SignInState = { status: "off" };

  constructor(
    private readonly settings: SettingsSide,
    /** The signed-in user's tokens (sign-in/access-tokens.ts); absent in stand-ins: never a token. */
    private readonly tokens?: AccessTokens,
  ) {}

  /**
   * One event for every change; returns the unsubscribe. A setting's change is heard as the store publishes the
   * write (a listener's failure is the write's); a sign-in's as the controller enters the state.
   */
  onChange(listener: CredentialsListener): () => void {
    const heard: CredentialsListener = (change) => listener(change);
    const stopSettings = this.settings.onChange(heard);
    this.listeners.add(heard);
    return () => {
      stopSettings();
      this.listeners.delete(heard);
    };
  }

  /** The sign-in gives the token holder its provider; null signs out (sign-in/sign-in.ts). */
  use(provider: TokenProvider | null, why?: "expired"): void {
    this.tokens?.use(provider, why);
  }

  /** The sign-in expired (it could not be renewed without the user): Refresh on open says so. */
  signInExpired(): boolean {
    return this.tokens?.expired() ?? false;
  }

  /** The sign-in entered `state` (its provider, if any, already in use): one change. */
  signInChanged(state: SignInState): void {
    this.signIn = state;
    const failures: unknown[] = [];
    for (const listener of [...this.listeners]) {
      try {
        listener({ signIn: state });
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw failures[0];
  }

  /** Whether the token holder gives a usable token now (it may renew one silently). Never rejects. */
  async hasToken(): Promise<boolean> {
    return Boolean(await this.tokens?.get().catch(() => null));
  }

  /** Reads the settings (and asks for a token where one is needed): how a request would be authorised now. */
  async now(): Promise<CredentialsNow> {
    const settings = await this.settings.read();
    const auth = authorisationOf(settings);
    const key = Boolean(settings.apiKey) || auth.key === "gateway";
    // Asked whatever the key: the holder renews a token that is due, as it would for the first request.
    const token = auth.user !== "signed-in" || (await this.hasToken());
    return { settings, auth, usable: key && token };
  }

  /**
   * Who the requests are made for, stable and not secret: `user:<SHA-256>` of the signed-in account (the access
   * token's issuer and `oid`, else `sub`: whom the gateway sees; the sign-in name where the token is not a JWT) where
   * the gateway lets in only signed-in users and someone is, `key:<SHA-256>` of the key the add-in sends, null
   * otherwise (the gateway's key for anyone, nobody signed in yet, or no SHA-256 here). The client keeps each one's
   * stored answers apart (api/store/acceptance.ts); it is never logged.
   */
  async who(): Promise<string | null> {
    return this.whoFor(await this.settings.read());
  }

  private async whoFor(settings: StoredSettings): Promise<string | null> {
    const auth = authorisationOf(settings);
    if (auth.user === "signed-in") {
      if (this.signIn.status !== "signed-in") return null;
      const token = await this.tokens?.get();
      const account = (token && accountOf(token)) ?? `name ${this.signIn.user.username}`;
      return hashed("user", account);
    }
    if (auth.key === "gateway" || !settings.apiKey) return null;
    return hashed("key", settings.apiKey);
  }

  /** The client's one channel: the settings (with who asks), read before every request, and the token source. */
  forClient(): ClientCredentials {
    const tokens = this.tokens;
    return {
      settings: async () => {
        const settings = await this.settings.read();
        return { ...settings, who: await this.whoFor(settings) };
      },
      ...(tokens ? { accessToken: (options) => tokens.get(options) } : {}),
    };
  }
}

/** The account a JWT access token names, as the gateway reads it (issuer and `oid`, else `sub`); null if none. */
function accountOf(token: string): string | null {
  try {
    const payload = token.split(".")[1] ?? "";
    const json = atob(
      payload
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .padEnd(Math.ceil(payload.length / 4) * 4, "="),
    );
    const claims = JSON.parse(json) as { iss?: unknown; oid?: unknown; sub?: unknown };
    const subject = typeof claims.oid === "string" ? claims.oid : claims.sub;
    return typeof subject === "string" && subject ? JSON.stringify([claims.iss ?? "", subject]) : null;
  } catch {
    return null;
  }
}

/** The last value hashed and its answer: every settings read asks (hashing is asynchronous, and not free). */
let lastHashed: { text: string; hash: Promise<string | null> } | undefined;

async function hashed(kind: "user" | "key", text: string): Promise<string | null> {
  if (lastHashed?.text !== text) {
    const digest = globalThis.crypto?.subtle?.digest("SHA-256", new TextEncoder().encode(text));
    const hash = digest
      ? digest.then((d) => [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join(""))
      : Promise.resolve(null);
    lastHashed = { text, hash: hash.catch(() => null) };
  }
  const hash = await lastHashed.hash;
  return hash ? `${kind}:${hash}` : null;
}

/** What of a runtime the credentials are made from (runtime-registry.ts's MarketDataRuntime). */
interface RuntimeParts {
  settings: SettingsStore;
  accessTokens?: AccessTokens;
  credentials?: Credentials;
}

const madeFor = new WeakMap<RuntimeParts, Credentials>();

/** The runtime's credentials; a stand-in runtime without them gets one over its settings and token holder. */
export function credentialsOf(runtime: RuntimeParts): Credentials {
  if (runtime.credentials) return runtime.credentials;
  let made = madeFor.get(runtime);
  if (!made) madeFor.set(runtime, (made = new Credentials(runtime.settings, runtime.accessTokens)));
  return made;
}
