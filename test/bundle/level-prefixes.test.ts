/**
 * Artemis-style window prefixes (`L30_`, `LTM_` …) follow the metric's
 * aggregation_type in the metric catalog, through the built
 * dist/functions.js against the sandbox: a SUM metric is summed over the
 * window, an AVERAGE metric averaged, and a level (LAST) refused with a
 * #VALUE! naming MD.AGG's average and last, never a 30-day sum of levels.
 * The expected numbers come from the sandbox's raw series, read directly.
 */
import { cellValue, isExcelError } from "../../harness/bundle";
import { rawGet, rawSeries } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

const { sandbox, bundle } = useBundle({ quiet: true });
const AS_OF = "2024-06-28";
/** The 30 days ending on AS_OF. */
const WINDOW = { startDate: "2024-05-30", endDate: AS_OF };

const basic = (cell: unknown): unknown =>
  typeof cell === "object" && cell !== null && "basicValue" in cell
    ? (cell as { basicValue: unknown }).basicValue
    : cell;

async function rawDaily(symbol: string, metric: string): Promise<number[]> {
  const series = (await rawSeries(sandbox, [symbol], [metric], WINDOW))[symbol][metric];
  if (typeof series === "string") throw new Error(series);
  expect(series).toHaveLength(30);
  return series.map((point) => point.val);
}

async function aggregationType(symbol: string, metric: string): Promise<string> {
  const body = await rawGet<{ metrics: Record<string, { aggregation_type: string }>[] }>(
    sandbox,
    "/supported-metrics/",
    { symbol },
  );
  const entry = body.metrics.find((descriptor) => metric in descriptor);
  return entry![metric].aggregation_type;
}

const levelMessage = (symbol: string, base: string, window: string) =>
  `would add up daily levels of ${base}, whose aggregation_type is LAST. ` +
  `Use MD.AGG("${symbol}", "${base}", "${window}", "AVG") for its average over ${window}, ` +
  `or MD.AGG("${symbol}", "${base}", "${window}", "LAST") for its last value.`;

describe("a window prefix follows the metric catalog's aggregation_type", () => {
  it("the premise: the catalog says FEES is SUM, DAU AVERAGE, TVL and PRICE LAST", async () => {
    expect(await Promise.all(["FEES", "DAU", "TVL", "PRICE"].map((m) => aggregationType("eth", m)))).toEqual([
      "SUM",
      "AVERAGE",
      "LAST",
      "LAST",
    ]);
  });

  it("L30_FEES (SUM) is the 30 days' sum", async () => {
    const days = await rawDaily("eth", "FEES");
    const sum = days.reduce((s, v) => s + v, 0);
    expect(basic(await cellValue(bundle, "LATEST", ["eth", "L30_FEES", AS_OF]))).toBeCloseTo(sum, 2);
  });

  it("L30_DAU (AVERAGE) is the 30 days' average, equal to MD.AGG's AVG, not their sum", async () => {
    const days = await rawDaily("eth", "DAU");
    const average = days.reduce((s, v) => s + v, 0) / days.length;
    const cell = basic(await cellValue(bundle, "LATEST", ["eth", "L30_DAU", AS_OF]));
    expect(cell).toBeCloseTo(average, 6);
    expect(cell).toBeCloseTo(basic(await cellValue(bundle, "AGG", ["eth", "DAU", "30D", "AVG", AS_OF])) as number, 6);
    // MD.AGG over a prefixed AVERAGE metric: its LAST is the same 30-day average.
    expect(basic(await cellValue(bundle, "AGG", ["eth", "L30_DAU", "90D", "LAST", AS_OF]))).toBeCloseTo(average, 6);
  });

  it.each([
    ["LATEST", ["eth", "L30_TVL", AS_OF], "metric: L30_TVL", "eth", "TVL", "30D"],
    ["LATEST", ["eq-aapl", "L30_PRICE", AS_OF], "metric: L30_PRICE", "eq-aapl", "PRICE", "30D"],
    ["LATEST", ["eth", "YTD_TVL"], "metric: YTD_TVL", "eth", "TVL", "YTD"],
    ["AGG", ["eth", "L7_TVL", "90D", "MAX", AS_OF], "metric: L7_TVL", "eth", "TVL", "7D"],
  ])(
    "MD.%s(%j), a prefix on a level, is #VALUE! naming MD.AGG's AVG and LAST",
    async (id, args, start, symbol, base, window) => {
      const error = await cellValue(bundle, id, args);
      expect(isExcelError(error)).toBe(true);
      expect(error).toMatchObject({ code: "#VALUE!", message: `${start} ${levelMessage(symbol, base, window)}` });
    },
  );

  it("MD.SNAPSHOT: the level's column is #VALUE! cells saying so, the other columns fill", async () => {
    const table = (await bundle.call("SNAPSHOT", ["eth, sol", "L30_FEES, L30_TVL", AS_OF])) as unknown[][];
    expect(table[0]).toEqual(["Symbol", "L30_FEES", "L30_TVL"]);
    for (const [row, symbol] of [
      [1, "eth"],
      [2, "sol"],
    ] as const) {
      expect(typeof basic(table[row][1])).toBe("number");
      const cell = table[row][2];
      expect(isExcelError(cell)).toBe(true);
      expect(cell).toMatchObject({
        code: "#VALUE!",
        message: `metrics: L30_TVL ${levelMessage(symbol, "TVL", "30D")}`,
      });
    }
  });
});
