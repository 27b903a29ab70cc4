/**
 * The 5 MB guard counts what Excel receives, over the built bundle loaded as
 * an Excel with data types: a daily MD.SERIES of 40 prices over the sandbox's
 * whole history is under 1 MB as plain numbers and over 6 MB as formatted
 * numbers. It arrives as plain numbers, with a note (a console line, and the
 * runtime's call tracker, which the pane reads); a host without data types
 * gets the same numbers as always.
 */
import vm from "node:vm";
import type { LoadedBundle } from "../../harness/bundle";
import { useBundle } from "../support/bundle";

// Filler tokens ("sbx…") have prices: 40 columns of them.
const world = useBundle({ quiet: true, assetCount: 200 });
const LIMIT = 5 * 1024 * 1024;
const EXCEL_1_19 = { CustomFunctionsRuntime: "1.4", ExcelApi: "1.19" };

function load(requirements?: Record<string, string>): LoadedBundle {
  return world.load(requirements ? { requirements } : {});
}

/** The runtime functions.js registered in its page (src/office/runtime-registry.ts). */
function notesOf(bundle: LoadedBundle): string[] {
  const runtime = vm.runInContext('globalThis[Symbol.for("market-data.runtime")]', bundle.context) as {
    calls: { notes(): { text: string }[] };
  };
  return runtime.calls.notes().map((note) => note.text);
}

const SYMBOLS = Array.from({ length: 40 }, (_, i) => `sbx${String(i + 1).padStart(5, "0")}`).join(",");
const ARGS = [SYMBOLS, "PRICE", "2018-01-01", "2024-12-31"];

describe("a formatted MD.SERIES over the payload limit", () => {
  it("arrives as plain numbers within the limit, with a note that states both sizes", async () => {
    const formatted = load(EXCEL_1_19);
    const table = (await formatted.call("SERIES", ARGS)) as unknown[][];
    expect(table.length).toBe(1 + 2557);
    expect(table[0]).toHaveLength(41);
    // Every number plain: the formats dropped, the values the plain host gets.
    expect(table.slice(1).every((row) => row.every((cell) => typeof cell === "number"))).toBe(true);
    const sent = JSON.stringify(table).length;
    expect(sent).toBeLessThanOrEqual(LIMIT);
    // As formatted numbers, the same cells would have been over the limit.
    const asFormatted = JSON.stringify(
      table.map((row, r) =>
        r === 0 ? row : row.map((cell) => ({ type: "Double", basicValue: cell, numberFormat: "$#,##0.00" })),
      ),
    ).length;
    expect(asFormatted).toBeGreaterThan(LIMIT);

    const note =
      /^MD\.SERIES: the formatted result \(2,558 rows × 41 columns\) would reach Excel as about \d+\.\d MB, over its 5 MB limit for one formula, so it was sent as plain numbers \(about \d\.\d MB\) with its formats dropped/;
    expect(notesOf(formatted)).toEqual([expect.stringMatching(note)]);
    expect(formatted.console.filter((line) => line.level === "warn").map((line) => line.text)).toContainEqual(
      expect.stringMatching(/^\[Market Data\] MD\.SERIES: the formatted result/),
    );

    const plain = load();
    expect(await plain.call("SERIES", ARGS)).toEqual(table);
    expect(notesOf(plain)).toEqual([]);
  });

  it("a shorter window of the same series still arrives formatted, with no note", async () => {
    const formatted = load(EXCEL_1_19);
    const table = (await formatted.call("SERIES", [SYMBOLS, "PRICE", "2024-01-01", "2024-12-31"])) as unknown[][];
    expect(table[1][1]).toEqual(expect.objectContaining({ type: "Double", numberFormat: expect.any(String) }));
    expect(JSON.stringify(table).length).toBeLessThanOrEqual(LIMIT);
    expect(notesOf(formatted)).toEqual([]);
  });
});
