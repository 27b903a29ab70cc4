/**
 * The built functions.js behind a gateway that asks for sign-in: a cell with
 * no token gets exactly the sign-in message (and nothing is sent); with a
 * token provider installed — as the pane's sign-in installs one, through the
 * runtime's token holder — the token goes as `Authorization: Bearer` to the
 * gateway's origin only. A local server plays the gateway (its `/_gateway`
 * answer names an identity provider; it records every request's headers and
 * forwards accepted ones to the sandbox); a second server on another origin
 * records what it receives.
 */
import { createServer, type IncomingMessage } from "node:http";
import vm from "node:vm";
import { isExcelError, type LoadedBundle } from "../../harness/bundle";
import { DEMO_API_KEY } from "../../sandbox/server";
import { useBundle } from "../support/bundle";
import { listenLocal, type LocalServer } from "../support/local-server";

const world = useBundle({ today: "2024-06-30", quiet: true, insightFirstCallDelayMs: 0 });
const TOKEN = "tok-from-the-pane-3b8e";
const AUTH = { authority: "https://login.example.com/firm", clientId: "md-addin", scopes: ["api://md/access"] };

interface Seen {
  path: string;
  authorization: string | undefined;
}

/** Answers /api/_gateway; forwards /api/* with the accepted token to the sandbox; records every request. */
function recordingServer(gatewayAnswer: object | null, accepted: string | null) {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push({ path: url.pathname + url.search, authorization: req.headers.authorization });
    if (url.pathname === "/api/_gateway") {
      res.writeHead(gatewayAnswer ? 200 : 404, { "Content-Type": "application/json" });
      res.end(gatewayAnswer ? JSON.stringify(gatewayAnswer) : "");
      return;
    }
    if (accepted !== null && req.headers.authorization !== `Bearer ${accepted}`) {
      res.writeHead(401, { "WWW-Authenticate": 'Bearer error="invalid_token"' });
      res.end();
      return;
    }
    const upstream = new URL(url.pathname.replace(/^\/api/, "") + url.search, world.sandbox.url);
    upstream.searchParams.set("APIKey", DEMO_API_KEY);
    void fetch(upstream).then(async (answer) => {
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(await answer.text());
    });
  });
  return { seen, server };
}

let gateway: { seen: Seen[]; local: LocalServer };
let other: { seen: Seen[]; local: LocalServer };

beforeAll(async () => {
  const g = recordingServer({ keyMode: "firm", auth: AUTH }, TOKEN);
  const o = recordingServer({ keyMode: "firm", auth: AUTH }, null);
  gateway = { seen: g.seen, local: await listenLocal(g.server) };
  other = { seen: o.seen, local: await listenLocal(o.server) };
});
afterAll(async () => {
  await gateway.local.close();
  await other.local.close();
});
beforeEach(() => {
  gateway.seen.length = 0;
  other.seen.length = 0;
});

type Holder = { use(provider: { acquireSilent(force: boolean): Promise<unknown> } | null): void };

/** The runtime's token holder inside the bundle (what the pane's sign-in fills). */
function tokenHolder(bundle: LoadedBundle): Holder {
  return vm.runInContext('globalThis[Symbol.for("market-data.runtime")].accessTokens', bundle.context) as Holder;
}

async function cell(bundle: LoadedBundle, args: unknown[]): Promise<unknown> {
  return bundle.call("LATEST", args).catch((error: unknown) => error);
}

describe("functions.js behind a gateway that asks for sign-in", () => {
  it("a cell without a token gets exactly the sign-in message, and nothing but /_gateway is asked", async () => {
    const bundle = world.load({ origin: gateway.local.url, storage: { "md.baseUrl": "/api", "md.apiKey": "" } });
    const value = (await cell(bundle, ["eth", "PRICE", "2024-06-20"])) as { code: string; message: string };
    expect(isExcelError(value)).toBe(true);
    expect(value.code).toBe("#N/A");
    expect(value.message).toBe("Sign in to Market Data (pane ▸ Settings)");
    expect(gateway.seen.map((s) => s.path)).toEqual(["/api/_gateway"]);
  });

  it("with a provider, the token goes as Authorization: Bearer to the gateway only", async () => {
    const bundle = world.load({ origin: gateway.local.url, storage: { "md.baseUrl": "/api", "md.apiKey": "" } });
    tokenHolder(bundle).use({ acquireSilent: async () => ({ accessToken: TOKEN, expiresOn: Date.now() + 3600_000 }) });
    const value = await cell(bundle, ["eth", "PRICE", "2024-06-20"]);
    expect(typeof value).toBe("number");
    const data = gateway.seen.filter((s) => s.path !== "/api/_gateway");
    expect(data.length).toBeGreaterThan(0);
    for (const request of data) {
      expect(request.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.path).not.toContain(TOKEN);
    }
    expect(gateway.seen.find((s) => s.path === "/api/_gateway")?.authorization).toBeUndefined();
    expect(bundle.console.map((line) => line.text).join("\n")).not.toContain(TOKEN);
  });

  it("a base address on another host never receives the token, even if it claims to be a gateway", async () => {
    const bundle = world.load({
      origin: gateway.local.url,
      storage: { "md.baseUrl": `${other.local.url}/api`, "md.apiKey": DEMO_API_KEY },
    });
    tokenHolder(bundle).use({ acquireSilent: async () => ({ accessToken: TOKEN, expiresOn: Date.now() + 3600_000 }) });
    const value = await cell(bundle, ["eth", "PRICE", "2024-06-20"]);
    expect(typeof value).toBe("number");
    expect(other.seen.length).toBeGreaterThan(0);
    expect(other.seen.map((s) => s.path)).not.toContain("/api/_gateway");
    expect(other.seen.every((s) => s.authorization === undefined)).toBe(true);
    expect(gateway.seen).toEqual([]);
  });
});
