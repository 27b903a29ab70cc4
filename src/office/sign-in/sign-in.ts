/**
 * The pane's side of sign-in for a gateway that lets in only signed-in people
 * (the gateway's `/_gateway` answer names the identity provider: gateway.ts).
 * Cells never sign in: they ask the shared token holder (access-tokens.ts),
 * which this controller fills once someone is signed in and empties on Sign
 * out.
 *
 * The MSAL code (msal-sign-in.ts) is its own chunk, loaded only when a gateway
 * asks for sign-in, so neither functions.js nor the pane's first load carries
 * it. Where Office signs the user in itself (nested app authentication), the
 * first, silent attempt is enough; elsewhere the user clicks Sign in once and
 * a popup asks the provider.
 */
import { credentialsOf } from "../credentials";
import type { SettingsStore } from "../settings";
import type { GatewaySignIn } from "./gateway";
import { findRuntime } from "../runtime-registry";
import { withinDeadline as within } from "./deadline";
import { SIGN_IN_EXPIRED, signInFailure } from "./failures";
import type { TokenProvider } from "./access-tokens";
import type { OpenSession, SignedInUser, SignInSession, SignInSink, SignInState } from "./session";

export type { OpenSession, SignedInUser, SignInSession, SignInSink, SignInState } from "./session";
export { signInFailure } from "./failures";

/** Longest wait for the identity provider without the user (loading MSAL, the silent attempt): then say so. */
export const PROVIDER_DEADLINE_MS = 15_000;

function withinDeadline<T>(work: Promise<T>): Promise<T> {
  return within(work, PROVIDER_DEADLINE_MS);
}

/** The MSAL session, in its own chunk. */
const openMsalSession: OpenSession = async (config) => {
  const { openMsalSession: open } = await import(/* webpackChunkName: "sign-in" */ "./msal-sign-in");
  return open(config);
};

/** Whether the user signed out of a provider on this computer (the settings' storage: settings.ts). */
export interface SignedOutMarks {
  read(authority: string): Promise<boolean>;
  write(authority: string, signedOut: boolean): Promise<void>;
}

export class SignInController {
  private current: SignInState = { status: "off" };
  private readonly listeners = new Set<(state: SignInState) => void>();
  private config: GatewaySignIn | undefined;
  private configuring: Promise<void> = Promise.resolve();
  private session: Promise<SignInSession> | null = null;
  /** The user signed out (in this runtime, or an earlier page: `marks`): no silent sign-in until they click Sign in. */
  private signedOutByUser = false;
  /** The provider the token holder has from this controller (renewals of another are not this sign-in's). */
  private inUse: TokenProvider | null = null;

  constructor(
    /** The token holder, or the credentials over it (which also hear each state: ../credentials.ts). */
    private readonly tokens: SignInSink | undefined,
    private readonly open: OpenSession = openMsalSession,
    /** What this computer keeps of a Sign out, per provider: it outlasts the page (SignedOutMarks). */
    private readonly marks?: SignedOutMarks,
  ) {}

  state(): SignInState {
    return this.current;
  }

  subscribe(listener: (state: SignInState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * The gateway's sign-in settings, as the settings read them (undefined: the gateway asks for none). A new
   * provider starts over with a silent attempt; the same one again waits for that attempt. Never rejects.
   */
  configure(config: GatewaySignIn | undefined): Promise<void> {
    if (sameConfig(config, this.config)) return this.configuring;
    this.config = config;
    return (this.configuring = this.start(config));
  }

  private async start(config: GatewaySignIn | undefined): Promise<void> {
    this.session = null;
    this.tokens?.use(null);
    if (!config) return this.set({ status: "off" });
    if (!config.clientId) {
      return this.set({
        status: "signed-out",
        error:
          "The gateway asks for sign-in but does not say with whom (its auth settings are incomplete). Tell your administrator.",
      });
    }
    if (this.signedOutByUser || (await this.signedOutHere(config))) {
      if (this.config === config) this.set({ status: "signed-out" });
      return;
    }
    this.set({ status: "starting" });
    try {
      const user = await withinDeadline(this.sessionFor(config).then((session) => session.trySilent()));
      const session = await this.sessionFor(config);
      if (this.config !== config) return;
      if (user) this.signedIn(session, user);
      else this.set({ status: "signed-out" });
    } catch (error) {
      if (this.config === config) this.set({ status: "signed-out", error: this.failure(error, config) });
    }
  }

  /** The user signed out of this provider on this computer, in an earlier page: no silent sign-in (never rejects). */
  private async signedOutHere(config: GatewaySignIn): Promise<boolean> {
    try {
      return (await this.marks?.read(config.authority)) === true;
    } catch {
      return false;
    }
  }

  private remember(config: GatewaySignIn | undefined, signedOut: boolean): void {
    if (config) void this.marks?.write(config.authority, signedOut).catch(() => undefined);
  }

  private failure(error: unknown, config: GatewaySignIn): string {
    const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
    return signInFailure(error, config.authority, origin);
  }

  /** The user's Sign in: a popup (or Office's prompt). Never rejects; a failure is said in the state. */
  async signIn(): Promise<void> {
    const config = this.config;
    if (!config || !config.clientId) return;
    this.signedOutByUser = false;
    this.remember(config, false);
    this.set({ status: "signing-in" });
    try {
      const session = await withinDeadline(this.sessionFor(config));
      const user = await session.signInInteractive();
      if (this.config === config) this.signedIn(session, user);
    } catch (error) {
      if (this.config === config) this.set({ status: "signed-out", error: this.failure(error, config) });
    }
  }

  /** Stops every request carrying the account's tokens at once, then forgets the account. Never rejects. */
  async signOut(): Promise<void> {
    this.signedOutByUser = true;
    // Kept on this computer: where Office signs the user in itself (NAA), the next page would sign them in again.
    this.remember(this.config, true);
    this.tokens?.use(null);
    const session = this.session;
    this.set({ status: "signed-out" });
    try {
      await (await session)?.signOut();
    } catch {
      // The tokens are already out of use; a cache MSAL failed to clear is cleared on the next sign-out.
    }
  }

  private signedIn(session: SignInSession, user: SignedInUser): void {
    // A renewal that needs the user ends this sign-in at once: the pane and the cells say it expired.
    const provider: TokenProvider = {
      acquireSilent: async (forceRefresh) => {
        const token = await session.provider.acquireSilent(forceRefresh).catch(() => null);
        if (!token && this.current.status === "signed-in" && this.inUse === provider) this.expired();
        return token;
      },
    };
    this.inUse = provider;
    this.tokens?.use(provider);
    this.set({ status: "signed-in", user, nested: session.nested });
  }

  private expired(): void {
    this.inUse = null;
    this.tokens?.use(null, "expired");
    this.set({ status: "signed-out", error: SIGN_IN_EXPIRED });
  }

  private sessionFor(config: GatewaySignIn): Promise<SignInSession> {
    const session = (this.session ??= this.open(config));
    session.catch(() => {
      if (this.session === session) this.session = null; // a failed load is tried again on the next click
    });
    return session;
  }

  private set(state: SignInState): void {
    this.current = state;
    for (const listener of [...this.listeners]) listener(state);
    this.tokens?.signInChanged?.(state);
  }
}

function sameConfig(a: GatewaySignIn | undefined, b: GatewaySignIn | undefined): boolean {
  if (!a || !b) return a === b;
  return a.authority === b.authority && a.clientId === b.clientId && a.scopes.join(" ") === b.scopes.join(" ");
}

/** Sign out's mark in the settings' storage (settings.ts SIGNED_OUT_KEY), one provider at a time. */
export function signedOutMarks(settings: Pick<SettingsStore, "signedOutOf" | "setSignedOutOf">): SignedOutMarks {
  return {
    read: async (authority) => (await settings.signedOutOf()) === authority,
    write: async (authority, signedOut) => {
      if (signedOut) await settings.setSignedOutOf(authority);
      else if ((await settings.signedOutOf()) === authority) await settings.setSignedOutOf(null);
    },
  };
}

let pane: SignInController | undefined;

/**
 * The pane's one controller, over the shared runtime's credentials (its token holder, and its one change event)
 * and its settings (where a Sign out is kept).
 */
export function paneSignIn(credentials: SignInSink | undefined, settings?: SettingsStore): SignInController {
  return (pane ??= new SignInController(credentials, openMsalSession, settings && signedOutMarks(settings)));
}

/**
 * At the page's start, before the pane is shown (it may never be): where Office signs the user in, the silent
 * attempt fills the token holder, so cells and refresh on open work without the pane. Never rejects.
 */
export async function startPaneSignIn(): Promise<void> {
  const runtime = findRuntime();
  if (!runtime) return;
  try {
    const settings = await runtime.settings.read();
    if (settings.signIn) await paneSignIn(credentialsOf(runtime), runtime.settings).configure(settings.signIn);
  } catch {
    // The settings view reads them again and says what is wrong.
  }
}
