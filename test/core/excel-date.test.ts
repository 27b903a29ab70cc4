import fc from "fast-check";
import { addDays } from "../../src/core/calendar";
import { isoToSerial, MAX_EXCEL_SERIAL, serialToIso } from "../../src/core/excel-date";

describe("Excel 1900 date serials", () => {
  // Anchors from Excel itself: =DATE(y,m,d) formatted as a number.
  it.each([
    [1, "1900-01-01"],
    [2, "1900-01-02"],
    [31, "1900-01-31"],
    [59, "1900-02-28"],
    [61, "1900-03-01"],
    [366, "1900-12-31"],
    [367, "1901-01-01"],
    [25569, "1970-01-01"],
    [36526, "2000-01-01"],
    [45292, "2024-01-01"],
    [45351, "2024-02-29"],
    [MAX_EXCEL_SERIAL, "9999-12-31"],
  ])("serial %d is %s, both ways", (serial, iso) => {
    expect(serialToIso(serial)).toBe(iso);
    expect(isoToSerial(iso)).toBe(serial);
  });

  it.each([
    [45292.25, "2024-01-01"],
    [45292.999999, "2024-01-01"],
    [1.5, "1900-01-01"],
    [61.9, "1900-03-01"],
  ])("drops the time of day: %d is %s", (serial, iso) => {
    expect(serialToIso(serial)).toBe(iso);
  });

  it.each([
    [60, /1900-02-29.*does not exist/],
    [60.5, /1900-02-29/],
    [0, /before 1/],
    [0.5, /before 1/],
    [-1, /before 1/],
    [MAX_EXCEL_SERIAL + 1, /after/],
    [NaN, /not an Excel date/],
    [Infinity, /not an Excel date/],
    [-Infinity, /not an Excel date/],
  ])("refuses serial %d", (serial, message) => {
    expect(() => serialToIso(serial)).toThrow(message);
  });

  it.each([
    ["1899-12-31", /before 1900-01-01/],
    ["1900-02-29", /not a YYYY-MM-DD date/],
    ["2023-02-29", /not a YYYY-MM-DD date/],
    ["2024-13-01", /not a YYYY-MM-DD date/],
    ["2024-1-01", /not a YYYY-MM-DD date/],
    ["20240101", /not a YYYY-MM-DD date/],
  ])("refuses the date %s", (iso, message) => {
    expect(() => isoToSerial(iso)).toThrow(message);
  });

  it("consecutive days are consecutive serials, except across the phantom 1900-02-29", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_EXCEL_SERIAL - 1 }), (serial) => {
        fc.pre(serial !== 59 && serial !== 60);
        expect(isoToSerial(addDays(serialToIso(serial), 1))).toBe(serial + 1);
      }),
    );
    expect(isoToSerial(addDays(serialToIso(59), 1))).toBe(61);
  });

  it("round-trips every serial but 60", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_EXCEL_SERIAL }), (serial) => {
        fc.pre(serial !== 60);
        expect(isoToSerial(serialToIso(serial))).toBe(serial);
      }),
    );
  });

  it("does not depend on the process time zone", () => {
    // The conversion is pure UTC-day arithmetic: compare with JavaScript's own UTC calendar.
    const base = Date.UTC(1899, 11, 30);
    fc.assert(
      fc.property(fc.integer({ min: 61, max: 80000 }), (serial) => {
        expect(serialToIso(serial)).toBe(new Date(base + serial * 86_400_000).toISOString().slice(0, 10));
      }),
    );
  });
});
