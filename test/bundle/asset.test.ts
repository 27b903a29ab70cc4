/**
 * MD.ASSET through the built bundle: an entity card where the host has data
 * types in custom functions (ExcelApi 1.16 / 1.19 with CustomFunctionsRuntime
 * 1.4), a two-column property/value table where it has not; every property
 * equal to the MD.LATEST / MD.AGG cell of the same pair; an MD.ASSET cell read
 * back as its symbol by every MD function; and a column of 500 cells costing
 * no more requests than the MD.LATEST / MD.AGG cells of the same pairs.
 */
import { isExcelError, type LoadedBundle } from "../../harness/bundle";
import { rawGet, requestsTo } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";
import { OFF } from "../../sandbox/realistic";

const EXCEL_1_19 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" };
const EXCEL_1_16 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.16" };
const EXCEL_2021 = { CustomFunctionsRuntime: "1.3", ExcelApi: "1.12" };
const AS_OF = "2024-06-28";

const world = useBundle({ quiet: true, insightFirstCallDelayMs: 10, assetCount: 600 });

interface Property {
  type: string;
  basicValue: number | string;
  numberFormat?: string;
  propertyMetadata?: { sublabel?: string; excludeFrom?: { cardView?: boolean } };
}
interface Entity {
  type: string;
  text: string;
  properties: Record<string, Property>;
  layouts: {
    card: { title: { property: string }; sections: { layout: string; title: string; properties: string[] }[] };
  };
  provider: { description: string };
}

/** How each property is read by a cell: [property, function, arguments after the symbol (as_of appended)]. */
type Read = [string, "LATEST" | "AGG", unknown[]];
const latest = (name: string, metric: string): Read => [name, "LATEST", [metric]];
const agg30 = (name: string, metric: string, stat: string): Read => [name, "AGG", [metric, "30D", stat]];

const READS: Record<string, Read[]> = {
  token: [latest("Price", "PRICE"), latest("Market cap", "MC"), latest("Volume", "VOLUME")],
  chain: [
    latest("TVL", "TVL"),
    agg30("Fees 30D", "FEES", "SUM"),
    agg30("DAU 30D", "DAU", "AVG"),
    agg30("DEX volume 30D", "DEX_VOLUMES", "SUM"),
    latest("Price", "PRICE"),
    latest("Market cap", "MC"),
  ],
  stablecoin: [
    latest("Circulating supply", "STABLECOIN_SUPPLY_CIRCULATING"),
    latest("Total supply", "STABLECOIN_SUPPLY_TOTAL"),
    latest("Bridged", "STABLECOIN_SUPPLY_BRIDGED"),
    latest("Premint", "STABLECOIN_SUPPLY_PREMINT"),
    latest("Peg stability", "STABLECOIN_SUPPLY_PEG_STABILITY"),
  ],
  equity: [
    latest("Price", "PRICE"),
    latest("Market cap", "MC"),
    latest("LTM revenue", "LTM_TOTAL_REVENUE"),
    latest("EBITDA", "LTM_EBITDA"),
    latest("EV/EBITDA", "ENTERPRISE_VALUE_DIVIDE_EBITDA"),
    latest("Earnings yield", "EARNINGS_YIELD"),
    latest("FCF yield", "FCF_YIELD"),
  ],
};

const ASSETS: [string, string, string, string][] = [
  // kind, symbol, title, headline section
  ["token", "link", "Chainlink", "Market"],
  ["chain", "eth", "Ethereum", "Activity (30 days)"],
  ["stablecoin", "usdc", "USD Coin", "Supply"],
  ["equity", "eq-aapl", "Apple", "Market"],
];

const basic = (cell: unknown): unknown =>
  typeof cell === "object" && cell !== null && "basicValue" in cell ? (cell as Property).basicValue : cell;

async function cellRead(bundle: LoadedBundle, symbol: unknown, [, id, args]: Read): Promise<unknown> {
  const result = await bundle.call(
    id,
    [symbol, ...args, ...(id === "AGG" ? [] : []), AS_OF].slice(0, id === "AGG" ? 5 : 3),
  );
  return basic(result);
}

async function entityOf(bundle: LoadedBundle, symbol: string): Promise<Entity> {
  const result = (await bundle.call("ASSET", [symbol, AS_OF])) as unknown[][];
  expect(result).toHaveLength(1);
  expect(result[0]).toHaveLength(1);
  return result[0][0] as Entity;
}

describe("MD.ASSET as an entity (ExcelApi 1.19)", () => {
  let bundle: LoadedBundle;
  beforeAll(() => {
    bundle = world.load({ requirements: EXCEL_1_19 });
  });

  it.each(ASSETS)(
    "a %s (%s): the cell shows its title, the card its kind, colour and headline metrics",
    async (kind, symbol, title, headline) => {
      const catalog = await rawGet<{ assets: { symbol: string; title: string; color: string }[] }>(
        world.sandbox,
        "/asset/symbols/",
      );
      const record = catalog.assets.find((a) => a.symbol === symbol);
      const entity = await entityOf(bundle, symbol);
      expect(entity.type).toBe("Entity");
      expect(entity.text).toBe(record?.title ?? title);
      expect(entity.provider.description).toBe("Market Data for Excel");
      expect(entity.properties.Symbol).toEqual({ type: "String", basicValue: symbol });
      expect(entity.properties.Kind).toEqual({ type: "String", basicValue: kind });
      expect(entity.properties.Colour).toEqual({ type: "String", basicValue: record?.color });
      const card = entity.layouts.card;
      expect(card.title).toEqual({ property: "Name" });
      expect(card.sections[0].title).toBe(headline);
      expect(card.sections.every((s) => s.layout === "List" && s.properties.every((p) => p in entity.properties))).toBe(
        true,
      );
      // Every metric property: formatted, its date under it on the card, and a date property off the card.
      for (const [name] of READS[kind]) {
        const property = entity.properties[name];
        expect([name, property?.type]).toEqual([name, "Double"]);
        expect(property.numberFormat).toEqual(expect.any(String));
        expect(property.propertyMetadata?.sublabel).toMatch(/\d{4}-\d{2}-\d{2}/);
        expect(entity.properties[`${name} date`]).toMatchObject({
          numberFormat: "yyyy-mm-dd",
          propertyMetadata: { excludeFrom: { cardView: true } },
        });
      }
    },
  );

  it.each(ASSETS)(
    "a %s (%s): each property equals the MD.LATEST / MD.AGG cell of the same pair",
    async (kind, symbol) => {
      const entity = await entityOf(bundle, symbol);
      for (const read of READS[kind]) {
        const expected = await cellRead(bundle, symbol, read);
        expect([read[0], entity.properties[read[0]]?.basicValue]).toEqual([read[0], expected]);
      }
    },
  );

  it("a stablecoin's Other locked is MD.SUPPLY's, from the identity", async () => {
    const entity = await entityOf(bundle, "usdc");
    const supply = (await bundle.call("SUPPLY", ["usdc", "2024-06-01", AS_OF])) as unknown[][];
    const header = supply[0] as string[];
    const last = supply[supply.length - 1];
    expect(entity.properties["Other locked"].basicValue).toBeCloseTo(
      basic(last[header.indexOf("Other locked")]) as number,
      2,
    );
    expect(entity.properties["Circulating supply"].basicValue).toBe(basic(last[header.indexOf("Circulating")]));
  });

  it("a property the service lacks for the asset is absent, not 0", async () => {
    const token = await entityOf(bundle, "link");
    for (const name of ["DEX volume 30D", "Total supply", "LTM revenue"])
      expect(token.properties[name]).toBeUndefined();
    const base = await entityOf(bundle, "base"); // a chain without a native token
    expect(base.properties.Price).toBeUndefined();
    expect(base.properties.TVL?.basicValue).toEqual(expect.any(Number));
  });

  it("an unknown symbol is #VALUE! saying what was meant", async () => {
    const error = await bundle.call("ASSET", ["ethh", AS_OF]).catch((e: unknown) => e);
    expect(isExcelError(error)).toBe(true);
    expect(error).toMatchObject({ code: "#VALUE!", message: expect.stringContaining("eth") });
  });

  it("an MD.ASSET cell is its symbol in every MD function", async () => {
    const eth = await entityOf(bundle, "eth");
    const aapl = await entityOf(bundle, "eq-aapl");
    expect(basic(await bundle.call("LATEST", [eth, "FEES", AS_OF]))).toBe(
      basic(await bundle.call("LATEST", ["eth", "FEES", AS_OF])),
    );
    expect(basic(await bundle.call("AGG", [eth, "FEES", "7D", null, AS_OF]))).toBe(
      basic(await bundle.call("AGG", ["eth", "FEES", "7D", null, AS_OF])),
    );
    const byEntities = (await bundle.call("SNAPSHOT", [[[eth], [aapl]], "PRICE", AS_OF])) as unknown[][];
    const bySymbols = (await bundle.call("SNAPSHOT", [[["eth"], ["eq-aapl"]], "PRICE", AS_OF])) as unknown[][];
    expect(byEntities).toEqual(bySymbols);
    const series = (await bundle.call("SERIES", [[[eth]], "PRICE", "2024-06-20", AS_OF])) as unknown[][];
    expect(series[0][1]).toBe("eth PRICE");
    expect(basic(await bundle.call("ASSET", [eth, AS_OF]).then((r) => (r as Entity[][])[0][0].properties.Symbol))).toBe(
      "eth",
    );
  });
});

describe("MD.ASSET at ExcelApi 1.16: FormattedNumber properties", () => {
  it("formats numbers as the 1.16 host shows them", async () => {
    const bundle = world.load({ requirements: EXCEL_1_16 });
    const entity = await entityOf(bundle, "eth");
    expect(entity.type).toBe("Entity");
    expect(entity.properties.TVL).toMatchObject({ type: "FormattedNumber", numberFormat: "$#,##0.00" });
  });
});

describe("MD.ASSET without entities (Excel 2021): a two-column property/value table", () => {
  it.each(ASSETS)("a %s (%s)", async (kind, symbol, title) => {
    const bundle = world.load({ requirements: EXCEL_2021 });
    const table = (await bundle.call("ASSET", [symbol, AS_OF])) as unknown[][];
    expect(table.every((row) => row.length === 2)).toBe(true);
    expect(table.slice(0, 3)).toEqual([
      ["Name", title],
      ["Symbol", symbol],
      ["Kind", kind],
    ]);
    const values = new Map(table.map(([name, value]) => [name, value]));
    for (const read of READS[kind])
      expect([read[0], values.get(read[0])]).toEqual([read[0], await cellRead(bundle, symbol, read)]);
    expect(values.get("Price date") ?? values.get("TVL date") ?? values.get("Circulating supply date")).toEqual(
      expect.any(Number),
    );
  });

  it.each(ASSETS)(
    "a %s (%s) with table=true where Excel has entities: the same table, not a card",
    async (_kind, symbol) => {
      const flat = await world.load({ requirements: EXCEL_2021 }).call("ASSET", [symbol, AS_OF]);
      const asked = (await world
        .load({ requirements: EXCEL_1_19 })
        .call("ASSET", [symbol, AS_OF, "table=true"])) as unknown[][];
      expect(asked.every((row) => row.length === 2)).toBe(true);
      // The same rows; where Excel formats numbers (1.19) a value arrives formatted, its number the same.
      expect(asked.map((row) => row.map(basic))).toEqual(flat);
      expect(asked.some((row) => typeof row[1] === "object" && row[1] !== null)).toBe(true);
    },
  );

  it("an unknown symbol is #VALUE!", async () => {
    const bundle = world.load({ requirements: EXCEL_2021 });
    const error = await bundle.call("ASSET", ["ethh", AS_OF]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "#VALUE!" });
  });
});

describe("a symbol the service leaves out of its answer (as the contract allows), or a date with no data", () => {
  afterEach(() => world.sandbox.reset());

  it.each([
    ["an entity (ExcelApi 1.19)", EXCEL_1_19],
    ["a table (Excel 2021)", EXCEL_2021],
  ])("is #VALUE! naming the symbol with what was meant, as MD.LATEST is: %s", async (_what, requirements) => {
    world.sandbox.setRealistic({ ...OFF, omitUnknownSymbols: true });
    const bundle = world.load({ requirements });
    const asset = await bundle.call("ASSET", ["ethh", AS_OF]).catch((e: unknown) => e);
    const latest = await bundle.call("LATEST", ["ethh", "PRICE", AS_OF]).catch((e: unknown) => e);
    expect(isExcelError(asset)).toBe(true);
    expect(asset).toMatchObject({
      code: "#VALUE!",
      message: 'symbol: "ethh" is not a symbol the service knows. Did you mean eth?',
    });
    expect(latest).toMatchObject({ code: "#VALUE!", message: (asset as Error).message });
  });

  it("a known symbol with no reading on or before as_of is #N/A saying so, not an empty card", async () => {
    const bundle = world.load({ requirements: EXCEL_1_19 });
    const error = await bundle.call("ASSET", ["eth", "2015-01-01"]).catch((e: unknown) => e);
    expect(isExcelError(error)).toBe(true);
    expect(error).toMatchObject({ code: "#N/A", message: expect.stringMatching(/eth .*2015-01-01/) });
  });
});

describe("a catalog title longer than an Excel cell holds", () => {
  afterEach(() => world.sandbox.reset());

  it("is cut to 32,767 characters in the entity's text, its Name and the table, as MD.ASSETS cuts it", async () => {
    world.sandbox.setHostile({ longTitles: ["eth"] });
    const entity = await entityOf(world.load({ requirements: EXCEL_1_19 }), "eth");
    expect(entity.text).toHaveLength(32_767);
    expect(entity.text.endsWith("…")).toBe(true);
    expect(entity.properties.Name.basicValue).toBe(entity.text);
    const older = world.load({ requirements: EXCEL_2021 });
    const table = (await older.call("ASSET", ["eth", AS_OF])) as unknown[][];
    expect(table[0]).toEqual(["Name", entity.text]);
    const assets = (await older.call("ASSETS", ["eth"])) as unknown[][];
    const titleAt = (assets[0] as string[]).findIndex((header) => /title/i.test(header));
    expect(assets.find((row) => row.includes("eth"))?.[titleAt]).toBe(entity.text);
  });
});

describe("a column of 500 MD.ASSET cells", () => {
  it("costs no more requests than the MD.LATEST / MD.AGG cells of the same pairs", async () => {
    const catalog = await rawGet<{ assets: { symbol: string }[] }>(world.sandbox, "/asset/symbols/");
    const symbols = catalog.assets
      .map((a) => a.symbol)
      .filter((s) => !s.includes("-") || s.startsWith("eq-"))
      .slice(0, 500);
    expect(symbols).toHaveLength(500);

    const count = async (calls: (bundle: LoadedBundle) => Promise<unknown>[]): Promise<number> => {
      const bundle = world.load({ requirements: EXCEL_1_19 });
      const before = requestsTo(world.sandbox, "/data/api/");
      await Promise.allSettled(calls(bundle));
      return requestsTo(world.sandbox, "/data/api/") - before;
    };
    const assets = await count((bundle) => symbols.map((s) => bundle.call("ASSET", [s, AS_OF])));
    // The same pairs as cells: every property a card of the symbol's family asks for.
    const reads = (s: string) =>
      s.startsWith("eq-") ? READS.equity : [...READS.token, ...READS.chain.slice(0, 4), ...READS.stablecoin];
    const cells = await count((bundle) => symbols.flatMap((s) => reads(s).map((read) => cellRead(bundle, s, read))));
    const pairs = symbols.reduce((n, s) => n + reads(s).length, 0);
    console.log(
      `500 MD.ASSET cells: ${assets} series requests; the ${pairs} MD.LATEST / MD.AGG cells of the same pairs: ${cells}`,
    );
    expect(assets).toBeLessThanOrEqual(cells);
  });
});
