/**
 * A real OpenID Connect provider for the gateway tests: panva's oidc-provider
 * (the certified Node.js implementation), run as its own process because it is
 * an ES module jest cannot load. It issues real signed JWT access tokens by the
 * client credentials grant with a resource indicator (the audience), with the
 * claims Microsoft Entra ID puts in an access token (oid, preferred_username,
 * tid, roles) taken from extra token-request fields, so a test asks for the
 * user it needs.
 *
 * Started by test/support/identity.ts: `tsx test/support/oidc-issuer.ts`, with
 *   MD_ISSUER_KEYS    the signing keys, private JWKs with kid and alg (JSON array)
 *   MD_ISSUER_TENANT  the tid claim
 * Prints one JSON line {"issuer": …, "otherIssuer": …} when both listen: the
 * provider, and a second one with the same keys but another issuer (for the
 * "wrong issuer" case). A line "rotate <private JWK>" on stdin puts a new key
 * first in the key set (the provider signs with it from then on) and answers
 * "rotated".
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface ProviderLike {
  callback(): Handler;
}
type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => ProviderLike;

export const TEST_CLIENT = { id: "md-gateway-tests", secret: "md-gateway-tests-secret" };

async function main(): Promise<void> {
  // A specifier in a variable: the module is ESM, loaded by Node itself, untyped here.
  const moduleName = "oidc-provider";
  const { default: Provider } = (await import(moduleName)) as { default: ProviderClass };
  let keys = JSON.parse(process.env.MD_ISSUER_KEYS ?? "[]") as Record<string, unknown>[];
  const tenant = process.env.MD_ISSUER_TENANT ?? "";

  const configuration = () => ({
    clients: [
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
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: () => ({
          scope: "market-data",
          accessTokenFormat: "jwt",
          accessTokenTTL: 600,
          jwt: { sign: { alg: String(keys[0].alg) } },
        }),
      },
    },
    // The token request's own form fields (extraParams covers the authorization endpoint only).
    extraTokenClaims: (ctx: { oidc: { body?: Record<string, string | undefined> } }) => {
      const params = ctx.oidc.body ?? {};
      return {
        oid: params.md_user ?? "00000000-0000-0000-0000-0000000000a1",
        preferred_username: params.md_name ?? "analyst@example.com",
        tid: tenant,
        roles: (params.md_roles ?? "").split(",").filter(Boolean),
      };
    },
  });

  const handlers: Record<string, Handler> = {};
  const serve = async (name: string) => {
    const server = createServer((req, res) => handlers[name](req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const issuer = await serve("main");
  const otherIssuer = await serve("other");
  const build = () => {
    handlers.main = new Provider(issuer, configuration()).callback();
    handlers.other = new Provider(otherIssuer, configuration()).callback();
  };
  build();

  createInterface({ input: process.stdin }).on("line", (line) => {
    const match = /^rotate (.+)$/.exec(line);
    if (!match) return;
    keys = [JSON.parse(match[1]) as Record<string, unknown>, ...keys];
    build();
    process.stdout.write("rotated\n");
  });
  process.stdin.on("end", () => process.exit(0));
  process.stdout.write(`${JSON.stringify({ issuer, otherIssuer })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`oidc-issuer: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
