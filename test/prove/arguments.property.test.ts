/**
 * Property tests of argument parsing (src/core): whatever Excel hands a
 * function — text in any script, numbers finite or not, booleans, blanks,
 * ranges, ragged ranges — each parser either returns a well-formed value or
 * throws an ArgumentError whose message names the argument. Nothing else
 * escapes, because anything else reaches the user as "Unexpected error".
 */
import fc from "fast-check";
import { parseStat } from "../../src/core/agg-stat";
import { parseAggWindow, parsePrefixedMetric, windowStart } from "../../src/core/agg-window";
import {
  assertFinancialGranularity,
  parseDate,
  parseDateWindow,
  parseGranularity,
  parseMetric,
  parseMetrics,
  parseSymbol,
  parseSymbols,
} from "../../src/core/arguments";
import { parseAssetType } from "../../src/core/assets-table";
import { isIsoDate } from "../../src/core/calendar";
import { ArgumentError } from "../../src/core/errors";
import { isoToSerial } from "../../src/core/excel-date";
import { FLOWS_OPTIONS, parseFlowTypes } from "../../src/core/flows-table";
import { parseFeed } from "../../src/core/insights-table";
import { parseOptions } from "../../src/core/options";
import { SERIES_OPTIONS } from "../../src/core/series-table";
import { parseSearch } from "../../src/core/text-search";
import { parseAsOf } from "../../src/functions/latest";
import { anyArgument, excelIsoDate } from "../support/excel-values";

const RUNS = { numRuns: Number(process.env.MD_PROPERTY_RUNS ?? 400) };

/**
 * Runs a parser: its value, or the ArgumentError it threw (checked to name
 * `argument` and to say something after it). Any other exception fails the
 * property with the input that caused it.
 */
function parsed<T>(argument: string, parse: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (!(error instanceof ArgumentError)) {
      throw new Error(`${argument}: expected a value or an ArgumentError, got ${String(error)}`, { cause: error });
    }
    expect(error.argument).toBe(argument);
    expect(error.message.startsWith(`${argument}: `)).toBe(true);
    expect(error.message.length).toBeGreaterThan(argument.length + 10);
    return { ok: false };
  }
}

/** A date the rest of the add-in can use: YYYY-MM-DD, a real day, inside Excel's range. */
function isExcelIso(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !isIsoDate(date)) return false;
  try {
    isoToSerial(date);
    return true;
  } catch {
    return false;
  }
}

describe("argument parsing never throws anything but an ArgumentError naming the argument", () => {
  it("symbols and metrics: lists of valid, unique, normalised names", () => {
    fc.assert(
      fc.property(anyArgument, (value) => {
        const symbols = parsed("symbols", () => parseSymbols(value));
        if (symbols.ok) {
          expect(symbols.value.length).toBeGreaterThan(0);
          for (const s of symbols.value) expect(s).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
          expect(new Set(symbols.value).size).toBe(symbols.value.length);
        }
        const metrics = parsed("metrics", () => parseMetrics(value));
        if (metrics.ok) {
          expect(metrics.value.length).toBeGreaterThan(0);
          for (const m of metrics.value) expect(m).toMatch(/^[A-Z][A-Z0-9_]*$/);
          expect(new Set(metrics.value).size).toBe(metrics.value.length);
        }
        const symbol = parsed("symbol", () => parseSymbol(value));
        if (symbol.ok) expect(symbols.ok && symbols.value.length === 1 && symbols.value[0] === symbol.value).toBe(true);
        const metric = parsed("metric", () => parseMetric(value));
        if (metric.ok) {
          expect(metrics.ok && metrics.value.length === 1 && metrics.value[0] === metric.value).toBe(true);
          const prefixed = parsePrefixedMetric(metric.value);
          if (prefixed) expect(prefixed.base).toMatch(/^[A-Z0-9_]+$/);
        }
      }),
      RUNS,
    );
  });

  it("dates: a YYYY-MM-DD inside Excel's range, or omitted", () => {
    fc.assert(
      fc.property(anyArgument, excelIsoDate, excelIsoDate, (value, today, anchor) => {
        const date = parsed("as_of", () => parseDate(value, "as_of", { today, anchor }));
        if (date.ok && date.value !== undefined) expect(isExcelIso(date.value)).toBe(true);
        const asOf = parsed("as_of", () => parseAsOf(value, today));
        if (asOf.ok) expect(isExcelIso(asOf.value)).toBe(true);
        // A number in range is exactly the serial's date.
        if (typeof value === "number" && date.ok && date.value !== undefined) {
          expect(isoToSerial(date.value)).toBe(Math.floor(value));
        }
      }),
      RUNS,
    );
  });

  it("date windows: both ends valid and in order", () => {
    fc.assert(
      fc.property(anyArgument, anyArgument, excelIsoDate, (start, end, today) => {
        let window: ReturnType<typeof parseDateWindow> | undefined;
        try {
          window = parseDateWindow(start, end, today);
        } catch (error) {
          if (!(error instanceof ArgumentError)) throw error;
          expect(["start", "end"]).toContain(error.argument);
          return;
        }
        if (window.start) expect(isExcelIso(window.start)).toBe(true);
        if (window.end) expect(isExcelIso(window.end)).toBe(true);
        if (window.start && window.end) expect(window.start <= window.end).toBe(true);
      }),
      RUNS,
    );
  });

  it("granularity, stat, flow types, asset type, feed, search: a value from the vocabulary", () => {
    fc.assert(
      fc.property(
        anyArgument,
        fc.array(fc.constantFrom("PRICE", "TOTAL_REVENUE", "FEES", "BASIC_EPS")),
        (value, metrics) => {
          const granularity = parsed("granularity", () => parseGranularity(value, metrics));
          if (granularity.ok) {
            expect(["DAY", "WEEK", "MONTH", "QUARTER", "YEAR"]).toContain(granularity.value);
            parsed("granularity", () => assertFinancialGranularity(metrics, granularity.value));
          }
          const stat = parsed("stat", () => parseStat(value));
          if (stat.ok && stat.value !== undefined)
            expect(["SUM", "AVG", "MIN", "MAX", "FIRST", "LAST", "CHANGE", "PCT_CHANGE"]).toContain(stat.value);
          const flows = parsed("flow_type", () => parseFlowTypes(value));
          if (flows.ok) {
            expect(flows.value.length).toBeGreaterThan(0);
            for (const t of flows.value) expect(["netflow", "inflow", "outflow"]).toContain(t);
          }
          const type = parsed("type", () => parseAssetType(value));
          if (type.ok)
            expect(["ALL", "CRYPTO", "EQUITY", "CHAIN", "TOKEN", "STABLECOIN", "CATEGORY"]).toContain(type.value);
          const feed = parsed("feed", () => parseFeed(value));
          if (feed.ok) expect(feed.value).toMatch(/^[a-z0-9][a-z0-9-]*$/);
          expect(typeof parseSearch(value)).toBe("string");
        },
      ),
      RUNS,
    );
  });

  it("options: every key of the spec with a value of its kind", () => {
    fc.assert(
      fc.property(anyArgument, (value) => {
        const series = parsed("options", () => parseOptions(value, SERIES_OPTIONS));
        if (series.ok) {
          const o = series.value;
          for (const key of ["headers", "dates", "transpose"] as const) expect(typeof o[key]).toBe("boolean");
          expect(["asc", "desc"]).toContain(o.order);
          expect(["blank", "prev", "na"]).toContain(o.fill);
          expect(["all", "weekdays"]).toContain(o.days);
          if (o.last !== null) expect(Number.isInteger(o.last) && o.last >= 1 && o.last <= 1_000_000).toBe(true);
          expect(Object.keys(o).sort()).toEqual(Object.keys(SERIES_OPTIONS).sort());
        }
        const flows = parsed("options", () => parseOptions(value, FLOWS_OPTIONS));
        if (flows.ok) {
          expect(typeof flows.value.headers).toBe("boolean");
          if (flows.value.top !== null) expect(Number.isInteger(flows.value.top) && flows.value.top >= 1).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("MD.AGG windows: a window whose start, from any as_of in Excel's range, is a real date on or before it", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyArgument,
          fc
            .tuple(fc.integer({ min: 0, max: 99_999 }), fc.constantFrom("D", "W", "M", "Q", "Y", "d"))
            .map(([n, u]) => `-${n}${u}`),
        ),
        excelIsoDate,
        (value, asOf) => {
          const window = parsed("window", () => parseAggWindow(value));
          if (!window.ok) return;
          // The start is computed from the parsed window and the as_of date, as MD.AGG does before any request.
          const start = parsed("window", () => windowStart(window.value, asOf));
          if (start.ok) {
            expect(isIsoDate(start.value)).toBe(true);
            expect(start.value <= asOf).toBe(true);
          }
        },
      ),
      RUNS,
    );
  });
});
