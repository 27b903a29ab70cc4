import {
  assetKindOf,
  assetPropertySpecs,
  buildAssetCard,
  type PropertyOutcome,
  shapeAssetTable,
  windowNote,
} from "../../src/core/asset-card";

const value = (v: number, date = "2024-06-28", format: string | null = null): PropertyOutcome => ({
  kind: "value",
  value: v,
  date,
  format,
});
const NOT_OFFERED: PropertyOutcome = { kind: "not-offered" };

function outcomes(symbol: string, given: Record<string, PropertyOutcome>): Map<string, PropertyOutcome> {
  return new Map(assetPropertySpecs(symbol).map((spec) => [spec.name, given[spec.name] ?? NOT_OFFERED]));
}

describe("MD.ASSET's card", () => {
  it.each<[string, string, Record<string, PropertyOutcome>, string]>([
    ["an equity by its prefix", "eq-aapl", {}, "equity"],
    ["a chain: DEX volume offered", "eth", { Price: value(1), "DEX volume 30D": value(5) }, "chain"],
    ["a stablecoin: supply offered", "usdc", { "Total supply": value(9), Price: value(1) }, "stablecoin"],
    ["a token: a market", "link", { Price: value(1) }, "token"],
    ["a category: none of these", "defi", { "Fees 30D": value(1) }, "category"],
    [
      "a metric offered without a reading still tells the kind",
      "x",
      { "Total supply": { kind: "no-value" } },
      "stablecoin",
    ],
  ])("kind of %s", (_what, symbol, given, kind) => {
    expect(assetKindOf(symbol, outcomes(symbol, given))).toBe(kind);
  });

  it("leaves out what the service lacks, never 0, and puts the kind's headline section first", () => {
    const card = buildAssetCard(
      { symbol: "eth", title: "Ethereum", color: "#627EEA" },
      outcomes("eth", { Price: value(3000), TVL: value(6e10), "DEX volume 30D": value(4e10), "Fees 30D": value(5e7) }),
      "2024-06-28",
    );
    expect(card.kind).toBe("chain");
    expect(card.sections.map((s) => [s.title, s.facts.map((f) => f.name)])).toEqual([
      ["Activity (30 days)", ["TVL", "Fees 30D", "DEX volume 30D"]],
      ["Market", ["Price"]],
    ]);
  });

  it("derives Other locked from the supply identity when all five buckets share a date", () => {
    const supply = {
      "Circulating supply": value(60),
      "Total supply": value(100),
      Bridged: value(10),
      Premint: value(5),
      "Peg stability": value(5),
    };
    const card = buildAssetCard(
      { symbol: "usdc", title: "USD Coin", color: "" },
      outcomes("usdc", supply),
      "2024-06-28",
    );
    expect(card.sections[0].facts.map((f) => [f.name, f.value])).toEqual([
      ["Circulating supply", 60],
      ["Total supply", 100],
      ["Bridged", 10],
      ["Premint", 5],
      ["Peg stability", 5],
      ["Other locked", 20],
    ]);
    const stale = { ...supply, Bridged: value(10, "2024-06-27") };
    const partial = buildAssetCard(
      { symbol: "usdc", title: "USD Coin", color: "" },
      outcomes("usdc", stale),
      "2024-06-28",
    );
    expect(partial.sections[0].facts.map((f) => f.name)).not.toContain("Other locked");
  });

  it("lays the card flat as property/value rows, each fact with its date", () => {
    const card = buildAssetCard(
      { symbol: "link", title: "Chainlink", color: "#2A5ADA" },
      outcomes("link", { Price: value(14.5, "2024-06-28", "$#,##0.00") }),
      "2024-06-30",
    );
    const table = shapeAssetTable(card);
    expect(table.rows).toEqual([
      ["Name", "Chainlink"],
      ["Symbol", "link"],
      ["Kind", "token"],
      ["Colour", "#2A5ADA"],
      ["As of", 45473],
      ["Price", 14.5],
      ["Price date", 45471],
    ]);
    expect(table.formatAt(5, 1, 14.5)).toBe("$#,##0.00");
    expect(table.formatAt(6, 1, 45471)).toBe("yyyy-mm-dd");
    expect(table.formatAt(5, 0, 0)).toBeNull();
  });
});

describe("a catalog title longer than a cell holds", () => {
  it("is cut to Excel's 32,767 characters with an ellipsis, as MD.ASSETS cuts it: the card's title and the table's Name", () => {
    const long = `Ether ${"x".repeat(40_000)}`;
    const card = buildAssetCard(
      { symbol: "eth", title: long, color: `#${"0".repeat(40_000)}` },
      outcomes("eth", { TVL: value(5) }),
      "2024-06-28",
    );
    expect(card.title).toHaveLength(32_767);
    expect(card.title).toBe(`${long.slice(0, 32_766)}…`);
    expect(card.color).toHaveLength(32_767);
    const table = shapeAssetTable(card).rows;
    expect(table[0]).toEqual(["Name", card.title]);
    expect(table.every((row) => row.every((cell) => typeof cell !== "string" || cell.length <= 32_767))).toBe(true);
  });
});

describe("a windowed property's note", () => {
  it.each([
    [
      "ends on the latest data, every day with data",
      { start: "2026-10-24", end: "2026-11-22", endsOn: "latest-data" as const },
      { days: 30, daysWithData: 30 },
      "sum over 30D, 2026-10-24 to 2026-11-22",
    ],
    [
      "a calendar window missing its two newest days",
      { start: "2026-10-26", end: "2026-11-24", endsOn: "as-of" as const },
      { days: 30, daysWithData: 28 },
      "sum over 30D, 2026-10-26 to 2026-11-24; 28 of 30 days have data",
    ],
  ])("%s", (_, span, coverage, note) => {
    expect(windowNote("sum", "30D", span, coverage)).toBe(note);
  });
});
