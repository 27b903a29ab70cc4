/**
 * The common frame of every MD function: build the call's context from Excel's
 * invocation, run the work, hand Excel cells it can hold, and turn any failure
 * into a CustomFunctions.Error. Nothing escapes as a raw exception. Each call
 * is counted in the runtime's CallTracker from start to settlement, which is
 * how a refresh knows the functions have finished (src/office/call-tracker.ts).
 */
import { CallSignal, TimeoutError } from "../api";
import { type AssetCard, shapeAssetTable } from "../core/asset-card";
import type { CellValue } from "../core/cell";
import type { DateSystem } from "../core/excel-date";
import { localToday } from "../core/calendar";
import { type FormattedTable, type FormattedValue, isFormattedTable, isFormattedValue } from "../core/number-format";
import {
  type DataTypeSupport,
  dataTypeSupport,
  type ExcelValue,
  toExcelValue,
  toExcelValuesWithinLimit,
} from "../office/cells/cell-values";
import { type EntityValue, toEntityValue } from "../office/cells/entity-value";
import { showsProperties } from "../office/cells/value-properties";
import { isExcelError, toCustomFunctionsError } from "../office/cells/errors";
import { getRuntime } from "../office/runtime";
import type { CallHandle } from "../office/call-records";
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
 * function's request at 60 s (office-js #1184). The client's own per-call
 * deadline (50 s) is shorter, so a single slow request fails with its own
 * message first; this bounds the calls a cell makes one after another (a
 * history walk, a catalog looked up after a series).
 */
export const CELL_DEADLINE_MS = 55_000;

/**
 * The call's context. `signal`: the cell's (cancel-signal.ts), aborted when
 * Excel cancels the cell, at its deadline, or when its work failed.
 */
function contextFor(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  support: DataTypeSupport,
  signal: CallSignal,
  dateSystem: DateSystem,
  record: CallHandle | undefined,
): CallContext {
  const ctx: CallContext = {
    client: getRuntime().client,
    today: userToday(),
    // A preview must never start a request: the client answers from its cache or an in-flight request, or refuses.
    call: { signal, cacheOnly: isValuePreview(invocation) },
    cellFormats: support !== "none",
    dateSystem,
  };
  if (showsProperties(support)) ctx.cellProperties = true;
  if (record) ctx.record = record;
  return ctx;
}

/** A call as the add-in read it: the function's name (no prefix) and its arguments, for its record (call-records.ts). */
export interface CallName {
  fn: string;
  args: readonly unknown[];
}

/** The user's date and the local day it holds for (ms since the epoch, from and until): every cell asks it. */
let heldToday = { today: "", from: 0, until: 0 };

/** localToday, worked out again only when the clock leaves the local day it was worked out for. */
function userToday(): string {
  const now = Date.now();
  if (now < heldToday.from || now >= heldToday.until) {
    const date = new Date(now);
    const [year, month, day] = [date.getFullYear(), date.getMonth(), date.getDate()];
    heldToday = {
      today: localToday(date),
      from: new Date(year, month, day).getTime(),
      until: new Date(year, month, day + 1).getTime(),
    };
  }
  return heldToday.today;
}

/**
 * Runs a cell's work, its context included, against its deadline: at the
 * deadline the cell fails with a TimeoutError and its requests are dropped
 * (aborted when nobody else waits for them), as they are when the work fails. `deadlineMs` null: the work
 * keeps its own (MD.INSIGHTS answers by 58 s and lets its load carry on).
 */
function withinDeadline<T>(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  support: DataTypeSupport,
  work: (ctx: CallContext) => Promise<T>,
  deadlineMs: number | null,
  record?: CallHandle,
): Promise<T> {
  const signal = new CallSignal();
  if (invocation) invocation.onCanceled = () => signal.abort();
  // Promise chains rather than async functions here and in the frames below: every cell of a cold workbook waits
  // in them at once, and a suspended async function holds its frame (and a promise for each one it returns) while it waits.
  const run = () =>
    getRuntime()
      .dateSystem()
      .then((dateSystem) => work(contextFor(invocation, support, signal, dateSystem, record)));
  if (deadlineMs === null) return run();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new TimeoutError(`No answer from the market-data service within ${Math.round(deadlineMs / 1000)} s.`));
      signal.abort();
    }, deadlineMs);
    run().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
        // Calls the work started beside the one that failed are nobody's any more: dropped, not left to run.
        signal.abort();
      },
    );
  });
}

/**
 * `work`'s answer through `shape` (the cell Excel is handed), any failure as a
 * CustomFunctions.Error, the call counted from start to settlement.
 */
function framed<T, R>(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<T>,
  deadlineMs: number | null,
  name: CallName | undefined,
  shape: (result: T, support: DataTypeSupport) => R,
): Promise<R> {
  const runtime = getRuntime();
  const settle = runtime.calls.begin();
  const record = name && !isValuePreview(invocation) ? runtime.records?.begin(name.fn, name.args) : undefined;
  let support: DataTypeSupport;
  let working: Promise<T>;
  try {
    support = dataTypeSupport();
    working = withinDeadline(invocation, support, work, deadlineMs, record);
  } catch (error) {
    settle();
    record?.settle(error);
    return Promise.reject(toCustomFunctionsError(error));
  }
  return working.then(
    (result) => {
      try {
        const shaped = shape(result, support);
        record?.settle();
        return shaped;
      } catch (error) {
        record?.settle(error);
        throw toCustomFunctionsError(error);
      } finally {
        settle();
      }
    },
    (error: unknown) => {
      settle();
      record?.settle(error);
      throw toCustomFunctionsError(error);
    },
  );
}

export function invokeTable(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<CellValue[][] | FormattedTable>,
  deadlineMs: number | null = CELL_DEADLINE_MS,
  name?: CallName,
): Promise<ExcelValue[][]> {
  return framed(invocation, work, deadlineMs, name, (result, support) => {
    const sent = isFormattedTable(result)
      ? toExcelValuesWithinLimit(result.rows, result.formatAt, support, result.provenanceAt)
      : toExcelValuesWithinLimit(result, undefined, support);
    if (sent.note) noteResult(invocation, sent.note);
    return sent.values;
  });
}

export function invokeValue(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<CellValue | FormattedValue>,
  deadlineMs: number | null = CELL_DEADLINE_MS,
  name?: CallName,
): Promise<ExcelValue> {
  return framed(invocation, work, deadlineMs, name, (result, support) => {
    const cell = isFormattedValue(result)
      ? toExcelValue(result.value, result.format, support, result.provenance)
      : toExcelValue(result, null, support);
    // An error cell is thrown as it is (toCustomFunctionsError hands a CustomFunctions.Error back unchanged).
    if (isExcelError(cell)) throw cell;
    return cell;
  });
}

/**
 * MD.ASSET's frame: the card as an entity value (one cell, `[[entity]]`) where
 * the host has data types in custom functions, laid flat as a two-column
 * property/value table where it has not (Excel 2021, older builds) or where
 * the formula asks for the table (`table=true`). One shape
 * for both, a matrix, because only a matrix result may spill the table.
 */
export function invokeCard(
  invocation: CustomFunctions.CancelableInvocation | undefined,
  work: (ctx: CallContext) => Promise<{ card: AssetCard; table: boolean }>,
  name?: CallName,
): Promise<(ExcelValue | EntityValue)[][]> {
  return framed(invocation, work, CELL_DEADLINE_MS, name, ({ card, table: asTable }, support) => {
    if (support !== "none" && !asTable) return [[toEntityValue(card, support)]];
    const table = shapeAssetTable(card);
    return toExcelValuesWithinLimit(table.rows, table.formatAt, support).values;
  });
}

/**
 * Something the user should know about a result that the cell cannot say (a
 * table sent without its formats): a console line, and a note in the runtime's
 * call tracker, which the pane reads (getRuntime().calls.notes()).
 */
function noteResult(invocation: CustomFunctions.CancelableInvocation | undefined, note: string): void {
  const name = invocation?.functionName ? `MD.${invocation.functionName.replace(/^MD\./i, "")}` : "An MD function";
  const text = `${name}: ${note}`;
  console.warn(`[Market Data] ${text}`);
  getRuntime().calls.note(text);
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
