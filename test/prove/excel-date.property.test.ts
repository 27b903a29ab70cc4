/**
 * Property tests of Excel date serials (src/core/excel-date): round trips over
 * the whole valid range, agreement with an independent oracle built on
 * Date.UTC, and refusals that are RangeErrors with a message, never a wrong
 * date or another exception.
 */
import fc from "fast-check";
import { isIsoDate } from "../../src/core/calendar";
import { isoToSerial, MAX_EXCEL_SERIAL, serialToIso } from "../../src/core/excel-date";
import { anyText, EXCEL_FIRST_DAY, EXCEL_LAST_DAY, excelIsoDate, isoOfDay } from "../support/excel-values";

const RUNS = { numRuns: Number(process.env.MD_PROPERTY_RUNS ?? 2000) };
const DAY_MS = 86_400_000;

/**
 * The oracle, from Excel's documented rule: serial n is 1899-12-30 + n days
 * from 61 on (the epoch moved back one day by the phantom 1900-02-29), and
 * 1899-12-31 + n days below 60.
 */
function oracleIso(serial: number): string {
  const epoch = serial >= 61 ? Date.UTC(1899, 11, 30) : Date.UTC(1899, 11, 31);
  return new Date(epoch + serial * DAY_MS).toISOString().slice(0, 10);
}

/** Valid serials: 1 … 2958465 without 60. */
const validSerial = fc.integer({ min: 1, max: MAX_EXCEL_SERIAL }).filter((n) => n !== 60);

/** A function's result, or the error it threw (which must be a RangeError with a message). */
function refusal(run: () => unknown): RangeError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof RangeError))
      throw new Error(`expected a RangeError, got ${String(error)}`, { cause: error });
    expect(error.message.length).toBeGreaterThan(10);
    return error;
  }
}

describe("Excel date serials", () => {
  it("serial → ISO → serial is the identity over the valid range", () => {
    fc.assert(
      fc.property(validSerial, (serial) => {
        const iso = serialToIso(serial);
        expect(isIsoDate(iso)).toBe(true);
        expect(isoToSerial(iso)).toBe(serial);
      }),
      RUNS,
    );
  });

  it("ISO → serial → ISO is the identity from 1900-01-01 to 9999-12-31", () => {
    fc.assert(
      fc.property(excelIsoDate, (iso) => {
        const serial = isoToSerial(iso);
        expect(Number.isInteger(serial)).toBe(true);
        expect(serial >= 1 && serial <= MAX_EXCEL_SERIAL && serial !== 60).toBe(true);
        expect(serialToIso(serial)).toBe(iso);
      }),
      RUNS,
    );
  });

  it("agrees with the Date.UTC oracle, and consecutive serials are consecutive days", () => {
    fc.assert(
      fc.property(validSerial, (serial) => {
        expect(serialToIso(serial)).toBe(oracleIso(serial));
        const next = serial + 1 === 60 ? 61 : serial + 1;
        if (next <= MAX_EXCEL_SERIAL) {
          const gap = (Date.parse(serialToIso(next)) - Date.parse(serialToIso(serial))) / DAY_MS;
          expect(gap).toBe(1);
        }
      }),
      RUNS,
    );
  });

  it("a time of day is dropped: serial + fraction is the serial's date", () => {
    fc.assert(
      fc.property(validSerial, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (serial, fraction) => {
        const value = serial + fraction;
        fc.pre(Math.floor(value) === serial); // 2958465.9999999995 rounds up in floating point
        expect(serialToIso(value)).toBe(serialToIso(serial));
      }),
      RUNS,
    );
  });

  it("the edges: 1 is 1900-01-01, 59 is 1900-02-28, 61 is 1900-03-01, 2958465 is 9999-12-31; 0, 60 and 2958466 are refused", () => {
    expect([1, 59, 61, MAX_EXCEL_SERIAL].map(serialToIso)).toEqual([
      isoOfDay(EXCEL_FIRST_DAY),
      "1900-02-28",
      "1900-03-01",
      isoOfDay(EXCEL_LAST_DAY),
    ]);
    for (const bad of [0, 60, MAX_EXCEL_SERIAL + 1, -1, 0.5]) expect(refusal(() => serialToIso(bad))).not.toBeNull();
  });

  it("any other number is refused with a RangeError, never turned into a wrong date", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer()), (value) => {
        const error = refusal(() => serialToIso(value));
        const valid =
          Number.isFinite(value) &&
          Math.floor(value) >= 1 &&
          Math.floor(value) <= MAX_EXCEL_SERIAL &&
          Math.floor(value) !== 60;
        expect(error === null).toBe(valid);
      }),
      RUNS,
    );
  });

  it("any text is either a date in Excel's range or refused with a RangeError", () => {
    const datesOutside = fc.integer({ min: Date.UTC(1000, 0, 1) / DAY_MS, max: EXCEL_FIRST_DAY - 1 }).map(isoOfDay);
    const impossible = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
      .map(([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
    fc.assert(
      fc.property(fc.oneof(anyText, datesOutside, impossible, excelIsoDate), (text) => {
        const error = refusal(() => isoToSerial(text));
        const real = isIsoDate(text) && text >= "1900-01-01" && text <= "9999-12-31";
        expect(error === null).toBe(real);
      }),
      RUNS,
    );
  });
});
