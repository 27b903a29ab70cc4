/**
 * Property tests of table shaping (src/core/*-table.ts). Inputs are what the
 * client can deliver: arbitrary service bodies, written as JSON text, run
 * through the client's own validation (src/api/http/responses.ts); whatever
 * survives it is shaped. Every result must be a rectangular array of values
 * Excel can hold — finite numbers, text within Excel's cell limit, booleans,
 * the core's error cells — or a NoDataError / ResultTooLargeError. MD.SERIES's
 * table is also checked against an independent oracle: each value is the
 * last reading the body gave for that series and date.
 */
import fc from "fast-check";
import {
  parseAssetsResponse,
  parseFlowsResponse,
  parseInsightsResponse,
  parseMetricsResponse,
  parseSeriesResponse,
} from "../../src/api/http/responses";
import { BadResponseError } from "../../src/api/errors";
import type { FlowType, FlowsResult, SeriesResult } from "../../src/core/domain";
import { computeStat, type Stat } from "../../src/core/agg-stat";
import { type AssetKind, type AssetType, shapeAssetsTable } from "../../src/core/assets-table";
import { isErrorCell } from "../../src/core/cell";
import { NoDataError, ResultTooLargeError } from "../../src/core/errors";
import { isoToSerial, serialToIso } from "../../src/core/excel-date";
import { FLOWS_OPTIONS, shapeFlowsTable } from "../../src/core/flows-table";
import { shapeInsightsTable } from "../../src/core/insights-table";
import { shapeMetricsTable } from "../../src/core/metrics-table";
import { parseOptions } from "../../src/core/options";
import { SERIES_OPTIONS, type SeriesTableOptions, shapeSeriesTable } from "../../src/core/series-table";
import { shapeSupplyTable, SUPPLY_PARTS } from "../../src/core/supply-table";
import { anyText, excelIsoDate, isoOfDay, notATable, unholdable } from "../support/excel-values";

const RUNS = { numRuns: Number(process.env.MD_PROPERTY_RUNS ?? 300) };
const INFINITE = "__INFINITE__";
/** Longer than the 32,767 characters an Excel cell holds. */
const LONG_TEXT = `${"Long description. ".repeat(2000)}End`;

/** JSON text of a body, with the marker string turned into 1e999: valid JSON that parses to Infinity. */
function asServiceJson(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replaceAll(`"${INFINITE}"`, "1e999"));
}

/** Runs a shaper: its table, or null when it refused with one of the documented errors. */
function shaped(run: () => unknown): unknown[][] | null {
  try {
    return run() as unknown[][];
  } catch (error) {
    if (error instanceof NoDataError || error instanceof ResultTooLargeError) {
      expect(error.message.trim().length).toBeGreaterThan(0);
      return null;
    }
    throw new Error(`expected a table, a NoDataError or a ResultTooLargeError, got ${String(error)}`, { cause: error });
  }
}

/** The client's validation: its result, or null when it refused the body as malformed. */
function validated<T>(run: () => T): T | null {
  try {
    return run();
  } catch (error) {
    if (error instanceof BadResponseError) return null;
    throw new Error(`the client's validation threw ${String(error)}`, { cause: error });
  }
}

function expectTable(table: unknown[][] | null): void {
  if (table !== null) expect(notATable(table)).toBeNull();
}

// ------------------------------------------------------------------ values

/** Readings as a service may write them: plain numbers of any size, numeric text, null gaps, and 1e999. */
const wireValue = fc.oneof(
  { weight: 6, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 3, arbitrary: fc.double({ min: -1e12, max: 1e12, noNaN: true }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.constantFrom(null, INFINITE, "", "n/a", true) },
);

/** Dates as a service may write them: mostly in Excel's range, some before 1900, some impossible, some with a time. */
const wireDate = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.integer({ min: Date.UTC(2017, 0, 1) / 864e5, max: Date.UTC(2017, 3, 1) / 864e5 }).map(isoOfDay),
  },
  { weight: 2, arbitrary: excelIsoDate },
  {
    weight: 1,
    arbitrary: fc.integer({ min: Date.UTC(1000, 0, 1) / 864e5, max: Date.UTC(1899, 11, 31) / 864e5 }).map(isoOfDay),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("2017-02-30", "2017-13-01", "2017-00-10", "2017-01-01T00:00:00Z", "2017-1-1"),
  },
);

const wireSeries = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.record({ date: wireDate, val: wireValue }), { maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom("Metric PRICE is not available for base", "") },
  { weight: 1, arbitrary: fc.constantFrom(null, 42, {}) },
);

const seriesOptions: fc.Arbitrary<SeriesTableOptions> = fc
  .record({
    headers: fc.boolean(),
    dates: fc.boolean(),
    order: fc.constantFrom("asc", "desc"),
    fill: fc.constantFrom("blank", "prev", "na"),
    days: fc.constantFrom("all", "weekdays"),
    last: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
    transpose: fc.boolean(),
  })
  .map((o) =>
    parseOptions(
      Object.entries(o)
        .map(([k, v]) => [k, v === null ? "" : v])
        .filter(([, v]) => v !== ""),
      SERIES_OPTIONS,
    ),
  );

const SYMBOLS = ["eth", "btc", "sol"];
const METRICS = ["PRICE", "FEES"];

describe("table shaping: always a rectangular table of values Excel can hold, or a documented refusal", () => {
  it("MD.SERIES: any series body the client accepts shapes into a table whose values are the body's readings", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...SYMBOLS), fc.dictionary(fc.constantFrom(...METRICS), wireSeries), {
          maxKeys: 3,
        }),
        seriesOptions,
        (symbols, options) => {
          const body = asServiceJson({ data: { symbols } });
          const table = validated(() => parseSeriesResponse(body, SYMBOLS, METRICS));
          if (table === null) return;
          const columns: { header: string; result: SeriesResult }[] = [];
          for (const symbol of SYMBOLS)
            for (const metric of METRICS) {
              const result = table.get(symbol)!.get(metric)!;
              if (result instanceof BadResponseError) continue; // that column fails its callers alone
              columns.push({ header: `${symbol} ${metric}`, result });
            }
          fc.pre(columns.length > 0);
          const out = shaped(() => shapeSeriesTable(columns, options));
          expectTable(out);
          if (out === null || !options.dates || options.fill !== "blank") return;

          // Back to one row per date, dates first, headers dropped.
          let rows = options.transpose ? out[0]!.map((_, c) => out.map((row) => row[c])) : out;
          if (options.headers) rows = rows.slice(1);
          // A date is its Excel serial, or its own text when Excel cannot hold it (before 1900).
          const dates = rows.map((row) => (typeof row[0] === "number" ? serialToIso(row[0]) : row[0]));
          for (const d of dates)
            expect(typeof d === "string" && (d >= "1900-01-01" || /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
          const sorted = [...(dates as string[])].sort();
          expect(dates).toEqual(options.order === "asc" ? sorted : sorted.reverse());
          expect(new Set(dates).size).toBe(dates.length);
          columns.forEach((column, c) => {
            const byDate = new Map<string, number | null>();
            if (column.result.kind === "points") for (const p of column.result.points) byDate.set(p.date, p.val);
            rows.forEach((row, r) => {
              const expected = byDate.get(dates[r] as string);
              const cell = row[c + 1];
              if (column.result.kind === "message") expect(isErrorCell(cell)).toBe(true);
              else expect(cell).toBe(expected ?? "");
            });
          });
        },
      ),
      RUNS,
    );
  });

  it("MD.SUPPLY: five supply series shape into the seven-column table", () => {
    fc.assert(
      fc.property(fc.array(wireSeries, { minLength: 5, maxLength: 5 }), (series) => {
        const metrics = SUPPLY_PARTS.map((p) => p.metric);
        const body = asServiceJson({
          data: { symbols: { usdc: Object.fromEntries(metrics.map((m, i) => [m, series[i]])) } },
        });
        const table = validated(() => parseSeriesResponse(body, ["usdc"], metrics));
        if (table === null) return;
        const results = SUPPLY_PARTS.map((p) => table.get("usdc")!.get(p.metric)!);
        fc.pre(results.every((r) => !(r instanceof BadResponseError)));
        const parts = Object.fromEntries(SUPPLY_PARTS.map((p, i) => [p.key, results[i] as SeriesResult]));
        const out = shaped(() => shapeSupplyTable("usdc", parts as Parameters<typeof shapeSupplyTable>[1]));
        expectTable(out);
        if (out) expect(out[0]).toHaveLength(7);
      }),
      RUNS,
    );
  });

  it("MD.FLOWS: any flows body shapes into chains × flow types", () => {
    const flowTypes: FlowType[] = ["netflow", "inflow", "outflow"];
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.oneof(anyText, fc.constant(LONG_TEXT)), wireValue, { maxKeys: 8 }), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.subarray(flowTypes, { minLength: 1 }),
        fc.record({ headers: fc.boolean(), top: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }) }),
        (bodies, types, options) => {
          const result: FlowsResult = {};
          for (const [i, type] of types.entries()) {
            const values = validated(() => parseFlowsResponse(asServiceJson({ [type]: bodies[i] }), type));
            if (values === null) return;
            result[type] = values;
          }
          const parsedOptions = parseOptions(
            [["headers", options.headers], ...(options.top === null ? [] : [["top", options.top]])],
            FLOWS_OPTIONS,
          );
          expectTable(shaped(() => shapeFlowsTable(result, types, parsedOptions)));
        },
      ),
      RUNS,
    );
  });

  /** Catalog text: ordinary words, hostile markup, and the odd value longer than an Excel cell takes. */
  const catalogText = fc.oneof(
    { weight: 8, arbitrary: anyText },
    { weight: 1, arbitrary: fc.constantFrom("<img src=x onerror=alert(1)>", '=HYPERLINK("http://x")', "\u202eevil") },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant(LONG_TEXT) },
  );

  it("MD.ASSETS: any catalog body shapes into the six-column table", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record(
            {
              platform_id: catalogText,
              symbol: catalogText,
              title: catalogText,
              aggregator_id: catalogText,
              color: catalogText,
            },
            { requiredKeys: [] },
          ),
          { maxLength: 20 },
        ),
        anyText,
        fc.constantFrom<AssetType>("ALL", "CRYPTO", "EQUITY", "CHAIN", "TOKEN", "STABLECOIN", "CATEGORY"),
        fc.constantFrom<AssetKind>("chain", "token", "stablecoin", "category"),
        (assets, search, type, kind) => {
          const parsed = validated(() => parseAssetsResponse(asServiceJson({ assets })));
          if (parsed === null) return;
          const kinds = new Map(parsed.assets.map((asset) => [asset.symbol, kind]));
          const out = shaped(() => shapeAssetsTable(parsed.assets, search, type, kinds));
          expectTable(out);
          if (out) expect(out[0]).toHaveLength(6);
        },
      ),
      RUNS,
    );
  });

  it("MD.METRICS: any metric catalog body shapes into the six-column table", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.dictionary(
            fc.constantFrom("PRICE", "FEES", "TVL", "__proto__", "x y"),
            fc.record(
              {
                label: catalogText,
                unit: catalogText,
                description: catalogText,
                aggregation_type: catalogText,
                source: catalogText,
              },
              { requiredKeys: [] },
            ),
            { maxKeys: 3 },
          ),
          { maxLength: 6 },
        ),
        anyText,
        (metrics, search) => {
          const descriptors = validated(() => parseMetricsResponse(asServiceJson({ metrics })));
          if (descriptors === null) return;
          const out = shaped(() => shapeMetricsTable("eth", descriptors, search));
          expectTable(out);
          if (out) expect(out[0]).toHaveLength(6);
        },
      ),
      RUNS,
    );
  });

  it("MD.INSIGHTS: any feed body, documented or not, shapes into a table", () => {
    const cardValue = fc.oneof(wireValue, catalogText, wireDate, fc.jsonValue({ maxDepth: 2 }));
    const card = fc.record(
      {
        ENTITY_ID: cardValue,
        METRIC_NAME: cardValue,
        FLAG: cardValue,
        DURATION: cardValue,
        PERIOD_START_DATE: cardValue,
        PERIOD_END_DATE: cardValue,
        START_VALUE: wireValue,
        END_VALUE: wireValue,
        SPARKLINE: fc.jsonValue({ maxDepth: 2 }),
        EXTRA_FIELD: cardValue,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.array(card, { maxLength: 8 }),
        fc.constantFrom("streaks", "decline-streaks", "other-feed"),
        anyText,
        (rows, feed, search) => {
          const cards = validated(() => parseInsightsResponse(asServiceJson({ rows })));
          if (cards === null) return;
          expectTable(shaped(() => shapeInsightsTable(feed, cards, { search, flag: "" })));
        },
      ),
      RUNS,
    );
  });

  it("MD.AGG statistics: a finite number, #DIV/0! or #NUM! (past Excel's range), for any readings the client accepts", () => {
    const stats: Stat[] = ["SUM", "AVG", "MIN", "MAX", "FIRST", "LAST", "CHANGE", "PCT_CHANGE"];
    fc.assert(
      fc.property(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 50 }),
        fc.constantFrom(...stats),
        (values, stat) => {
          const cell = computeStat(stat, values);
          expect(unholdable(cell)).toBeNull();
          if (isErrorCell(cell)) expect(["#DIV/0!", "#NUM!"]).toContain(cell.error);
          // Inside a realistic range there is no overflow: the statistic is a number.
          if (
            values.every((v) => Math.abs(v) < 1e100 && (v === 0 || Math.abs(v) > 1e-100)) &&
            !(stat === "PCT_CHANGE" && values[0] === 0)
          )
            expect(typeof cell).toBe("number");
        },
      ),
      RUNS,
    );
  });

  it("a date Excel cannot hold in a series is still a table (not an exception)", () => {
    // Found by the MD.SERIES property: kept as a plain example.
    const out = shaped(() =>
      shapeSeriesTable(
        [
          {
            header: "eth PRICE",
            result: {
              kind: "points",
              points: [
                { date: "1899-12-31", val: 1 },
                { date: "2024-01-02", val: 2 },
              ],
            },
          },
        ],
        parseOptions(null, SERIES_OPTIONS),
      ),
    );
    expectTable(out);
    expect(out).toEqual([
      ["Date", "eth PRICE"],
      ["1899-12-31", 1],
      [isoToSerial("2024-01-02"), 2],
    ]);
  });
});
