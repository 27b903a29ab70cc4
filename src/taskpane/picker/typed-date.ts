/**
 * Dates as an analyst types them into the pane: `01/15/2025` in the US,
 * `15/01/2025` in the UK, `15.01.2025` in Germany, `2025/01/15` in Japan. The
 * order of day, month and year is the user's locale's (Intl.DateTimeFormat's
 * numeric date); separators may be `/`, `.`, `-` or a space. Such a date
 * becomes YYYY-MM-DD, which the functions accept everywhere. Anything else
 * (YYYY-MM-DD, TODAY, -30D …) is left for the functions' own date rules.
 */

export type DatePart = "year" | "month" | "day";

const SAMPLE = Date.UTC(2025, 0, 15);
const NUMERIC: Intl.DateTimeFormatOptions = { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC" };
const PLACEHOLDER: Record<DatePart, string> = { year: "YYYY", month: "MM", day: "DD" };

/** The locale's order of year, month and day in a numeric date. */
export function localeDateOrder(locale?: string): DatePart[] {
  return new Intl.DateTimeFormat(locale, NUMERIC)
    .formatToParts(SAMPLE)
    .map((part) => part.type)
    .filter((type): type is DatePart => type === "year" || type === "month" || type === "day");
}

/** The locale's numeric date form: "MM/DD/YYYY", "DD.MM.YYYY", "YYYY/MM/DD" … */
export function localeDatePattern(locale?: string): string {
  return new Intl.DateTimeFormat(locale, NUMERIC)
    .formatToParts(SAMPLE)
    .map((part) => (part.type === "literal" ? part.value : (PLACEHOLDER[part.type as DatePart] ?? "")))
    .join("")
    .replace(/\u200e|\u200f/g, "");
}

/** January 15, 2025 written the locale's way: "01/15/2025". */
export function localeDateExample(locale?: string): string {
  return new Intl.DateTimeFormat(locale, NUMERIC).format(SAMPLE).replace(/\u200e|\u200f/g, "");
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const THREE_NUMBERS = /^(\d{1,4})[/.\-\s]+(\d{1,4})[/.\-\s]+(\d{1,4})\.?$/;

export type TypedDate = { ok: true; text: string } | { ok: false; message: string };

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/**
 * `01/15/2025` (in an en-US locale) → `2025-01-15`. Text that is not three
 * numbers comes back unchanged; three numbers that are not a date in the
 * locale's order are refused with the form the pane expects.
 */
export function typedDate(text: string, locale?: string): TypedDate {
  const trimmed = text.trim();
  const match = THREE_NUMBERS.exec(trimmed);
  if (!match || ISO.test(trimmed)) return { ok: true, text };
  const order = localeDateOrder(locale);
  const value: Record<DatePart, string> = { year: "", month: "", day: "" };
  order.forEach((part, i) => (value[part] = match[i + 1]));
  let year = Number(value.year);
  // Two-digit years as Excel reads them: 00–29 → 2000s, 30–99 → 1900s.
  if (value.year.length <= 2) year += year < 30 ? 2000 : 1900;
  const month = Number(value.month);
  const day = Number(value.day);
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    value.year.length !== 3 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day;
  if (!real) {
    return {
      ok: false,
      message: `"${trimmed}" is not a date written ${localeDatePattern(locale)} (e.g. ${localeDateExample(locale)}). Use that, YYYY-MM-DD, TODAY, or -30D, -12W, -6M, -2Q, -1Y.`,
    };
  }
  return { ok: true, text: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` };
}
