import { errorCell } from "../../src/core/cell";
import { ResultTooLargeError } from "../../src/core/errors";
import { parseOptions } from "../../src/core/options";
import {
  assertSnapshotFits,
  shapeSnapshotTable,
  SNAPSHOT_OPTIONS,
  snapshotPairAt,
} from "../../src/core/snapshot-table";

const NA = errorCell("#N/A", "base PRICE: Metric PRICE is not available for base");
const cells = [
  [1, 2],
  [NA, 4],
  [5, 6],
];
const symbols = ["eth", "base", "sol"];
const metrics = ["PRICE", "L30_FEES"];
const opts = (text: string | null) => parseOptions(text, SNAPSHOT_OPTIONS);

describe("snapshot table", () => {
  it.each([
    [
      null,
      [
        ["Symbol", "PRICE", "L30_FEES"],
        ["eth", 1, 2],
        ["base", NA, 4],
        ["sol", 5, 6],
      ],
    ],
    [
      "transpose=true",
      [
        ["Symbol", "eth", "base", "sol"],
        ["PRICE", 1, NA, 5],
        ["L30_FEES", 2, 4, 6],
      ],
    ],
    [
      "headers=false",
      [
        [1, 2],
        [NA, 4],
        [5, 6],
      ],
    ],
    [
      "headers=false; transpose=true",
      [
        [1, NA, 5],
        [2, 4, 6],
      ],
    ],
  ])("options %s", (text, expected) => {
    expect(shapeSnapshotTable(symbols, metrics, cells, opts(text))).toEqual(expected);
  });

  it("knows which pair each cell holds, in every layout", () => {
    for (const text of [null, "transpose=true", "headers=false", "headers=false; transpose=true"]) {
      const options = opts(text);
      const table = shapeSnapshotTable(symbols, metrics, cells, options);
      table.forEach((row, r) =>
        row.forEach((cell, c) => {
          const pair = snapshotPairAt(options, r, c);
          if (pair) expect(cell).toBe(cells[pair.symbol][pair.metric]);
          else expect(typeof cell).toBe("string");
        }),
      );
    }
  });

  it("refuses a grid Excel cannot take before anything is fetched", () => {
    expect(() => assertSnapshotFits(2_000_000, 1, opts(null))).toThrow(ResultTooLargeError);
    expect(() => assertSnapshotFits(200, 5, opts(null))).not.toThrow();
  });
});
