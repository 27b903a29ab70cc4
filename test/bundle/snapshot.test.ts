/**
 * MD.SNAPSHOT over the built bundle and the sandbox: the comps table in one
 * formula, the same values as MD.LATEST cells, and the same requests.
 */
import { cellValue, isExcelError } from "../../harness/bundle";
import { rawGet, rawPoints, requestsTo } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

const { sandbox, load } = useBundle({ quiet: true, assetCount: 2000 });

const METRICS = ["PRICE", "FEES", "DAU", "TXNS", "TVL"];

describe("MD.SNAPSHOT", () => {
  it("a header row, one row per symbol in the order given, each cell the latest value on or before as_of", async () => {
    const table = (await load().call("SNAPSHOT", [
      [["SOL"], ["eth"], ["eq-coin"]],
      "PRICE, L30_FEES",
      "2024-03-31",
    ])) as unknown[][];
    expect(table[0]).toEqual(["Symbol", "PRICE", "L30_FEES"]);
    expect(table.map((row) => row[0])).toEqual(["Symbol", "sol", "eth", "eq-coin"]);
    for (const [r, symbol] of ["sol", "eth", "eq-coin"].entries()) {
      // eq-coin has no March 31 price (a Sunday): the last trading day's close.
      const prices = await rawPoints(sandbox, symbol, "PRICE", { startDate: "2024-03-01", endDate: "2024-03-31" });
      expect(table[r + 1][1]).toBe(prices[prices.length - 1].val);
    }
    const fees = await rawPoints(sandbox, "sol", "FEES", { startDate: "2024-03-02", endDate: "2024-03-31" });
    expect(table[1][2]).toBeCloseTo(
      fees.reduce((sum, p) => sum + p.val, 0),
      6,
    );
    expect(isExcelError(table[3][2])).toBe(true);
    expect((table[3][2] as Error).message).toMatch(/eq-coin FEES/);
  });

  it("a pair the service lacks is an #N/A cell with its reason; the rest fill", async () => {
    const table = (await load().call("SNAPSHOT", ["eth, base", "PRICE, TVL", "2024-03-31"])) as unknown[][];
    expect(typeof table[1][1]).toBe("number");
    expect(typeof table[1][2]).toBe("number");
    expect(typeof table[2][2]).toBe("number");
    expect(isExcelError(table[2][1]) && table[2][1].code).toBe("#N/A");
    expect((table[2][1] as Error).message).toMatch(/^base PRICE: .*not available for base/);
  });

  it("options: headers=false spills the bare grid, transpose=true puts symbols across", async () => {
    const bundle = load();
    const bare = (await bundle.call("SNAPSHOT", [
      "eth,sol",
      "PRICE,TVL",
      "2024-03-31",
      "headers=false",
    ])) as unknown[][];
    const full = (await bundle.call("SNAPSHOT", ["eth,sol", "PRICE,TVL", "2024-03-31"])) as unknown[][];
    expect(bare).toEqual(full.slice(1).map((row) => row.slice(1)));
    const across = (await bundle.call("SNAPSHOT", [
      "eth,sol",
      "PRICE,TVL",
      "2024-03-31",
      [["transpose", true]],
    ])) as unknown[][];
    expect(across).toEqual([
      ["Symbol", "eth", "sol"],
      ["PRICE", full[1][1], full[2][1]],
      ["TVL", full[1][2], full[2][2]],
    ]);
    const bad = await cellValue(bundle, "SNAPSHOT", ["eth", "PRICE", null, "fill=prev"]);
    expect(isExcelError(bad) && bad.code).toBe("#VALUE!");
  });

  it("200 symbols × 5 metrics cost exactly the requests of 1,000 MD.LATEST cells, with the same values", async () => {
    const assets = await rawGet<{ assets: { symbol: string }[] }>(sandbox, "/asset/symbols/");
    const symbols = assets.assets
      .filter((a) => !a.symbol.startsWith("eq-"))
      .slice(0, 200)
      .map((a) => a.symbol);
    expect(symbols).toHaveLength(200);

    // Two fresh runtimes (empty caches): one sheet of MD.LATEST cells, one MD.SNAPSHOT formula.
    const sheet = load();
    let before = requestsTo(sandbox, "/data/api/");
    const cells = await Promise.all(
      symbols.flatMap((symbol) => METRICS.map((metric) => cellValue(sheet, "LATEST", [symbol, metric]))),
    );
    const latestRequests = requestsTo(sandbox, "/data/api/") - before;

    before = requestsTo(sandbox, "/data/api/");
    const table = (await load().call("SNAPSHOT", [symbols.join(","), METRICS.join(",")])) as unknown[][];
    const snapshotRequests = requestsTo(sandbox, "/data/api/") - before;

    console.log(
      `MD.SNAPSHOT of 200 symbols × 5 metrics → ${snapshotRequests} requests; 1,000 MD.LATEST cells → ${latestRequests}`,
    );
    expect(snapshotRequests).toBe(latestRequests);
    expect(snapshotRequests).toBeLessThanOrEqual(4); // one per 50 symbols: 5 metrics × 50 symbols fit one request
    expect(table).toHaveLength(201);
    let numbers = 0;
    symbols.forEach((_symbol, s) =>
      METRICS.forEach((_metric, m) => {
        const latest = cells[s * METRICS.length + m];
        const cell = table[s + 1][m + 1];
        if (isExcelError(latest)) {
          expect(isExcelError(cell) && cell.code).toBe(latest.code);
        } else {
          expect(cell).toBe(latest);
          numbers++;
        }
      }),
    );
    expect(numbers).toBeGreaterThan(800);
  });
});
