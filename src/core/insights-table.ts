/**
 * MD.INSIGHTS's table. The two documented feeds (growth and decline streaks)
 * always show the same nine columns. Other feeds are passed through by name and
 * their cards are not described, so their table is shaped from the fields the
 * cards actually carry: the standard columns they have, then any other plain
 * field, in the order first seen.
 */
import type { InsightCard } from "./domain";
import { describeValue, isOmitted } from "./arguments";
import { calendarDateOf } from "./calendar";
import { BLANK, type CellValue, errorCell, numberCell, textCell } from "./cell";
import { ArgumentError, NoDataError } from "./errors";
import { type DateSystem, isoToSerialIn } from "./excel-date";
import {
  DATE_FORMAT,
  type FormattedTable,
  type NumberFormat,
  numberFormatFor,
  PERCENT_FORMAT,
  valueKindOf,
} from "./number-format";
import { assertFitsExcel } from "./payload-size";
import { matchesWords, searchWords } from "./text-search";

export const KNOWN_FEEDS: Record<string, string> = { STREAKS: "streaks", "DECLINE-STREAKS": "decline-streaks" };

const FEED_FORMS = "Use STREAKS or DECLINE-STREAKS, or another feed's name (letters, digits and dashes).";

/** The feed's path segment: the documented names, or any other name lowercased. */
export function parseFeed(value: unknown, argument = "feed"): string {
  if (isOmitted(value)) throw new ArgumentError(argument, `is required. ${FEED_FORMS}`);
  const text = typeof value === "string" ? value.trim().toUpperCase().replace(/_/g, "-") : "";
  if (Object.prototype.hasOwnProperty.call(KNOWN_FEEDS, text)) return KNOWN_FEEDS[text];
  if (/^[A-Z0-9][A-Z0-9-]*$/.test(text)) return text.toLowerCase();
  throw new ArgumentError(argument, `${describeValue(value)} is not a feed name. ${FEED_FORMS}`);
}

export function isKnownFeed(feed: string): boolean {
  return Object.values(KNOWN_FEEDS).includes(feed);
}

interface Column {
  header: string;
  /** The card fields the column reads; a card "has" the column when it has them all. */
  fields: string[];
  value(card: Record<string, unknown>, dateSystem: DateSystem): CellValue;
  /** The number format of this column's value on this card; null: plain. */
  format(card: Record<string, unknown>, value: number): NumberFormat | null;
}

const STANDARD_COLUMNS: Column[] = [
  plain("Entity", "ENTITY_ID"),
  plain("Metric", "METRIC_NAME"),
  plain("Flag", "FLAG"),
  plain("Duration", "DURATION"),
  plain("Start date", "PERIOD_START_DATE"),
  plain("End date", "PERIOD_END_DATE"),
  { ...plain("Start value", "START_VALUE"), format: inCardUnit },
  { ...plain("End value", "END_VALUE"), format: inCardUnit },
  {
    header: "Change %",
    fields: ["START_VALUE", "END_VALUE"],
    value: (card) => changeFraction(card.START_VALUE, card.END_VALUE),
    format: () => PERCENT_FORMAT,
  },
];

/** A card's values are in its UNIT (CURRENCY or NOMINAL), as the metric catalog's descriptors are. */
function inCardUnit(card: Record<string, unknown>, value: number): NumberFormat | null {
  const kind = valueKindOf({
    name: typeof card.METRIC_NAME === "string" ? card.METRIC_NAME : "",
    unit: typeof card.UNIT === "string" ? card.UNIT : "",
    // A card has no aggregation type; its METRIC_TYPE "flow" is a summed metric.
    aggregation_type: card.METRIC_TYPE === "flow" ? "SUM" : "",
  });
  return numberFormatFor(kind, value);
}

/** Card fields that describe the card rather than its content: never extra columns. */
const DESCRIBED_FIELDS = new Set([
  "DOMAIN",
  "ENTITY_ID",
  "METRIC_NAME",
  "FLAG",
  "UNIT",
  "METRIC_TYPE",
  "DURATION",
  "DATE_RANGE",
  "START_VALUE",
  "END_VALUE",
  "PERIOD_START_DATE",
  "PERIOD_END_DATE",
  "FISCAL_YEAR_END",
  "FISCAL_PERIOD_END",
  "LATEST_REPORT_DATE",
  "SPARKLINE",
]);

function plain(header: string, field: string): Column {
  return {
    header,
    fields: [field],
    value: (card, dateSystem) => toCell(card[field], dateSystem),
    // A field that came as an ISO date is a date serial in the cell.
    format: (card) => (typeof card[field] === "string" && calendarDateOf(card[field]) !== null ? DATE_FORMAT : null),
  };
}

/** Change as a fraction of |start| (format as %); #DIV/0! from a zero start. */
function changeFraction(start: unknown, end: unknown): CellValue {
  if (typeof start !== "number" || typeof end !== "number") return BLANK;
  if (start === 0) return errorCell("#DIV/0!", "The start value is 0.");
  return numberCell((end - start) / Math.abs(start), "The change");
}

/** Numbers and booleans as they are, ISO dates as Excel serials, other text as text, null as blank. */
function toCell(value: unknown, system: DateSystem): CellValue {
  if (typeof value === "number") return numberCell(value, "A value of the card");
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const date = calendarDateOf(value);
    if (date === null) return textCell(value);
    try {
      return isoToSerialIn(date, system);
    } catch {
      return textCell(value); // a date Excel cannot hold (before 1900) stays text
    }
  }
  return BLANK;
}

function isPlain(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

export interface InsightFilters {
  search: string;
  flag: string;
}

export function shapeInsightsTable(
  feed: string,
  cards: readonly InsightCard[],
  filters: InsightFilters,
  dateSystem: DateSystem = 1900,
): CellValue[][] {
  return shapeFormattedInsightsTable(feed, cards, filters, dateSystem).rows;
}

/** The table, with dates as dates, values in the card's unit and the change as a percentage. */
export function shapeFormattedInsightsTable(
  feed: string,
  cards: readonly InsightCard[],
  filters: InsightFilters,
  dateSystem: DateSystem = 1900,
): FormattedTable {
  const words = searchWords(filters.search);
  const flag = filters.flag.trim().toLowerCase();
  const found = cards.filter(
    (card) =>
      matchesWords(words, [text(card.ENTITY_ID), text(card.METRIC_NAME)]) &&
      (!flag || text(card.FLAG).toLowerCase().includes(flag)),
  );
  if (found.length === 0) {
    const filtered = filters.search || filters.flag ? " matches these filters" : " was returned";
    throw new NoDataError(`No ${feed} insight card${filtered}.`);
  }
  const columns = isKnownFeed(feed) ? STANDARD_COLUMNS : columnsFromCards(found);
  const rows: CellValue[][] = [columns.map((c) => textCell(c.header))];
  for (const card of found) rows.push(columns.map((c) => c.value(card, dateSystem)));
  assertFitsExcel(rows, "Narrow it with a search text or a flag.");
  return { rows, formatAt: (row, column, value) => columns[column].format(found[row - 1], value) };
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  // A card field may be any JSON: String() throws on an object whose "toString" is data.
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function columnsFromCards(cards: readonly Record<string, unknown>[]): Column[] {
  const has = (field: string) => cards.some((card) => card[field] !== undefined && card[field] !== null);
  const columns = STANDARD_COLUMNS.filter((column) => column.fields.every(has));
  const extra: string[] = [];
  for (const card of cards) {
    for (const [field, value] of Object.entries(card)) {
      if (!DESCRIBED_FIELDS.has(field) && isPlain(value) && !extra.includes(field)) extra.push(field);
    }
  }
  return [...columns, ...extra.filter(has).map((field) => plain(field, field))];
}
