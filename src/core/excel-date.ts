/**
 * Excel's date serials, in both of its date systems (a workbook uses one; Mac
 * workbooks often the 1904 one).
 *
 * 1900 system: serial 1 is 1900-01-01 and each whole number is one day. Excel
 * (copying Lotus 1-2-3) counts a 1900-02-29 that never existed as serial 60,
 * so serials 1–59 sit one day off from those from 61 on.
 * 1904 system: serial 0 is 1904-01-01, no phantom day; a date's 1904 serial is
 * its 1900 serial minus 1,462 (MS-XLS "Date1904": "The first date of the 1904
 * date system is 00:00:00 on January 1, 1904, specified by a serial value of 0").
 *
 * Decisions:
 * - Serial 60 in the 1900 system is refused: it names a date that does not
 *   exist, just as the text "1900-02-29" is refused. (Market data starts long
 *   after 1900; silently moving it to a neighbour would hide a typo.)
 * - A time fraction is dropped (floored): 45292.75 is 2024-01-01.
 * - Before the system's first date, NaN, infinities and past 9999-12-31 are
 *   refused.
 * Arithmetic is on UTC days, so the local time zone never shifts a date.
 * The date system is passed in: core knows nothing of the workbook.
 */
import { epochDayOf, isoOfEpochDay } from "./calendar";

export type DateSystem = 1900 | 1904;

/** Serial of 1970-01-01: days from Excel's epoch (1899-12-30, counting the phantom leap day). */
const SERIAL_OF_UNIX_EPOCH = 25569;
const PHANTOM_LEAP_DAY = 60;
/** 1904-01-01 in the 1900 system: what a 1904 serial is shifted by. */
export const DATE_1904_OFFSET = 1462;
export const MAX_EXCEL_SERIAL = 2958465;

/** The last serial (9999-12-31) and the first one of each system. */
export function serialRange(system: DateSystem): { first: number; last: number; firstDate: string } {
  return system === 1904
    ? { first: 0, last: MAX_EXCEL_SERIAL - DATE_1904_OFFSET, firstDate: "1904-01-01" }
    : { first: 1, last: MAX_EXCEL_SERIAL, firstDate: "1900-01-01" };
}

/** A date's serial in the 1900 date system. */
export function isoToSerial(iso: string): number {
  return isoToSerialIn(iso, 1900);
}

/** A serial of the 1900 date system as a date. */
export function serialToIso(serial: number): string {
  return serialToIsoIn(serial, 1900);
}

export function isoToSerialIn(iso: string, system: DateSystem): number {
  const epochDay = epochDayOf(iso);
  if (epochDay === null) throw new RangeError(`"${iso}" is not a YYYY-MM-DD date`);
  const { firstDate } = serialRange(system);
  if (system === 1904) {
    const serial = epochDay + SERIAL_OF_UNIX_EPOCH - DATE_1904_OFFSET;
    if (serial < 0)
      throw new RangeError(`${iso} is before ${firstDate}, the first date of this workbook (1904 date system)`);
    if (serial > MAX_EXCEL_SERIAL - DATE_1904_OFFSET)
      throw new RangeError(`${iso} is after 9999-12-31, the last Excel date`);
    return serial;
  }
  let serial = epochDay + SERIAL_OF_UNIX_EPOCH;
  if (serial <= PHANTOM_LEAP_DAY) serial -= 1;
  if (serial < 1) throw new RangeError(`${iso} is before ${firstDate}, the first Excel date`);
  if (serial > MAX_EXCEL_SERIAL) throw new RangeError(`${iso} is after 9999-12-31, the last Excel date`);
  return serial;
}

export function serialToIsoIn(serial: number, system: DateSystem): string {
  if (typeof serial !== "number" || !Number.isFinite(serial)) throw new RangeError(`${serial} is not an Excel date`);
  const whole = Math.floor(serial);
  const { first, last } = serialRange(system);
  if (whole < first)
    throw new RangeError(
      system === 1904
        ? `${serial} is before 0 (1904-01-01), the first date of this workbook (1904 date system)`
        : `${serial} is before 1 (1900-01-01), the first Excel date`,
    );
  if (whole > last) throw new RangeError(`${serial} is after ${last} (9999-12-31), the last Excel date`);
  if (system === 1904) return isoOfEpochDay(whole - SERIAL_OF_UNIX_EPOCH + DATE_1904_OFFSET);
  if (whole === PHANTOM_LEAP_DAY)
    throw new RangeError(`60 is 1900-02-29, a day that does not exist (Excel's 1900 leap-year quirk)`);
  const epochDay = whole - SERIAL_OF_UNIX_EPOCH + (whole < PHANTOM_LEAP_DAY ? 1 : 0);
  return isoOfEpochDay(epochDay);
}
