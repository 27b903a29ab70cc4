import { AuthError, BadRequestError, NotFoundError } from "../../src/api/errors";
import type { FakeReply, Handler } from "../support/fake-service";
import { seriesHandler } from "../support/fake-service";
import { BASE, harness, TEST_KEY } from "../support/client-harness";

const assets = [
  { platform_id: "ethereum", symbol: "eth", aggregator_id: "ethereum", title: "Ethereum", color: "#627EEA" },
  { platform_id: "eq-coin", symbol: "eq-coin", aggregator_id: null, title: "Coinbase", color: "#0052FF" },
];
const flows: Record<string, Record<string, number>> = {
  inflow: { ethereum: 10, solana: 4 },
  outflow: { ethereum: 7, solana: 6 },
};

/** A service for the non-series endpoints. */
const catalogService: Handler = (req) => {
  switch (req.path) {
    case "/api/asset/symbols/":
      return { body: { assets } };
    case "/api/supported-metrics/":
      return { body: { metrics: [{ FEES: { label: "Fees", unit: "CURRENCY", aggregation_type: "SUM" } }] } };
    case "/api/insights/streaks/":
      return {
        body: { rows: [{ ENTITY_ID: "eth", FLAG: "streak_weekly", SPARKLINE: [{ date: "2025-01-01", value: 1 }] }] },
      };
    case "/api/flows/top/": {
      const type = req.params.get("flowType")!;
      if (type === "netflow") {
        return {
          body: {
            netflow: Object.fromEntries(
              Object.keys(flows.inflow!).map((c) => [c, flows.inflow![c]! - flows.outflow![c]!]),
            ),
          },
        };
      }
      return { body: { [type]: flows[type] } };
    }
    default:
      return req.path.includes("/data/api/") ? seriesHandler()(req) : { status: 404, body: { error: "Not found" } };
  }
};

describe("catalogs, feeds and flows", () => {
  it("loads the asset catalog once per catalog TTL", async () => {
    const h = harness(catalogService, { catalogTtlMs: 3_600_000 });
    expect(await h.client.getAssets()).toEqual(assets);
    await h.clock.advance(3_599_000);
    await h.client.getAssets();
    expect(h.service.calls).toHaveLength(1);
    await h.clock.advance(1_000);
    await h.client.getAssets();
    expect(h.service.calls).toHaveLength(2);
    expect(h.service.calls[0]!.url.href).toBe(`${BASE}/asset/symbols/?APIKey=${encodeURIComponent(TEST_KEY)}`);
  });

  it("shares one request among concurrent catalog callers", async () => {
    const h = harness(catalogService);
    const [a, b] = await Promise.all([h.client.getMetrics("eth"), h.client.getMetrics("eth")]);
    expect(a).toBe(b);
    expect(a.map((m) => m.name)).toEqual(["FEES"]);
    expect(h.service.calls).toHaveLength(1);
    expect(h.service.calls[0]!.params.get("symbol")).toBe("eth");
  });

  it("joins a catalog request only from the same service: after a change of base URL the next caller asks the new one", async () => {
    const slow: Handler = async (req) => ({ ...((await catalogService(req)) as FakeReply), delayMs: 100 });
    const h = harness(slow);
    const first = h.client.getAssets();
    const joined = h.client.getAssets();
    await h.clock.advance(10);
    h.settings.baseUrl = "https://other.example.test/api";
    const second = h.client.getAssets();
    await h.clock.advance(200);
    expect(await Promise.all([first, joined, second])).toEqual([assets, assets, assets]);
    expect(h.service.calls.map((c) => c.url.origin)).toEqual(["https://md.example.test", "https://other.example.test"]);
    expect(h.client.state().inFlight).toBe(0);
  });

  it("reads an insight feed by name (case-insensitive)", async () => {
    const h = harness(catalogService);
    const rows = await h.client.getInsights("STREAKS");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.SPARKLINE).toEqual([{ date: "2025-01-01", value: 1 }]);
  });

  it("reports an unknown feed as not found", async () => {
    const h = harness(catalogService);
    await expect(h.client.getInsights("all-time-highs")).rejects.toBeInstanceOf(NotFoundError);
    await expect(h.client.getInsights("../x")).rejects.toBeInstanceOf(BadRequestError);
  });

  it("asks one request per flow type and merges them", async () => {
    const h = harness(catalogService);
    const result = await h.client.getFlows({
      sourceChains: ["ethereum", "solana"],
      flowTypes: ["inflow", "outflow", "netflow"],
      start: "2025-01-01",
      end: "2025-01-31",
    });
    expect(result.inflow).toEqual(flows.inflow);
    expect(result.outflow).toEqual(flows.outflow);
    for (const chain of ["ethereum", "solana"])
      expect(result.netflow![chain]).toBe(flows.inflow![chain]! - flows.outflow![chain]!);
    expect(h.service.calls.map((c) => c.params.get("flowType")).sort()).toEqual(["inflow", "netflow", "outflow"]);
    for (const call of h.service.calls) {
      expect(call.params.get("breakdown")).toBe("chains");
      expect(call.params.get("sourceChains")).toBe("ethereum,solana");
    }
    // Cached per flow type.
    await h.client.getFlows({
      sourceChains: ["ethereum", "solana"],
      flowTypes: ["inflow"],
      start: "2025-01-01",
      end: "2025-01-31",
    });
    expect(h.service.calls).toHaveLength(3);
  });
});

describe("testConnection", () => {
  it("makes one cheap authenticated request", async () => {
    const h = harness(catalogService);
    const result = await h.client.testConnection();
    expect(result.ok).toBe(true);
    expect(result.ms).toBeGreaterThanOrEqual(0);
    expect(h.service.calls).toHaveLength(1);
    const call = h.service.calls[0]!;
    expect(call.path).toBe("/api/data/api/PRICE/");
    expect(call.params.get("limit")).toBe("1");
    expect(call.params.get("APIKey")).toBe(TEST_KEY);
  });

  it("maps a rejected key to AuthError with the user-facing message, without retrying", async () => {
    const h = harness(() => ({ status: 401, body: { error: "invalid key" } }));
    const error = await h.client.testConnection().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toBe(
      "The market-data service rejected the API key (HTTP 401: invalid key). Enter a valid key in the Market Data pane.",
    );
    expect(h.service.calls).toHaveLength(1);
  });
});
