/**
 * Data types in: with `allowCustomDataForDataTypeAny`, Excel hands an MD
 * function a cell's data type (a formatted number another MD function
 * returned, a Stocks entity, an error value) in place of its plain value. The
 * built bundle, loaded as an Excel with data types, is given each data type in
 * every parameter functions.json lists (single, and inside ranges for the
 * range parameters) and must answer exactly as it does for the plain value;
 * an error value passed in fails the call with the matching error.
 */
import { CustomFunctionsError, isExcelError } from "../../harness/bundle";
import { useBundle } from "../support/bundle";
import { serial } from "../support/raw-sandbox";

const EXCEL_1_19 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" };

const { bundle } = useBundle({ quiet: true, insightFirstCallDelayMs: 10 }, { requirements: EXCEL_1_19 });

/** What a cell shows: a value, or an error as its code and message. */
/**
 * A value's provenance properties (Fetched, Source, the catalog's words: test/bundle/provenance.test.ts) say when
 * and how it was read, which two calls in a row may differ in; the answer compared here is the value itself.
 */
function withoutProvenance(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProvenance);
  if (typeof value !== "object" || value === null) return value;
  const { properties, ...rest } = value as { type?: string; properties?: Record<string, unknown> };
  if (properties === undefined) return value;
  if (rest.type !== "Entity") return rest;
  return {
    ...rest,
    properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, withoutProvenance(v)])),
  };
}

async function shown(id: string, args: unknown[]): Promise<unknown> {
  try {
    return withoutProvenance(await bundle.call(id, args));
  } catch (error) {
    if (isExcelError(error)) return { error: error.code, message: error.message };
    throw error;
  }
}

// ---- the data types, as Excel's JSON spells them (@types/office-js, Excel.*CellValue)

type Wrap = (plain: unknown) => unknown;

/** Each data type that carries a plain value of this JavaScript type, by name. */
const WRAPPERS: Record<"number" | "string" | "boolean", [string, Wrap][]> = {
  number: [
    ["Double", (v) => ({ type: "Double", basicValue: v, basicType: "Double", numberFormat: "yyyy-mm-dd" })],
    ["FormattedNumber", (v) => ({ type: "FormattedNumber", basicValue: v, numberFormat: "#,##0" })],
    ["Double with properties", (v) => ({ type: "Double", basicValue: v, properties: {} })],
  ],
  string: [
    ["String", (v) => ({ type: "String", basicValue: v, basicType: "String" })],
    ["Entity", (v) => ({ type: "Entity", text: v, basicValue: "#VALUE!", basicType: "Error", properties: {} })],
    [
      "LinkedEntity",
      (v) => ({
        type: "LinkedEntity",
        text: v,
        basicValue: "#VALUE!",
        id: { culture: "en-US", domainId: "financial", entityId: "x", serviceId: 268 },
      }),
    ],
  ],
  boolean: [["Boolean", (v) => ({ type: "Boolean", basicValue: v, basicType: "Boolean" })]],
};

function wrappersFor(plain: unknown): [string, Wrap][] {
  const kind = typeof plain;
  return kind === "number" || kind === "string" || kind === "boolean" ? WRAPPERS[kind] : [];
}

/** Every cell of a range wrapped (a single value: itself). */
function wrapCells(value: unknown, wrap: Wrap): unknown {
  if (!Array.isArray(value)) return wrap(value);
  return value.map((row: unknown[]) => row.map((cell) => (wrappersFor(cell).length > 0 ? wrap(cell) : cell)));
}

/** The cells of a range whose plain values a wrapper can carry. */
function cellKinds(value: unknown): Set<string> {
  const cells = Array.isArray(value) ? (value as unknown[][]).flat() : [value];
  return new Set(cells.map((cell) => typeof cell));
}

// ---- every parameter of every function, with plain values that work (and some that do not)

const day = (iso: string) => serial(iso);

/** Per function: a call that answers with plain values, and plain values to try in each parameter. */
const CALLS: Record<string, { base: unknown[]; tries: Record<string, unknown[]> }> = {
  SERIES: {
    base: ["eth", "PRICE", "2024-01-01", "2024-01-10", "DAY", "headers=true"],
    tries: {
      symbols: ["eth", [["eth"], ["btc"]], [["ETH", "sol"]], 5],
      metrics: ["PRICE", [["PRICE"], ["FEES"]]],
      start: [day("2024-01-02"), "2024-01-02", "-3D"],
      end: [day("2024-01-09"), "2024-01-09"],
      granularity: ["WEEK", "w"],
      options: [
        "headers=false; order=desc",
        [
          ["headers", false],
          ["last", 3],
        ],
        [
          ["order", "desc"],
          ["fill", "prev"],
        ],
      ],
    },
  },
  LATEST: {
    base: ["eth", "PRICE", "2024-02-29"],
    tries: {
      symbol: ["btc", "EQ-COIN", true],
      metric: ["FEES", "L30_FEES"],
      as_of: [day("2024-02-15"), "2024-02-15", "-1M"],
      options: ["show=date", [["show", "date"]]],
    },
  },
  AGG: {
    base: ["eth", "FEES", "30D", "SUM", "2024-03-31"],
    tries: {
      symbol: ["sol"],
      metric: ["DAU", "PRICE"],
      window: ["-6M", "MTD", 7],
      stat: ["AVG", "PCT_CHANGE"],
      as_of: [day("2024-03-15"), "2024-03-15"],
      options: ["show=start", [["show", "days"]]],
    },
  },
  FLOWS: {
    base: ["ethereum", "2024-01-01", "2024-01-31", null, "NETFLOW", "headers=true"],
    tries: {
      source_chains: ["solana", [["ethereum"], ["solana"]]],
      start: [day("2024-01-10"), "2024-01-10"],
      end: [day("2024-01-20"), "2024-01-20"],
      granularity: ["MONTH"],
      flow_type: ["INFLOW", "ALL"],
      options: ["headers=false", [["top", 1]], [["headers", false]]],
    },
  },
  ASSETS: {
    base: ["usd", "CRYPTO"],
    tries: { search: ["eth"], type: ["ALL", "STABLECOIN"] },
  },
  METRICS: {
    base: ["eth", "fees"],
    tries: { symbol: ["sol"], search: ["price"] },
  },
  INSIGHTS: {
    base: ["STREAKS", null, null],
    tries: { feed: ["DECLINE-STREAKS"], search: ["eth"], flag: ["weekly"] },
  },
  SUPPLY: {
    base: ["usdc", "2024-01-01", "2024-01-05", "DAY"],
    tries: {
      symbol: ["usdt"],
      start: [day("2024-01-02"), "2024-01-02"],
      end: [day("2024-01-04"), "2024-01-04"],
      granularity: ["WEEK"],
    },
  },
  ASSET: {
    base: ["eth", "2024-02-29"],
    tries: {
      symbol: ["btc", "EQ-COIN"],
      as_of: [day("2024-02-15"), "2024-02-15", "-1M"],
      options: ["table=true", [["table", true]]],
    },
  },
  SNAPSHOT: {
    base: ["eth, btc", "PRICE", "2024-02-29", "headers=true"],
    tries: {
      symbols: [[["eth"], ["sol"]], "btc"],
      metrics: [[["PRICE", "FEES"]], "L30_FEES"],
      as_of: [day("2024-02-15"), "2024-02-15"],
      options: ["transpose=true", [["headers", false]], "dates=true"],
    },
  },
};

/** Plain values the functions refuse: a data type carrying one must be refused with the same message. */
const REFUSED = new Set(["SERIES.symbols:5", "LATEST.symbol:true", "AGG.window:7", 'FLOWS.granularity:"MONTH"']);

interface Case {
  id: string;
  param: string;
  plain: unknown;
  wrapper: string;
  wrap: Wrap;
}

function cases(): Case[] {
  const all: Case[] = [];
  for (const [id, { tries }] of Object.entries(CALLS)) {
    for (const [param, values] of Object.entries(tries)) {
      for (const plain of values) {
        const kinds = cellKinds(plain);
        for (const kind of kinds)
          for (const [wrapper, wrap] of wrappersFor(kind === "number" ? 0 : kind === "string" ? "" : false)) {
            // Wrap only the cells of this kind: a range mixing text and numbers gets each its own data type.
            const only: Wrap = (cell) => (typeof cell === kind ? wrap(cell) : cell);
            all.push({ id, param, plain, wrapper, wrap: only });
          }
      }
    }
  }
  return all;
}

function argsWith(id: string, param: string, value: unknown): unknown[] {
  const meta = bundle.metadata.find((m) => m.id === id);
  if (!meta) throw new Error(`functions.json has no ${id}`);
  const index = meta.parameters.findIndex((p) => p.name === param);
  if (index < 0) throw new Error(`${id} has no parameter ${param}`);
  const args = [...CALLS[id].base];
  while (args.length < meta.parameters.length) args.push(null);
  args[index] = value;
  return args;
}

describe("the table covers functions.json", () => {
  it("every parameter of every function but VERSION has plain values to try, and each base call answers", async () => {
    // A streaming function (MD.STATUS) sets its cell through its invocation: test/bundle/status.test.ts reads its argument.
    const listed = bundle.metadata
      .filter((m) => m.parameters.length > 0 && m.options?.stream !== true)
      .flatMap((m) => m.parameters.map((p) => `${m.id}.${p.name}`));
    const tried = Object.entries(CALLS).flatMap(([id, call]) => Object.keys(call.tries).map((p) => `${id}.${p}`));
    expect(tried.sort()).toEqual(listed.sort());
    for (const id of Object.keys(CALLS)) {
      const answer = await shown(id, CALLS[id].base);
      expect([id, (answer as { error?: string }).error]).toEqual([id, undefined]);
    }
  });
});

describe("a data type in any parameter gives the answer of its plain value", () => {
  it.each(cases().map((c) => [`${c.id} ${c.param} = ${JSON.stringify(c.plain)} as ${c.wrapper}`, c] as const))(
    "%s",
    async (_name, c) => {
      const plain = await shown(c.id, argsWith(c.id, c.param, c.plain));
      const wrapped = await shown(c.id, argsWith(c.id, c.param, wrapCells(c.plain, c.wrap)));
      expect(wrapped).toEqual(plain);
      expect(JSON.stringify(wrapped)).not.toContain("[object Object]");
      const refused = REFUSED.has(`${c.id}.${c.param}:${JSON.stringify(c.plain)}`);
      expect((plain as { error?: string }).error !== undefined).toBe(refused);
    },
  );
});

describe("an error value passed in fails the call with the matching error, naming it", () => {
  const errorValue = (errorType: string, basicValue: string) => ({
    type: "Error",
    errorType,
    basicValue,
    basicType: "Error",
  });
  const ERRORS: [string, unknown, string, string][] = [
    ["#N/A", errorValue("NotAvailable", "#N/A"), "#N/A", "#N/A"],
    ["#VALUE!", errorValue("Value", "#VALUE!"), "#VALUE!", "#VALUE!"],
    ["#DIV/0!", errorValue("Div0", "#DIV/0!"), "#DIV/0!", ""],
    ["#NUM!", errorValue("Num", "#NUM!"), "#NUM!", ""],
    ["#NULL!", errorValue("Null", "#NULL!"), "#NULL!", ""],
    // Not a code a custom function can return (Microsoft Learn, "Handle and return errors…"): #VALUE!, naming it.
    ["#REF!", errorValue("Ref", "#REF!"), "#VALUE!", "#REF!"],
    ["#SPILL! without basicValue", { type: "Error", errorType: "Spill" }, "#VALUE!", "#SPILL!"],
    ["#N/A as a CustomFunctions.Error", new CustomFunctionsError("#N/A"), "#N/A", "#N/A"],
  ];
  const params = Object.entries(CALLS).flatMap(([id, call]) => Object.keys(call.tries).map((param) => [id, param]));

  it.each(params.flatMap(([id, param]) => ERRORS.map((e) => [`${id} ${param} ← ${e[0]}`, id, param, ...e] as const)))(
    "%s",
    async (_name, id, param, _what, value, code, named) => {
      const matrix = bundle.metadata.find((m) => m.id === id)?.parameters.find((p) => p.name === param)?.dimensionality;
      const single = await shown(id, argsWith(id, param, value));
      expect(single).toEqual({ error: code, message: expect.any(String) });
      if (named) expect((single as { message: string }).message).toContain(named);
      if (code === "#N/A" || code === "#VALUE!") expect((single as { message: string }).message).toMatch(param);
      if (matrix === "matrix") {
        // One error among good cells of a range.
        const ranged = await shown(id, argsWith(id, param, [["eth"], [value]]));
        expect((ranged as { error: string }).error).toBe(code);
      }
    },
  );
});

describe("chaining MD results into MD arguments", () => {
  it("MD.LATEST on a date MD.SERIES spilled reads that date (A5 of the spill)", async () => {
    const table = (await bundle.call("SERIES", ["eth", "PRICE", "2024-01-01", "2024-01-10"])) as unknown[][];
    const a5 = table[4][0];
    expect(a5).toEqual({ type: "Double", basicValue: day("2024-01-04"), numberFormat: "yyyy-mm-dd" });
    expect(await shown("LATEST", ["eth", "PRICE", a5])).toEqual(await shown("LATEST", ["eth", "PRICE", "2024-01-04"]));
  });

  it("an MD number as an option value, and a formatted value as MD.AGG's as_of", async () => {
    const three = await shown("AGG", ["eth", "FEES", "3D", "SUM", "2024-01-10"]);
    const count = { ...(three as object), basicValue: 3 };
    expect(await shown("SERIES", ["eth", "PRICE", "2024-01-01", "2024-01-10", null, [["last", count]]])).toEqual(
      await shown("SERIES", ["eth", "PRICE", "2024-01-01", "2024-01-10", null, "last=3"]),
    );
  });

  it("an MD.ASSETS symbol cell and an MD.METRICS metric cell feed MD.LATEST", async () => {
    const assets = (await bundle.call("ASSETS", ["ethereum"])) as unknown[][];
    const metrics = (await bundle.call("METRICS", ["eth", "price"])) as unknown[][];
    const symbol = assets[1][1];
    const metric = metrics.find((row) => row[0] === "PRICE")?.[0];
    expect([symbol, metric]).toEqual(["eth", "PRICE"]);
    const asString = (text: unknown) => ({ type: "String", basicValue: text });
    expect(await shown("LATEST", [asString(symbol), asString(metric), "2024-02-29"])).toEqual(
      await shown("LATEST", ["eth", "PRICE", "2024-02-29"]),
    );
  });

  it("an MD.ASSET card, with or without its provider, feeds MD.LATEST, MD.SERIES and MD.SNAPSHOT as its Symbol", async () => {
    const [[card]] = (await bundle.call("ASSET", ["eth", "2024-02-29"])) as { provider?: unknown; text: string }[][];
    expect(card.text).not.toBe("eth");
    // Microsoft documents an entity argument by its text and properties[…].basicValue, not its provider.
    const { provider: _provider, ...bare } = card;
    for (const entity of [card, bare]) {
      expect(await shown("LATEST", [entity, "PRICE", "2024-02-29"])).toEqual(
        await shown("LATEST", ["eth", "PRICE", "2024-02-29"]),
      );
      expect(await shown("SERIES", [[[entity]], "PRICE", "2024-02-01", "2024-02-05"])).toEqual(
        await shown("SERIES", ["eth", "PRICE", "2024-02-01", "2024-02-05"]),
      );
      expect(await shown("SNAPSHOT", [[[entity], ["btc"]], "PRICE", "2024-02-29"])).toEqual(
        await shown("SNAPSHOT", [[["eth"], ["btc"]], "PRICE", "2024-02-29"]),
      );
    }
  });

  it("another provider's card is refused, saying it is not an MD.ASSET card", async () => {
    const foreign = {
      type: "Entity",
      text: "Coinbase Global",
      basicValue: "#VALUE!",
      provider: { description: "Another data service" },
      properties: { Symbol: { type: "String", basicValue: "COIN" } },
    };
    expect(await shown("LATEST", [foreign, "PRICE", "2024-02-29"])).toEqual({
      error: "#VALUE!",
      message: expect.stringMatching(
        /^symbol: "Coinbase Global" is a card from Another data service, not an MD\.ASSET card/,
      ),
    });
  });

  it("an object no parser reads is named, never [object Object]", async () => {
    const image = { type: "WebImage", address: "https://example.com/a.png", basicValue: "#VALUE!" };
    const cell = await shown("LATEST", [image, "PRICE"]);
    expect(cell).toEqual({ error: "#VALUE!", message: expect.stringMatching(/^symbol: a WebImage value is not text/) });
    const stranger = await shown("LATEST", ["eth", "PRICE", { when: "tomorrow" }]);
    expect(stranger).toEqual({
      error: "#VALUE!",
      message: expect.stringMatching(/^as_of: an object that is not a cell value is not a date/),
    });
  });
});
