/**
 * The common frame of every MD function: build the call's context from Excel's
 * invocation, run the work, hand Excel cells it can hold, and turn any failure
 * into a CustomFunctions.Error. Nothing escapes as a raw exception.
 */
import { TimeoutError } from "../api";
import type { CellValue } from "../core/cell";
import { localToday } from "../core/calendar";
import { type ExcelCell, toCustomFunctionsError, toExcelCell, toExcelTable } from "../office/errors";
import { getClient } from "../office/runtime";
import type { CallContext } from "./call-context";

/**
 * Excel passes `isInValuePreview` while the user is still typing the formula
 * (the value shown in the formula bar's tooltip). Typed as a string in the
 * runtime's declarations but a boolean in practice: accept both.
 */
export function isValuePreview(invocation: CustomFunctions.Invocation | undefined): boolean {
  const flag = (invocation as { isInValuePreview?: unknown } | undefined)?.isInValuePreview;
  return flag === true || flag === "true";
}

/**
 * Every cell settles within this, whatever the service does (a body that never
 * ends, retries, several requests in a row): Excel on Mac abandons a custom
 * function's request at 60 s. The client's own per-call deadline (50 s) is
 * shorter, so a single slow request fails with its own message first.
 */
export const CELL_DEADLINE_MS = 55_000;

export function contextFor(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  controller = new AbortController(),
): CallContext {
  if (invocation) invocation.onCanceled = () => controller.abort();
  return {
    client: getClient(),
    today: localToday(),
    // A preview must never start a request: the client answers from its cache or an in-flight request, or refuses.
    call: { signal: controller.signal, cacheOnly: isValuePreview(invocation) },
  };
}

/** Runs a cell's work against its deadline: at the deadline the cell fails with a TimeoutError and its requests are dropped. */
function withinDeadline<T>(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const ctx = contextFor(invocation, controller);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new TimeoutError(`No answer from the market-data service within ${Math.round(CELL_DEADLINE_MS / 1000)} s.`),
      );
      controller.abort();
    }, CELL_DEADLINE_MS);
    work(ctx).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export async function invokeTable(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<CellValue[][]>,
): Promise<ExcelCell[][]> {
  try {
    return toExcelTable(await withinDeadline(invocation, work));
  } catch (error) {
    throw toCustomFunctionsError(error);
  }
}

export async function invokeValue<T extends CellValue>(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<T>,
): Promise<number | string | boolean> {
  let cell: ExcelCell;
  try {
    cell = toExcelCell(await withinDeadline(invocation, work));
  } catch (error) {
    throw toCustomFunctionsError(error);
  }
  if (cell instanceof CustomFunctions.Error) throw cell;
  return cell;
}
