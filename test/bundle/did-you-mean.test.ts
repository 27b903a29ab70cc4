/**
 * "Did you mean": a symbol or metric the service does not know is #VALUE!
 * saying what exists, from the catalogs the client caches, asked only when the
 * series answer says the pair is not available; #N/A keeps meaning "no data".
 */
import { cellValue, isExcelError } from "../../harness/bundle";
import { rawGet, requestsTo } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

// 200 assets: the named demo catalog plus filler tokens ("sbx…"), for the 40-cell test below.
const { sandbox, bundle, load } = useBundle({ quiet: true, assetCount: 200 });

function expectError(value: unknown, code: string, message: RegExp | string): void {
  expect(isExcelError(value)).toBe(true);
  const error = value as { code: string; message: string };
  expect(error.code).toBe(code);
  if (typeof message === "string") expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
}

const catalogRequests = () => requestsTo(sandbox, "/asset/symbols/") + requestsTo(sandbox, "/supported-metrics/");

describe("an unknown name is #VALUE! saying what exists", () => {
  it.each<[string, unknown[], string | RegExp]>([
    [
      "COIN → eq-coin",
      ["LATEST", "COIN", "PRICE", "2024-03-28"],
      'symbol: "coin" is not a symbol the service knows. Did you mean eq-coin?',
    ],
    [
      "REVENUE on an equity → TOTAL_REVENUE",
      ["LATEST", "eq-aapl", "REVENUE", "2024-03-28"],
      /^metric: REVENUE is not a metric of eq-aapl\. Did you mean TOTAL_REVENUE( \(or [A-Z_, ]+\))?\?$/,
    ],
    [
      "SUPPLY on usdc → STABLECOIN_SUPPLY_CIRCULATING",
      ["SERIES", "usdc", "SUPPLY", "2024-03-01", "2024-03-02"],
      /^metrics: SUPPLY is not a metric of usdc\. Did you mean STABLECOIN_SUPPLY_CIRCULATING( \(or [A-Z_, ]+\))?\?$/,
    ],
    [
      "a typo in a symbol",
      ["AGG", "etherum", "FEES", "30D", null, "2024-03-31"],
      /^symbol: "etherum" .* Did you mean eth\?$/,
    ],
    [
      "a typo in a metric",
      ["AGG", "eth", "FEEZ", "30D", null, "2024-03-31"],
      /^metric: FEEZ is not a metric of eth\. Did you mean FEES/,
    ],
    ["a typo in a prefixed metric", ["LATEST", "sol", "L30_FEEZ", "2024-03-31"], /Did you mean L30_FEES/],
    [
      "a symbol nothing resembles",
      ["LATEST", "qqqqqq", "PRICE"],
      'symbol: "qqqqqq" is not a symbol the service knows. MD.ASSETS lists the symbols it covers.',
    ],
    ["MD.SUPPLY of a typo", ["SUPPLY", "usdcc", "2024-03-01", "2024-03-02"], /^symbol: "usdcc" .* Did you mean usdc/],
  ])("%s", async (_what, [id, ...args], message) => {
    expectError(await cellValue(bundle, id as string, args), "#VALUE!", message);
  });

  it("in a table, the unknown column is #VALUE! cells and the rest fill", async () => {
    const table = (await bundle.call("SERIES", ["eth, etherum", "PRICE", "2024-03-01", "2024-03-02"])) as unknown[][];
    expect(table[0]).toEqual(["Date", "eth PRICE", "etherum PRICE"]);
    for (const row of table.slice(1)) {
      expect(typeof row[1]).toBe("number");
      expectError(row[2], "#VALUE!", /^symbols: "etherum" is not a symbol the service knows\. Did you mean eth\?$/);
    }
  });

  it("in a snapshot, the unknown row's cells are #VALUE!, a gap is #N/A, the rest fill", async () => {
    const table = (await bundle.call("SNAPSHOT", ["eth, coin, base", "PRICE, TVL", "2024-03-31"])) as unknown[][];
    expect(typeof table[1][1]).toBe("number");
    expectError(table[2][1], "#VALUE!", /^symbols: "coin" .* Did you mean eq-coin\?$/);
    expectError(table[3][1], "#N/A", /^base PRICE: Metric PRICE is not available for base/);
    expect(typeof table[3][2]).toBe("number");
  });
});

describe("#N/A keeps meaning no data", () => {
  it("a metric the symbol lacks, with nothing close, is #N/A with the service's words", async () => {
    expectError(
      await cellValue(bundle, "LATEST", ["base", "PRICE", "2024-03-31"]),
      "#N/A",
      /^base PRICE: Metric PRICE is not available for base/,
    );
  });

  it("a known pair without a value in the window is #N/A as before", async () => {
    expectError(await cellValue(bundle, "AGG", ["eth", "FEES", "7D", null, "2017-06-30"]), "#N/A", /^No eth FEES data/);
  });
});

describe("the catalogs are asked only on the failure path, shared by every cell", () => {
  it("valid cells send no catalog request", async () => {
    const fresh = load();
    const before = catalogRequests();
    const cells = await Promise.all(["eth", "sol", "btc"].map((s) => fresh.call("LATEST", [s, "PRICE", "2024-03-31"])));
    expect(cells.every((c) => typeof c === "number")).toBe(true);
    expect(catalogRequests()).toBe(before);
  });

  it("40 cells with unknown names cost one asset-catalog request and one metric catalog", async () => {
    const assets = await rawGet<{ assets: { symbol: string }[] }>(sandbox, "/asset/symbols/");
    const tokens = assets.assets
      .filter((a) => a.symbol.startsWith("sbx"))
      .slice(0, 20)
      .map((a) => a.symbol);
    expect(tokens).toHaveLength(20);
    const fresh = load();
    const assetsBefore = requestsTo(sandbox, "/asset/symbols/");
    const metricsBefore = requestsTo(sandbox, "/supported-metrics/");
    const cells = await Promise.all([
      ...tokens.map((s) => cellValue(fresh, "LATEST", [s, "REVNUE", "2024-03-31"])),
      ...tokens.map((_, i) => cellValue(fresh, "LATEST", [`nosuchcoin${i}`, "PRICE", "2024-03-31"])),
    ]);
    for (const cell of cells.slice(0, 20)) expectError(cell, "#VALUE!", /Did you mean REVENUE/);
    for (const cell of cells.slice(20)) expectError(cell, "#VALUE!", /is not a symbol the service knows/);
    expect(requestsTo(sandbox, "/asset/symbols/") - assetsBefore).toBe(1);
    expect(requestsTo(sandbox, "/supported-metrics/") - metricsBefore).toBe(1);
  });
});
