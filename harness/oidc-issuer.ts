/**
 * A real OpenID Connect provider for the gateway tests: panva's oidc-provider
 * (the certified Node.js implementation), run as its own process because it is
 * an ES module jest cannot load. It issues real signed JWT access tokens by the
 * client credentials grant with a resource indicator (the audience), with the
 * claims Microsoft Entra ID puts in an access token (oid, preferred_username,
 * tid, roles) taken from extra token-request fields, so a test asks for the
 * user it needs.
 *
 * For the pane's own sign-in (the browser test) it also has the add-in's
 * client: a public client (no secret, PKCE) signing people in by the
 * authorization code flow through oidc-provider's development login and
 * consent pages, whose access token is a JWT for the gateway's audience
 * (the resource the consent grants, as MSAL sends no resource indicator),
 * and whose ID token names the user (findAccount). Its token endpoint allows
 * CORS from the origin of the client's redirect URI only.
 *
 * Started by harness/identity.ts: `tsx harness/oidc-issuer.ts`, with
 *   MD_ISSUER_KEYS      the signing keys, private JWKs with kid and alg (JSON array)
 *   MD_ISSUER_TENANT    the tid claim
 *   MD_ISSUER_AUDIENCE  the resource every token is for unless the request names another
 *   MD_ISSUER_TLS       optional, {"cert": PEM, "key": PEM}: the provider is served over
 *                       https (MSAL accepts only https authorities), and its key set also
 *                       over plain http on loopback (`keysUrl`: for nginx, which would
 *                       not trust a self-signed certificate)
 * Prints one JSON line {"issuer": …, "otherIssuer": …, "keysUrl": …} when all
 * listen: the provider, and a second one with the same keys but another issuer
 * (for the "wrong issuer" case). A line "rotate <private JWK>" on stdin puts a
 * new key first in the key set (the provider signs with it from then on) and
 * answers "rotated"; "addin <redirect URI>" registers the add-in's client with
 * that redirect URI and answers "addin"; "advance <seconds>" moves the
 * providers' clock that far ahead (time passing at the provider: what it
 * issued expires by its own lifetimes) and answers "advanced".
 *
 * Lifetimes as Microsoft Entra ID gives a single-page app: a refresh token
 * lasts 24 hours, "a non-adjustable, non-sliding window, lifetime" (MSAL.js,
 * *Token Lifetimes, Expiration, and Renewal*); refresh tokens got with it
 * "carry over that expiration time" (Microsoft identity platform, *Refresh
 * tokens*). The provider's own sign-in session ends sooner (10 hours,
 * Keycloak's default SSO Session Max), so a day later neither the refresh
 * token nor the hidden frame renews silently.
 *
 * Events the tests wait for are lines "event <name> <error> <detail>" (a
 * refused token request, grant.error; a refused authorization request,
 * authorization.error) and "event grant.success <grant type>".
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface KoaContext {
  path: string;
  method: string;
  querystring: string;
}
interface ProviderLike {
  callback(): Handler;
  use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
  on(event: string, listener: (ctx: { oidc?: { params?: { grant_type?: unknown } } }, error?: Refused) => void): void;
}
type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => ProviderLike;

export const TEST_CLIENT = { id: "md-gateway-tests", secret: "md-gateway-tests-secret" };
/** The add-in's client: public, as an SPA's is. */
export const ADDIN_CLIENT_ID = "md-addin-client";
/** Who the development login signs in, whatever login is typed (the ID token's name claims). */
export const SIGNED_IN_USER = { name: "Ada Lovelace", preferred_username: "ada@firm.example" };
/** A single-page app's refresh token: 24 hours, never extended (Microsoft Entra ID's, see above). */
export const SPA_REFRESH_TOKEN_TTL_S = 24 * 3600;
/** The provider's own sign-in session (what a hidden frame renews with). */
export const PROVIDER_SESSION_TTL_S = 10 * 3600;

/** The provider's clock: real time, plus how far the test moved it ahead ("advance"). */
let aheadMs = 0;
const realNow = Date.now.bind(Date);
Date.now = () => realNow() + aheadMs;

interface Refused {
  error?: string;
  error_detail?: string;
}
const say = (line: string) => process.stdout.write(`${line.replace(/\s+/g, " ").trim()}\n`);

/**
 * Microsoft Entra ID gives a single-page app a refresh token with the code whenever MSAL asks for offline_access
 * (it always does). oidc-provider, following OpenID Connect Core §11, drops offline_access unless the request
 * says prompt=consent: an interactive request asking for it without a prompt is taken as asking for consent (its
 * development consent page, which the tests click through anyway).
 */
async function offlineAccessAsEntra(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  if (ctx.method === "GET" && ctx.path === "/auth") {
    const query = new URLSearchParams(ctx.querystring);
    if (!query.has("prompt") && (query.get("scope") ?? "").split(" ").includes("offline_access")) {
      query.set("prompt", "consent");
      ctx.querystring = query.toString();
    }
  }
  await next();
}

async function main(): Promise<void> {
  // A specifier in a variable: the module is ESM, loaded by Node itself, untyped here.
  const moduleName = "oidc-provider";
  const { default: Provider } = (await import(moduleName)) as { default: ProviderClass };
  let keys = JSON.parse(process.env.MD_ISSUER_KEYS ?? "[]") as Record<string, unknown>[];
  const tenant = process.env.MD_ISSUER_TENANT ?? "";
  const audience = process.env.MD_ISSUER_AUDIENCE ?? "";
  const tls = process.env.MD_ISSUER_TLS
    ? (JSON.parse(process.env.MD_ISSUER_TLS) as { cert: string; key: string })
    : null;
  let addinRedirect: string | null = null;

  const addinClient = (redirectUri: string) => ({
    client_id: ADDIN_CLIENT_ID,
    application_type: "web",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: "none",
  });

  const configuration = () => ({
    clients: [
      ...(addinRedirect ? [addinClient(addinRedirect)] : []),
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys },
    ttl: {
      // Rotation hands on what is left of the first token's lifetime: the day is not extended by use.
      RefreshToken: (ctx: { oidc?: { entities: { RotatedRefreshToken?: { remainingTTL: number } } } }) =>
        ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? SPA_REFRESH_TOKEN_TTL_S,
      Session: PROVIDER_SESSION_TTL_S,
    },
    // The development login signs in whoever is typed; the ID token names them as SIGNED_IN_USER.
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, ...SIGNED_IN_USER }),
    }),
    claims: { openid: ["sub"], profile: ["name", "preferred_username"] },
    // CORS for the add-in's client (MSAL calls the token endpoint from the pane) from its redirect URI's origin only.
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris?: string[] }) =>
      (client.redirectUris ?? []).some((uri) => new URL(uri).origin === origin),
    // oidc-provider's development login and consent pages (test only): what the browser test fills in.
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // MSAL asks for scopes, not a resource: the gateway's audience is the one resource there is.
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf ?? (audience || undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: `market-data ${resource}/access_as_user`,
          accessTokenFormat: "jwt",
          accessTokenTTL: 600,
          jwt: { sign: { alg: String(keys[0].alg) } },
        }),
      },
    },
    // The token request's own form fields (extraParams covers the authorization endpoint only).
    extraTokenClaims: (ctx: { oidc: { body?: Record<string, string | undefined> } }, token: { accountId?: string }) => {
      const params = ctx.oidc.body ?? {};
      // A signed-in user's token (authorization code) names that user.
      const user = token.accountId ? { oid: token.accountId, name: SIGNED_IN_USER.preferred_username } : null;
      return {
        oid: params.md_user ?? user?.oid ?? "00000000-0000-0000-0000-0000000000a1",
        preferred_username: params.md_name ?? user?.name ?? "analyst@example.com",
        tid: tenant,
        roles: (params.md_roles ?? "").split(",").filter(Boolean),
      };
    },
  });

  const handlers: Record<string, Handler> = {};
  const serve = async (name: string, secure = false) => {
    const handle: Handler = (req, res) => handlers[name](req, res);
    const server = secure && tls ? createTlsServer(tls, handle) : createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `${secure && tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const issuer = await serve("main", true);
  const otherIssuer = await serve("other");
  // The main provider's key set over plain http (the same provider: its issuer stays the https one).
  const keysUrl = tls ? `${await serve("main")}/jwks` : `${issuer}/jwks`;
  const build = () => {
    const main = new Provider(issuer, configuration());
    for (const name of ["grant.error", "authorization.error"])
      main.on(name, (_ctx, error) => say(`event ${name} ${error?.error ?? ""} ${error?.error_detail ?? ""}`));
    main.use(offlineAccessAsEntra);
    main.on("grant.success", (ctx) => say(`event grant.success ${String(ctx.oidc?.params?.grant_type ?? "")}`));
    handlers.main = main.callback();
    handlers.other = new Provider(otherIssuer, configuration()).callback();
  };
  build();

  createInterface({ input: process.stdin }).on("line", (line) => {
    const rotate = /^rotate (.+)$/.exec(line);
    const addin = /^addin (.+)$/.exec(line);
    const advance = /^advance (\d+)$/.exec(line);
    if (rotate) {
      keys = [JSON.parse(rotate[1]) as Record<string, unknown>, ...keys];
      build();
      process.stdout.write("rotated\n");
    } else if (addin) {
      addinRedirect = addin[1];
      build();
      process.stdout.write("addin\n");
    } else if (advance) {
      aheadMs += Number(advance[1]) * 1000;
      process.stdout.write("advanced\n");
    }
  });
  process.stdin.on("end", () => process.exit(0));
  process.stdout.write(`${JSON.stringify({ issuer, otherIssuer, keysUrl })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`oidc-issuer: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
