/**
 * The workbook's date system, asked of Excel once per runtime. Mac workbooks
 * often use the 1904 system, where a date's serial is 1,462 less than in the
 * 1900 system; reading or writing serials in the wrong one puts every date
 * four years and a day off.
 *
 * Excel's own DATE function tells: DATE(1904,1,1) is 0 under the 1904 system
 * and 1462 under 1900 (`Workbook.functions.date`, ExcelApi 1.2). The direct
 * property, `Workbook.use1904DateSystem`, is not in @types/office-js 1.0.612
 * (it appeared in the preview API set), so it is not relied on. Custom
 * functions in a shared runtime may call Excel's API to "get information from
 * Excel before calculation" (Learn, "Call Excel JavaScript APIs from a custom
 * function"); the question is asked once, after Office is ready, and bounded:
 * where Excel cannot answer (no Excel API, or no answer in time) the 1900
 * system, Excel's default, is assumed.
 */
import type { DateSystem } from "../core/excel-date";
import { officeReady, withTimeout, type OfficeReadyGlobals } from "./office-ready";

interface ExcelRunner {
  run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
}

export interface DateSystemGlobals extends OfficeReadyGlobals {
  Excel?: ExcelRunner;
}

export const DATE_SYSTEM_TIMEOUT_MS = 5_000;

/** The first call asks Excel; every later call gets the same answer. */
export function dateSystemOfWorkbook(
  globals: DateSystemGlobals = globalThis as DateSystemGlobals,
  timeoutMs = DATE_SYSTEM_TIMEOUT_MS,
): () => Promise<DateSystem> {
  let known: Promise<DateSystem> | null = null;
  return () => (known ??= withTimeout(ask(globals, timeoutMs), timeoutMs, 1900 as const));
}

async function ask(globals: DateSystemGlobals, timeoutMs: number): Promise<DateSystem> {
  await officeReady(globals, timeoutMs);
  const excel = globals.Excel;
  if (typeof excel?.run !== "function") return 1900;
  try {
    const serial = await excel.run(async (context) => {
      const date = context.workbook.functions.date(1904, 1, 1);
      date.load("value");
      await context.sync();
      return date.value;
    });
    return serial === 0 ? 1904 : 1900;
  } catch {
    return 1900;
  }
}
