/**
 * The tests' "today": a suite that starts a sandbox, drives a client or
 * opens a store and speaks of "today" fixes it to this day instead of reading
 * the clock, so windows that end today, the unsettled newest days and every
 * value computed from them are the same on every run, whatever the calendar
 * says (and a failure seen once can be seen again). A Sunday in the middle of
 * a year: equities have no price on it, and no month, quarter or year ends
 * near it.
 *
 * Suites whose golden values were worked out on another day keep that day,
 * named where they fix it (the sandbox's own suites, test/support/sandbox.ts;
 * the demo catalog's fiscal calendar). The bundle and browser suites use the
 * real date on purpose: Excel's TODAY and the default as_of must agree with the
 * sandbox's own today, as they do for a user.
 */
export const TEST_TODAY = "2025-06-15";
