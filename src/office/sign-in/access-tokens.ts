/**
 * The signed-in user's access tokens, as the shared client asks for them
 * (ClientOptions.credentials): a holder with no sign-in code of its own, so
 * functions.js stays small and never opens a window. The pane's sign-in
 * (src/office/sign-in/sign-in.ts, MSAL loaded on demand) installs a provider; until
 * it has, and after Sign out, there is no token and cells say to sign in.
 *
 * Thousands of cells ask at once: one token is held and shared, renewed
 * silently a few minutes before it expires, and one renewal serves every
 * caller waiting for it. A 401 renews at most once per token the gateway
 * refused, so a burst of refused cells costs one renewal, not one each.
 */

import { SignInExpiredError } from "../../api";

/** A token and when it expires (ms since the epoch). */
export interface IssuedToken {
  accessToken: string;
  expiresOn: number;
}

/** What the sign-in gives the holder: tokens without any window, or null when there is no usable sign-in. */
export interface TokenProvider {
  acquireSilent(forceRefresh: boolean): Promise<IssuedToken | null>;
}

/** Renew this long before expiry: a token must not expire between being handed out and reaching the gateway. */
export const RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;

export class AccessTokens {
  private provider: TokenProvider | null = null;
  private held: IssuedToken | null = null;
  private renewal: Promise<IssuedToken | null> | null = null;
  /** Counts providers: an answer from a provider that was replaced (sign out, sign in again) is dropped. */
  private generation = 0;
  /** The sign-in was in use and can no longer be renewed without the user: asks fail saying so. */
  private expiredNow = false;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** The pane's sign-in installs its provider; null signs out (the held token is dropped at once), or, `expired`, says the sign-in expired. */
  use(provider: TokenProvider | null, why?: "expired"): void {
    this.provider = provider;
    this.expiredNow = provider === null && why === "expired";
    this.held = null;
    this.renewal = null;
    this.generation += 1;
  }

  /** Whether a sign-in is installed (it may still fail to give a token). */
  hasProvider(): boolean {
    return this.provider !== null;
  }

  /** Whether the sign-in expired (could not be renewed without the user) and nobody signed in since. */
  expired(): boolean {
    return this.expiredNow;
  }

  /**
   * A usable token, or null (nobody signed in, or the sign-in cannot be renewed without the user); rejects only with
   * a SignInExpiredError, once the sign-in in use expired (cells say so).
   */
  async get(options: { forceRefresh: boolean; rejected?: string } = { forceRefresh: false }): Promise<string | null> {
    if (!this.provider) return this.none();
    const held = this.held;
    if (held && this.usable(held)) {
      // After a 401: a token other than the refused one is already a renewal (another cell's); use it.
      if (!options.forceRefresh || (options.rejected !== undefined && held.accessToken !== options.rejected)) {
        return held.accessToken;
      }
    }
    return (await this.renew(options.forceRefresh))?.accessToken ?? this.none();
  }

  private none(): null {
    if (this.expiredNow) throw new SignInExpiredError();
    return null;
  }

  private usable(token: IssuedToken): boolean {
    return token.expiresOn - RENEW_BEFORE_EXPIRY_MS > this.now();
  }

  private renew(forceRefresh: boolean): Promise<IssuedToken | null> {
    if (this.renewal) return this.renewal;
    const provider = this.provider!;
    const generation = this.generation;
    const renewal = provider
      .acquireSilent(forceRefresh)
      .catch(() => null)
      .then((token) => {
        if (generation !== this.generation) return null;
        this.held = token;
        return token;
      })
      .finally(() => {
        if (this.renewal === renewal) this.renewal = null;
      });
    this.renewal = renewal;
    return renewal;
  }
}
