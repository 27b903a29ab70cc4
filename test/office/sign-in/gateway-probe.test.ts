/**
 * The add-in learns a gateway's key mode from `<base>/_gateway` (src/office/sign-in/gateway.ts),
 * asked over real HTTP here; the nginx gateway itself answers it in test/gateway/.
 */
import { createServer } from "node:http";
import { listenLocal, useRefusingServer, type LocalServer } from "../../support/local-server";
import { normalizeBaseUrl, requestUrl, assetSymbolsRequest } from "../../../src/api/http/requests";
import { GatewayProbe, isSameOriginBase, unreachableText } from "../../../src/office/sign-in/gateway";
import { SettingsStore } from "../../../src/office/settings";

let server: LocalServer;
let origin: string;
let answer: { status: number; body: string } = { status: 200, body: '{"keyMode":"firm"}' };
const asked: string[] = [];

beforeAll(async () => {
  server = await listenLocal(
    createServer((req, res) => {
      asked.push(req.url ?? "");
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(answer.body);
    }),
  );
  origin = server.url;
});
afterAll(() => server.close());

/** The page (the shared runtime's webview) is served from `pageOrigin`. */
function onPage<T>(pageOrigin: string | undefined, run: () => Promise<T>): Promise<T> {
  const g = globalThis as { location?: unknown };
  const before = g.location;
  g.location = pageOrigin ? { origin: pageOrigin } : undefined;
  return run().finally(() => {
    g.location = before;
  });
}

beforeEach(() => {
  asked.length = 0;
  answer = { status: 200, body: '{"keyMode":"firm"}' };
});

describe("a base address on the add-in's own host", () => {
  it("/api resolves against the page's origin; without a page it is a clear configuration error", async () => {
    await onPage("https://addin.example.com", async () => {
      expect(normalizeBaseUrl("/api/")).toBe("https://addin.example.com/api");
      expect(isSameOriginBase("/api")).toBe(true);
      expect(isSameOriginBase("https://service.example.com")).toBe(false);
    });
    await onPage(undefined, async () => {
      expect(() => normalizeBaseUrl("/api")).toThrow(
        'The market-data base URL "/api" is a path on the add-in\'s host, which is not known here.',
      );
      expect(() => normalizeBaseUrl("//evil.example.com/api")).toThrow(/not a valid address/);
    });
  });

  it("an empty key (the gateway's) adds no APIKey parameter at all", () => {
    expect(requestUrl("https://addin.example.com/api", assetSymbolsRequest(), "")).toBe(
      "https://addin.example.com/api/asset/symbols/",
    );
    expect(requestUrl("https://s.example.com", assetSymbolsRequest(), "k1")).toBe(
      "https://s.example.com/asset/symbols/?APIKey=k1",
    );
  });
});

describe("GatewayProbe", () => {
  const unreachable = useRefusingServer();
  it("asks a same-origin base once and keeps the answer", async () => {
    await onPage(origin, async () => {
      const probe = new GatewayProbe();
      const answers = await Promise.all([
        probe.keyMode("/api"),
        probe.keyMode("/api/"),
        probe.keyMode(`${origin}/api`),
      ]);
      expect(answers).toEqual(["firm", "firm", "firm"]);
      expect(asked).toEqual(["/api/_gateway"]);
    });
  });

  it.each([
    { what: "pass-through", status: 200, body: '{"keyMode":"pass-through"}', mode: "pass-through" },
    { what: "a plain static host (404)", status: 404, body: "not found", mode: null },
    { what: "a web page", status: 200, body: "<!doctype html>", mode: null },
    { what: "another key mode", status: 200, body: '{"keyMode":"anything"}', mode: null },
  ])("reads $what as $mode", async ({ status, body, mode }) => {
    answer = { status, body };
    await onPage(origin, async () => expect(await new GatewayProbe().keyMode("/md")).toBe(mode));
  });

  it("never asks a service on another host", async () => {
    await onPage("https://addin.example.com", async () => {
      expect(await new GatewayProbe().keyMode(`${origin}/api`)).toBeNull();
    });
    expect(asked).toEqual([]);
  });

  it("a gateway it could not reach is asked again on the next read", async () => {
    const deadOrigin = unreachable.url;
    let target = deadOrigin;
    const probe = new GatewayProbe((url, init) => fetch(url.replace(deadOrigin, target), init));
    await onPage(deadOrigin, async () => {
      expect(await probe.keyMode("/api")).toBeNull();
      target = origin;
      expect(await probe.keyMode("/api")).toBe("firm");
    });
  });

  it("in firm mode the settings carry no key (not even a stored one) and say the gateway holds it", async () => {
    const storage = new Map<string, string>([
      ["md.apiKey", "analyst-own-key"],
      ["md.baseUrl", "/api"],
    ]);
    const store = new SettingsStore(
      {
        getItem: async (k) => storage.get(k) ?? null,
        setItem: async (k, v) => void storage.set(k, v),
        removeItem: async (k) => void storage.delete(k),
      },
      { apiKey: "md-sandbox-demo", baseUrl: "" },
      (base) => new GatewayProbe().keyMode(base),
    );
    await onPage(origin, async () => {
      expect(await store.read()).toEqual({
        apiKey: "",
        baseUrl: "/api",
        usingDefaultKey: false,
        usingDefaultBaseUrl: false,
        keyManagedByGateway: true,
      });
      answer = { status: 404, body: "" };
      storage.set("md.baseUrl", "/other");
      expect(await store.read()).toMatchObject({ apiKey: "analyst-own-key", keyManagedByGateway: false });
    });
  });

  it("the Test connection text tells a down gateway from a service a browser may not call", async () => {
    await onPage("https://addin.example.com", async () => {
      expect(unreachableText("/api")).toBe(
        "the gateway at https://addin.example.com/api did not answer (is it running?).",
      );
      expect(unreachableText("https://md.example.com/v1")).toMatch(
        /^md\.example\.com is unreachable or not allowed from the add-in \(CORS\): use the gateway/,
      );
    });
  });
});
