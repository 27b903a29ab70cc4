/**
 * The built dist/functions.js against the sandbox in its realistic mode (the
 * real service as real-service.md reports it), over real HTTP: unsettled
 * newest days are blank cells, never 0; MD.LATEST reads the last real value;
 * a sentence in place of a series is #N/A carrying the sentence; the whole
 * history comes in full (the walk, not 1,000 rows); oversize input is refused
 * with a message; the key appears nowhere. Expectations come from a
 * contract-true sandbox with the same seed (raw HTTP), not from the add-in's code.
 */
import { DEMO_API_KEY } from "../../sandbox/server";
import { SENTENCES } from "../../sandbox/realistic";
import { allText } from "../support/real-http";
import { cellValue, isExcelError } from "../../harness/bundle";
import { isoDaysAgo, rawPoints, serial } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";
import { useSandbox } from "../support/sandbox";

// "today" is the real date for both sandboxes and the bundle, as in functions.test.ts.
const { bundle } = useBundle({ quiet: true, realistic: true, insightFirstCallDelayMs: 10 });
const plain = useSandbox({ quiet: true, insightFirstCallDelayMs: 10 });
const results: unknown[] = [];

async function call(id: string, args: unknown[]): Promise<unknown> {
  const value = await cellValue(bundle, id, args);
  results.push(value);
  return value;
}

describe("the built functions against the realistic service", () => {
  it("MD.SERIES: today and yesterday, not final yet, are blank cells (never 0); the days before are the values", async () => {
    const start = isoDaysAgo(6);
    const table = (await call("SERIES", ["eth, sol", "PRICE", start, null, null, "days=all"])) as unknown[][];
    const [eth, sol] = await Promise.all(
      ["eth", "sol"].map((symbol) => rawPoints(plain, symbol, "PRICE", { startDate: start, endDate: isoDaysAgo(0) })),
    );
    expect(table[0]).toEqual(["Date", "eth PRICE", "sol PRICE"]);
    expect(table.slice(1)).toEqual(
      eth!.map((point, i) =>
        i >= eth!.length - 2 ? [serial(point.date), "", ""] : [serial(point.date), point.val, sol![i]!.val],
      ),
    );
  });

  it("MD.LATEST and MD.AGG use the last real value, two days back", async () => {
    const points = await rawPoints(plain, "eth", "PRICE", { startDate: isoDaysAgo(10), endDate: isoDaysAgo(0) });
    const settled = points[points.length - 3]!;
    expect(await call("LATEST", ["eth", "PRICE"])).toBe(settled.val);
    expect(await call("AGG", ["eth", "PRICE", "7D", "LAST"])).toBe(settled.val);
  });

  it("a sentence in place of a series is #N/A carrying the sentence", async () => {
    const value = await call("LATEST", ["base", "PRICE"]);
    expect(isExcelError(value)).toBe(true);
    expect((value as { code: string }).code).toBe("#N/A");
    expect((value as Error).message).toContain(SENTENCES.metricNotAvailable);
  });

  it("MD.SERIES without a start is the whole history, read window by window (not 1,000 rows)", async () => {
    const table = (await call("SERIES", ["eth", "PRICE", null, null, null, "days=all"])) as unknown[][];
    // The reference, read directly 900 days at a time (the service answers 1,000 points at most), from 2015 on.
    const reference: { date: string; val: number }[] = [];
    for (let from = Date.UTC(2015, 0, 1); from <= Date.now(); from += 900 * 86_400_000) {
      const startDate = new Date(from).toISOString().slice(0, 10);
      const endDate = new Date(Math.min(from + 899 * 86_400_000, Date.now())).toISOString().slice(0, 10);
      reference.push(...(await rawPoints(plain, "eth", "PRICE", { startDate, endDate })));
    }
    expect(reference.length).toBeGreaterThan(1000);
    expect(table.length - 1).toBe(reference.length);
    expect(table[1]![0]).toBe(serial(reference[0]!.date));
    expect(table.slice(1, -2).map((row) => row[1])).toEqual(reference.slice(0, -2).map((point) => point.val));
    expect(table.slice(-2).map((row) => row[1])).toEqual(["", ""]);
  });

  it("a whole-column options range is refused with a message", async () => {
    const column = Array.from({ length: 1_048_576 }, (_, i) => (i === 0 ? ["order", "desc"] : [null, null]));
    const value = await call("SERIES", ["eth", "PRICE", isoDaysAgo(30), null, null, column]);
    expect(isExcelError(value)).toBe(true);
    expect((value as Error).message).toMatch(/a range of 1,048,576 rows is too large for options/);
  });

  it("the key is nowhere: not in a cell, a message or the console", () => {
    const text = allText([results, bundle.console.map((line) => line.text)]);
    expect(text).not.toContain(DEMO_API_KEY);
    expect(text).not.toContain(encodeURIComponent(DEMO_API_KEY));
  });
});
