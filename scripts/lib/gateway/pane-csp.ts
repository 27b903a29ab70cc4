/** The pane's Content-Security-Policy as the gateway sends it (taskpane.html's own, connect-src narrowed). */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { IdentitySettings } from "./identity-settings";

/**
 * The CSP of dist/taskpane.html's <meta>, with connect-src narrowed to the gateway's own origin and, with
 * sign-in, the identity provider's (MSAL reads its discovery document and redeems the popup's code there).
 */
export function paneCspFromDist(
  distDir: string,
  identity?: Pick<IdentitySettings, "issuer" | "authority"> | null,
): string {
  const html = readFileSync(path.join(distDir, "taskpane.html"), "utf8");
  const match = /http-equiv=["']?Content-Security-Policy["']?\s+content=(["'])(.*?)\1/i.exec(html);
  if (!match)
    throw new Error(
      `${path.join(distDir, "taskpane.html")} has no Content-Security-Policy <meta>: build the add-in first.`,
    );
  const origins = identity ? [signInOrigin(identity)] : [];
  return gatewayCsp(match[2], origins, origins);
}

/** The Content-Security-Policy of dist/taskpane.html's <meta>. */
export function metaCspFromDist(distDir: string): string {
  const html = readFileSync(path.join(distDir, "taskpane.html"), "utf8");
  return /http-equiv=["']?Content-Security-Policy["']?\s+content=(["'])(.*?)\1/i.exec(html)?.[2] ?? "";
}

/**
 * The page's own <meta> policy applies as well as the gateway's header, so with sign-in its frame-src must let the
 * pane frame the identity provider too (MSAL renews tokens silently in a hidden frame to the provider, Microsoft
 * Learn, *Single-page application: Acquire a token to call an API*: acquireTokenSilent "uses a hidden iframe" once
 * the refresh token cannot be used). nginx rewrites the directive as it serves taskpane.html (sub_filter): `from`,
 * the page's frame-src, to `to`, with the provider's origin; the same text without sign-in.
 */
export function paneFrameRewrite(
  metaCsp: string,
  identity?: Pick<IdentitySettings, "issuer" | "authority"> | null,
): { from: string; to: string } {
  const from = directiveOf(metaCsp, "frame-src") ?? "frame-src 'self'";
  return { from, to: identity ? `${from} ${signInOrigin(identity)}` : from };
}

function directiveOf(csp: string, name: string): string | undefined {
  return csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.toLowerCase().startsWith(`${name} `));
}

/** The identity provider's origin, as the add-in signs in there (the authority, else the issuer). */
export function signInOrigin(identity: Pick<IdentitySettings, "issuer" | "authority">): string {
  return new URL(identity.authority ?? identity.issuer).origin;
}

/**
 * The pane's policy for the gateway: connect-src is the gateway's own origin, and `alsoConnect` (the identity
 * provider); frame-src adds `alsoFrame` (the identity provider, for MSAL's silent renewal).
 */
export function gatewayCsp(metaCsp: string, alsoConnect: string[] = [], alsoFrame: string[] = []): string {
  const connect = ["connect-src 'self'", ...alsoConnect].join(" ");
  const directives = metaCsp
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => (/^connect-src\s/i.test(d) ? connect : d))
    .map((d) => (/^frame-src\s/i.test(d) && alsoFrame.length ? [d, ...alsoFrame].join(" ") : d));
  if (!directives.some((d) => /^connect-src\s/i.test(d))) directives.push(connect);
  return directives.join("; ");
}
