/**
 * A gateway that lets in only signed-in people (settings' signedInUsersOnly): the
 * client asks its injected token source before every request and sends the
 * token as `Authorization: Bearer` — to the gateway, never elsewhere, never in
 * a URL, a log line or a message. A 401 renews the token once and asks once
 * more; a second 401 is the sign-in message, never a loop. No token: nothing
 * is sent and the call fails with the sign-in message. The gateway here is a
 * fetch stand-in in front of the real sandbox over HTTP.
 */
import { IDBFactory } from "fake-indexeddb";
import { createClient } from "../../src/api/client";
import { openSeriesStore } from "../../src/api/store/persistent-store";
import { SIGN_IN_MESSAGE, SignInRequiredError, type MarketDataError } from "../../src/api/errors";
import type { FetchLike } from "../../src/api/http/transport";
import type { AccessTokenSource, ClientSettings } from "../../src/api/types";
import { failureCell } from "../../src/office/cells/errors";
import { DEMO_API_KEY } from "../../sandbox/server";
import { useSandbox } from "../support/sandbox";
import { tokens } from "./token-source";

const sandbox = useSandbox({ today: "2024-06-30", assetCount: 50, quiet: true, insightFirstCallDelayMs: 0 });
const GATEWAY = "https://gateway.example.com/api";

interface Sent {
  url: string;
  authorization: string | null;
}

/** A gateway that accepts the tokens in `accepted` (401 otherwise) and forwards to the sandbox with its key. */
function gateway(accepted: Set<string>, fail?: (token: string) => Response | undefined) {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (url, init) => {
    const authorization = new Headers(init.headers).get("authorization");
    sent.push({ url, authorization });
    const token = authorization?.replace(/^Bearer /, "") ?? "";
    if (url.startsWith(GATEWAY)) {
      if (!accepted.has(token)) return new Response('{"error":"invalid_token"}', { status: 401 });
      const failed = fail?.(token);
      if (failed) return failed;
      const upstream = new URL(url.slice(GATEWAY.length), sandbox.url);
      upstream.searchParams.set("APIKey", DEMO_API_KEY);
      return globalThis.fetch(upstream.href, { ...init, headers: {} });
    }
    return globalThis.fetch(url, init);
  };
  return { fetch, sent };
}

const firmGateway: ClientSettings = {
  apiKey: "",
  baseUrl: GATEWAY,
  keyManagedByGateway: true,
  signedInUsersOnly: true,
};

function client(settings: ClientSettings, fetch: FetchLike, accessToken?: AccessTokenSource, logs: string[] = []) {
  return createClient({
    settings: async () => settings,
    fetch,
    ...(accessToken ? { accessToken } : {}),
    retryBaseMs: 1,
    retryMaxMs: 5,
    logger: (line) => logs.push(line),
  });
}

async function failure(promise: Promise<unknown>): Promise<MarketDataError> {
  try {
    await promise;
  } catch (error) {
    return error as MarketDataError;
  }
  throw new Error("expected the call to fail");
}

describe("a gateway that asks for sign-in", () => {
  it.each([
    { what: "no token source at all", source: undefined },
    { what: "a source with nobody signed in", source: tokens(null).source },
    {
      what: "a source that fails",
      source: (async () => {
        throw new Error("interaction_required");
      }) as AccessTokenSource,
    },
  ])("$what: nothing is sent, and the cell reads the sign-in message", async ({ source }) => {
    const g = gateway(new Set(["t1"]));
    const error = await failure(client(firmGateway, g.fetch, source).getAssets());
    expect(error).toBeInstanceOf(SignInRequiredError);
    expect(g.sent).toEqual([]);
    expect(failureCell(error)).toEqual({ error: "#N/A", message: "Sign in to Market Data (pane ▸ Settings)" });
    expect(SIGN_IN_MESSAGE).toBe("Sign in to Market Data (pane ▸ Settings)");
  });

  it("sends the token as Authorization: Bearer, never in the URL", async () => {
    const g = gateway(new Set(["t1"]));
    const assets = await client(firmGateway, g.fetch, tokens("t1").source).getAssets();
    expect(assets.length).toBeGreaterThan(0);
    expect(g.sent).toEqual([{ url: `${GATEWAY}/asset/symbols/`, authorization: "Bearer t1" }]);
  });

  it("a 401 renews the token once and asks once more", async () => {
    const g = gateway(new Set(["t2"]));
    const t = tokens("t1", "t2");
    const assets = await client(firmGateway, g.fetch, t.source).getAssets();
    expect(assets.length).toBeGreaterThan(0);
    expect(g.sent.map((s) => s.authorization)).toEqual(["Bearer t1", "Bearer t2"]);
    // The first ask is the call's own check that someone is signed in (before the cache or the store answers).
    expect(t.asked).toEqual([{ forceRefresh: false }, { forceRefresh: false }, { forceRefresh: true, rejected: "t1" }]);
  });

  it("a second 401 is the sign-in message: two requests, one renewal, never a loop", async () => {
    const g = gateway(new Set());
    const t = tokens("t1", "t2", "t3");
    const logs: string[] = [];
    const error = await failure(client(firmGateway, g.fetch, t.source, logs).getAssets());
    expect(error).toBeInstanceOf(SignInRequiredError);
    expect(error.message).toBe(
      "The gateway did not accept your sign-in (HTTP 401). Sign in to Market Data (pane ▸ Settings), then use Refresh all.",
    );
    expect(g.sent).toHaveLength(2);
    expect(t.asked.filter((a) => a.forceRefresh)).toHaveLength(1);
    expect(logs.join("\n")).not.toMatch(/t1|t2/);
  });

  it("a renewal that finds nobody signed in stops at the sign-in message", async () => {
    const g = gateway(new Set());
    const error = await failure(client(firmGateway, g.fetch, tokens("t1", null).source).getAssets());
    expect(error.message).toBe(SIGN_IN_MESSAGE);
    expect(g.sent).toHaveLength(1);
  });

  it("a 403 says the account is not allowed, without asking again", async () => {
    const g = gateway(new Set(["t1"]), () => new Response("{}", { status: 403 }));
    const error = await failure(client(firmGateway, g.fetch, tokens("t1").source).getAssets());
    expect(error.message).toMatch(/^The gateway refused your account \(HTTP 403\)/);
    expect(g.sent).toHaveLength(1);
  });

  it("a gateway that quotes the token gets it removed from the message and the log", async () => {
    const g = gateway(
      new Set(["secret-token-5a"]),
      (token) => new Response(`{"error":"bad ${token}"}`, { status: 400 }),
    );
    const logs: string[] = [];
    const error = await failure(client(firmGateway, g.fetch, tokens("secret-token-5a").source, logs).getAssets());
    expect(error.message).not.toContain("secret-token-5a");
    expect(logs.join("\n")).not.toContain("secret-token-5a");
  });

  it("series through the batcher carry the token too", async () => {
    const g = gateway(new Set(["t1"]));
    const result = await client(firmGateway, g.fetch, tokens("t1").source).getSeries({
      symbol: "eth",
      metric: "PRICE",
      start: "2024-06-01",
      end: "2024-06-10",
    });
    expect(result.kind).toBe("points");
    expect(g.sent.every((s) => s.authorization === "Bearer t1" && !s.url.includes("t1"))).toBe(true);
  });
});

describe("no token, no answer: after Sign out nothing answers a cell, not even what this computer holds", () => {
  const SETTLED = { symbol: "eth", metric: "PRICE", start: "2024-06-01", end: "2024-06-10" };

  it("a series held in memory and in the persistent store, a catalog held in both: the sign-in message, nothing sent", async () => {
    const g = gateway(new Set(["t1"]));
    let signedIn = true;
    const source: AccessTokenSource = async () => (signedIn ? "t1" : null);
    const store = openSeriesStore({ indexedDB: new IDBFactory(), writeDelayMs: 1 });
    const c = createClient({ settings: async () => firmGateway, fetch: g.fetch, accessToken: source, store });
    try {
      expect((await c.getSeries(SETTLED)).kind).toBe("points");
      expect((await c.getAssets()).length).toBeGreaterThan(0);
      await store.flush();
      expect(c.storage().series).toBe(1);
      const sent = g.sent.length;

      signedIn = false; // Sign out
      for (const call of [() => c.getSeries(SETTLED), () => c.getAssets()]) {
        const error = await failure(call());
        expect(error).toBeInstanceOf(SignInRequiredError);
        expect(failureCell(error)).toEqual({ error: "#N/A", message: SIGN_IN_MESSAGE });
      }
      // The in-memory cache gone too (a reload: a new client over the same store).
      c.clear();
      const error = await failure(c.getSeries(SETTLED));
      expect(error).toBeInstanceOf(SignInRequiredError);
      expect(g.sent.length).toBe(sent);

      signedIn = true; // signed in again: the stored days answer, still without a request
      expect((await c.getSeries(SETTLED)).kind).toBe("points");
      expect(g.sent.length).toBe(sent);
    } finally {
      await store.flush();
      store.close();
    }
  });
});

describe("anywhere else", () => {
  it("a service on another host never receives the token, even with a source", async () => {
    const g = gateway(new Set());
    const t = tokens("t1");
    const settings: ClientSettings = { apiKey: DEMO_API_KEY, baseUrl: sandbox.url };
    const assets = await client(settings, g.fetch, t.source).getAssets();
    expect(assets.length).toBeGreaterThan(0);
    expect(g.sent.map((s) => s.authorization)).toEqual([null]);
    expect(t.asked).toEqual([]);
  });
});
