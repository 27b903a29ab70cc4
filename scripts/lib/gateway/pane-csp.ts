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
  return gatewayCsp(match[2], identity ? [signInOrigin(identity)] : []);
}

/** The identity provider's origin, as the add-in signs in there (the authority, else the issuer). */
export function signInOrigin(identity: Pick<IdentitySettings, "issuer" | "authority">): string {
  return new URL(identity.authority ?? identity.issuer).origin;
}

/** The pane's policy for the gateway: connect-src is the gateway's own origin, and `alsoConnect` (the identity provider). */
export function gatewayCsp(metaCsp: string, alsoConnect: string[] = []): string {
  const connect = ["connect-src 'self'", ...alsoConnect].join(" ");
  const directives = metaCsp
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean)
    .map((d) => (/^connect-src\s/i.test(d) ? connect : d));
  if (!directives.some((d) => /^connect-src\s/i.test(d))) directives.push(connect);
  return directives.join("; ");
}
