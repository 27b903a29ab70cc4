/**
 * No raw exception and a bounded cost, through the built dist/functions.js against the
 * sandbox's hostile switches: each cell's exact outcome for a series answer of
 * 150,000 and 1,000,000 points (once a stack overflow), an insight field
 * nested 20,000 deep, an as_of or end of 9999-12-31 (serial 2958465, once
 * "+010000-01" is not a date), and what one MD.AGG(…,"-1900Y") cell costs
 * against a service with data for any date. None is "Unexpected error".
 */
import { cellValue, isExcelError } from "../../harness/bundle";
import { isoDaysAgo, requestsTo, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

const { load, sandbox } = useBundle({ quiet: true, insightFirstCallDelayMs: 10 });
beforeEach(() => sandbox.reset());

const LAST_EXCEL_DAY = 2958465;

function describeCell(value: unknown): unknown {
  return isExcelError(value) ? { code: value.code, message: value.message } : value;
}

describe("a series answer far larger than any window (bigSeries: N daily points from the start asked, valued 1, 2, 3…)", () => {
  it.each([150_000, 1_000_000])(
    "%i points: MD.LATEST is the value on today, the point 30 days into its 30-day look",
    async (points) => {
      sandbox.setHostile({ bigSeries: points });
      // MD.LATEST asks today − 30 days … today: today is the 31st point.
      expect(describeCell(await cellValue(load(), "LATEST", ["eth", "PRICE"]))).toBe(31);
    },
    60_000,
  );

  it("150,000 points: MD.AGG sums the window's 30 days (8 + … + 37), MD.SERIES shows the window's 10 days", async () => {
    sandbox.setHostile({ bigSeries: 150_000 });
    // MD.AGG asks from 7 days before the window (room for unsettled days): today's point is the 37th, valued 37.
    expect(describeCell(await cellValue(load(), "AGG", ["eth", "FEES", "30D", "SUM"]))).toBe(675);
    const table = describeCell(await cellValue(load(), "SERIES", ["eth", "PRICE", "-10D"])) as unknown[][];
    expect(table.slice(0, 11)).toEqual([
      ["Date", "eth PRICE"],
      ...Array.from({ length: 10 }, (_, i) => [serial(isoDaysAgo(9 - i)), i + 1]),
    ]);
    // Only the window's 10 days: the 149,990 points the service sent after it are dropped and counted.
    expect(table).toHaveLength(11);
    expect(describeCell(await cellValue(load(), "SNAPSHOT", ["eth, sol", "PRICE"]))).toEqual([
      ["Symbol", "PRICE"],
      ["eth", 31],
      ["sol", 31],
    ]);
  }, 60_000);
});

it("an insight field nested 20,000 deep: MD.INSIGHTS is #N/A saying the answer was refused", async () => {
  sandbox.setHostile({ deepInsights: 20_000 });
  expect(describeCell(await cellValue(load(), "INSIGHTS", ["STREAKS"]))).toEqual({
    code: "#N/A",
    message: `The market-data service sent an answer nested more than 64 levels deep (${sandbox.url}/insights/streaks/); no answer it describes is, so it was refused. To try again, use Refresh all (Data tab ▸ Market Data) or re-enter the formula.`,
  });
});

describe("9999-12-31 (serial 2958465), Excel's last day", () => {
  it.each<[string, unknown[], unknown[]]>([
    ["MD.LATEST", ["eth", "PRICE", LAST_EXCEL_DAY], ["eth", "PRICE"]],
    ["MD.LATEST", ["eth", "PRICE", "9999-12-31"], ["eth", "PRICE"]],
    ["MD.AGG", ["eth", "FEES", "30D", "SUM", LAST_EXCEL_DAY], ["eth", "FEES", "30D", "SUM"]],
    ["MD.SNAPSHOT", ["eth, sol", "PRICE", LAST_EXCEL_DAY], ["eth, sol", "PRICE"]],
    ["MD.SERIES", ["eth", "PRICE", "-5D", LAST_EXCEL_DAY], ["eth", "PRICE", "-5D"]],
    ["MD.SUPPLY", ["usdc-eth", "-1M", LAST_EXCEL_DAY], ["usdc-eth", "-1M"]],
    ["MD.FLOWS", ["ethereum", "-7D", LAST_EXCEL_DAY], ["ethereum", "-7D"]],
  ])("as an end or as_of in %s it is today: the same cell as with none", async (name, args, same) => {
    const id = name.slice(3);
    const bundle = load();
    const expected = await cellValue(bundle, id, same);
    expect(isExcelError(expected)).toBe(false);
    expect(describeCell(await cellValue(bundle, id, args))).toEqual(expected);
  });

  it.each<[string, unknown[]]>([
    ["SUPPLY", ["usdc-eth", LAST_EXCEL_DAY]],
    ["SERIES", ["eth", "PRICE", LAST_EXCEL_DAY]],
    ["FLOWS", ["ethereum", "9999-12-31", LAST_EXCEL_DAY]],
  ])("as a start in MD.%s it is #VALUE! naming today, before any request", async (id, args) => {
    const value = describeCell(await cellValue(load(), id, args));
    expect(value).toEqual({
      code: "#VALUE!",
      message: `start: 9999-12-31 is after today (${isoDaysAgo(0)}): no data is dated after today.`,
    });
    expect(requestsTo(sandbox, "/data/api/") + requestsTo(sandbox, "/flows/top/")).toBe(0);
  });
});

it('MD.AGG(…,"-1900Y") against a service with data for any date: read from 2009-01-03, at most 12 requests', async () => {
  sandbox.setHostile({ dataEverywhere: true });
  const value = await cellValue(load(), "AGG", ["eth", "FEES", "-1900Y", "SUM"]);
  // One point valued 1 a day from 2009-01-03 (Bitcoin's first block) to today.
  const days = (Date.parse(`${isoDaysAgo(0)}T00:00:00Z`) - Date.parse("2009-01-03T00:00:00Z")) / 86_400_000 + 1;
  expect(value).toBe(days);
  expect(requestsTo(sandbox, "/data/api/")).toBe(Math.ceil(days / 1000));
  expect(requestsTo(sandbox, "/data/api/")).toBeLessThanOrEqual(12);
});
