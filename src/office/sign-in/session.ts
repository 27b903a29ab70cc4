/**
 * What one identity provider's sign-in offers, in the add-in's words: the
 * contract between the controller (sign-in.ts) and the MSAL code that opens a
 * session (msal-sign-in.ts, its own lazily loaded chunk). Both import it; the
 * chunk never imports its loader back. The controller's state and where it
 * reports it (SignInSink) are here too, so the credentials (../credentials.ts)
 * hear the sign-in without importing the controller.
 */
import type { TokenProvider } from "./access-tokens";
import type { GatewaySignIn } from "./gateway";

export interface SignedInUser {
  /** The display name, or the user name when the provider gives none. */
  name: string;
  /** The sign-in name (e-mail or UPN), as the provider gives it. */
  username: string;
}

/** One identity provider's sign-in, as msal-sign-in.ts opens it (tests open a stand-in). */
export interface SignInSession {
  /** Office signs the user in (nested app authentication): Sign out stops this add-in using the account only. */
  readonly nested: boolean;
  /** Tokens without any window; null when the user must sign in. */
  readonly provider: TokenProvider;
  /** Whoever a token can be had for without asking the user, or null. */
  trySilent(): Promise<SignedInUser | null>;
  /** Asks the user (a popup, or Office's own prompt with nested app authentication). */
  signInInteractive(): Promise<SignedInUser>;
  /** Forgets the account on this computer for this add-in. */
  signOut(): Promise<void>;
}

export type OpenSession = (config: GatewaySignIn) => Promise<SignInSession>;

export type SignInState =
  | { status: "off" }
  | { status: "starting" }
  | { status: "signed-out"; error?: string }
  | { status: "signing-in" }
  | { status: "signed-in"; user: SignedInUser; nested: boolean };

/**
 * Where the controller's sign-in goes: the token holder gets the provider (null on sign-out), and, when the sink is
 * the credentials (../credentials.ts), each state the controller enters, right after the provider it goes with.
 */
export interface SignInSink {
  /** `expired`: no provider because the sign-in in use could not be renewed without the user. */
  use(provider: TokenProvider | null, why?: "expired"): void;
  signInChanged?(state: SignInState): void;
}
