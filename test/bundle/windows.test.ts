/**
 * Windows that say what they cover, through the built dist/functions.js
 * against the sandbox in its realistic mode, whose two newest days are
 * unsettled (as the real service's are): without as_of a window ends on the
 * pair's latest data, so MD.AGG's 30D, MD.LATEST's and MD.SNAPSHOT's L30_ and
 * MD.ASSET's 30-day properties all are the sum of the latest 30 days of data;
 * with as_of the window is the calendar window, and says what it misses. The
 * date of a single value (show=date, dates=true) as exact cells, and bad
 * option values. Expectations come from a contract-true sandbox with the same
 * seed (raw HTTP), not from the add-in's code.
 */
import { cellValue, isExcelError, type LoadedBundle } from "../../harness/bundle";
import { isoDaysAgo, rawPoints, requestsTo, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";
import { useSandbox } from "../support/sandbox";

const EXCEL_1_19 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" };

// "today" is the real date for both sandboxes and the bundle, as in real-service.test.ts.
const world = useBundle({ quiet: true, realistic: true, insightFirstCallDelayMs: 10 });
const plain = useSandbox({ quiet: true, insightFirstCallDelayMs: 10 });

const call = (id: string, args: unknown[], bundle: LoadedBundle = world.bundle) => cellValue(bundle, id, args);

/** The contract sandbox's values from `from` to `to` days ago, summed. */
async function rawSum(symbol: string, metric: string, fromDaysAgo: number, toDaysAgo: number): Promise<number> {
  const points = await rawPoints(plain, symbol, metric, {
    startDate: isoDaysAgo(fromDaysAgo),
    endDate: isoDaysAgo(toDaysAgo),
  });
  expect(points).toHaveLength(fromDaysAgo - toDaysAgo + 1);
  return points.reduce((sum, point) => sum + point.val, 0);
}

const formatted = (basicValue: number, numberFormat: string) => ({ type: "Double", basicValue, numberFormat });

it("the premise: the realistic sandbox's two newest days have no value (null or a 0 placeholder), the third has", async () => {
  for (const symbol of ["eth", "sol", "bnb"]) {
    const points = await rawPoints(world.sandbox, symbol, "FEES", { startDate: isoDaysAgo(4), endDate: isoDaysAgo(0) });
    const [third, yesterday, today] = points.slice(-3).map((point) => point.val as number | null);
    expect([today, yesterday === 0 ? null : yesterday]).toEqual([null, null]);
    expect(third).toBeGreaterThan(0);
  }
});

describe("as_of omitted: the window ends on the latest day with data", () => {
  it.each(["eth", "sol", "arb"])(
    "%s: MD.AGG 30D = MD.LATEST L30_FEES = MD.SNAPSHOT L30_FEES = the sum of the latest 30 days of data",
    async (symbol) => {
      const expected = await rawSum(symbol, "FEES", 31, 2);
      expect(await call("AGG", [symbol, "FEES", "30D"])).toBeCloseTo(expected, 4);
      expect(await call("AGG", [symbol, "FEES", "30D", "SUM"])).toBeCloseTo(expected, 4);
      expect(await call("LATEST", [symbol, "L30_FEES"])).toBeCloseTo(expected, 4);
      const snapshot = (await call("SNAPSHOT", [symbol, "L30_FEES"])) as unknown[][];
      expect(snapshot[1][1]).toBeCloseTo(expected, 4);
      // A rolling sum's last value is the same sum.
      expect(await call("AGG", [symbol, "L30_FEES", "7D", "LAST"])).toBeCloseTo(expected, 4);
    },
  );

  it("show=date, show=start and show=days say which days: the latest 30 days of data, all 30 with data", async () => {
    expect(await call("AGG", ["eth", "FEES", "30D", null, null, "show=date"])).toBe(serial(isoDaysAgo(2)));
    expect(await call("AGG", ["eth", "FEES", "30D", null, null, "show=start"])).toBe(serial(isoDaysAgo(31)));
    expect(await call("AGG", ["eth", "FEES", "30D", null, null, "show=days"])).toBe(30);
    expect(await call("LATEST", ["eth", "L30_FEES", null, "show=date"])).toBe(serial(isoDaysAgo(2)));
  });

  it("MD.ASSET's 30-day fees are the same sum, and the card names the window's days", async () => {
    const bundle = world.load({ requirements: EXCEL_1_19 });
    const expected = await rawSum("eth", "FEES", 31, 2);
    const card = ((await call("ASSET", ["eth"], bundle)) as unknown[][])[0][0] as {
      properties: Record<string, { basicValue: number; propertyMetadata?: { sublabel?: string } }>;
    };
    const fees = card.properties["Fees 30D"];
    expect(fees.basicValue).toBeCloseTo(expected, 4);
    expect(fees.propertyMetadata?.sublabel).toBe(`sum over 30D, ${isoDaysAgo(31)} to ${isoDaysAgo(2)}`);
    expect(card.properties["Fees 30D date"].basicValue).toBe(serial(isoDaysAgo(2)));
  });
});

describe("requests stay shared", () => {
  // Every 10th answer empty (and retried) would blur the count: off for this block.
  beforeAll(() => world.sandbox.setRealistic({ emptyBodyEvery: 0 }));
  afterAll(() => world.sandbox.setRealistic(true));

  it("ten chains' MD.AGG 30D, MD.LATEST L30_FEES and MD.SNAPSHOT L30_FEES cells, recalculated together, send one series request", async () => {
    const chains = ["eth", "sol", "bnb", "trx", "base", "arb", "op", "pol", "avax", "sui"];
    const bundle = world.load();
    const before = requestsTo(world.sandbox, "/data/api/");
    const cells = await Promise.all([
      ...chains.map((chain) => bundle.call("AGG", [chain, "FEES", "30D", "SUM"])),
      ...chains.map((chain) => bundle.call("LATEST", [chain, "L30_FEES"])),
      ...chains.map((chain) => bundle.call("AGG", [chain, "FEES", "30D", "SUM", null, "show=date"])),
      bundle.call("SNAPSHOT", [chains.join(","), "L30_FEES"]),
    ]);
    const requests = requestsTo(world.sandbox, "/data/api/") - before;
    console.log(`${cells.length} cells over ten chains' 30-day fees: ${requests} series request(s)`);
    expect(cells.slice(0, 10)).toEqual(cells.slice(10, 20));
    expect(requests).toBe(1);
  });
});

describe("as_of given: the calendar window, whatever it holds", () => {
  it("ending today: 30 calendar days, 28 of them with data", async () => {
    const expected = await rawSum("eth", "FEES", 29, 2);
    expect(await call("AGG", ["eth", "FEES", "30D", "SUM", "TODAY"])).toBeCloseTo(expected, 4);
    expect(await call("LATEST", ["eth", "L30_FEES", "TODAY"])).toBeCloseTo(expected, 4);
    expect(await call("AGG", ["eth", "FEES", "30D", "SUM", "TODAY", "show=start"])).toBe(serial(isoDaysAgo(29)));
    expect(await call("AGG", ["eth", "FEES", "30D", "SUM", "TODAY", "show=date"])).toBe(serial(isoDaysAgo(0)));
    expect(await call("AGG", ["eth", "FEES", "30D", "SUM", "TODAY", "show=days"])).toBe(28);
  });

  it("ending on a settled day: exactly that day's window", async () => {
    const asOf = isoDaysAgo(10);
    expect(await call("AGG", ["sol", "FEES", "7D", "SUM", asOf])).toBeCloseTo(await rawSum("sol", "FEES", 16, 10), 4);
    expect(await call("LATEST", ["sol", "L7_FEES", asOf])).toBeCloseTo(await rawSum("sol", "FEES", 16, 10), 4);
    expect(await call("AGG", ["sol", "FEES", "7D", "SUM", asOf, "show=days"])).toBe(7);
  });

  it("MD.ASSET's card says a window ending today misses two days", async () => {
    const bundle = world.load({ requirements: EXCEL_1_19 });
    const card = ((await call("ASSET", ["eth", "TODAY"], bundle)) as unknown[][])[0][0] as {
      properties: Record<string, { propertyMetadata?: { sublabel?: string } }>;
    };
    expect(card.properties["Fees 30D"].propertyMetadata?.sublabel).toBe(
      `sum over 30D, ${isoDaysAgo(29)} to ${isoDaysAgo(0)}; 28 of 30 days have data`,
    );
  });
});

/** A value without the provenance properties it carries at ExcelApi 1.19 (those: test/bundle/provenance.test.ts). */
function bare(value: unknown): unknown {
  if (value === null || typeof value !== "object" || !("properties" in value)) return value;
  const { properties: _properties, ...rest } = value as Record<string, unknown>;
  return rest;
}

describe("the date of a single value, as the cell holds it", () => {
  it("where the host formats cells: a date serial formatted as MD.SERIES formats its dates", async () => {
    const bundle = world.load({ requirements: EXCEL_1_19 });
    const seriesDate = (
      (await call("SERIES", ["eth", "PRICE", isoDaysAgo(3), isoDaysAgo(2)], bundle)) as unknown[][]
    )[2][0];
    const dateFormat = (seriesDate as { numberFormat: string }).numberFormat;
    expect(seriesDate).toEqual(formatted(serial(isoDaysAgo(2)), dateFormat));

    expect(bare(await call("LATEST", ["eth", "PRICE", null, "show=date"], bundle))).toEqual(seriesDate);
    expect(bare(await call("AGG", ["eth", "FEES", "30D", null, null, "show=date"], bundle))).toEqual(seriesDate);
    expect(bare(await call("AGG", ["eth", "FEES", "30D", null, null, "show=start"], bundle))).toEqual(
      formatted(serial(isoDaysAgo(31)), dateFormat),
    );
    // A count of days is a number without a format (at 1.19 a double that carries its provenance).
    expect(bare(await call("AGG", ["eth", "FEES", "30D", null, null, "show=days"], bundle))).toEqual({
      type: "Double",
      basicValue: 30,
    });
    // Without the option: the value, formatted in its unit, as before.
    const price = await call("LATEST", ["eth", "PRICE"], bundle);
    expect(bare(price)).toEqual(bare(await call("LATEST", ["eth", "PRICE", null, "show=value"], bundle)));
    expect((price as { basicValue: number }).basicValue).toBe(
      (await rawPoints(plain, "eth", "PRICE", { startDate: isoDaysAgo(2), endDate: isoDaysAgo(2) }))[0].val,
    );

    const table = (await call("SNAPSHOT", ["eth, sol", "PRICE, L30_FEES", null, "dates=true"], bundle)) as unknown[][];
    expect(table[0]).toEqual(["Symbol", "PRICE", "PRICE date", "L30_FEES", "L30_FEES date"]);
    for (const [r, symbol] of [
      [1, "eth"],
      [2, "sol"],
    ] as const) {
      expect(table[r].map(bare)).toEqual([
        symbol,
        bare(await call("LATEST", [symbol, "PRICE"], bundle)),
        seriesDate,
        bare(await call("LATEST", [symbol, "L30_FEES"], bundle)),
        seriesDate,
      ]);
    }
  });

  it("MD.SNAPSHOT dates=true with transpose: a date row after each metric; a pair without data has its #N/A in both", async () => {
    const table = (await call("SNAPSHOT", [
      "eth, base",
      "PRICE",
      "2024-06-28",
      "dates=true; transpose=true",
    ])) as unknown[][];
    expect(table[0]).toEqual(["Symbol", "eth", "base"]);
    expect(table[1][0]).toBe("PRICE");
    expect(table[1][1]).toBe(await call("LATEST", ["eth", "PRICE", "2024-06-28"]));
    expect(table[2].slice(0, 2)).toEqual(["PRICE date", serial("2024-06-28")]);
    const missing = [table[1][2], table[2][2]];
    for (const cell of missing) {
      expect(isExcelError(cell)).toBe(true);
      expect((cell as { code: string }).code).toBe("#N/A");
    }
  });

  it("where the host does not format cells: the plain serial", async () => {
    expect(await call("LATEST", ["eth", "PRICE", "2024-06-28", "show=date"])).toBe(serial("2024-06-28"));
    expect(await call("LATEST", ["eq-coin", "TOTAL_REVENUE", "2024-06-28", "show=date"])).toBe(serial("2024-03-31"));
  });
});

describe("bad options are #VALUE! naming the cause", () => {
  it.each<[string, unknown[], string]>([
    [
      "LATEST",
      ["eth", "PRICE", null, "show=when"],
      'options: show="when" is not accepted. Use show=value or show=date.',
    ],
    [
      "LATEST",
      ["eth", "PRICE", null, "dates=true"],
      'options: "dates" is not an option here. Use show, written as "key=value; key=value".',
    ],
    [
      "AGG",
      ["eth", "FEES", "30D", null, null, "show=end"],
      'options: show="end" is not accepted. Use show=value, show=date, show=start or show=days.',
    ],
    [
      "AGG",
      ["eq-coin", "TOTAL_REVENUE", "LTM", null, null, "show=days"],
      "options: show=days counts days; TOTAL_REVENUE is read per quarter.",
    ],
    [
      "SNAPSHOT",
      ["eth", "PRICE", null, "dates=maybe"],
      'options: dates="maybe" is not accepted. Use dates=true or dates=false (also yes/no, 1/0).',
    ],
  ])("MD.%s(%j)", async (id, args, message) => {
    const cell = await call(id, args);
    expect(isExcelError(cell)).toBe(true);
    expect(cell).toMatchObject({ code: "#VALUE!", message });
  });
});
