import { BadResponseError, NotCachedError, ServerError } from "../../src/api/errors";
import type { CallOptions } from "../../src/api/types";
import type { AssetRecord, MetricDescriptor } from "../../src/core/domain";
import { MessageSeriesError, UnknownNameError } from "../../src/core/errors";
import { diagnosePair, LISTS, SINGLE, UNCHECKED } from "../../src/functions/did-you-mean";
import { latestValue } from "../../src/functions/latest";
import { descriptor, FakeClient, fakeContext } from "../support/fake-client";

const asset = (symbol: string, platform_id: string): AssetRecord => ({
  symbol,
  platform_id,
  title: platform_id,
  aggregator_id: null,
  color: "#000000",
});

function client(): FakeClient {
  const fake = FakeClient.answering();
  const assets = [asset("eth", "ethereum"), asset("eq-coin", "coinbase"), asset("base", "base")];
  fake.assets.answer(() => assets);
  const metrics: Record<string, MetricDescriptor[]> = {
    eth: [descriptor("PRICE", "LAST"), descriptor("FEES", "SUM")],
    base: [descriptor("FEES", "SUM")],
    "eq-coin": [descriptor("PRICE", "LAST"), descriptor("TOTAL_REVENUE", "SUM")],
  };
  fake.metrics.answer((symbol) => metrics[symbol] ?? []);
  fake.answerSeries = (req) =>
    req.symbol === "eth" && req.metric === "PRICE"
      ? { kind: "points", points: [{ date: "2024-05-01", val: 1 }] }
      : { kind: "message", message: `Metric ${req.metric} is not available for ${req.symbol}` };
  return fake;
}

describe("did you mean", () => {
  it("tells an unknown symbol, an unknown metric and a gap apart", async () => {
    const ctx = fakeContext(client());
    const symbol = await diagnosePair(ctx, "coin", "PRICE", SINGLE);
    expect(symbol?.kind === "unknown" && symbol.error.message).toBe(
      'symbol: "coin" is not a symbol the service knows. Did you mean eq-coin?',
    );
    const metric = await diagnosePair(ctx, "eq-coin", "REVENUE", LISTS);
    expect(metric?.kind === "unknown" && metric.error.message).toBe(
      "metrics: REVENUE is not a metric of eq-coin. Did you mean TOTAL_REVENUE?",
    );
    // PRICE is a crypto metric (the first crypto asset, eth, lists it): base simply lacks it.
    expect(await diagnosePair(ctx, "base", "PRICE", SINGLE)).toEqual({ kind: "gap", hint: "" });
    // Nothing of that name or close to it anywhere: still no data, pointing at what base offers.
    expect(await diagnosePair(ctx, "base", "HASHRATE", SINGLE)).toEqual({
      kind: "gap",
      hint: 'MD.METRICS("base") lists what base offers.',
    });
  });

  it("MD.LATEST: #VALUE! material for an unknown name, #N/A material for a gap", async () => {
    const ctx = fakeContext(client());
    await expect(latestValue(ctx, { symbol: "COIN", metric: "PRICE" })).rejects.toBeInstanceOf(UnknownNameError);
    await expect(latestValue(ctx, { symbol: "base", metric: "PRICE" })).rejects.toThrow(
      /^base PRICE: Metric PRICE is not available for base$/,
    );
    await expect(latestValue(ctx, { symbol: "base", metric: "HASHRATE" })).rejects.toThrow(
      /^base HASHRATE: Metric HASHRATE is not available for base\. MD\.METRICS\("base"\) lists what base offers\.$/,
    );
  });

  it("asks no catalog on the normal path", async () => {
    const ctx = fakeContext(client());
    expect(await latestValue(ctx, { symbol: "eth", metric: "PRICE" })).toBe(1);
    expect(ctx.client.otherCalls).toEqual([]);
  });

  it.each(["eth", "base"])(
    "a catalog the service fails to give (%s's) leaves the original answer, naming the failure; asked again, the full diagnosis",
    async (failing) => {
      const fake = client();
      const getMetrics = fake.getMetrics.bind(fake);
      let down = true;
      fake.getMetrics = async (symbol: string, opts?: CallOptions) => {
        if (down && symbol === failing) throw new ServerError("The market-data service failed (HTTP 503).");
        return getMetrics(symbol, opts);
      };
      const ctx = fakeContext(fake);
      // eth's catalog stands for every crypto asset: unreadable, the diagnosis does not guess from base's own.
      // base's own, read when eth's cannot tell (HASHRATE): unreadable, no pointer to what base offers.
      const metric = failing === "eth" ? "PRICE" : "HASHRATE";
      await expect(latestValue(ctx, { symbol: "base", metric })).rejects.toThrow(
        `base ${metric}: Metric ${metric} is not available for base. ${UNCHECKED} The market-data service failed (HTTP 503).`,
      );
      down = false;
      await expect(latestValue(ctx, { symbol: "base", metric })).rejects.toThrow(
        failing === "eth"
          ? /^base PRICE: Metric PRICE is not available for base$/
          : /^base HASHRATE: Metric HASHRATE is not available for base\. MD\.METRICS\("base"\) lists what base offers\.$/,
      );
    },
  );

  it("a catalog answer that will not improve if asked again (unreadable) leaves the original answer as it was", async () => {
    const fake = client();
    fake.getMetrics = async () => {
      throw new BadResponseError("The market-data service sent an answer that is not a metric catalog.");
    };
    expect(await diagnosePair(fakeContext(fake), "base", "PRICE", SINGLE)).toBeNull();
  });

  it("during value preview an uncached catalog leaves the plain #N/A, and sends nothing", async () => {
    const fake = client();
    const getAssets = fake.getAssets.bind(fake);
    fake.getAssets = async (opts?: CallOptions) => {
      if (opts?.cacheOnly) throw new NotCachedError();
      return getAssets(opts);
    };
    const ctx = fakeContext(fake, { cacheOnly: true });
    const error = await latestValue(ctx, { symbol: "COIN", metric: "PRICE" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageSeriesError);
  });
});
