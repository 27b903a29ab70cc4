/**
 * One meaning per date text: a relative start covers exactly N periods ending
 * on the end date, both ends included, in every function — so a -30D daily
 * series has 30 rows and sums to the -30D aggregate.
 */
import { rawGet, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

const { sandbox, bundle } = useBundle({ quiet: true });

const DAY_MS = 86_400_000;
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;

// Worked out by hand (calendar facts, not the add-in's code): the first day each text covers.
const CASES: [text: string, end: string, first: string][] = [
  ["-30D", "2024-06-30", "2024-06-01"],
  ["-30D", "2024-03-10", "2024-02-10"],
  ["-12W", "2024-06-30", "2024-04-08"],
  ["-6M", "2024-06-30", "2024-01-01"],
  ["-6M", "2024-05-10", "2023-11-11"],
  ["-2Q", "2024-06-30", "2024-01-01"],
  ["-1M", "2024-02-29", "2024-02-01"],
  ["-1Y", "2024-02-29", "2023-03-01"],
];

describe("a relative start covers N periods ending on the end date, inclusive", () => {
  it.each(CASES)(
    "MD.SERIES %s ending %s starts %s, one row per day, and sums to MD.AGG's %s",
    async (text, end, first) => {
      const table = (await bundle.call("SERIES", ["eth", "FEES", text, end])) as unknown[][];
      expect(table[1][0]).toBe(serial(first));
      expect(table[table.length - 1][0]).toBe(serial(end));
      expect(table.length - 1).toBe(days(first, end));
      const sum = table.slice(1).reduce((total, row) => total + (row[1] as number), 0);
      expect(await bundle.call("AGG", ["eth", "FEES", text, "SUM", end])).toBeCloseTo(sum, 4);
    },
  );

  it("-30D is 30 rows and SUM(MD.SERIES) = MD.AGG, ending today", async () => {
    const table = (await bundle.call("SERIES", ["sol", "FEES", "-30D"])) as unknown[][];
    expect(table).toHaveLength(1 + 30);
    const sum = table.slice(1).reduce((total, row) => total + (row[1] as number), 0);
    expect(await bundle.call("AGG", ["sol", "FEES", "-30D"])).toBeCloseTo(sum, 4);
  });

  it("MD.FLOWS -30D totals the same 30 days", async () => {
    const table = (await bundle.call("FLOWS", ["ethereum", "-30D", "2024-06-30", null, "INFLOW"])) as unknown[][];
    const raw = await rawGet<{ inflow: Record<string, number> }>(sandbox, "/flows/top/", {
      sourceChains: "ethereum",
      startDate: "2024-06-01",
      endDate: "2024-06-30",
      breakdown: "chains",
      flowType: "inflow",
    });
    expect(table[1]).toEqual(["ethereum", raw.inflow.ethereum]);
  });

  it("MD.SUPPLY -7D is seven dates", async () => {
    const table = (await bundle.call("SUPPLY", ["usdc", "-7D", "2024-06-30"])) as unknown[][];
    expect(table.slice(1).map((row) => row[0])).toEqual(
      Array.from({ length: 7 }, (_, i) => serial(isoOf(Date.parse("2024-06-24") + i * DAY_MS))),
    );
  });

  it("a start of zero periods is refused", async () => {
    const value = await bundle.call("SERIES", ["eth", "FEES", "-0D"]).catch((error: unknown) => error);
    expect((value as { code?: string }).code).toBe("#VALUE!");
    expect((value as Error).message).toMatch(/^start: "-0D" covers no day/);
  });
});
