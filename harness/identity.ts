/**
 * The identity provider of the sign-in tests and the gateway bench: a real
 * OpenID Connect provider (harness/oidc-issuer.ts, panva's oidc-provider in
 * its own process)
 * issuing real signed access tokens, and the tokens an attacker would make
 * (expired, for another audience, tampered, `alg: none`, HMAC, unknown key),
 * signed here with the provider's own private key where the case needs a
 * valid signature.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHmac, generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

export const TEST_AUDIENCE = "api://md-gateway-tests";
export const TEST_TENANT = "7f0e4f6c-0000-4000-8000-00000000f1f0";
const CLIENT = { id: "md-gateway-tests", secret: "md-gateway-tests-secret" };

interface SigningKey {
  kid: string;
  alg: "RS256" | "ES256";
  privateKey: KeyObject;
  publicKey: KeyObject;
}

function signingKey(alg: "RS256" | "ES256"): SigningKey {
  const pair =
    alg === "RS256"
      ? generateKeyPairSync("rsa", { modulusLength: 2048 })
      : generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { kid: `${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`, alg, ...pair };
}

function privateJwk(key: SigningKey): Record<string, unknown> {
  return { ...key.privateKey.export({ format: "jwk" }), kid: key.kid, alg: key.alg, use: "sig" };
}

const b64 = (value: unknown) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

export interface TokenRequest {
  /** The oid claim. */
  user?: string;
  name?: string;
  roles?: string[];
  /** The resource indicator, i.e. the audience (default TEST_AUDIENCE). */
  audience?: string;
  /** Ask the second provider (same keys, another issuer). */
  otherIssuer?: boolean;
}

export interface IdentityProvider {
  issuer: string;
  otherIssuer: string;
  /** The provider's key set (plain http on loopback when the provider itself is https: what nginx fetches). */
  keysUrl: string;
  /** Registers the add-in's public client (md-addin-client) with this redirect URI. */
  registerAddin(redirectUri: string): Promise<void>;
  /** A real access token from the provider's token endpoint. */
  token(request?: TokenRequest): Promise<string>;
  /** A token made here: these claims (over valid defaults) and header, signed with `key` (default the provider's). */
  forge(
    claims?: Record<string, unknown>,
    header?: Record<string, unknown>,
    key?: "provider" | "ec" | "stranger",
  ): string;
  /** Moves the provider's clock ahead (time passes there: what it issued expires by its own lifetimes). */
  advanceClock(seconds: number): Promise<void>;
  /**
   * The first event the provider reported matching `pattern`, e.g. /^grant.error invalid_grant/ (lines "<name>
   * <error> <detail>" or "grant.success <grant type>"), among those from index `since` of `events` on (default all),
   * waiting up to `timeoutMs` (default 30 s) for it.
   */
  event(pattern: RegExp, options?: { since?: number; timeoutMs?: number }): Promise<string>;
  /** Every event the provider reported so far. */
  events: string[];
  /** Puts a new signing key first in the provider's key set; returns its kid. */
  rotate(): Promise<string>;
  /** The provider's RSA public key as PEM (what an HMAC forgery uses as its secret). */
  publicPem: string;
  close(): Promise<void>;
}

export interface IdentityProviderOptions {
  /** Serve the provider over https with a self-signed certificate for 127.0.0.1 (MSAL takes only https authorities). */
  https?: boolean;
}

/** Why the provider cannot be served over https here, or null when it can (openssl makes the certificate). */
export const NO_HTTPS_ISSUER: string | null = (() => {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return null;
  } catch {
    return "no openssl to make the test provider's self-signed certificate (install Debian's openssl)";
  }
})();

/** A self-signed certificate for 127.0.0.1, made by openssl (a day long). */
function selfSignedCertificate(): { cert: string; key: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "md-issuer-tls-"));
  try {
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1"].concat([
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ]),
      { stdio: "ignore" },
    );
    return { cert: readFileSync(cert, "utf8"), key: readFileSync(key, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startIdentityProvider(options: IdentityProviderOptions = {}): Promise<IdentityProvider> {
  const rsa = signingKey("RS256");
  const ec = signingKey("ES256");
  const stranger = signingKey("RS256");
  const child: ChildProcess = spawn(
    path.resolve(__dirname, "..", "node_modules", ".bin", "tsx"),
    [path.join(__dirname, "oidc-issuer.ts")],
    {
      env: {
        ...process.env,
        MD_ISSUER_KEYS: JSON.stringify([privateJwk(rsa), privateJwk(ec)]),
        MD_ISSUER_TENANT: TEST_TENANT,
        MD_ISSUER_AUDIENCE: TEST_AUDIENCE,
        ...(options.https ? { MD_ISSUER_TLS: JSON.stringify(selfSignedCertificate()) } : {}),
        NODE_NO_WARNINGS: "1",
      },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  const log = eventLog();
  lines.on("line", (line) =>
    line.startsWith("event ") ? log.add(line.slice("event ".length)) : waiting.shift()?.(line),
  );
  const nextLine = (what: string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the OpenID provider did not say ${what}: ${stderr}`)), 20_000);
      child.once("exit", (code) => reject(new Error(`the OpenID provider exited (${code}): ${stderr}`)));
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  const { issuer, otherIssuer, keysUrl } = JSON.parse(await nextLine("where it listens")) as {
    issuer: string;
    otherIssuer: string;
    keysUrl: string;
  };

  const forge: IdentityProvider["forge"] = (claims = {}, header = {}, which = "provider") => {
    const key = which === "ec" ? ec : which === "stranger" ? stranger : rsa;
    const now = Math.floor(Date.now() / 1000);
    const body = {
      iss: issuer,
      aud: TEST_AUDIENCE,
      sub: CLIENT.id,
      oid: "00000000-0000-0000-0000-0000000000f0",
      preferred_username: "forger@example.com",
      tid: TEST_TENANT,
      scp: "access_as_user",
      iat: now,
      nbf: now,
      exp: now + 600,
      ...claims,
    };
    const head = { alg: key.alg, typ: "at+jwt", kid: key.kid, ...header };
    const signed = `${b64(head)}.${b64(body)}`;
    const signature =
      key.alg === "ES256"
        ? sign("sha256", Buffer.from(signed), { key: key.privateKey, dsaEncoding: "ieee-p1363" })
        : sign("sha256", Buffer.from(signed), key.privateKey);
    return `${signed}.${signature.toString("base64url")}`;
  };

  return {
    issuer,
    otherIssuer,
    keysUrl,
    async registerAddin(redirectUri) {
      const registered = nextLine("addin");
      child.stdin!.write(`addin ${redirectUri}\n`);
      await registered;
    },
    publicPem: rsa.publicKey.export({ format: "pem", type: "spki" }).toString(),
    forge,
    async token(request = {}) {
      const form = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        resource: request.audience ?? TEST_AUDIENCE,
        // The gateway's scope, as an add-in signed in by a person would hold it (an ID token has none).
        scope: `market-data ${request.audience ?? TEST_AUDIENCE}/access_as_user`,
        ...(request.user ? { md_user: request.user } : {}),
        ...(request.name ? { md_name: request.name } : {}),
        ...(request.roles ? { md_roles: request.roles.join(",") } : {}),
      });
      const response = await fetch(`${request.otherIssuer ? otherIssuer : issuer}/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: form,
      });
      const answer = (await response.json()) as { access_token?: string; error_description?: string };
      if (!response.ok || !answer.access_token)
        throw new Error(`token endpoint: HTTP ${response.status} ${answer.error_description ?? ""}`);
      return answer.access_token;
    },
    events: log.events,
    async advanceClock(seconds) {
      const advanced = nextLine("advanced");
      child.stdin!.write(`advance ${Math.round(seconds)}\n`);
      await advanced;
    },
    event: log.event,
    async rotate() {
      const next = signingKey("RS256");
      const rotated = nextLine("rotated");
      child.stdin!.write(`rotate ${JSON.stringify(privateJwk(next))}\n`);
      await rotated;
      return next.kid;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin!.end();
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The provider's reported events, and waiting for one (IdentityProvider.event). */
function eventLog(): { events: string[]; add(event: string): void; event: IdentityProvider["event"] } {
  const events: string[] = [];
  const waiters = new Set<() => void>();
  return {
    events,
    add(event) {
      events.push(event);
      for (const wake of [...waiters]) wake();
    },
    event: (pattern, { since = 0, timeoutMs = 30_000 } = {}) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const found = events.slice(since).find((e) => pattern.test(e));
          if (found === undefined) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(`the OpenID provider reported no event matching ${pattern} (it reported: ${events.join("; ")})`),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
  };
}

/** An HMAC-signed token (HS256) using the provider's public key as the secret: the classic forgery. */
export function hmacForgery(provider: IdentityProvider): string {
  const now = Math.floor(Date.now() / 1000);
  const head = b64({ alg: "HS256", typ: "JWT" });
  const body = b64({ iss: provider.issuer, aud: TEST_AUDIENCE, sub: "x", oid: "x", exp: now + 600 });
  const signature = createHmac("sha256", provider.publicPem).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${signature}`;
}
