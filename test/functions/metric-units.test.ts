/**
 * A formatted cell's unit (src/functions/metric-units.ts): cells asking about
 * the same symbol at once share one catalog look-up, and the answer is the one
 * each would have had alone; a cell cancelled while others wait for the
 * look-up it started does not fail them.
 */
import { CancelledError, NotCachedError } from "../../src/api/errors";
import { valueKind } from "../../src/functions/metric-units";
import { FakeClient, fakeContext, metric } from "../support/fake-client";

const CATALOG = [
  metric("PRICE", { unit: "CURRENCY", currency_type: "USD" }),
  metric("TXNS", { unit: "NOMINAL", aggregation_type: "SUM" }),
  metric("MYSTERY", { unit: "" }),
];
const METRICS = ["PRICE", "TXNS", "MYSTERY", "ABSENT"];

function catalogCalls(client: FakeClient): number {
  return client.otherCalls.filter((call) => call.method === "getMetrics").length;
}

describe("a formatted cell's unit", () => {
  it("cells of one symbol asking at once share one catalog look-up, each with the answer it has alone", async () => {
    const alone = FakeClient.answering();
    alone.metrics.answer(() => CATALOG);
    const expected: Awaited<ReturnType<typeof valueKind>>[] = [];
    for (const name of METRICS)
      expected.push(await valueKind({ ...fakeContext(alone), cellFormats: true }, "eth", name));

    const client = FakeClient.answering();
    client.metrics.answer(() => CATALOG);
    const cells = Array.from({ length: 20 }, (_, i) =>
      valueKind({ ...fakeContext(client), cellFormats: true }, "eth", METRICS[i % METRICS.length]!),
    );
    const kinds = await Promise.all(cells);
    expect(kinds).toEqual(Array.from({ length: 20 }, (_, i) => expected[i % METRICS.length]));
    expect(catalogCalls(alone)).toBeGreaterThanOrEqual(METRICS.length);
    expect(catalogCalls(client)).toBe(1);
    // Once settled, the next cell looks again (the client may hold more by then).
    await valueKind({ ...fakeContext(client), cellFormats: true }, "eth", "PRICE");
    expect(catalogCalls(client)).toBe(2);
  });

  it("a catalog the client already holds (a reopened workbook's) stands for its kind: no other symbol's is asked", async () => {
    const client = FakeClient.answering();
    client.metrics.answer(() => CATALOG);
    // Held: eth's catalog only (cacheOnly asks answer from what the client holds).
    const getMetrics = client.getMetrics.bind(client);
    client.getMetrics = (symbol, opts) =>
      opts?.cacheOnly && symbol !== "eth" ? Promise.reject(new NotCachedError()) : getMetrics(symbol, opts);
    const eth = await valueKind({ ...fakeContext(client), cellFormats: true }, "eth", "PRICE");
    const link = await valueKind({ ...fakeContext(client), cellFormats: true }, "link", "PRICE");
    expect(link).toEqual(eth);
    const asked = client.otherCalls.filter((call) => call.method === "getMetrics" && !call.opts?.cacheOnly);
    expect(asked.map((call) => call.args[0])).not.toContain("link");
  });

  it("a cell cancelled while others wait for the look-up it started: the others still get their unit", async () => {
    const client = new FakeClient();
    const first = new AbortController();
    const cancelled = valueKind(
      { ...fakeContext(client, { signal: first.signal }), cellFormats: true },
      "eth",
      "PRICE",
    );
    const waiting = valueKind(
      { ...fakeContext(client, { signal: new AbortController().signal }), cellFormats: true },
      "eth",
      "PRICE",
    );
    first.abort();
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    client.metrics.answer(() => CATALOG);
    await expect(waiting).resolves.toEqual({ kind: "currency", currency: "USD" });
  });
});
