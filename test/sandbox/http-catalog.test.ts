/**
 * `/asset/symbols/` and `/supported-metrics/` over real HTTP. Most cases run
 * against a catalog grown to 2,000 assets with the hostile-title fixtures, the
 * way the picker and rendering tests use it; "the default catalog" checks what
 * `npm start` serves.
 */
import type { AssetRecord } from "../../src/core/domain";
import type { SandboxHandle } from "../../sandbox/server";
import { getJson, type Point, type SeriesBody, startTestSandbox, useSandbox, SANDBOX_SUITE } from "../support/sandbox";

const WITH_FILLER_AND_FIXTURES = { assetCount: 2000, hostileFixtures: true };

const sandbox = useSandbox({ ...SANDBOX_SUITE, ...WITH_FILLER_AND_FIXTURES });

type Descriptor = Record<string, unknown>;
type MetricsBody = { metrics: Array<Record<string, Descriptor>> };

async function assets(handle: SandboxHandle): Promise<AssetRecord[]> {
  const reply = await getJson<{ assets: AssetRecord[] }>(handle, "/asset/symbols/", { APIKey: null });
  expect(reply.status).toBe(200);
  return reply.body.assets;
}

async function metricsOf(symbol: string): Promise<Map<string, Descriptor>> {
  const reply = await getJson<MetricsBody>(sandbox, "/supported-metrics/", { symbol, APIKey: null });
  expect(reply.status).toBe(200);
  return new Map(
    reply.body.metrics.map((entry) => {
      expect(Object.keys(entry)).toHaveLength(1);
      const [name, descriptor] = Object.entries(entry)[0];
      return [name, descriptor];
    }),
  );
}

describe("/asset/symbols/", () => {
  let records: AssetRecord[];
  beforeAll(async () => {
    records = await assets(sandbox);
  });

  it("answers the configured number of records (2,000 here), every field of 2.6 typed", () => {
    expect(records).toHaveLength(2000);
    const bad = records.filter(
      (r) =>
        typeof r.platform_id !== "string" ||
        typeof r.symbol !== "string" ||
        !(r.aggregator_id === null || typeof r.aggregator_id === "string") ||
        typeof r.title !== "string" ||
        !/^#[0-9A-Fa-f]{6}$/.test(r.color) ||
        Object.keys(r).sort().join() !== "aggregator_id,color,platform_id,symbol,title",
    );
    expect(bad).toEqual([]);
  });

  it("has unique symbols and platform ids, equities prefixed eq-, no dash in crypto ids", () => {
    expect(new Set(records.map((r) => r.symbol)).size).toBe(records.length);
    expect(new Set(records.map((r) => r.platform_id)).size).toBe(records.length);
    // A name (symbol or platform_id) never points at two different records.
    const owner = new Map<string, number>();
    const clashes: string[] = [];
    records.forEach((r, i) => {
      for (const name of [r.symbol, r.platform_id]) {
        if (owner.has(name) && owner.get(name) !== i) clashes.push(name);
        owner.set(name, i);
      }
    });
    expect(clashes).toEqual([]);
    const crypto = records.filter((r) => !r.symbol.startsWith("eq-"));
    expect(crypto.filter((r) => r.symbol.includes("-") || r.platform_id.includes("-"))).toEqual([]);
  });

  it.each([
    ["eth", "ethereum"],
    ["sol", "solana"],
    ["btc", "bitcoin"],
    ["arb", "arbitrum"],
    ["base", "base"],
    ["usdc", "usd_coin"],
    ["usdt", "tether"],
    ["dai", "dai"],
    ["defi", "defi"],
    ["dex", "dex"],
    ["lending", "lending"],
    ["eq-coin", "coinbase"],
    ["eq-hood", "robinhood"],
    ["eq-mstr", "strategy"],
    ["eq-aapl", "apple"],
    ["sbx00001", "sandbox_token_00001"],
  ])("lists %s (platform_id %s)", (symbol, platformId) => {
    expect(records.find((r) => r.symbol === symbol)?.platform_id).toBe(platformId);
  });

  it("has null aggregator ids and HTML-looking titles for the pane to render as text", () => {
    expect(records.filter((r) => r.aggregator_id === null).length).toBeGreaterThan(100);
    const titles = records.map((r) => r.title);
    expect(titles).toContain("<img src=x onerror=alert(1)>");
    expect(titles).toContain("<b>Bold</b> Token");
  });

  it("grows to 20,000 records when configured, the named set first and unchanged", async () => {
    const big = await startTestSandbox({ ...WITH_FILLER_AND_FIXTURES, assetCount: 20_000 });
    try {
      const many = await assets(big);
      expect(many).toHaveLength(20_000);
      expect(many.slice(0, 60)).toEqual(records.slice(0, 60));
      expect(new Set(many.map((r) => r.symbol)).size).toBe(20_000);
    } finally {
      await big.close();
    }
  });
});

describe("/supported-metrics/", () => {
  const FIELDS: Array<[string, (v: unknown) => boolean]> = [
    ["label", (v) => typeof v === "string" && v !== ""],
    ["description", (v) => typeof v === "string" && v.includes("Sandbox data")],
    ["tags", (v) => Array.isArray(v) && v.every((t) => typeof t.value === "string" && typeof t.label === "string")],
    ["aggregation_type", (v) => v === "SUM" || v === "LAST" || v === "AVERAGE"],
    ["unit", (v) => v === "CURRENCY" || v === "NOMINAL"],
    ["internal_data_source", (v) => typeof v === "string"],
    ["source", (v) => typeof v === "string"],
    ["base_metric", (v) => v === null || typeof v === "string"],
    ["accepts_date", (v) => typeof v === "boolean"],
    [
      "cuts",
      (v) =>
        Array.isArray(v) &&
        v.length > 0 &&
        v.every((c) => typeof c.granularity === "string" && typeof c.dimension_type === "string"),
    ],
    ["thumbnail_url", (v) => v === null || typeof v === "string"],
    ["source_link", (v) => v === null || typeof v === "string"],
    ["methodology", (v) => typeof v === "string" && v.includes("Sandbox data")],
    ["currency_type", (v) => v === null || typeof v === "string"],
    ["earliest_fiscal_period", (v) => v === null || typeof v === "string"],
    ["latest_fiscal_period", (v) => v === null || typeof v === "string"],
    ["priority", (v) => v === null || typeof v === "number"],
  ];

  it.each([
    [
      "eq-aapl",
      [
        "PRICE",
        "VOLUME",
        "TOTAL_REVENUE",
        "NET_INCOME",
        "EBITDA",
        "OPERATING_INCOME",
        "FREE_CASH_FLOW",
        "BASIC_EPS",
        "DILUTED_EPS",
        "ENTERPRISE_VALUE_DIVIDE_TOTAL_REVENUE",
        "ENTERPRISE_VALUE_DIVIDE_NET_INCOME",
        "ENTERPRISE_VALUE_DIVIDE_EBITDA",
        "ENTERPRISE_VALUE_DIVIDE_FREE_CASH_FLOW",
        "MARKET_CAP_DIVIDE_FREE_CASH_FLOW",
        "EARNINGS_YIELD",
        "FCF_YIELD",
      ],
      ["FEES", "STABLECOIN_SUPPLY"],
    ],
    [
      "eth",
      ["FEES", "REVENUE", "DAU", "TXNS", "TVL", "PRICE", "MC", "STABLECOIN_SUPPLY_CIRCULATING"],
      ["TOTAL_REVENUE", "EARNINGS_YIELD"],
    ],
    ["base", ["FEES", "DAU", "TVL"], ["PRICE", "MC"]],
    [
      "usdc",
      [
        "STABLECOIN_SUPPLY_TOTAL",
        "STABLECOIN_SUPPLY",
        "STABLECOIN_SUPPLY_CIRCULATING",
        "STABLECOIN_SUPPLY_BRIDGED",
        "STABLECOIN_SUPPLY_PREMINT",
        "STABLECOIN_SUPPLY_PEG_STABILITY",
        "STABLECOIN_TRANSFER_VOLUME",
        "STABLECOIN_DAILY_TXNS",
        "STABLECOIN_DAU",
      ],
      ["FEES", "TOTAL_REVENUE"],
    ],
    ["usdc-eth", ["STABLECOIN_SUPPLY_TOTAL", "STABLECOIN_SUPPLY_CIRCULATING", "STABLECOIN_DAU"], ["PRICE"]],
    ["defi", ["FEES", "REVENUE", "DAU", "TXNS", "TVL", "MC"], ["PRICE", "STABLECOIN_SUPPLY"]],
    ["uni", ["PRICE", "MC", "VOLUME", "FEES", "REVENUE"], ["STABLECOIN_SUPPLY"]],
    ["sbx00010", ["PRICE", "FEES", "DAU"], ["TOTAL_REVENUE"]],
  ])("%s lists the metrics of its asset type", async (symbol, present, absent) => {
    const metrics = await metricsOf(symbol);
    for (const name of present) expect(metrics.has(name)).toBe(true);
    for (const name of absent) expect(metrics.has(name)).toBe(false);
  });

  it.each(["eq-nvda", "eth", "usdt", "lending", "defi-eth", "sbx00099"])(
    "every descriptor of %s carries every field of 2.5",
    async (symbol) => {
      const metrics = await metricsOf(symbol);
      expect(metrics.size).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const [name, descriptor] of metrics) {
        for (const [field, valid] of FIELDS)
          if (!(field in descriptor) || !valid(descriptor[field])) problems.push(`${name}.${field}`);
      }
      expect(problems).toEqual([]);
    },
  );

  it.each([
    ["eth", "FEES", "SUM"],
    ["eth", "REVENUE", "SUM"],
    ["eth", "TXNS", "SUM"],
    ["eth", "PRICE", "LAST"],
    ["eth", "TVL", "LAST"],
    ["eth", "DAU", "AVERAGE"],
    ["usdc", "STABLECOIN_TRANSFER_VOLUME", "SUM"],
    ["usdc", "STABLECOIN_SUPPLY_TOTAL", "LAST"],
    ["usdc", "STABLECOIN_DAU", "AVERAGE"],
    ["uni", "VOLUME", "SUM"],
    ["eq-aapl", "VOLUME", "SUM"],
    ["eq-aapl", "PRICE", "LAST"],
    ["eq-aapl", "FCF_YIELD", "LAST"],
  ])("%s %s aggregates by %s", async (symbol, metric, aggregation) => {
    expect((await metricsOf(symbol)).get(metric)?.aggregation_type).toBe(aggregation);
  });

  it("financial descriptors carry the fiscal range and a QUARTER cut", async () => {
    const revenue = (await metricsOf("eq-aapl")).get("TOTAL_REVENUE")!;
    expect(revenue.cuts).toEqual([{ granularity: "QUARTER", dimension_type: "TOTAL" }]);
    expect(revenue.earliest_fiscal_period).toMatch(/^FY\d{4} Q[1-4]$/);
    expect(revenue.latest_fiscal_period).toMatch(/^FY\d{4} Q[1-4]$/);
  });

  it.each(["eq-orcl", "avax", "usdt-tron", "dex-sol", "sbx00500"])(
    "every metric %s lists answers a series, not a message",
    async (symbol) => {
      const names = [...(await metricsOf(symbol)).keys()];
      const fiscal = names.filter((n) =>
        [
          "TOTAL_REVENUE",
          "NET_INCOME",
          "EBITDA",
          "OPERATING_INCOME",
          "FREE_CASH_FLOW",
          "BASIC_EPS",
          "DILUTED_EPS",
        ].includes(n),
      );
      const daily = names.filter((n) => !fiscal.includes(n));
      const requests = [
        { metrics: daily, granularity: "DAY" },
        ...(fiscal.length ? [{ metrics: fiscal, granularity: "QUARTER" }] : []),
      ];
      for (const { metrics, granularity } of requests) {
        const reply = await getJson<SeriesBody>(sandbox, `/data/api/${metrics.join(",")}/`, {
          symbols: symbol,
          startDate: "2023-01-01",
          granularity,
        });
        const answers = reply.body.data.symbols[symbol];
        expect(
          Object.entries(answers).filter(([, answer]) => !Array.isArray(answer) || (answer as Point[]).length === 0),
        ).toEqual([]);
      }
    },
  );

  it("refuses a missing symbol with 400 and an unknown one with 404", async () => {
    const missing = await getJson<{ error: { message: string } }>(sandbox, "/supported-metrics/", { APIKey: null });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain("symbol is required");
    const unknown = await getJson<{ error: { message: string } }>(sandbox, "/supported-metrics/", {
      symbol: "nosuchcoin",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain("nosuchcoin");
  });
});
