/**
 * The common frame of every MD function: build the call's context from Excel's
 * invocation, run the work, hand Excel cells it can hold, and turn any failure
 * into a CustomFunctions.Error. Nothing escapes as a raw exception. Each call
 * is counted in the runtime's CallTracker from start to settlement, which is
 * how a refresh knows the functions have finished (src/office/call-tracker.ts).
 */
import type { CellValue } from "../core/cell";
import { localToday } from "../core/calendar";
import { type FormattedTable, type FormattedValue, isFormattedTable, isFormattedValue } from "../core/number-format";
import {
  type DataTypeSupport,
  dataTypeSupport,
  type ExcelValue,
  toExcelValue,
  toExcelValues,
} from "../office/cell-values";
import { isExcelError, toCustomFunctionsError } from "../office/errors";
import { getClient, getRuntime } from "../office/runtime";
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

export async function contextFor(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  support: DataTypeSupport = "none",
): Promise<CallContext> {
  const controller = new AbortController();
  if (invocation) invocation.onCanceled = () => controller.abort();
  return {
    client: getClient(),
    today: localToday(),
    // A preview must never start a request: the client answers from its cache or an in-flight request, or refuses.
    call: { signal: controller.signal, cacheOnly: isValuePreview(invocation) },
    cellFormats: support !== "none",
    dateSystem: await getRuntime().dateSystem(),
  };
}

export async function invokeTable(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<CellValue[][] | FormattedTable>,
): Promise<ExcelValue[][]> {
  const settle = getRuntime().calls.begin();
  try {
    const support = dataTypeSupport();
    const result = await work(await contextFor(invocation, support));
    return isFormattedTable(result)
      ? toExcelValues(result.rows, result.formatAt, support)
      : toExcelValues(result, undefined, support);
  } catch (error) {
    throw toCustomFunctionsError(error);
  } finally {
    settle();
  }
}

export async function invokeValue(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<CellValue | FormattedValue>,
): Promise<ExcelValue> {
  const settle = getRuntime().calls.begin();
  let cell: ExcelValue;
  try {
    const support = dataTypeSupport();
    const result = await work(await contextFor(invocation, support));
    cell = isFormattedValue(result)
      ? toExcelValue(result.value, result.format, support)
      : toExcelValue(result, null, support);
  } catch (error) {
    throw toCustomFunctionsError(error);
  } finally {
    settle();
  }
  if (isExcelError(cell)) throw cell;
  return cell;
}

/** A synchronous function's call, counted like the others so a refresh sees it run. */
export function invokeSync<T>(work: () => T): T {
  const settle = getRuntime().calls.begin();
  try {
    return work();
  } finally {
    settle();
  }
}
