/**
 * Excel's 1900 date system: serial 1 is 1900-01-01 and each whole number is one
 * day. Excel (copying Lotus 1-2-3) counts a 1900-02-29 that never existed as
 * serial 60, so serials 1–59 sit one day off from those from 61 on.
 *
 * Decisions:
 * - Serial 60 is refused: it names a date that does not exist, just as the
 *   text "1900-02-29" is refused. (Market data starts long after 1900; silently
 *   moving it to a neighbour would hide a typo.)
 * - A time fraction is dropped (floored): 45292.75 is 2024-01-01.
 * - Below 1 (including serial 0, Excel's "1900-01-00"), NaN, infinities and
 *   past 9999-12-31 (2958465, Excel's last date) are refused.
 * Arithmetic is on UTC days, so the local time zone never shifts a date.
 */
import { epochDayOf, isoOfEpochDay } from "./calendar";

/** Serial of 1970-01-01: days from Excel's epoch (1899-12-30, counting the phantom leap day). */
const SERIAL_OF_UNIX_EPOCH = 25569;
const PHANTOM_LEAP_DAY = 60;
export const MAX_EXCEL_SERIAL = 2958465;

export function isoToSerial(iso: string): number {
  const epochDay = epochDayOf(iso);
  if (epochDay === null) throw new RangeError(`"${iso}" is not a YYYY-MM-DD date`);
  let serial = epochDay + SERIAL_OF_UNIX_EPOCH;
  if (serial <= PHANTOM_LEAP_DAY) serial -= 1;
  if (serial < 1) throw new RangeError(`${iso} is before 1900-01-01, the first Excel date`);
  if (serial > MAX_EXCEL_SERIAL) throw new RangeError(`${iso} is after 9999-12-31, the last Excel date`);
  return serial;
}

export function serialToIso(serial: number): string {
  if (typeof serial !== "number" || !Number.isFinite(serial)) throw new RangeError(`${serial} is not an Excel date`);
  const whole = Math.floor(serial);
  if (whole < 1) throw new RangeError(`${serial} is before 1 (1900-01-01), the first Excel date`);
  if (whole > MAX_EXCEL_SERIAL)
    throw new RangeError(`${serial} is after ${MAX_EXCEL_SERIAL} (9999-12-31), the last Excel date`);
  if (whole === PHANTOM_LEAP_DAY)
    throw new RangeError(`60 is 1900-02-29, a day that does not exist (Excel's 1900 leap-year quirk)`);
  const epochDay = whole - SERIAL_OF_UNIX_EPOCH + (whole < PHANTOM_LEAP_DAY ? 1 : 0);
  return isoOfEpochDay(epochDay);
}
