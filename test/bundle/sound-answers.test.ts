/**
 * Only sound data reaches a cell (DESIGN "Only sound data…"): the built
 * dist/functions.js against the sandbox's unsound-answer switches, over real
 * HTTP, with the persistent store on fake-indexeddb. Each mode's cells are
 * exact — the service's own values, minus what broke a rule — and a workbook
 * reopened (a new bundle over the same IndexedDB, the service sound again,
 * no request) shows the same table.
 */
import { IDBFactory } from "fake-indexeddb";
import { cellValue, isExcelError, type LoadedBundle } from "../../harness/bundle";
import type { HostileOptions } from "../../sandbox/server";
import { useBundle } from "../support/bundle";
import { rawPoints, requestsTo, serial } from "../support/raw-sandbox";

const { sandbox, load } = useBundle({ quiet: true, insightFirstCallDelayMs: 10 });
afterEach(() => sandbox.reset());

const WINDOW = { startDate: "2024-06-01", endDate: "2024-06-10" };
const SERIES = ["eth", "PRICE", WINDOW.startDate, WINDOW.endDate, null, "headers=false; days=all"];

function reopenable(factory: IDBFactory): LoadedBundle {
  return load({ globals: { indexedDB: factory } });
}

/** Lets the store's gathered writes reach IndexedDB (it writes 50 ms after the last answer). */
const written = () => new Promise((resolve) => setTimeout(resolve, 300));

describe("MD.SERIES and MD.LATEST against unsound answers, live and reopened", () => {
  it.each([
    ["a point dated 2099-01-01 outside the window: not shown", { outsideWindow: ["eth"] }, "outside"],
    ["the newest date sent twice: the last value sent is shown", { duplicateDates: ["eth"] }, "duplicate"],
    [
      '"NaN", "Infinity", 1e999, "-Infinity", "12.5" as values: those rows are not shown',
      { badValues: ["eth"] },
      "bad",
    ],
  ] as [string, Partial<HostileOptions>, "outside" | "duplicate" | "bad"][])("%s", async (_name, hostile, mode) => {
    const clean = await rawPoints(sandbox, "eth", "PRICE", WINDOW);
    expect(clean).toHaveLength(10);
    const newest = clean[clean.length - 1]!;
    const expected =
      mode === "outside"
        ? clean
        : mode === "duplicate"
          ? [...clean.slice(0, -1), { date: newest.date, val: newest.val + 1 }]
          : clean.filter((_, i) => i % 2 === 0);
    const table = expected.map((p) => [serial(p.date), p.val]);

    sandbox.setHostile(hostile);
    const factory = new IDBFactory();
    const live = reopenable(factory);
    expect(await cellValue(live, "SERIES", SERIES)).toEqual(table);
    if (mode !== "bad") {
      expect(await cellValue(live, "LATEST", ["eth", "PRICE", WINDOW.endDate])).toBe(
        expected[expected.length - 1]!.val,
      );
    }
    await written();

    sandbox.reset(); // a sound service again, and no request expected
    const reopened = reopenable(factory);
    expect(await cellValue(reopened, "SERIES", SERIES)).toEqual(table);
    expect(requestsTo(sandbox, "/data/api/")).toBe(0);
  });

  it("a series with no sound point left is an error cell that says why", async () => {
    sandbox.setHostile({ outsideWindow: ["eth"] });
    const value = await cellValue(load(), "SERIES", ["eth", "PRICE", "2010-01-01", "2010-01-31"]);
    expect(isExcelError(value)).toBe(true);
    expect({ code: (value as { code: string }).code, message: (value as Error).message }).toEqual({
      code: "#N/A",
      message:
        "The market-data service sent a malformed response: a point of eth/PRICE is dated 2099-01-01, outside the window asked for (2010-01-01 to 2010-01-31). To try again, use Refresh all (Data tab ▸ Market Data) or re-enter the formula.",
    });
  });
});
