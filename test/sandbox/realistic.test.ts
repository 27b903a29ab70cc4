/**
 * The realistic mode over real HTTP: each behaviour of real-service.md, with
 * the contract-true sandbox (same seed and day) as the reference for the data.
 */
import { OFF, SENTENCES, zeroPlaceholder } from "../../sandbox/realistic";
import { getJson, type SeriesBody, TODAY } from "../support/sandbox";
import { SANDBOX_SUITE, useSandbox } from "../support/sandbox";

// About a thousand assets, as the real catalog has: the generated filler tokens are where null symbols appear.
const real = useSandbox({ ...SANDBOX_SUITE, realistic: { emptyBodyEvery: 0 }, assetCount: 1000 });
const plain = useSandbox({ ...SANDBOX_SUITE, assetCount: 1000 });
afterEach(() => {
  real.reset();
  real.setRealistic({ emptyBodyEvery: 0 });
});

type Body = { data: { symbols: Record<string, Record<string, unknown>> | string } };
const YESTERDAY = "2024-06-29";

describe("realistic mode", () => {
  it("answers the real service's sentences in place of series", async () => {
    const { body } = await getJson<Body>(real, "/data/api/PRICE,NO_SUCH_METRIC/", {
      symbols: "eth,base,nosuchcoin",
      startDate: "2024-06-01",
      endDate: "2024-06-10",
    });
    const symbols = body.data.symbols as Record<string, Record<string, unknown>>;
    expect(Array.isArray(symbols.eth.PRICE)).toBe(true);
    expect(symbols.eth.NO_SUCH_METRIC).toBe(SENTENCES.metricNotFound);
    expect(symbols.base.PRICE).toBe(SENTENCES.metricNotAvailable);
    expect(symbols.nosuchcoin.PRICE).toBe(SENTENCES.marketDataNotAvailable);
    expect(symbols.nosuchcoin.NO_SUCH_METRIC).toBe(SENTENCES.marketDataNotAvailable);
  });

  it("data.symbols is a sentence when the window holds no data at all", async () => {
    const { status, body } = await getJson<Body>(real, "/data/api/PRICE,FEES/", {
      symbols: "eth,btc",
      startDate: "2010-01-01",
      endDate: "2012-12-31",
    });
    expect(status).toBe(200);
    expect(body.data.symbols).toBe(SENTENCES.latestNotAvailable);
  });

  it("the newest day is null and the day before null or a 0 placeholder; older days are the contract's", async () => {
    const params = { symbols: "eth,btc,sol,uni", startDate: "2024-06-20", endDate: TODAY };
    const [{ body: realBody }, { body: plainBody }] = await Promise.all([
      getJson<SeriesBody>(real, "/data/api/PRICE,FEES,DAU/", params),
      getJson<SeriesBody>(plain, "/data/api/PRICE,FEES,DAU/", params),
    ]);
    const kinds = new Set<string>();
    for (const symbol of ["eth", "btc", "sol", "uni"]) {
      for (const metric of ["PRICE", "FEES", "DAU"]) {
        const got = realBody.data.symbols[symbol][metric] as { date: string; val: number | null }[];
        const want = plainBody.data.symbols[symbol][metric] as { date: string; val: number }[];
        expect(got.map((p) => p.date)).toEqual(want.map((p) => p.date));
        expect(got.at(-1)).toEqual({ date: TODAY, val: null });
        const placeholder = zeroPlaceholder(1, symbol, metric) ? 0 : null;
        expect(got.at(-2)).toEqual({ date: YESTERDAY, val: placeholder });
        kinds.add(String(placeholder));
        expect(got.slice(0, -2)).toEqual(want.slice(0, -2));
      }
    }
    expect([...kinds].sort()).toEqual(["0", "null"]);
  });

  it("coarser granularities are the contract's (the unsettled days are daily)", async () => {
    const params = { symbols: "eth", startDate: "2024-01-01", endDate: TODAY, granularity: "MONTH" };
    const [a, b] = await Promise.all([
      getJson(real, "/data/api/FEES/", params),
      getJson(plain, "/data/api/FEES/", params),
    ]);
    expect(a.body).toEqual(b.body);
  });

  it("a request without dates is answered with bare latest numbers (or the sentence)", async () => {
    const { body } = await getJson<Body>(real, "/data/api/PRICE,FEES/", { symbols: "eth,base" });
    const symbols = body.data.symbols as Record<string, Record<string, unknown>>;
    const { body: ref } = await getJson<SeriesBody>(plain, "/data/api/PRICE/", {
      symbols: "eth",
      startDate: "2024-06-01",
      endDate: "2024-06-28",
    });
    expect(typeof symbols.eth.PRICE).toBe("number");
    expect(typeof symbols.eth.FEES).toBe("number");
    const placeholder = zeroPlaceholder(1, "eth", "PRICE");
    const points = ref.data.symbols.eth.PRICE as { val: number }[];
    // The latest non-null reading: yesterday's 0 placeholder, or the day before's value.
    expect(symbols.eth.PRICE).toBe(placeholder ? 0 : points.at(-1)!.val);
    expect(symbols.base.PRICE).toBe(SENTENCES.metricNotAvailable);
  });

  it("echoes symbols lower case and metric names as spelled", async () => {
    const { body } = await getJson<Body>(real, "/data/api/price,Fees/", {
      symbols: "ETH,Btc",
      startDate: "2024-06-01",
      endDate: "2024-06-03",
    });
    const symbols = body.data.symbols as Record<string, Record<string, unknown>>;
    expect(Object.keys(symbols)).toEqual(["eth", "btc"]);
    expect(Object.keys(symbols.eth)).toEqual(["price", "Fees"]);
    const { body: ref } = await getJson<SeriesBody>(plain, "/data/api/PRICE/", {
      symbols: "eth",
      startDate: "2024-06-01",
      endDate: "2024-06-03",
    });
    expect(symbols.eth.price).toEqual(ref.data.symbols.eth.PRICE);
  });

  it("answers every Nth request with an empty 200 body, deterministically", async () => {
    real.setRealistic({ emptyBodyEvery: 3 });
    const texts: string[] = [];
    for (let i = 0; i < 9; i++) {
      const response = await fetch(`${real.url}/asset/symbols/`);
      expect(response.status).toBe(200);
      texts.push(await response.text());
    }
    expect(texts.map((t) => t.length === 0)).toEqual([false, false, true, false, false, true, false, false, true]);
    expect(real.stats().quirks["empty-body"]).toBe(3);
  });

  it("spells the catalog as the real service does: artemis_id, coingecko_id, some upper-case and null symbols", async () => {
    const [{ body: realBody }, { body: plainBody }] = await Promise.all([
      getJson<{ assets: Record<string, unknown>[] }>(real, "/asset/symbols/"),
      getJson<{ assets: Record<string, unknown>[] }>(plain, "/asset/symbols/"),
    ]);
    expect(realBody.assets).toHaveLength(plainBody.assets.length);
    expect(Object.keys(realBody.assets[0]).sort()).toEqual(["artemis_id", "coingecko_id", "color", "symbol", "title"]);
    realBody.assets.forEach((asset, i) => {
      const ref = plainBody.assets[i];
      expect(asset.artemis_id).toBe(ref.platform_id);
      expect(asset.coingecko_id).toBe(ref.aggregator_id);
      if (asset.symbol !== null) expect(String(asset.symbol).toLowerCase()).toBe(ref.symbol);
    });
    const upper = realBody.assets.filter((a) => typeof a.symbol === "string" && a.symbol !== a.symbol.toLowerCase());
    expect(upper.length).toBeGreaterThan(10);
    expect(realBody.assets.filter((a) => a.symbol === null).length).toBeGreaterThan(5);
  });

  it("omitUnknownSymbols (off in the realistic preset): a symbol the catalog lacks is left out of the answer, as the contract allows", async () => {
    const params = { symbols: "eth,nosuchcoin", startDate: "2024-06-01", endDate: "2024-06-10" };
    const before = await getJson<Body>(real, "/data/api/PRICE/", params);
    expect(Object.keys(before.body.data.symbols)).toEqual(["eth", "nosuchcoin"]);
    for (const omitting of [
      { ...OFF, omitUnknownSymbols: true },
      { emptyBodyEvery: 0, omitUnknownSymbols: true },
    ]) {
      real.setRealistic(omitting);
      const { status, body } = await getJson<Body>(real, "/data/api/PRICE/", params);
      expect(status).toBe(200);
      expect(Object.keys(body.data.symbols)).toEqual(["eth"]);
      const alone = await getJson<Body>(real, "/data/api/PRICE/", { ...params, symbols: "nosuchcoin" });
      expect(alone.body.data.symbols).toEqual({});
    }
  });

  it("off by default: the contract's answers", async () => {
    const { body } = await getJson<Body>(plain, "/data/api/PRICE/", { symbols: "nosuchcoin" });
    expect((body.data.symbols as Record<string, Record<string, unknown>>).nosuchcoin.PRICE).toMatch(
      /not in the asset catalog/,
    );
  });
});
