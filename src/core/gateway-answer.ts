/**
 * What the team gateway says of itself at `<base>/_gateway`: written by the
 * gateway's configuration (scripts/lib/gateway/identity-settings.ts fills it
 * into deploy/nginx/gateway.conf.template) and read by the add-in
 * (src/office's gateway probe). One shape, one parser, for both sides.
 *
 *   {"keyMode":"pass-through"}
 *   {"keyMode":"firm"}
 *   {"keyMode":"firm","auth":{"authority":…,"clientId":…,"scopes":[…]}}
 *
 * Any other answer means "not a gateway".
 */

export type GatewayKeyMode = "firm" | "pass-through";

/** Who signs people in for a gateway that asks for sign-in: an OpenID Connect authority and the add-in's client id there. */
export interface GatewaySignIn {
  /** https (http only on this computer, for tests), e.g. https://login.microsoftonline.com/<tenant>/v2.0 or any OIDC issuer. */
  authority: string;
  clientId: string;
  /** What the access token must be for, e.g. api://<gateway host>/<app id>/access_as_user. */
  scopes: string[];
}

/** The answer as the gateway sends it (`auth` only when it lets in only signed-in people). */
export interface GatewayAnswer {
  keyMode: GatewayKeyMode;
  auth?: GatewaySignIn;
}

/** What a gateway says of itself, as the add-in uses it. */
export interface GatewayInfo {
  keyMode: GatewayKeyMode;
  /** Present when the gateway lets in only signed-in people. */
  signIn?: GatewaySignIn;
}

/** Stands for an `auth` answer the add-in cannot use: sign-in is required, and cannot succeed. */
export const UNUSABLE_SIGN_IN: GatewaySignIn = Object.freeze({ authority: "", clientId: "", scopes: [] });

/** The `auth` part of the answer, or undefined when there is none or it is not one the add-in can use. */
function signInOf(auth: unknown): GatewaySignIn | undefined {
  if (typeof auth !== "object" || auth === null) return undefined;
  const { authority, clientId, scopes } = auth as Record<string, unknown>;
  if (typeof authority !== "string" || typeof clientId !== "string" || !clientId.trim()) return undefined;
  if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === "string" && scope.trim())) return undefined;
  let url: URL;
  try {
    url = new URL(authority);
  } catch {
    return undefined;
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) return undefined;
  return { authority: authority.replace(/\/+$/, ""), clientId: clientId.trim(), scopes: scopes as string[] };
}

/** The parsed body of `<base>/_gateway`, or null when it is not a gateway's answer. */
export function parseGatewayAnswer(body: unknown): GatewayInfo | null {
  const { keyMode, auth } = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (keyMode !== "firm" && keyMode !== "pass-through") return null;
  const signIn = signInOf(auth);
  // A gateway that asks for sign-in in a form the add-in cannot read still asks: requests then fail with
  // the sign-in message rather than go without a token.
  if (auth !== undefined && !signIn) return { keyMode, signIn: UNUSABLE_SIGN_IN };
  return signIn ? { keyMode, signIn } : { keyMode };
}
