/**
 * What `npm start` shows a new user: the default catalog looks like a market
 * (plausible assets and magnitudes, real-looking fiscal calendars, stablecoins
 * near $1) and carries no test fixtures — no markup-like titles and no
 * generated filler, in the catalog or in the insight feeds. The fixtures and
 * the filler exist only when a test asks for them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { AssetRecord, InsightCard } from "../../src/core/domain";
import { AssetCatalog, DEFAULT_ASSET_COUNT } from "../../sandbox/asset-catalog";
import { COMPANIES } from "../../sandbox/companies";
import { DATA_START_DAY, isoOfDay, parseIsoDay, weekdayOf } from "../../sandbox/dates";
import { fiscalQuarters } from "../../sandbox/fiscal-calendar";
import { HOSTILE_FIXTURE_ASSETS } from "../../sandbox/hostile-fixtures";
import { NAMED_CRYPTO_ASSETS } from "../../sandbox/named-assets";
import type { SandboxHandle } from "../../sandbox/server";
import { type DataContext, seriesFor, type WirePoint } from "../../sandbox/series";
import { getJson, startTestSandbox, useSandbox, SANDBOX_SUITE } from "../support/sandbox";

/** Text that only a security or rendering fixture would carry. */
const FIXTURE_LIKE = /[<>]|onerror|script|xss|test|fixture|bold|sandbox_token|^sbx\d/i;

async function catalogOf(sandbox: SandboxHandle): Promise<AssetRecord[]> {
  const reply = await getJson<{ assets: AssetRecord[] }>(sandbox, "/asset/symbols/", { APIKey: null });
  expect(reply.status).toBe(200);
  return reply.body.assets;
}

async function feed(sandbox: SandboxHandle, name: string): Promise<InsightCard[]> {
  const reply = await getJson<{ rows: InsightCard[] }>(sandbox, `/insights/${name}/`, { APIKey: null });
  expect(reply.status).toBe(200);
  return reply.body.rows;
}

describe("the default catalog (npm start)", () => {
  let records: AssetRecord[];
  const sandbox = useSandbox(SANDBOX_SUITE);
  beforeAll(async () => {
    records = await catalogOf(sandbox);
  });

  it("is the named crypto assets and the listed companies, nothing else", () => {
    expect(records).toHaveLength(DEFAULT_ASSET_COUNT);
    expect(records.map((r) => r.symbol)).toEqual([
      ...NAMED_CRYPTO_ASSETS.map((a) => a.symbol),
      ...COMPANIES.map((c) => `eq-${c.ticker}`),
    ]);
  });

  it("has no fixture-like symbol, platform id or title", () => {
    const fixtureLike = records.filter((r) =>
      [r.symbol, r.platform_id, r.title].some((text) => FIXTURE_LIKE.test(text)),
    );
    expect(fixtureLike).toEqual([]);
    const fixtureSymbols = new Set(HOSTILE_FIXTURE_ASSETS.flatMap((a) => [a.symbol, a.platformId]));
    expect(records.filter((r) => fixtureSymbols.has(r.symbol) || fixtureSymbols.has(r.platform_id))).toEqual([]);
  });

  it.each(["streaks", "decline-streaks"])(
    "the %s feed is about catalog assets only, none fixture-like",
    async (name) => {
      const cards = await feed(sandbox, name);
      expect(cards.length).toBeGreaterThan(0);
      const platformIds = new Set(records.map((r) => r.platform_id));
      expect(cards.filter((card) => !platformIds.has(card.ENTITY_ID))).toEqual([]);
      expect(cards.filter((card) => FIXTURE_LIKE.test(card.ENTITY_ID))).toEqual([]);
    },
  );

  it("has a few dozen equities, among them the crypto names and the large caps", () => {
    const equities = records.filter((r) => r.symbol.startsWith("eq-")).map((r) => r.symbol);
    expect(equities.length).toBeGreaterThanOrEqual(30);
    for (const symbol of [
      "eq-aapl",
      "eq-msft",
      "eq-nvda",
      "eq-coin",
      "eq-hood",
      "eq-mstr",
      "eq-wmt",
      "eq-orcl",
      "eq-jpm",
    ])
      expect(equities).toContain(symbol);
  });
});

describe("fixtures and filler only when asked for", () => {
  it("hostileFixtures adds the markup-like titles; assetCount adds filler tokens after them", async () => {
    const sandbox = await startTestSandbox({
      hostileFixtures: true,
      assetCount: DEFAULT_ASSET_COUNT + HOSTILE_FIXTURE_ASSETS.length + 3,
    });
    try {
      const records = await catalogOf(sandbox);
      const titles = records.map((r) => r.title);
      expect(titles).toContain("<img src=x onerror=alert(1)>");
      expect(titles).toContain("<b>Bold</b> Token");
      expect(records.slice(-3).map((r) => r.symbol)).toEqual(["sbx00001", "sbx00002", "sbx00003"]);
    } finally {
      await sandbox.close();
    }
  });
});

describe("magnitudes that look like a market, on every day of data", () => {
  const TODAY = "2026-11-24";
  const contexts = [1, 7, 11].map((seed): DataContext => ({
    seed,
    today: parseIsoDay(TODAY)!,
    catalog: new AssetCatalog(seed),
  }));

  function daily(ctx: DataContext, symbol: string, metric: string): WirePoint[] {
    const answer = seriesFor(ctx, symbol, metric, {
      startDay: DATA_START_DAY,
      endDay: ctx.today,
      granularity: "DAY",
      limit: Number.MAX_SAFE_INTEGER,
    });
    if (typeof answer === "string") throw new Error(answer);
    return answer;
  }

  /** Dates on which `a` is not above `b` (same dates on both sides). */
  function notAbove(a: WirePoint[], b: WirePoint[]): string[] {
    expect(a.map((p) => p.date)).toEqual(b.map((p) => p.date));
    return a.filter((point, i) => !(point.val > b[i].val)).map((point) => point.date);
  }

  it.each(contexts.map((ctx) => [ctx.seed, ctx] as const))(
    "seed %i: market cap Bitcoin > Ethereum > Solana, and Ethereum's price above Solana's",
    (_seed, ctx) => {
      const [btc, eth, sol] = ["btc", "eth", "sol"].map((symbol) => daily(ctx, symbol, "MC"));
      expect(btc.length).toBeGreaterThan(3000);
      expect(notAbove(btc, eth)).toEqual([]);
      expect(notAbove(eth, sol)).toEqual([]);
      expect(notAbove(daily(ctx, "eth", "PRICE"), daily(ctx, "sol", "PRICE"))).toEqual([]);
      // Orders of magnitude: Bitcoin's market cap between $30B and $5T, Ethereum's price between $50 and $20,000.
      expect(btc.filter((p) => p.val < 3e10 || p.val > 5e12)).toEqual([]);
      expect(daily(ctx, "eth", "PRICE").filter((p) => p.val < 50 || p.val > 20_000)).toEqual([]);
    },
  );

  it.each(contexts.map((ctx) => [ctx.seed, ctx] as const))(
    "seed %i: stablecoins trade within 1% of $1, circulating supply Tether > USD Coin > Dai > PayPal USD",
    (_seed, ctx) => {
      for (const symbol of ["usdt", "usdc", "dai", "usde", "usds", "fdusd", "pyusd"]) {
        expect(daily(ctx, symbol, "PRICE").filter((p) => Math.abs(p.val - 1) > 0.01)).toEqual([]);
      }
      const [usdt, usdc, dai, pyusd] = ["usdt", "usdc", "dai", "pyusd"].map((symbol) =>
        daily(ctx, symbol, "STABLECOIN_SUPPLY_CIRCULATING"),
      );
      expect(notAbove(usdt, usdc)).toEqual([]);
      expect(notAbove(usdc, dai)).toEqual([]);
      expect(notAbove(dai, pyusd)).toEqual([]);
      // Tether: between $1B and $1T on every day.
      expect(usdt.filter((p) => p.val < 1e9 || p.val > 1e12)).toEqual([]);
    },
  );

  it("equity prices and quarterly revenue stay in plausible ranges", () => {
    const [ctx] = contexts;
    for (const company of COMPANIES) {
      const prices = daily(ctx, `eq-${company.ticker}`, "PRICE");
      expect(prices.filter((p) => !(p.val > 0.5 && p.val < 5_000))).toEqual([]);
    }
    const apple = seriesFor(ctx, "eq-aapl", "TOTAL_REVENUE", {
      startDay: parseIsoDay("2024-01-01")!,
      endDay: ctx.today,
      granularity: "QUARTER",
      limit: 1000,
    }) as WirePoint[];
    expect(apple.length).toBeGreaterThan(8);
    expect(apple.filter((p) => p.val < 5e10 || p.val > 2e11)).toEqual([]);
  });
});

describe("real-looking fiscal calendars", () => {
  /** The day fiscal Q4 ends, for the fiscal years closing in 2024. */
  function fiscalYearEnd2024(ticker: string): { iso: string; weekday: number } {
    const company = COMPANIES.find((c) => c.ticker === ticker)!;
    const q4 = fiscalQuarters(company).find((q) => q.fiscalQuarter === 4 && q.fiscalYear === 2024)!;
    return { iso: isoOfDay(q4.end), weekday: weekdayOf(q4.end) };
  }

  it.each([
    ["aapl", "2024-09-28", 6], // Apple: last Saturday of September
    ["msft", "2024-06-30", null], // Microsoft: June 30
    ["nvda", "2024-01-28", 0], // NVIDIA: last Sunday of January
    ["wmt", "2024-01-31", null], // Walmart: January 31
    ["orcl", "2024-05-31", null], // Oracle: May 31
    ["csco", "2024-07-27", 6], // Cisco: last Saturday of July
    ["coin", "2024-12-31", null], // Coinbase: calendar year
  ] as const)("eq-%s closes fiscal 2024 on %s", (ticker, iso, weekday) => {
    const end = fiscalYearEnd2024(ticker);
    expect(end.iso).toBe(iso);
    if (weekday !== null) expect(end.weekday).toBe(weekday);
  });
});

describe("the docs state what is served", () => {
  const readme = readFileSync(path.resolve(__dirname, "../../sandbox/README.md"), "utf8");
  const taskpaneDoc = readFileSync(path.resolve(__dirname, "../../docs/taskpane.md"), "utf8");

  it("sandbox/README.md and docs/taskpane.md give the default catalog's size", () => {
    expect(readme).toContain(`By default the catalog is **${DEFAULT_ASSET_COUNT} assets**`);
    expect(readme).toContain(`| \`--assets <n>\` | the ${DEFAULT_ASSET_COUNT} named assets |`);
    expect(readme).toContain(`| \`assetCount\` | the ${DEFAULT_ASSET_COUNT} named assets |`);
    expect(taskpaneDoc.replace(/\s+/g, " ")).toContain(`the sandbox serves ${DEFAULT_ASSET_COUNT} assets by default`);
    const kinds = (kind: string) => NAMED_CRYPTO_ASSETS.filter((a) => a.kind === kind).length;
    expect(readme).toContain(
      `${kinds("chain")} chains, ${kinds("token")} tokens, ${kinds("stablecoin")} stablecoins,\n${kinds("category")} categories and ${COMPANIES.length} listed companies`,
    );
  });

  it("sandbox/README.md lists every company with its fiscal calendar", () => {
    const missing = COMPANIES.filter((c) => !readme.includes(`eq-${c.ticker}/${c.platformId}`));
    expect(missing.map((c) => c.ticker)).toEqual([]);
  });
});
