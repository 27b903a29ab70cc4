/**
 * Turning what Excel passes into what the client needs. Excel hands a function
 * `null` for an omitted optional argument, a 2-D array for a range (or for a
 * single value when the parameter is declared as a range), and numbers for
 * dates. Every refusal is an ArgumentError that names the argument and the
 * forms it accepts, because that message is all the user sees.
 */
import type { DateWindow, Granularity } from "./domain";
import { type DateUnit, isIsoDate, shiftDate, spanStart } from "./calendar";
import { ArgumentError } from "./errors";
import { type DateSystem, isoToSerialIn, serialToIsoIn } from "./excel-date";
import { isFinancial } from "./metric-knowledge";

/** Omitted: null or undefined (Excel), an empty or blank text, or a range of blank cells. */
export function isOmitted(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.every(isOmitted);
  return false;
}

/**
 * Older desktop builds of Excel hand a custom function 0 for an empty cell in
 * a range, or for a reference to a blank cell. Where 0 can never be a valid
 * value — symbols, metrics, dates, keywords (granularity, stat, flow type),
 * option keys — it is read as blank. (Where 0 can mean something, e.g.
 * `headers` = 0 for FALSE, it is left alone.)
 */
export function blankIfZero(value: unknown): unknown {
  return value === 0 ? null : value;
}

/** A value as the user would recognise it in a message. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (Array.isArray(value)) return "a range";
  if (typeof value === "object" && value !== null) return describeObject(value as Record<string, unknown>);
  return String(value);
}

/**
 * An object no parser reads: never "[object Object]". An Excel data type names
 * its `type` (a WebImage, a Reference…, see src/core/excel-input.ts for those
 * read as values); anything else is said to be what it is.
 */
function describeObject(value: Record<string, unknown>): string {
  const type = value.type;
  if (typeof type === "string" && /^[A-Za-z]+$/.test(type)) {
    const text = typeof value.text === "string" ? ` (${JSON.stringify(value.text)})` : "";
    return `${/^[AEIOU]/.test(type) ? "an" : "a"} ${type} value${text}`;
  }
  return "an object that is not a cell value";
}

/** The cells of a range row by row, or the value itself. */
function cellsOf(value: unknown): unknown[] {
  if (!Array.isArray(value)) return [value];
  const cells: unknown[] = [];
  for (const row of value) {
    if (Array.isArray(row)) for (const cell of row) cells.push(cell);
    else cells.push(row);
  }
  return cells;
}

interface NameListRules {
  normalise(text: string): string;
  valid: RegExp;
  kind: string;
  forms: string;
}

const SYMBOL_RULES: NameListRules = {
  normalise: (text) => text.toLowerCase(),
  valid: /^[a-z0-9][a-z0-9._-]*$/,
  kind: "symbol",
  forms: "Use a symbol such as eth or eq-aapl, a comma-separated list (eth, btc), or a range of cells.",
};

const METRIC_RULES: NameListRules = {
  normalise: (text) => text.toUpperCase(),
  valid: /^[A-Z][A-Z0-9_]*$/,
  kind: "metric",
  forms: "Use a metric name such as PRICE or FEES, a comma-separated list (PRICE, FEES), or a range of cells.",
};

function parseNameList(value: unknown, argument: string, rules: NameListRules): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const cell of cellsOf(value)) {
    if (cell === null || cell === undefined || cell === 0) continue;
    if (typeof cell !== "string") {
      const what =
        typeof cell === "number" ? "a number" : typeof cell === "boolean" ? "a TRUE/FALSE value" : "not text";
      throw new ArgumentError(argument, `${describeValue(cell)} is ${what}, not a ${rules.kind}. ${rules.forms}`);
    }
    for (const part of cell.split(",")) {
      const trimmed = part.trim();
      if (!trimmed) continue;
      const name = rules.normalise(trimmed);
      if (!rules.valid.test(name)) {
        throw new ArgumentError(
          argument,
          `${JSON.stringify(trimmed)} is not a ${rules.kind} name (letters, digits, "-", "_" and "." only; separate names with commas). ${rules.forms}`,
        );
      }
      if (!seen.has(name)) {
        seen.add(name);
        names.push(name);
      }
    }
  }
  if (names.length === 0) throw new ArgumentError(argument, `no ${rules.kind} given. ${rules.forms}`);
  return names;
}

/** Trimmed, lowercased, blanks skipped, order kept, duplicates dropped. */
export function parseSymbols(value: unknown, argument = "symbols"): string[] {
  return parseNameList(value, argument, SYMBOL_RULES);
}

/** Trimmed, uppercased, blanks skipped, order kept, duplicates dropped. */
export function parseMetrics(value: unknown, argument = "metrics"): string[] {
  return parseNameList(value, argument, METRIC_RULES);
}

function single(names: string[], argument: string, kind: string): string {
  if (names.length > 1) {
    const shown = names.length > 5 ? `${names.slice(0, 5).join(", ")}, …` : names.join(", ");
    throw new ArgumentError(argument, `takes one ${kind}, got ${names.length} (${shown}).`);
  }
  return names[0];
}

export function parseSymbol(value: unknown, argument = "symbol"): string {
  return single(parseSymbols(value, argument), argument, "symbol");
}

export function parseMetric(value: unknown, argument = "metric"): string {
  return single(parseMetrics(value, argument), argument, "metric");
}

export const DATE_FORMS = "Use an Excel date, YYYY-MM-DD, TODAY, or -30D/-12W/-6M/-2Q/-1Y.";
const RELATIVE_DATE = /^-(\d{1,5})([DWMQY])$/;
const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

export interface DateAnchors {
  /** The user's calendar date (YYYY-MM-DD). */
  today: string;
  /** What a relative date counts back from: today for an end date, the end date for a start date. */
  anchor: string;
  /**
   * A start date: a relative date is the first day of that many periods ending
   * on the anchor, inclusive (`-30D` ending 2024-06-30 is 2024-06-01), rather
   * than the day that far back.
   */
  span?: boolean;
  /** The workbook's date system, for a date given as a serial (1900 when not said). */
  dateSystem?: DateSystem;
  /**
   * An end date or as_of: a date after today is read as today. No data is
   * dated after today, and the day after 9999-12-31 (Excel's last date, a
   * window's end plus one) is no date at all.
   */
  upToToday?: boolean;
}

/** An Excel date serial, YYYY-MM-DD text, TODAY or a relative date → YYYY-MM-DD; omitted → undefined. */
export function parseDate(value: unknown, argument: string, anchors: DateAnchors): string | undefined {
  const date = parseAnyDate(value, argument, anchors);
  return anchors.upToToday && date !== undefined && date > anchors.today ? anchors.today : date;
}

function parseAnyDate(value: unknown, argument: string, anchors: DateAnchors): string | undefined {
  // 0 is a blank cell from an older Excel, never a market-data date (1900-01-00, or 1904-01-01).
  if (isOmitted(blankIfZero(value))) return undefined;
  if (typeof value === "number") {
    try {
      return serialToIsoIn(value, anchors.dateSystem ?? 1900);
    } catch (error) {
      throw new ArgumentError(argument, `${(error as Error).message}. ${DATE_FORMS}`);
    }
  }
  if (typeof value !== "string")
    throw new ArgumentError(argument, `${describeValue(value)} is not a date. ${DATE_FORMS}`);
  const text = value.trim().toUpperCase();
  if (text === "TODAY") return anchors.today;
  const relative = RELATIVE_DATE.exec(text);
  const system = anchors.dateSystem ?? 1900;
  if (relative) {
    const count = Number(relative[1]);
    const unit = relative[2] as DateUnit;
    if (!anchors.span) return inExcelRange(shiftDate(anchors.anchor, -count, unit), argument, value, system);
    if (count === 0)
      throw new ArgumentError(
        argument,
        `${describeValue(value)} covers no day: a relative start counts whole periods ending on the end date, so use -1D or more.`,
      );
    const back = shiftDate(anchors.anchor, -count, unit);
    return inExcelRange(isIsoDate(back) ? spanStart(anchors.anchor, count, unit) : back, argument, value, system);
  }
  if (ISO_SHAPE.test(text) && isIsoDate(text)) return inExcelRange(text, argument, value, system);
  throw new ArgumentError(argument, `${describeValue(value)} is not a date. ${DATE_FORMS}`);
}

function inExcelRange(iso: string, argument: string, original: unknown, system: DateSystem): string {
  try {
    isoToSerialIn(iso, system);
    return iso;
  } catch (error) {
    throw new ArgumentError(
      argument,
      `${describeValue(original)} is outside Excel's dates: ${(error as Error).message}. ${DATE_FORMS}`,
    );
  }
}

/**
 * A cell's start and end as the domain's DateWindow (core/domain.ts), what
 * the cell cannot mean refused in the cell's own words. An end after today is
 * today, a start after today is refused (no data is dated after today). The
 * end counts back from today; a relative start covers that many periods ending on the end
 * date (or today when no end is given), both included: `-30D` is 30 days, `-1M` ending 2024-03-31 is 2024-03-01 … 2024-03-31 — the
 * days MD.AGG's window `-1M` covers.
 */
export function parseDateWindow(
  start: unknown,
  end: unknown,
  today: string,
  dateSystem: DateSystem = 1900,
): DateWindow {
  const last = parseDate(end, "end", { today, anchor: today, dateSystem, upToToday: true });
  const first = parseDate(start, "start", { today, anchor: last ?? today, span: true, dateSystem });
  if (first && first > today) {
    throw new ArgumentError("start", `${first} is after today (${today}): no data is dated after today.`);
  }
  if (first && last && first > last) {
    throw new ArgumentError("start", `${first} is after the end date ${last}. Give a start on or before the end.`);
  }
  return { start: first, end: last };
}

/**
 * A keyword argument (case-insensitive) from a fixed vocabulary; `aliases`
 * maps every accepted spelling, `listed` is how the message names them.
 */
export function parseKeyword<T extends string>(
  value: unknown,
  argument: string,
  aliases: Readonly<Record<string, T>>,
  listed: string,
  fallback?: T,
): T {
  if (isOmitted(blankIfZero(value))) {
    if (fallback !== undefined) return fallback;
    throw new ArgumentError(argument, `is required. Use ${listed}.`);
  }
  const text = typeof value === "string" ? value.trim().toUpperCase() : undefined;
  const keyword = text !== undefined && Object.prototype.hasOwnProperty.call(aliases, text) ? aliases[text] : undefined;
  if (keyword === undefined)
    throw new ArgumentError(argument, `${describeValue(value)} is not accepted. Use ${listed}.`);
  return keyword;
}

const GRANULARITY_ALIASES: Record<string, Granularity> = {
  DAY: "DAY",
  D: "DAY",
  DAILY: "DAY",
  WEEK: "WEEK",
  W: "WEEK",
  WEEKLY: "WEEK",
  MONTH: "MONTH",
  M: "MONTH",
  MONTHLY: "MONTH",
  QUARTER: "QUARTER",
  Q: "QUARTER",
  QUARTERLY: "QUARTER",
  YEAR: "YEAR",
  Y: "YEAR",
  YEARLY: "YEAR",
};

/** Omitted → QUARTER when every metric is a fiscal financial, else DAY. */
export function parseGranularity(value: unknown, metrics: readonly string[], argument = "granularity"): Granularity {
  const fallback: Granularity = metrics.length > 0 && metrics.every(isFinancial) ? "QUARTER" : "DAY";
  return parseKeyword<Granularity>(
    value,
    argument,
    GRANULARITY_ALIASES,
    "DAY, WEEK, MONTH, QUARTER or YEAR (or D, W, M, Q, Y)",
    fallback,
  );
}

/** Financials exist once per fiscal quarter; the service rejects them at any other granularity, so never ask. */
export function assertFinancialGranularity(
  metrics: readonly string[],
  granularity: Granularity,
  argument = "granularity",
): void {
  if (granularity === "QUARTER") return;
  const financial = metrics.filter(isFinancial);
  if (financial.length === 0) return;
  const names = financial.join(", ");
  throw new ArgumentError(
    argument,
    `${names} ${financial.length === 1 ? "is" : "are"} reported per fiscal quarter, so ${granularity} is not available. Use QUARTER (or Q)${
      financial.length < metrics.length ? ", or ask for the financials in a separate formula" : ""
    }.`,
  );
}
