/**
 * How a request is authorised: the client's one seam for credentials, asked
 * by the retry loop (executor.ts) the way ky asks its hooks — `beforeRequest`
 * for the headers of the first attempt, `afterResponse` for what a refusal
 * means — and by the client before a call is answered at all (client.ts).
 * Neither weaves a token, a renewal or a 403 into its own steps.
 *
 * The vocabulary (Authorisation), resolved from the settings by
 * settings-reader.ts:
 *
 *   key "pass-through"   the add-in sends the service's key (the user's own,
 *                        or the build's demo key) as the URL's APIKey
 *   key "gateway"        the firm's gateway on the add-in's host adds its key
 *                        upstream: the add-in sends none and asks for none
 *   user "signed-in"     the gateway lets in only signed-in users: every
 *                        request also carries the user's access token
 *                        (`Authorization: Bearer`), whoever holds the key
 *   user "anyone"        no token is asked for or sent
 *
 * The token comes from the injected source (ClientOptions.credentials), so the
 * client knows nothing of how people sign in.
 */
import { AuthError, type MarketDataError, redactToken, SIGN_IN_MESSAGE, SignInRequiredError } from "../errors";
import type { AccessTokenSource, ClientSettings } from "../types";

export interface Authorisation {
  key: "pass-through" | "gateway";
  user: "signed-in" | "anyone";
}

/** A service with the user's own key (or the build's), and no sign-in: what settings without a gateway say. */
export const PASS_THROUGH_KEY: Authorisation = Object.freeze({ key: "pass-through", user: "anyone" });

/** The settings' credentials in the seam's words: the client's (settings-reader.ts) and the add-in's (src/office/credentials.ts). */
export function authorisationOf(settings: Partial<ClientSettings> | undefined): Authorisation {
  return {
    key: settings?.keyManagedByGateway ? "gateway" : "pass-through",
    user: settings?.signedInUsersOnly === true ? "signed-in" : "anyone",
  };
}

/** The credentials one request carries, as `beforeRequest` (or a renewal) granted them. */
export interface AuthGrant {
  /** Headers every attempt of the request sends; none when no credential travels in a header. */
  headers?: Record<string, string>;
  /** The token sent, so a message quoting it can hide it (`withoutToken`); null when none is. */
  token: string | null;
  /** The token was already renewed once after a 401: a second 401 is the sign-in refused. */
  renewed: boolean;
}

/**
 * What a failed attempt means for its authorisation:
 * - "retry-policy": nothing of authorisation's; the retry policy decides (not a 401 or 403, or no token was sent);
 * - "renew": a 401 to a first token: renew it and ask once more (not one of the policy's retries); `renew`
 *   rejects as beforeRequest when the renewal finds no token;
 * - "fail": the sign-in refused (a second 401) or the account forbidden (403): fail with this error, no retry.
 */
export type AuthVerdict =
  { then: "retry-policy" } | { then: "renew"; renew(): Promise<AuthGrant> } | { then: "fail"; error: MarketDataError };

export interface RequestAuth {
  /**
   * Whether a call may be answered at all, asked once per call before the cache or the store answers: a gateway
   * for signed-in users answers nothing without a usable token, not even what this computer holds (what one person
   * fetched is not for whoever uses the computer after they signed out). A failing source means "no".
   */
  admits(auth: Authorisation): Promise<boolean>;
  /** As `admits`, with the error to fail the call with when it is not admitted (the sign-in expired, or none); null when it is. */
  refusal(auth: Authorisation): Promise<SignInRequiredError | null>;
  /** The grant for a request's first attempt; rejects with a SignInRequiredError when nothing may be sent. */
  beforeRequest(auth: Authorisation): Promise<AuthGrant>;
  /** After a failed attempt with `grant`, given its HTTP status. */
  afterResponse(grant: AuthGrant, status: number | undefined): AuthVerdict;
}

const NO_GRANT: AuthGrant = Object.freeze({ token: null, renewed: false });

/** The seam over a token source (none: a gateway for signed-in users gets no answer); `log` hears why a token is missing. */
export function createRequestAuth(source: AccessTokenSource | undefined, log: (line: string) => void): RequestAuth {
  /**
   * A token from the source (a renewed one when the gateway `rejected` the last), or a SignInRequiredError: none
   * given, nobody signed in, or the source failed (its own words stay out of the cell: they may describe the
   * identity provider, not what to do).
   */
  async function token(rejected?: string): Promise<string> {
    let issued: string | null = null;
    try {
      const options = rejected === undefined ? { forceRefresh: false } : { forceRefresh: true, rejected };
      issued = source ? await source(options) : null;
    } catch (cause) {
      log(`access token not available: ${cause instanceof Error ? cause.name : "error"}`);
      // The source's own sign-in words (the sign-in expired) are the add-in's, never the provider's.
      if (cause instanceof SignInRequiredError) throw new SignInRequiredError(cause.message);
    }
    if (!issued) throw new SignInRequiredError();
    return issued;
  }

  const grant = (issued: string, renewed: boolean): AuthGrant => ({
    headers: { Authorization: `Bearer ${issued}` },
    token: issued,
    renewed,
  });

  return {
    async admits(auth) {
      return (await this.refusal(auth)) === null;
    },

    async refusal(auth) {
      if (auth.user !== "signed-in") return null;
      // Not `token()`: this check is silent (the request's own ask logs a failing source).
      let refused: SignInRequiredError | null = new SignInRequiredError();
      try {
        if (await source?.({ forceRefresh: false })) refused = null;
      } catch (cause) {
        if (cause instanceof SignInRequiredError) refused = new SignInRequiredError(cause.message);
      }
      return refused;
    },

    async beforeRequest(auth) {
      return auth.user === "signed-in" ? grant(await token(), false) : NO_GRANT;
    },

    afterResponse(sent, status) {
      if (sent.token === null) return { then: "retry-policy" };
      if (status === 401) {
        // One silent renewal and one more attempt, never a loop: a second 401 means the sign-in itself is refused.
        if (sent.renewed) {
          const message = `The gateway did not accept your sign-in (HTTP 401). ${SIGN_IN_MESSAGE}, then use Refresh all.`;
          return { then: "fail", error: new SignInRequiredError(message, { status: 401 }) };
        }
        const rejected = sent.token;
        return { then: "renew", renew: async () => grant(await token(rejected), true) };
      }
      if (status === 403) {
        const message =
          "The gateway refused your account (HTTP 403): you are signed in, but not allowed to use Market Data. Ask your administrator for access.";
        return { then: "fail", error: new AuthError(message, { status: 403 }) };
      }
      return { then: "retry-policy" };
    },
  };
}

/**
 * The gateway may quote what it was sent: no token reaches a message, a log line or a cell, whole, in pieces (a
 * JWT's segments) or encoded (base64, base64url: errors.ts `redactToken`).
 */
export function withoutToken(grant: AuthGrant, text: string): string {
  return redactToken(text, grant.token);
}
