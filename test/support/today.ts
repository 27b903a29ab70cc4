/**
 * The tests' one fixed day, TEST_TODAY: a suite that starts a sandbox, drives
 * a client or opens a store and speaks of "today" fixes it to this day
 * instead of reading the clock, so windows that end today, the unsettled
 * newest days and every value computed from them are the same on every run,
 * whatever the calendar says (and a failure seen once can be seen again). A
 * Sunday in the middle of a year: equities have no price on it, and no month,
 * quarter or year ends near it. A day a suite needs beside it is named from
 * it (`addDays(TEST_TODAY, 30)`: the sandbox a month on), not written again.
 *
 * Suites whose golden values were worked out on another day keep that day,
 * named for them and said here, so no other file holds a day of its own:
 * - PANE_TODAY (below): the task pane's component suites (test/taskpane/,
 *   through makeHarness in pane-fakes.tsx);
 * - TODAY in test/support/sandbox.ts: the sandbox's own suites (a Sunday that
 *   ends a quarter and Apple's fiscal quarter);
 * - TODAY in test/support/fake-client.ts: the fake client's series and the
 *   function-call contexts over it (a Friday);
 * - the demo catalog's fiscal calendar.
 * The bundle and browser suites, and the benches, use the real date on
 * purpose: Excel's TODAY and the default as_of must agree with the sandbox's
 * own today, as they do for a user.
 */
export const TEST_TODAY = "2025-06-15";

/**
 * The task pane's "today" in its component suites (the services' `today()`):
 * their expected formulas, windows and previews were worked out on this day —
 * the 1Y preset runs 2023-06-16 to 2024-06-15 over readings of June 2024, the
 * builders' as-of dates fall in the weeks before it — so it stays a year
 * before TEST_TODAY rather than moving with it.
 */
export const PANE_TODAY = "2024-06-15";
