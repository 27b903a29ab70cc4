/**
 * The pane's requests give up on a refused or unreachable address after one
 * quick retry (CallOptions.networkRetries), where cells keep the client's
 * whole retry policy; other failures keep the policy either way.
 */
import { NetworkError, ServerError } from "../../src/api/errors";
import type { Handler } from "../support/fake-service";
import { harness, track } from "../support/client-harness";

const refused: Handler = () => "reset";
const failing: Handler = () => ({ status: 503, body: { error: "down" } });

describe("networkRetries: one quick retry of a refused address for the pane", () => {
  it("a catalog asked with networkRetries 1 fails after two attempts, within the first backoff", async () => {
    const h = harness(refused, { retries: 4 });
    const started = h.clock.now();
    const asked = track(h.client.getMetrics("eth", { networkRetries: 1 }));
    await h.clock.advance(100);
    expect(asked.state()).toBe("rejected");
    expect(asked.error).toBeInstanceOf(NetworkError);
    expect(h.service.calls).toHaveLength(2);
    expect(h.clock.now() - started).toBeLessThanOrEqual(100);
  });

  it("without it (a cell's call) the whole policy is tried", async () => {
    const h = harness(refused, { retries: 4 });
    const asked = track(h.client.getMetrics("eth"));
    await h.clock.advance(10_000);
    expect(asked.state()).toBe("rejected");
    expect(h.service.calls).toHaveLength(5);
  });

  it("the connection test and flows take it too", async () => {
    const h = harness(refused, { retries: 4 });
    const test = track(h.client.testConnection({ networkRetries: 0 }));
    const flows = track(
      h.client.getFlows(
        { sourceChains: ["ethereum"], flowTypes: ["inflow"], start: "2025-01-01", end: "2025-01-31" },
        { networkRetries: 1 },
      ),
    );
    await h.clock.advance(100);
    expect(test.state()).toBe("rejected");
    expect(flows.state()).toBe("rejected");
    expect(h.service.calls).toHaveLength(1 + 2);
  });

  it("a server error keeps the policy's retries", async () => {
    const h = harness(failing, { retries: 3 });
    const asked = track(h.client.getAssets({ networkRetries: 1 }));
    await h.clock.advance(10_000);
    expect(asked.error).toBeInstanceOf(ServerError);
    expect(h.service.calls).toHaveLength(4);
  });
});
