import { CancelledError } from "../../src/api/errors";
import { expectedPoints, seriesHandler } from "../support/fake-service";
import { harness, track } from "../support/client-harness";

const WINDOW = { start: "2025-05-01", end: "2025-05-31" };
const ETH = { symbol: "eth", metric: "PRICE", ...WINDOW };

describe("cancellation", () => {
  it("rejects at once for a signal already aborted, and sends nothing", async () => {
    const h = harness();
    await expect(h.client.getSeries(ETH, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    await expect(h.client.getAssets({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    await h.clock.runAll();
    expect(h.service.calls).toHaveLength(0);
  });

  it("drops a queued caller before its batch is sent", async () => {
    const h = harness();
    const controller = new AbortController();
    const cancelled = track(h.client.getSeries(ETH, { signal: controller.signal }));
    const kept = h.client.getSeries({ ...ETH, symbol: "sol" });
    await h.clock.advance(2);
    controller.abort();
    await h.clock.advance(0);
    expect(cancelled.state()).toBe("rejected");
    expect(cancelled.error).toBeInstanceOf(CancelledError);
    await h.clock.advance(20);
    await kept;
    expect(h.service.calls).toHaveLength(1);
    expect(h.service.calls[0]!.params.get("symbols")).toBe("sol");
  });

  it("rejects a cancelled caller immediately and aborts the request nobody waits for", async () => {
    const h = harness(seriesHandler({ delayMs: 5_000 }));
    const controller = new AbortController();
    const p = track(h.client.getSeries(ETH, { signal: controller.signal }));
    await h.clock.advance(100);
    expect(h.service.calls).toHaveLength(1);
    controller.abort();
    await h.clock.advance(0);
    expect(p.state()).toBe("rejected");
    expect(p.error).toBeInstanceOf(CancelledError);
    expect(h.service.aborted).toHaveLength(1);
    expect(h.client.state()).toMatchObject({ inFlight: 0, queued: 0 });
    // Not counted as a failure, not retried.
    await h.clock.runAll();
    expect(h.service.calls).toHaveLength(1);
    expect(h.client.counters().failures).toBe(0);
  });

  it("keeps a shared request alive while another caller of the same pair still waits", async () => {
    const h = harness(seriesHandler({ delayMs: 1_000 }));
    const controller = new AbortController();
    const leaving = track(h.client.getSeries(ETH, { signal: controller.signal }));
    const staying = track(h.client.getSeries(ETH));
    await h.clock.advance(100);
    controller.abort();
    await h.clock.advance(0);
    expect(leaving.state()).toBe("rejected");
    expect(staying.state()).toBe("pending");
    await h.clock.advance(1_000);
    expect(await staying).toEqual({
      kind: "points",
      points: expectedPoints("eth", "PRICE", WINDOW.start, WINDOW.end),
    });
    expect(h.service.aborted).toHaveLength(0);
  });

  it("keeps a batched request alive while any of its callers waits, and aborts it when the last one leaves", async () => {
    const h = harness(seriesHandler({ delayMs: 1_000 }));
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const promises = ["eth", "sol", "btc"].map((symbol, i) =>
      track(h.client.getSeries({ ...ETH, symbol }, { signal: controllers[i]!.signal })),
    );
    await h.clock.advance(100);
    expect(h.service.calls).toHaveLength(1);
    controllers[0]!.abort();
    controllers[1]!.abort();
    await h.clock.advance(0);
    expect(h.service.aborted).toHaveLength(0);
    controllers[2]!.abort();
    await h.clock.advance(0);
    expect(h.service.aborted).toHaveLength(1);
    for (const p of promises) expect(p.error).toBeInstanceOf(CancelledError);
  });

  it("lets a later caller of an abandoned pair start afresh", async () => {
    const h = harness(seriesHandler({ delayMs: 1_000 }));
    const controller = new AbortController();
    const first = track(h.client.getSeries(ETH, { signal: controller.signal }));
    await h.clock.advance(100);
    controller.abort();
    const again = h.client.getSeries(ETH);
    await h.clock.advance(1_100);
    expect((await again).kind).toBe("points");
    expect(first.error).toBeInstanceOf(CancelledError);
    expect(h.service.calls).toHaveLength(2);
  });

  it("stops retrying once the caller has gone", async () => {
    const h = harness(() => ({ status: 503 }), { retryBaseMs: 10_000, retryMaxMs: 10_000 });
    const controller = new AbortController();
    const p = track(h.client.getSeries(ETH, { signal: controller.signal }));
    await h.clock.advance(100); // first attempt failed, waiting 5 s before the retry
    controller.abort();
    await h.clock.runAll();
    expect(p.error).toBeInstanceOf(CancelledError);
    expect(h.service.calls).toHaveLength(1);
  });

  it("cancels the part in flight of a split window (read newest first) and so the whole call", async () => {
    const h = harness(seriesHandler({ delayMs: 1_000 }));
    const controller = new AbortController();
    const p = track(
      h.client.getSeries(
        { symbol: "eth", metric: "PRICE", start: "2019-01-01", end: "2024-12-31" },
        { signal: controller.signal },
      ),
    );
    await h.clock.advance(100);
    controller.abort();
    await h.clock.advance(0);
    expect(p.error).toBeInstanceOf(CancelledError);
    expect(h.service.aborted).toHaveLength(1);
    await h.clock.runAll();
    expect(h.service.calls).toHaveLength(1); // no older part is asked for after the cancel
  });

  it("cancels a catalog load", async () => {
    const h = harness(() => ({ body: { assets: [] }, delayMs: 10_000 }));
    const controller = new AbortController();
    const p = track(h.client.getAssets({ signal: controller.signal }));
    await h.clock.advance(100);
    controller.abort();
    await h.clock.advance(0);
    expect(p.error).toBeInstanceOf(CancelledError);
    expect(h.service.aborted).toHaveLength(1);
  });
});
