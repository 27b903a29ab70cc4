import { errorCell } from "../../src/core/cell";
import { ResultTooLargeError } from "../../src/core/errors";
import { parseOptions } from "../../src/core/options";
import {
  assertSnapshotFits,
  shapeSnapshotTable,
  SNAPSHOT_OPTIONS,
  snapshotCells,
  snapshotColumns,
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

  // Each metric followed by its dates; a pair without data has its error in both.
  const dates = [
    [101, 102],
    [NA, 104],
    [105, 106],
  ];
  it.each([
    [
      "dates=true",
      [
        ["Symbol", "PRICE", "PRICE date", "L30_FEES", "L30_FEES date"],
        ["eth", 1, 101, 2, 102],
        ["base", NA, NA, 4, 104],
        ["sol", 5, 105, 6, 106],
      ],
    ],
    [
      "dates=true; headers=false",
      [
        [1, 101, 2, 102],
        [NA, NA, 4, 104],
        [5, 105, 6, 106],
      ],
    ],
    [
      "dates=true; transpose=true",
      [
        ["Symbol", "eth", "base", "sol"],
        ["PRICE", 1, NA, 5],
        ["PRICE date", 101, NA, 105],
        ["L30_FEES", 2, 4, 6],
        ["L30_FEES date", 102, 104, 106],
      ],
    ],
  ])("%s", (text, expected) => {
    const options = opts(text);
    const rows = shapeSnapshotTable(
      symbols,
      snapshotColumns(metrics, options),
      snapshotCells(cells, dates, options),
      options,
    );
    expect(rows).toEqual(expected);
    rows.forEach((row, r) =>
      row.forEach((cell, c) => {
        const pair = snapshotPairAt(options, r, c);
        if (!pair) expect(typeof cell).toBe("string");
        else expect(cell).toBe((pair.date ? dates : cells)[pair.symbol][pair.metric]);
      }),
    );
  });

  it("dates=true doubles the columns a grid needs", () => {
    expect(() => assertSnapshotFits(1, 10_000, opts("dates=true"))).toThrow(ResultTooLargeError);
    expect(() => assertSnapshotFits(1, 10_000, opts(null))).not.toThrow();
  });
});
