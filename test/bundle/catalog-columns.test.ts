/**
 * Catalog columns analysts need, over the built bundle and the sandbox: the
 * asset's kind in MD.ASSETS (filterable), fiscal period labels on financials,
 * MD.FLOWS's unit and its refusal of a granularity it cannot honour.
 * Expectations come from the sandbox's own definitions (named assets, company
 * fiscal calendars), not from the add-in's rules.
 */
import { COMPANIES } from "../../sandbox/companies";
import { fiscalLabel, fiscalQuarters } from "../../sandbox/fiscal-calendar";
import { NAMED_CRYPTO_ASSETS } from "../../sandbox/named-assets";
import { cellValue, isExcelError } from "../../harness/bundle";
import { rawGet, rawPoints, requestsTo, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

// The named assets plus filler tokens ("sbx…"), which are tokens.
const { sandbox, bundle, load } = useBundle({ quiet: true, assetCount: 200 });

const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

describe("MD.ASSETS: the asset's kind", () => {
  it("every named asset shows its kind; equities are equity", async () => {
    const table = (await bundle.call("ASSETS", [])) as string[][];
    expect(table[0]).toEqual(["platform_id", "symbol", "title", "aggregator_id", "color", "kind"]);
    const kindOf = new Map(table.slice(1).map((row) => [row[1], row[5]]));
    for (const asset of NAMED_CRYPTO_ASSETS)
      expect([asset.symbol, kindOf.get(asset.symbol)]).toEqual([asset.symbol, asset.kind]);
    for (const company of COMPANIES) expect(kindOf.get(`eq-${company.ticker}`)).toBe("equity");
    // Generated catalog fillers are tokens.
    expect(kindOf.get("sbx00001")).toBe("token");
  });

  it.each([
    ["CHAIN", "chain"],
    ["chains", "chain"],
    ["STABLECOIN", "stablecoin"],
    ["CATEGORY", "category"],
  ])("type %s keeps the %s assets", async (type, kind) => {
    const table = (await bundle.call("ASSETS", [null, type])) as string[][];
    expect(table.slice(1).map((row) => row[1])).toEqual(
      NAMED_CRYPTO_ASSETS.filter((a) => a.kind === kind).map((a) => a.symbol),
    );
    expect(table.slice(1).every((row) => row[5] === kind)).toBe(true);
  });

  it("the kinds of the whole catalog cost one request per 50 assets, shared by every call", async () => {
    const fresh = load();
    const assets = await rawGet<{ assets: { symbol: string }[] }>(sandbox, "/asset/symbols/");
    const crypto = assets.assets.filter((a) => !a.symbol.startsWith("eq-")).length;
    const before = requestsTo(sandbox, "/data/api/");
    await fresh.call("ASSETS", [null, "TOKEN"]);
    const sent = requestsTo(sandbox, "/data/api/") - before;
    expect(sent).toBe(Math.ceil(crypto / 50));
    await fresh.call("ASSETS", [null, "CHAIN"]);
    expect(requestsTo(sandbox, "/data/api/") - before).toBe(sent);
  });

  it("refuses an unknown type, naming the kinds", async () => {
    const value = await cellValue(bundle, "ASSETS", [null, "STOCKS"]);
    expect(isExcelError(value) && value.code).toBe("#VALUE!");
    expect((value as Error).message).toBe(
      'type: "STOCKS" is not accepted. Use ALL, CRYPTO, EQUITY, CHAIN, TOKEN, STABLECOIN or CATEGORY.',
    );
  });
});

describe("MD.SERIES fiscal=true: fiscal period labels", () => {
  /** The sandbox's own label of each fiscal quarter end of a company. */
  function sandboxLabels(ticker: string): Map<number, string> {
    const company = COMPANIES.find((c) => c.ticker === ticker)!;
    return new Map(fiscalQuarters(company).map((q) => [q.end, fiscalLabel(q)]));
  }

  it("labels each reported quarter in a column after the date (Apple: quarters end on Saturdays, the year in September)", async () => {
    const table = (await bundle.call("SERIES", [
      "eq-aapl",
      "TOTAL_REVENUE",
      "2022-07-01",
      "2024-06-30",
      null,
      "fiscal=true",
    ])) as unknown[][];
    const raw = await rawPoints(sandbox, "eq-aapl", "TOTAL_REVENUE", {
      startDate: "2022-07-01",
      endDate: "2024-06-30",
      granularity: "QUARTER",
    });
    const labels = sandboxLabels("aapl");
    expect(table[0]).toEqual(["Date", "eq-aapl fiscal period", "eq-aapl TOTAL_REVENUE"]);
    expect(table.slice(1)).toEqual(raw.map((p) => [serial(p.date), labels.get(dayOf(p.date)), p.val]));
    expect(table.slice(1).map((row) => row[1])).toContain("FY2023 Q4");
  });

  it("one label column per company, each on its own calendar; a daily ratio beside them gets none", async () => {
    const table = (await bundle.call("SERIES", [
      "eq-msft, eq-nvda",
      "NET_INCOME",
      "2023-01-01",
      "2023-12-31",
      "Q",
      [["fiscal", "yes"]],
    ])) as unknown[][];
    expect(table[0]).toEqual([
      "Date",
      "eq-msft fiscal period",
      "eq-nvda fiscal period",
      "eq-msft NET_INCOME",
      "eq-nvda NET_INCOME",
    ]);
    const msft = sandboxLabels("msft");
    const nvda = sandboxLabels("nvda");
    for (const row of table.slice(1)) {
      const day = (row[0] as number) - 25569; // serial → days since 1970
      expect(row[1]).toBe(typeof row[3] === "number" ? msft.get(day) : "");
      expect(row[2]).toBe(typeof row[4] === "number" ? nvda.get(day) : "");
    }
  });

  it("refuses fiscal=true without a financial", async () => {
    const value = await cellValue(bundle, "SERIES", ["eth", "PRICE", "2024-01-01", "2024-01-31", null, "fiscal=true"]);
    expect(isExcelError(value) && value.code).toBe("#VALUE!");
    expect((value as Error).message).toMatch(/^options: fiscal=true labels the quarters of fiscal financials/);
  });
});

describe("MD.FLOWS: unit and granularity", () => {
  it("says its unit in the header", async () => {
    const table = (await bundle.call("FLOWS", [
      "ethereum, solana",
      "2024-01-01",
      "2024-01-31",
      null,
      "ALL",
    ])) as unknown[][];
    expect(table[0]).toEqual(["Chain", "Netflow (USD)", "Inflow (USD)", "Outflow (USD)"]);
  });

  it("refuses a granularity, which could change nothing, before sending a request", async () => {
    const before = requestsTo(sandbox, "/flows/top/");
    const value = await cellValue(bundle, "FLOWS", ["ethereum", "2024-01-01", "2024-01-31", "MONTH"]);
    expect(isExcelError(value) && value.code).toBe("#VALUE!");
    expect((value as Error).message).toMatch(
      /^granularity: "MONTH" changes nothing: MD\.FLOWS gives one total per chain/,
    );
    expect(requestsTo(sandbox, "/flows/top/")).toBe(before);
  });
});
