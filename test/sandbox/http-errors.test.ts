/** Authentication, paths, methods, CORS and the error body shape over real HTTP. */
import { DEMO_API_KEY, getJson, startTestSandbox, useSandbox, SANDBOX_SUITE } from "../support/sandbox";

const sandbox = useSandbox(SANDBOX_SUITE);

type ErrorBody = { error: { status: number; message: string } };

const KEYED = [
  ["/data/api/PRICE/", { symbols: "eth" }],
  ["/flows/top/", { sourceChains: "ethereum" }],
] as const;

describe("API key", () => {
  it.each(
    KEYED.flatMap(([path, params]) => [
      [path, params, null, "Missing API key"] as const,
      [path, params, "wrong-key-123", "Invalid API key"] as const,
    ]),
  )("%s with key %j → 401 JSON", async (path, params, key, message) => {
    const reply = await getJson<ErrorBody>(sandbox, path, { ...params, APIKey: key });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    expect(reply.body).toEqual({ error: { status: 401, message: expect.stringContaining(message) } });
    expect(JSON.stringify(reply.body)).not.toContain("wrong-key-123");
  });

  it("a configured key replaces the demo key", async () => {
    const own = await startTestSandbox({ apiKey: "team-key-42" });
    try {
      expect((await getJson(own, "/data/api/PRICE/", { symbols: "eth", APIKey: DEMO_API_KEY })).status).toBe(401);
      expect((await getJson(own, "/data/api/PRICE/", { symbols: "eth", APIKey: "team-key-42" })).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it.each([
    ["/asset/symbols/", {}],
    ["/supported-metrics/", { symbol: "eth" }],
    ["/insights/streaks/", {}],
  ])("%s needs no key and accepts one", async (path, params) => {
    expect((await getJson(sandbox, path, { ...params, APIKey: null })).status).toBe(200);
    expect((await getJson(sandbox, path, { ...params, APIKey: DEMO_API_KEY })).status).toBe(200);
    expect((await getJson(sandbox, path, { ...params, APIKey: "any-other" })).status).toBe(200);
  });
});

describe("paths", () => {
  it.each([
    "/data/api/PRICE",
    "/flows/top",
    "/supported-metrics",
    "/asset/symbols",
    "/insights/streaks",
    "/insights/decline-streaks",
  ])("%s without the trailing slash → 404 saying the path must end with /", async (path) => {
    const reply = await getJson<ErrorBody>(sandbox, path, { symbols: "eth", symbol: "eth" });
    expect(reply.status).toBe(404);
    expect(reply.body.error.status).toBe(404);
    expect(reply.body.error.message).toContain('must end with "/"');
    expect(reply.body.error.message).toContain(`${path}/`);
  });

  it.each(["/data/", "/flows/bottom/", "/assets/", "/data/api/PRICE/extra/", "/favicon.ico"])(
    "%s → 404 JSON",
    async (path) => {
      const reply = await getJson<ErrorBody>(sandbox, path, {});
      expect(reply.status).toBe(404);
      expect(reply.body.error.status).toBe(404);
    },
  );
});

describe("methods and CORS", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])("%s → 405 with Allow: GET, OPTIONS", async (method) => {
    const response = await fetch(`${sandbox.url}/data/api/PRICE/?symbols=eth&APIKey=${DEMO_API_KEY}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, OPTIONS");
    expect(await response.json()).toEqual({ error: { status: 405, message: expect.stringContaining(method) } });
  });

  it("answers a CORS preflight", async () => {
    const response = await fetch(`${sandbox.url}/data/api/PRICE/`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://localhost:3000",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-requested-with",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("GET");
    expect(response.headers.get("access-control-allow-headers")).toBe("x-requested-with");
  });

  it.each([
    ["/asset/symbols/", 200],
    ["/data/api/PRICE/", 401],
    ["/nowhere/", 404],
  ])("%s (%i) carries CORS headers so a browser can read it", async (path, status) => {
    const response = await fetch(`${sandbox.url}${path}`, { headers: { Origin: "https://localhost:3000" } });
    expect(response.status).toBe(status);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("Retry-After");
    await response.arrayBuffer();
  });

  it("describes itself at /", async () => {
    const reply = await getJson<{ service: string; note: string }>(sandbox, "/", { APIKey: null });
    expect(reply.status).toBe(200);
    expect(reply.body.note).toMatch(/synthetic/i);
  });
});
