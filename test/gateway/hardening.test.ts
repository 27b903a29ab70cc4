/**
 * The gateway's host, requests and headers against the second attack pass
 * (docs/gateway-attacks.md, "Round two"): a GET that announces a body it never
 * sends, an access token in the query, a token with a large `groups` claim,
 * /healthz for other host names, the source maps, and the identity provider's
 * keys out of reach. Real nginx + njs, the sandbox, the test identity provider.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { freePort } from "../../scripts/lib/gateway";
import { DIST } from "../../harness/bundle";
import { accessLogWith, describeGateway, filesContaining, useGatewayRig, type GatewayRig } from "../support/gateway";
import { gatewayIdentity, useIdentityProvider, type IdentityProvider } from "../support/identity";

const ROLE = "MarketData.Read";

interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/**
 * One request written as is on its own connection (Host, Content-Length,
 * HTTP/1.0: what fetch will not send). Resolves with the answer once the
 * server closes the connection, or rejects after `timeoutMs` naming `what`.
 */
function rawRequest(url: string, text: string, what: string, timeoutMs = 15_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`No answer to ${what} within ${timeoutMs} ms (received so far: ${JSON.stringify(received)})`));
    }, timeoutMs);
    const answer = (): RawAnswer => {
      const [head, ...rest] = received.split("\r\n\r\n");
      return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, body: rest.join("\r\n\r\n") };
    };
    const settle = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer());
    };
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      // Complete once the body its Content-Length announces is in: nginx may keep
      // the connection open a while after refusing a request whose body it did not read.
      const { head, body } = answer();
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (received.includes("\r\n\r\n") && length && Buffer.byteLength(body, "latin1") >= Number(length[1])) settle();
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("close", settle);
    socket.write(text);
  });
}

let day = 0;
/** A series URL no other test asks for: a cold cache entry. */
function freshSeries(): string {
  day++;
  const d = String(day).padStart(2, "0");
  return `/api/data/api/PRICE/?symbols=btc&startDate=2022-03-${d}&endDate=2022-03-${d}`;
}

describeGateway("the gateway's requests and headers, round two (nginx + njs + sandbox)", () => {
  const rig: GatewayRig = useGatewayRig({ firm: true });
  const hostPort = () => new URL(rig.gateway.url).host;

  it("a GET announcing a body it never sends is answered at once, and does not hold others asking the same URL", async () => {
    const url = freshSeries();
    const bodied = rawRequest(
      rig.gateway.url,
      `GET ${url} HTTP/1.1\r\nHost: ${hostPort()}\r\nContent-Length: 10\r\nConnection: close\r\n\r\n`,
      "a GET with Content-Length: 10 and no body",
    );
    const plain = rawRequest(
      rig.gateway.url,
      `GET ${url} HTTP/1.1\r\nHost: ${hostPort()}\r\nConnection: close\r\n\r\n`,
      "a plain GET of the same URL beside it",
    );
    const [withBody, without] = await Promise.all([bodied, plain]);
    expect([withBody.status, withBody.body]).toEqual([
      400,
      '{"message":"The gateway takes no request body: send the GET without one."}\n',
    ]);
    expect(without.status).toBe(200);
    // Chunked, the other way to announce a body.
    const chunked = await rawRequest(
      rig.gateway.url,
      `GET ${freshSeries()} HTTP/1.1\r\nHost: ${hostPort()}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
      "a chunked GET whose body never comes",
    );
    expect(chunked.status).toBe(400);
  });

  it.each(["access_token", "ACCESS_TOKEN", "Access_Token"])(
    "a token in the query (%s) is refused: never sent to the service, logged or cached",
    async (name) => {
      const token = `eyJ${randomUUID().replace(/-/g, "")}.eyJ${randomUUID().replace(/-/g, "")}.sig`;
      const url = `${freshSeries()}&${name}=${token}`;
      const response = await fetch(`${rig.gateway.url}${url}`);
      expect([response.status, await response.text()]).toEqual([
        400,
        '{"message":"The gateway refuses an access token in the address: send it in the Authorization header."}\n',
      ]);
      const logged = await accessLogWith(rig.gateway, /"GET \/api\/data\/api\/PRICE\/\?/, "the refused request");
      expect(logged.filter((line) => line.includes(token))).toEqual([]);
      expect(rig.sandbox.requestLog().filter((e) => e.query.includes(token))).toEqual([]);
      expect(filesContaining([rig.gateway.stateDir], token)).toEqual([]);
    },
  );

  it("a token in the query of a static file is refused and not logged either", async () => {
    const token = `eyJ${randomUUID().replace(/-/g, "")}`;
    const response = await fetch(`${rig.gateway.url}/taskpane.html?access_token=${token}`);
    expect(response.status).toBe(400);
    await response.text();
    const logged = await accessLogWith(rig.gateway, /"GET \/taskpane\.html\?/, "the refused page");
    expect(logged.filter((line) => line.includes(token))).toEqual([]);
  });

  it("/healthz for another host name, or none, says only that it is up", async () => {
    const other = await rawRequest(
      rig.gateway.url,
      "GET /healthz HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
      "/healthz for evil.example",
    );
    const none = await rawRequest(rig.gateway.url, "GET /healthz HTTP/1.0\r\n\r\n", "/healthz without a Host");
    expect([other.status, other.body]).toEqual([200, '{"status":"ok"}\n']);
    expect([none.status, none.body]).toEqual([200, '{"status":"ok"}\n']);
    // Its own names still get the details.
    expect(await (await fetch(`${rig.gateway.url}/healthz`)).json()).toMatchObject({ keyMode: "firm" });
  });

  it("the build's source maps are not served", async () => {
    const maps = readdirSync(DIST).filter((name) => name.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    for (const name of maps) {
      expect(existsSync(path.join(DIST, name))).toBe(true);
      const response = await fetch(`${rig.gateway.url}/${name}`);
      await response.text();
      expect([name, response.status]).toEqual([name, 404]);
    }
  });
});

describeGateway("the gateway's sign-in, round two (nginx + njs + oidc-provider + sandbox)", () => {
  const idp: IdentityProvider = useIdentityProvider();
  const identity = (jwksUri?: string) => ({ ...gatewayIdentity(idp, ROLE), ...(jwksUri ? { jwksUri } : {}) });

  describe("the provider's keys at hand", () => {
    const rig = useGatewayRig(() => ({ firm: true, gateway: { identity: identity() } }));

    it("a valid token of about 16 KB (a large groups claim) is accepted", async () => {
      const groups = Array.from({ length: 400 }, () => randomUUID());
      const token = idp.forge({ roles: [ROLE], groups });
      expect(token.length).toBeGreaterThan(16_000);
      const response = await fetch(`${rig.gateway.url}${freshSeries()}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect([response.status, (await response.text()).slice(0, 60)]).toEqual([200, expect.stringMatching(/^\{/)]);
    });
  });

  describe("the provider's keys out of reach", () => {
    let deadKeys = "";
    // Before the rig's own beforeAll, which reads it: a port nothing listens on.
    beforeAll(async () => {
      deadKeys = `http://127.0.0.1:${await freePort()}/keys`;
    });
    const rig = useGatewayRig(() => ({ firm: true, gateway: { identity: identity(deadKeys) } }));

    it('says 503 "keys unavailable", with Retry-After', async () => {
      const response = await fetch(`${rig.gateway.url}${freshSeries()}`, {
        headers: { Authorization: `Bearer ${idp.forge({ roles: [ROLE] })}` },
      });
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(await response.text()).toContain("keys are unavailable");
    });
  });
});
