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
 * function"); the question is asked after Office is ready, and bounded.
 *
 * Only a real answer is kept for the session. Where Excel cannot answer now
 * (Office not ready in time, the batch failing or timing out while Excel is
 * busy) the calls of that moment get the 1900 system, Excel's default, and
 * the next call asks again: caching a guess would put every date of a 1904
 * workbook opened while Excel was busy four years off, silently, for the
 * whole session. A host with no Excel API once Office is ready (the pane in
 * a browser) has no workbook to ask: 1900 is its answer.
 */
import type { DateSystem } from "../../core/excel-date";
import { runBatch, type ExcelRunner } from "../workbook/excel-batch";
import { officeReady, withTimeout, type OfficeReadyGlobals } from "../office-ready";

export interface DateSystemGlobals extends OfficeReadyGlobals {
  Excel?: ExcelRunner;
}

export const DATE_SYSTEM_TIMEOUT_MS = 5_000;

/**
 * The first call asks Excel; callers while it asks share the question; once
 * Excel has answered, every later call gets that answer without asking.
 */
export function dateSystemOfWorkbook(
  globals: DateSystemGlobals = globalThis as DateSystemGlobals,
  timeoutMs = DATE_SYSTEM_TIMEOUT_MS,
): () => Promise<DateSystem> {
  let known: DateSystem | undefined;
  let asking: Promise<DateSystem | undefined> | null = null;
  return async () => {
    if (known !== undefined) return known;
    asking ??= withTimeout(ask(globals, timeoutMs), timeoutMs, undefined).then((answer) => {
      asking = null;
      if (answer !== undefined) known = answer;
      return answer;
    });
    return (await asking) ?? 1900;
  };
}

/** Excel's answer, or undefined when it gave none (not ready in time, the batch failed). */
async function ask(globals: DateSystemGlobals, timeoutMs: number): Promise<DateSystem | undefined> {
  if (!(await officeReady(globals, timeoutMs))) return undefined;
  const excel = globals.Excel;
  if (typeof excel?.run !== "function") return 1900;
  try {
    const serial = await runBatch(excel, async (context) => {
      const date = context.workbook.functions.date(1904, 1, 1);
      date.load("value");
      await context.sync();
      return date.value;
    });
    if (serial === 0) return 1904;
    if (serial === 1462) return 1900;
    return undefined;
  } catch {
    return undefined;
  }
}
