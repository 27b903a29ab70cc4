/**
 * MD.STATUS (issue 38, "a done signal"): the built bundle's streaming
 * function over the runtime's call records. With 1,000 MD.LATEST cells
 * calculating it moves from "Refreshing 1,000 of 1,000" to "Up to date …
 * · 1,000 cells" (show=PENDING: 1,000 → 0), reports cells that failed, and
 * sends no request of its own. Every wait is for the update it checks.
 */
import type { LoadedBundle } from "../../harness/bundle";
import { rawGet, requestsTo } from "../support/raw-sandbox";
import { useBundle } from "../support/bundle";

const { sandbox, load } = useBundle({ quiet: true, assetCount: 2000 });

/** A streaming cell: every value Excel was given, and a wait for the first that passes a test. */
class StreamedCell {
  readonly values: unknown[] = [];
  private waiting: { test: (value: unknown) => boolean; resolve: (value: unknown) => void }[] = [];
  readonly invocation = {
    functionName: "STATUS",
    address: "Sheet1!Z1",
    onCanceled: undefined as (() => void) | undefined,
    setResult: (value: unknown) => {
      this.values.push(value);
      this.waiting = this.waiting.filter((w) => (w.test(value) ? (w.resolve(value), false) : true));
    },
  };

  /** Resolves with the first value (already given or to come) that passes `test`; fails the test after 20 s. */
  until(test: (value: unknown) => boolean, what: string): Promise<unknown> {
    const seen = this.values.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`MD.STATUS never showed ${what}: ${JSON.stringify(this.values.slice(-5))}`)),
        20_000,
      );
      this.waiting.push({ test, resolve: (value) => (clearTimeout(timer), resolve(value)) });
    });
  }
}

function status(bundle: LoadedBundle, show: string | null = null): StreamedCell {
  const cell = new StreamedCell();
  const fn = bundle.registered.get("STATUS");
  if (!fn) throw new Error("the bundle did not associate STATUS");
  fn(show, cell.invocation);
  return cell;
}

async function symbols(count: number): Promise<string[]> {
  const assets = await rawGet<{ assets: { symbol: string }[] }>(sandbox, "/asset/symbols/");
  return assets.assets
    .filter((a) => !a.symbol.startsWith("eq-"))
    .slice(0, count)
    .map((a) => a.symbol);
}

/** 1,000 distinct MD.LATEST cells: 250 symbols × 4 dates. */
async function thousandCells(bundle: LoadedBundle): Promise<Promise<unknown>[]> {
  const names = await symbols(250);
  expect(names).toHaveLength(250);
  const dates = ["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"];
  return names.flatMap((symbol) => dates.map((date) => bundle.call("LATEST", [symbol, "PRICE", date])));
}

describe("MD.STATUS", () => {
  it("moves from pending to done as 1,000 cells settle, and says how many failed", async () => {
    const bundle = load();
    const text = status(bundle);
    const pending = status(bundle, "PENDING");
    await text.until((v) => v === "No MD cells yet", "no cells");
    const cells = await thousandCells(bundle);
    await pending.until((v) => v === 1000, "1,000 pending");
    await text.until((v) => v === "Refreshing 1,000 of 1,000", "all 1,000 refreshing");
    const settled = await Promise.allSettled(cells);
    await pending.until((v) => v === 0, "0 pending");
    // Some of the 250 symbols have no PRICE on those dates: those cells fail (#N/A), and the status says how many.
    const failures = settled.filter((outcome) => outcome.status === "rejected").length;
    const end = failures > 0 ? `${failures.toLocaleString("en-US")} failed · 1,000 cells` : "Up to date";
    const done = (await text.until((v) => String(v).startsWith(end), end)) as string;
    if (failures === 0) expect(done).toMatch(/^Up to date \d\d:\d\d · 1,000 cells$/);
    expect(failures).toBeLessThan(1000);
    // Pending only ever went down once the cells were all asked, and text and number agree on the way.
    const counts = pending.values.slice(pending.values.indexOf(1000)) as number[];
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (const value of text.values.filter((v) => String(v).startsWith("Refreshing")))
      expect(counts).toContain(Number(/^Refreshing ([\d,]+) of/.exec(String(value))![1].replace(/,/g, "")));
    expect(pending.values.length).toBeLessThan(1000); // updates gathered, not one per settled cell
  });

  it("reports the cells that failed, and as a number", async () => {
    const bundle = load();
    const text = status(bundle);
    const failed = status(bundle, "failed");
    await bundle.call("LATEST", ["eth", "PRICE", "2024-02-29"]);
    expect(await text.until((v) => String(v).startsWith("Up to date"), "up to date")).toMatch(
      /^Up to date \d\d:\d\d · 1 cell$/,
    );
    const cells = ["nosuchcoin1", "nosuchcoin2", "nosuchcoin3"].map((symbol) =>
      bundle.call("LATEST", [symbol, "PRICE"]),
    );
    cells.push(bundle.call("LATEST", ["eth", "PRICE", "2024-02-29"]));
    await Promise.allSettled(cells);
    expect(await text.until((v) => v === "3 failed · 4 cells", "3 failed")).toBe("3 failed · 4 cells");
    expect(await failed.until((v) => v === 3, "3")).toBe(3);
    // The same formula calculated again is one call: pending again, then done.
    await bundle.call("LATEST", ["eth", "PRICE", "2024-02-29"]);
    expect(await text.until((v) => v === "3 failed · 4 cells", "still 4 cells")).toBe("3 failed · 4 cells");
  });

  it("sends no request, is not a call a refresh waits on, and refuses an unknown option", async () => {
    const bundle = load();
    const before = requestsTo(sandbox, "/data/api/");
    const cells = status(bundle, "cells");
    expect(await cells.until((v) => v === 0, "0")).toBe(0);
    expect(requestsTo(sandbox, "/data/api/")).toBe(before);
    const counts = (await import("node:vm")).runInContext(
      'globalThis[Symbol.for("market-data.runtime")].calls.inFlight',
      bundle.context,
    ) as number;
    expect(counts).toBe(0);
    // Its argument read as the other functions read theirs: a data type gives its plain value.
    const asData = status(bundle, { type: "String", basicValue: "pending" } as unknown as string);
    expect(await asData.until((v) => v === 0, "0 pending")).toBe(0);
    const bad = status(bundle, "sometimes");
    const error = (await bad.until(() => true, "an error")) as { code?: string; message?: string };
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toContain("sometimes");
  });
});
