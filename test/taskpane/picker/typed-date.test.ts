/** Dates typed the user's way: the order comes from the locale, the result is YYYY-MM-DD or a message naming the form wanted. */
import {
  localeDateExample,
  localeDateOrder,
  localeDatePattern,
  typedDate,
} from "../../../src/taskpane/picker/typed-date";

describe("the locale's numeric date form", () => {
  it.each([
    ["en-US", ["month", "day", "year"], "MM/DD/YYYY", "01/15/2025"],
    ["en-GB", ["day", "month", "year"], "DD/MM/YYYY", "15/01/2025"],
    ["de-DE", ["day", "month", "year"], "DD.MM.YYYY", "15.01.2025"],
    ["fr-FR", ["day", "month", "year"], "DD/MM/YYYY", "15/01/2025"],
    ["ja-JP", ["year", "month", "day"], "YYYY/MM/DD", "2025/01/15"],
    ["sv-SE", ["year", "month", "day"], "YYYY-MM-DD", "2025-01-15"],
  ])("%s: %j, %s, e.g. %s", (locale, order, pattern, example) => {
    expect(localeDateOrder(locale)).toEqual(order);
    expect(localeDatePattern(locale)).toBe(pattern);
    expect(localeDateExample(locale)).toBe(example);
  });
});

describe("typedDate", () => {
  it.each([
    ["01/15/2025", "en-US", "2025-01-15"],
    ["1/5/2025", "en-US", "2025-01-05"],
    ["12-31-2024", "en-US", "2024-12-31"],
    ["2/29/2024", "en-US", "2024-02-29"],
    ["1/15/25", "en-US", "2025-01-15"],
    ["1/15/99", "en-US", "1999-01-15"],
    ["15/01/2025", "en-GB", "2025-01-15"],
    ["15.01.2025", "de-DE", "2025-01-15"],
    ["15.1.2025.", "de-DE", "2025-01-15"],
    ["2025/01/15", "ja-JP", "2025-01-15"],
    [" 01 15 2025 ", "en-US", "2025-01-15"],
  ])("%j in %s is %s", (text, locale, iso) => {
    expect(typedDate(text, locale)).toEqual({ ok: true, text: iso });
  });

  it.each(["2025-01-15", "TODAY", "-30D", "-1Y", "", "  ", "45292", "next week"])(
    "%j is left for the functions' own rules",
    (text) => {
      expect(typedDate(text, "en-US")).toEqual({ ok: true, text });
    },
  );

  it.each([
    ["15/01/2025", "en-US", "MM/DD/YYYY", "01/15/2025"],
    ["01/15/2025", "en-GB", "DD/MM/YYYY", "15/01/2025"],
    ["2/30/2024", "en-US", "MM/DD/YYYY", "01/15/2025"],
    ["2/29/2023", "en-US", "MM/DD/YYYY", "01/15/2025"],
    ["1/15/202", "en-US", "MM/DD/YYYY", "01/15/2025"],
  ])("%j in %s is refused, naming %s", (text, locale, pattern, example) => {
    expect(typedDate(text, locale)).toEqual({
      ok: false,
      message: `"${text}" is not a date written ${pattern} (e.g. ${example}). Use that, YYYY-MM-DD, TODAY, or -30D, -12W, -6M, -2Q, -1Y.`,
    });
  });
});
