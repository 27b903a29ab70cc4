import { AuthError } from "../../src/api/errors";
import { addDays } from "../../src/core/calendar";
import { isErrorCell } from "../../src/core/cell";
import { latestValue } from "../../src/functions/latest";
import { snapshotTable } from "../../src/functions/snapshot";
import { FakeClient, fakeContext, fakePoints, TODAY } from "../support/fake-client";

describe("MD.SNAPSHOT", () => {
  it("each cell is what MD.LATEST gives its pair, in the order given", async () => {
    const ctx = fakeContext();
    const table = await snapshotTable(ctx, {
      symbols: [["SOL"], ["eth"], [null], ["sol"]],
      metrics: "price, L30_FEES",
      asOf: "2024-04-30",
    });
    expect(table[0]).toEqual(["Symbol", "PRICE", "L30_FEES"]);
    expect(table.map((row) => row[0])).toEqual(["Symbol", "sol", "eth"]);
    for (const [r, symbol] of [
      [1, "sol"],
      [2, "eth"],
    ] as const) {
      for (const [c, metric] of [
        [1, "PRICE"],
        [2, "L30_FEES"],
      ] as const) {
        expect(table[r][c]).toBe(await latestValue(fakeContext(), { symbol, metric, asOf: "2024-04-30" }));
      }
    }
  });

  it("issues every pair together, on MD.LATEST's windows (so the client batches them as it batches cells)", async () => {
    const ctx = fakeContext();
    await snapshotTable(ctx, { symbols: "eth, btc, sol", metrics: "PRICE, FEES" });
    const windows = new Set(ctx.client.seriesCalls.map((c) => `${c.req.start}..${c.req.end}`));
    expect(windows).toEqual(new Set([`${addDays(TODAY, -30)}..${TODAY}`]));
    expect(ctx.client.seriesCalls).toHaveLength(6);
  });

  it("a pair without data is an #N/A cell naming it; the rest fill", async () => {
    const client = FakeClient.answering();
    client.answerSeries = (req) =>
      req.symbol === "base" && req.metric === "PRICE"
        ? { kind: "message", message: "Metric PRICE is not available for base" }
        : { kind: "points", points: fakePoints(req.symbol, req.metric, req.start!, req.end!) };
    const table = await snapshotTable(fakeContext(client), { symbols: "eth,base", metrics: "PRICE,FEES" });
    expect(typeof table[1][1]).toBe("number");
    expect(typeof table[2][2]).toBe("number");
    expect(table[2][1]).toEqual({ error: "#N/A", message: "base PRICE: Metric PRICE is not available for base" });
    expect(table.flat().filter(isErrorCell)).toHaveLength(1);
  });

  it("a failure that is not the pair's (a rejected key) fails the whole formula", async () => {
    const client = new FakeClient();
    client.failWith = new AuthError("The market-data service rejected the API key (HTTP 401).");
    await expect(snapshotTable(fakeContext(client), { symbols: "eth", metrics: "PRICE" })).rejects.toBeInstanceOf(
      AuthError,
    );
  });

  it("headers and transpose options; bad options are refused", async () => {
    const ctx = fakeContext();
    const bare = await snapshotTable(ctx, { symbols: "eth,btc", metrics: "PRICE", options: "headers=false" });
    expect(bare).toHaveLength(2);
    expect(bare.every((row) => row.length === 1 && typeof row[0] === "number")).toBe(true);
    const across = await snapshotTable(ctx, { symbols: "eth,btc", metrics: "PRICE", options: "transpose=true" });
    expect(across[0]).toEqual(["Symbol", "eth", "btc"]);
    await expect(snapshotTable(ctx, { symbols: "eth", metrics: "PRICE", options: "order=desc" })).rejects.toThrow(
      /^options: "order" is not an option here\. Use headers, transpose or dates/,
    );
  });
});
