/**
 * Catalogs never wait on series: MD.ASSETS reads each asset's kind from series
 * requests, but answers in catalog time whatever the series endpoint does. With
 * every series body never ending (the sandbox's endlessBody switch), the
 * catalog still answers, its kind column blank where unknown (equities keep
 * theirs: their kind is their prefix).
 */
import { cellValue, isExcelError } from "../../harness/bundle";
import { useBundle } from "../support/bundle";
import { rawGet } from "../support/raw-sandbox";

const { sandbox, load } = useBundle({ quiet: true, hostile: { endlessBody: ["/data/api/"] } });

/** The value, or "no answer" once `ms` have passed: the test waits with a bound rather than timing the call. */
function within<T>(work: Promise<T>, ms: number): Promise<T | "no answer"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    work,
    new Promise<"no answer">((resolve) => (timer = setTimeout(() => resolve("no answer"), ms))),
  ]).finally(() => clearTimeout(timer));
}

describe("MD.ASSETS while series bodies never end", () => {
  it.each([
    ["usd", null],
    ["eth", "CRYPTO"],
    [null, "ALL"],
  ])("MD.ASSETS(%p, %p) answers within 5 s, the kinds it could not read blank", async (search, type) => {
    const bundle = load();
    const cancel = new AbortController();
    const answer = await within(cellValue(bundle, "ASSETS", [search, type], { cancel: cancel.signal }), 5_000);
    // The kind lookups carry on in the background (for the next call); Excel closing the workbook ends them.
    cancel.abort();
    expect(isExcelError(answer)).toBe(false);
    expect(answer).not.toBe("no answer");
    const table = answer as string[][];
    expect(table[0]).toEqual(["platform_id", "symbol", "title", "aggregator_id", "color", "kind"]);
    const catalog = await rawGet<{ assets: { symbol: string }[] }>(sandbox, "/asset/symbols/");
    const known = new Set(catalog.assets.map((a) => a.symbol));
    expect(table.length).toBeGreaterThan(1);
    for (const row of table.slice(1)) {
      expect(known.has(row[1])).toBe(true);
      expect([row[1], row[5]]).toEqual([row[1], row[1].startsWith("eq-") ? "equity" : ""]);
    }
  });
});
