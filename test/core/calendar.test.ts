import {
  addDays,
  addMonths,
  calendarDateOf,
  dayOfWeek,
  daysBetween,
  daysInMonth,
  epochDayOf,
  epochDayOfParts,
  hasIsoDateShape,
  isIsoDate,
  isoOfEpochDay,
  localToday,
  partsOfEpochDay,
  shiftDate,
  startOfMonth,
  startOfQuarter,
  startOfYear,
  toEpochDay,
  utcDateOf,
} from "../../src/core/calendar";

describe("calendar", () => {
  it.each([
    ["2024-02-29", true],
    ["2023-02-29", false],
    ["1900-02-29", false],
    ["2000-02-29", true],
    ["2024-04-31", false],
    ["2024-00-10", false],
    ["2024-12-32", false],
    ["0050-06-15", true],
    ["2024-5-1", false],
    [" 2024-05-01", false],
    ["2024-05-01T00:00", false],
  ])("isIsoDate(%s) = %s", (text, expected) => {
    expect(isIsoDate(text)).toBe(expected);
  });

  it("keeps years below 100 as written (no 19xx mapping)", () => {
    expect(addDays("0050-06-15", 1)).toBe("0050-06-16");
  });

  it.each([
    ["2024-03-31", -1, "2024-02-29"],
    ["2023-03-31", -1, "2023-02-28"],
    ["2024-01-31", 1, "2024-02-29"],
    ["2024-08-31", -6, "2024-02-29"],
    ["2024-05-15", -12, "2023-05-15"],
    ["2024-02-29", -12, "2023-02-28"],
    ["2024-01-15", -1, "2023-12-15"],
    ["2024-11-30", 3, "2025-02-28"],
    ["2024-05-15", 0, "2024-05-15"],
  ])("addMonths(%s, %d) = %s (clamped to the month's end)", (iso, months, expected) => {
    expect(addMonths(iso, months)).toBe(expected);
  });

  it.each([
    ["2024-05-10", -30, "D", "2024-04-10"],
    ["2024-05-10", -12, "W", "2024-02-16"],
    ["2024-08-31", -6, "M", "2024-02-29"],
    ["2024-05-31", -2, "Q", "2023-11-30"],
    ["2024-02-29", -1, "Y", "2023-02-28"],
  ] as const)("shiftDate(%s, %d, %s) = %s", (iso, count, unit, expected) => {
    expect(shiftDate(iso, count, unit)).toBe(expected);
  });

  it.each([
    ["2024-05-17", "2024-05-01", "2024-04-01", "2024-01-01"],
    ["2024-12-31", "2024-12-01", "2024-10-01", "2024-01-01"],
    ["2024-03-01", "2024-03-01", "2024-01-01", "2024-01-01"],
  ])("period starts of %s", (iso, month, quarter, year) => {
    expect(startOfMonth(iso)).toBe(month);
    expect(startOfQuarter(iso)).toBe(quarter);
    expect(startOfYear(iso)).toBe(year);
  });

  it("weekday agrees with the UTC calendar", () => {
    for (let day = -30000; day < 30000; day += 97) {
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      expect(dayOfWeek(iso)).toBe(new Date(day * 86_400_000).getUTCDay());
      expect(epochDayOf(iso)).toBe(day);
    }
  });

  it.each([
    [2024, 2, 29],
    [2023, 2, 28],
    [1900, 2, 28],
    [2000, 2, 29],
    [2024, 4, 30],
    [2024, 12, 31],
  ])("daysInMonth(%d, %d) = %d", (year, month, days) => {
    expect(daysInMonth(year, month)).toBe(days);
  });

  it("counts days between dates", () => {
    expect(daysBetween("2024-01-01", "2024-12-31")).toBe(365);
    expect(daysBetween("2024-03-01", "2024-02-28")).toBe(-2);
  });

  it.each([
    ["2024-05-01", "2024-05-01"],
    ["2024-05-01T13:45:00Z", "2024-05-01"],
    ["2024-05-01 00:00:00", "2024-05-01"],
    ["2024-02-30", null],
    ["May 1", null],
    ["2024-05-01x", null],
  ])("calendarDateOf(%s) = %s", (text, expected) => {
    expect(calendarDateOf(text)).toBe(expected);
  });

  it("today is the local calendar date", () => {
    const now = new Date(2024, 4, 31, 23, 59);
    expect(localToday(now)).toBe("2024-05-31");
  });

  it.each([
    ["2024-02-30", true, false],
    ["2024-13-01", true, false],
    ["2024-05-01", true, true],
    ["2024-5-1", false, false],
    ["2024-05-01T00:00", false, false],
  ])("%s: shaped %s, a calendar day %s", (text, shaped, real) => {
    expect(hasIsoDateShape(text)).toBe(shaped);
    expect(isIsoDate(text)).toBe(real);
  });

  it("toEpochDay reads a real date and refuses anything else with a RangeError", () => {
    expect(toEpochDay("1970-01-02")).toBe(1);
    expect(toEpochDay("0050-06-15")).toBe(epochDayOf("0050-06-15"));
    expect(() => toEpochDay("2024-02-30")).toThrow(new RangeError('"2024-02-30" is not a YYYY-MM-DD date'));
  });

  it("epoch days and their parts agree with the UTC calendar, years below 100 included", () => {
    for (let day = -750000; day < 30000; day += 997) {
      const date = new Date(day * 86_400_000);
      const parts = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
      expect(partsOfEpochDay(day)).toEqual(parts);
      expect(epochDayOfParts(parts.year, parts.month, parts.day)).toBe(day);
    }
    // Out-of-range months roll into the neighbouring years, as Date does.
    expect(epochDayOfParts(2024, 13, 1)).toBe(epochDayOf("2025-01-01"));
    expect(epochDayOfParts(2024, 0, 1)).toBe(epochDayOf("2023-12-01"));
  });

  it("dates and epoch days convert as Date does: every day of 1900–2100 and near the four-digit years' ends, and beyond", () => {
    const every = (day: number) =>
      (day >= -25_567 && day <= 47_482) || day < -719_528 + 800 || day > 2_932_896 - 800 || day % 31 === 0;
    let checked = 0;
    for (let day = -720_000; day <= 2_934_000; day += 1) {
      if (!every(day)) continue;
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
      if (isoOfEpochDay(day) !== iso) expect(isoOfEpochDay(day)).toBe(iso);
      if (/^\d{4}-/.test(iso) && epochDayOf(iso) !== day) expect(epochDayOf(iso)).toBe(day);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(180_000);
    // Not a whole day: as Date reads it.
    expect(isoOfEpochDay(0.5)).toBe(new Date(43_200_000).toISOString().slice(0, 10));
  });

  it.each(["2024-01-01\n", " 2024-01-01", "2024-1-01", "２０２４-01-01", "+02024-01-01", "2024-01-0a", "2024_01-01"])(
    "%j is not a date",
    (text) => {
      expect(isIsoDate(text)).toBe(false);
      expect(epochDayOf(text)).toBeNull();
    },
  );

  it("utcDateOf is the UTC calendar date of an instant", () => {
    expect(utcDateOf(Date.UTC(2024, 4, 31, 23, 59))).toBe("2024-05-31");
    expect(utcDateOf(Date.UTC(2024, 5, 1, 0, 0))).toBe("2024-06-01");
    expect(utcDateOf(-1)).toBe("1969-12-31");
  });
});
