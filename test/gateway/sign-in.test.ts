/**
 * Firm mode with sign-in: a real nginx + njs checking real access tokens from
 * a real OpenID Connect provider (oidc-provider, harness/identity.ts),
 * and every token an attacker would try instead. Each refusal is a 401 with
 * `WWW-Authenticate: Bearer error="invalid_token"` and no request to the
 * service.
 */
import { checkExposure } from "../../scripts/lib/gateway";
import { accessLogWith, describeGateway, useGatewayRig, type GatewayRig } from "../support/gateway";
import {
  gatewayIdentity,
  hmacForgery,
  useIdentityProvider,
  TEST_AUDIENCE,
  type IdentityProvider,
} from "../support/identity";

const ROLE = "MarketData.Read";
const SERIES = "/api/data/api/PRICE/?symbols=eth&startDate=2024-01-01&endDate=2024-01-05";
let idp: IdentityProvider;
let rig: GatewayRig;

async function call(token: string | null, pathAndQuery = SERIES) {
  const response = await fetch(`${rig.gateway.url}${pathAndQuery}`, {
    headers: token === null ? {} : { Authorization: `Bearer ${token}` },
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

const now = () => Math.floor(Date.now() / 1000);

function tamperPayload(token: string): string {
  const [head, body, signature] = token.split(".");
  const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as Record<string, unknown>;
  claims.oid = "someone-else";
  return `${head}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
}

function tamperSignature(token: string): string {
  const [head, body, signature] = token.split(".");
  const bytes = Buffer.from(signature, "base64url");
  bytes[10] ^= 0xff;
  return `${head}.${body}.${bytes.toString("base64url")}`;
}

function algNone(token: string): string {
  const [, body] = token.split(".");
  return `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${body}.`;
}

describeGateway("gateway sign-in (nginx + njs + oidc-provider + sandbox)", () => {
  idp = useIdentityProvider();
  rig = useGatewayRig(() => ({
    firm: true,
    sandbox: { hostile: { reflectHeaders: ["authorization", "cookie"] } },
    gateway: {
      rate: 1,
      burst: 2,
      identity: gatewayIdentity(idp, ROLE),
    },
  }));

  // The provider is asked at most once per 10 s: a new key is taken up within that.
  it("picks up a key the provider adds later, without a restart", async () => {
    await call(await idp.token({ roles: [ROLE] })); // the key set is now in nginx's cache
    const kid = await idp.rotate();
    const deadline = Date.now() + 30_000;
    for (let n = 0; ; n++) {
      const token = await idp.token({ roles: [ROLE], user: `rotated-user-${n}` });
      expect(JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString()).kid).toBe(kid);
      const { status } = await call(token);
      if (status === 200) break;
      expect(status).toBe(401);
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 60_000);

  it("tells the add-in how to sign in (/api/_gateway needs no token)", async () => {
    const answer = await call(null, "/api/_gateway");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      keyMode: "firm",
      auth: { authority: idp.issuer, clientId: "md-addin-client", scopes: [`${TEST_AUDIENCE}/access_as_user`] },
    });
  });

  it("a valid token gets the service's answer; the token never goes upstream", async () => {
    const token = await idp.token({ roles: [ROLE], user: "alice-oid", name: "alice@example.com" });
    const asked = rig.sandbox.nextRequest((e) => e.path === "/data/api/PRICE/", "the series request");
    const answer = await call(token, "/api/data/api/PRICE/?symbols=btc&startDate=2024-02-01&endDate=2024-02-03");
    expect(answer.status).toBe(200);
    await asked;
    const json = JSON.parse(answer.body) as { reflected: Record<string, string>; data: unknown };
    expect(json.reflected).toEqual({});
    expect(json.data).toBeTruthy();
  });

  it("an ES256 token signed with one of the provider's keys is accepted", async () => {
    expect((await call(idp.forge({ roles: [ROLE] }, {}, "ec"))).status).toBe(200);
  });

  const refusals: [string, () => Promise<string | null>][] = [
    ["no token", async () => null],
    ["an empty bearer", async () => ""],
    ["expired", async () => idp.forge({ roles: [ROLE], iat: now() - 7200, nbf: now() - 7200, exp: now() - 3600 })],
    ["not yet valid", async () => idp.forge({ roles: [ROLE], nbf: now() + 3600, exp: now() + 7200 })],
    ["from another issuer (a real token)", async () => idp.token({ roles: [ROLE], otherIssuer: true })],
    ["for another audience (a real token)", async () => idp.token({ roles: [ROLE], audience: "api://another-api" })],
    ["from another tenant", async () => idp.forge({ roles: [ROLE], tid: "00000000-0000-0000-0000-000000000bad" })],
    ["without the required role", async () => idp.token({ roles: ["Something.Else"] })],
    ["with a tampered payload", async () => tamperPayload(await idp.token({ roles: [ROLE] }))],
    ["with a tampered signature", async () => tamperSignature(await idp.token({ roles: [ROLE] }))],
    ["with alg: none", async () => algNone(await idp.token({ roles: [ROLE] }))],
    ["HMAC-signed with the provider's public key (HS256)", async () => hmacForgery(idp)],
    [
      "signed with a key the provider never published (unknown kid)",
      async () => idp.forge({ roles: [ROLE] }, {}, "stranger"),
    ],
    [
      "claiming a provider kid but signed by another key",
      async () => {
        const real = JSON.parse(Buffer.from((await idp.token()).split(".")[0], "base64url").toString()) as {
          kid: string;
        };
        return idp.forge({ roles: [ROLE] }, { kid: real.kid }, "stranger");
      },
    ],
    ["without an expiry", async () => idp.forge({ roles: [ROLE], exp: undefined })],
    // An ID token for the add-in: in the documented Entra set-up its aud is the API's too; it holds no scope.
    [
      "that is an ID token (no scp)",
      async () => idp.forge({ roles: [ROLE], scp: undefined, nonce: "n" }, { typ: "JWT" }),
    ],
    ["with an unknown critical header (crit)", async () => idp.forge({ roles: [ROLE] }, { crit: ["x-md-unknown"] })],
  ];

  it.each(refusals)(
    "refuses a token %s: 401, Bearer invalid_token, no request to the service",
    async (_label, make) => {
      const token = await make();
      const before = rig.sandbox.stats().requests;
      const answer = await call(token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
      expect(JSON.parse(answer.body).message).toMatch(/^Sign in to Market Data/);
      expect(rig.sandbox.stats().requests).toBe(before);
    },
  );

  it("the access log names the user and never holds a token", async () => {
    const token = await idp.token({ roles: [ROLE], user: "log-oid-7", name: "carol@example.com" });
    await call(token, "/api/supported-metrics/");
    const line = /"user":"log-oid-7","name":"carol@example\.com",.*"request":"GET \/api\/supported-metrics\/"/;
    const log = (await accessLogWith(rig.gateway, line, "carol's request")).join("\n");
    expect(log).toMatch(line);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split(".")[2]);
    expect(log).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);
  });

  it("limits each user, not each address: one user's burst does not stop another's (1/s, burst 2 here)", async () => {
    const dave = await idp.token({ roles: [ROLE], user: "dave-oid" });
    const erin = await idp.token({ roles: [ROLE], user: "erin-oid" });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(dave, "/api/asset/symbols/")).status);
    expect(statuses).toContain(429);
    expect((await call(erin, "/api/asset/symbols/")).status).toBe(200);
  });
});

describe("firm mode off this machine", () => {
  it.each([
    ["0.0.0.0 without identity settings is refused", "0.0.0.0", false, false, true],
    ["a LAN address without identity settings is refused", "10.1.2.3", false, false, true],
    ["0.0.0.0 with identity settings starts", "0.0.0.0", true, false, false],
    ["0.0.0.0 on a network said to be trusted starts", "0.0.0.0", false, true, false],
    ["127.0.0.1 without identity settings starts (one machine, tests)", "127.0.0.1", false, false, false],
    ["::1 without identity settings starts", "::1", false, false, false],
  ])("%s", (_label, host, withIdentity, trustedNetwork, refused) => {
    const run = () =>
      checkExposure({
        host,
        keyMode: "firm",
        identity: withIdentity ? { issuer: "https://id.example.com", audience: "a", clientId: "c" } : null,
        trustedNetwork,
      });
    if (refused) expect(run).toThrow(/needs sign-in/);
    else expect(run).not.toThrow();
  });
});
