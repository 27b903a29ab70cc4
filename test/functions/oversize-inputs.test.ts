/**
 * Oversize inputs are refused with a message, never a stack overflow or a
 * request storm: a whole-column options range, more series than a worksheet
 * has columns, a transposed table wider than 16,384 columns, a whole column of
 * symbols where one is expected. The same through the built bundle:
 * test/bundle/real-service.test.ts.
 */
import { ArgumentError, ResultTooLargeError } from "../../src/core/errors";
import { parseOptions, MAX_OPTION_ROWS } from "../../src/core/options";
import { SERIES_OPTIONS } from "../../src/core/series-table";
import { latestValue } from "../../src/functions/latest";
import { seriesTable } from "../../src/functions/series";
import { fakeContext } from "../support/fake-client";

const WHOLE_COLUMN = 1_048_576;

describe("oversize inputs", () => {
  it("a whole-column options range is refused with a message (it overflowed the stack before)", () => {
    const range = Array.from({ length: WHOLE_COLUMN }, (_, i) => (i === 0 ? ["headers", false] : [null, null]));
    expect(() => parseOptions(range, SERIES_OPTIONS)).toThrow(ArgumentError);
    expect(() => parseOptions(range, SERIES_OPTIONS)).toThrow(
      `options: a range of 1,048,576 rows is too large for options. Select only the cells that hold them (at most ${MAX_OPTION_ROWS.toLocaleString("en-US")} rows), or write "key=value; key=value".`,
    );
  });

  it("an options range of up to 1,000 rows still works", () => {
    const range = Array.from({ length: MAX_OPTION_ROWS }, (_, i) => (i === 3 ? ["order", "desc"] : [null, null]));
    expect(parseOptions(range, SERIES_OPTIONS).order).toBe("desc");
  });

  it("MD.SERIES with a whole-column options range sends nothing", async () => {
    const ctx = fakeContext();
    const options = Array.from({ length: WHOLE_COLUMN }, (_, i) => (i === 0 ? ["headers", false] : [null, null]));
    await expect(seriesTable(ctx, { symbols: "eth", metrics: "PRICE", start: "-7D", options })).rejects.toThrow(
      /too large for options/,
    );
    expect(ctx.client.seriesCalls).toHaveLength(0);
  });

  it.each([
    ["a window", "-7D"],
    ["no start (the whole history)", null],
  ])("more series than a worksheet has columns are refused before any request, with %s", async (_name, start) => {
    const ctx = fakeContext();
    const symbols = Array.from({ length: 20_000 }, (_, i) => [`sbx${String(i + 1).padStart(5, "0")}`]);
    const refusal = seriesTable(ctx, { symbols, metrics: "PRICE", start });
    await expect(refusal).rejects.toThrow(ResultTooLargeError);
    await expect(refusal).rejects.toThrow(/20,001 columns wide, more than a worksheet's 16,384/);
    expect(ctx.client.seriesCalls).toHaveLength(0);
  });

  it("a transposed table wider than 16,384 columns is refused (dates across)", async () => {
    const ctx = fakeContext();
    await expect(
      seriesTable(ctx, { symbols: "eth", metrics: "PRICE", start: "1970-01-01", options: "transpose=true" }),
    ).rejects.toThrow(/columns wide, more than a worksheet's 16,384/);
    expect(ctx.client.seriesCalls).toHaveLength(0);
  });

  it("a whole column of symbols where one is expected names a few, not all", async () => {
    const ctx = fakeContext();
    const symbols = Array.from({ length: WHOLE_COLUMN }, (_, i) => [i < 3000 ? `s${i}` : null]);
    await expect(latestValue(ctx, { symbol: symbols, metric: "PRICE" })).rejects.toThrow(
      "symbol: takes one symbol, got 3000 (s0, s1, s2, s3, s4, …).",
    );
  });
});
