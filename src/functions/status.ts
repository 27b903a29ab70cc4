/**
 * MD.STATUS: whether the workbook's MD calls have all settled, as a streaming
 * cell ("Up to date 10:42 · 1,250 cells", "Refreshing 312 of 1,250",
 * "3 failed · 1,250 cells"), or as a number a model can test (`show`:
 * pending, failed, cells). Excel users ask for such a sign that a
 * recalculation has finished (office-js issues #4152, #6930).
 *
 * It reads the runtime's call records (src/office/call-records.ts) and hears
 * them change: no request, and it is not a call of its own (never counted by
 * the call tracker a refresh waits on, never recorded). Identical formulas are
 * one call (Excel asks the add-in once per cell, the records keep one per
 * normalized call), and the count covers the calls made since the workbook
 * opened (the most recent MAX_CALL_RECORDS). Updates are gathered: a
 * recalculation of a thousand cells settling in one burst sets the cell once.
 *
 * Streaming functions: Microsoft Learn, "Make a streaming function"
 * (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-web-reqs):
 * `@streaming`, the last parameter a CustomFunctions.StreamingInvocation whose
 * `setResult` sets the cell and whose `onCanceled` runs when Excel stops it.
 */
import { ArgumentError } from "../core/errors";
import { plainArgument } from "../core/excel-input";
import type { CallSummary } from "../office/call-records";
import { toCustomFunctionsError } from "../office/cells/errors";
import { getRuntime } from "../office/runtime";

export const STATUS_SHOWS = ["text", "pending", "failed", "cells"] as const;
export type StatusShow = (typeof STATUS_SHOWS)[number];

export function parseStatusShow(value: unknown): StatusShow {
  if (value === null || value === undefined || value === "") return "text";
  const said = String(value).trim().toLowerCase();
  const show = STATUS_SHOWS.find((name) => name === said);
  if (!show) throw new ArgumentError("show", `"${String(value)}" is not one of ${STATUS_SHOWS.join(", ")}.`);
  return show;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function clock(ms: number): string {
  const at = new Date(ms);
  return `${String(at.getHours()).padStart(2, "0")}:${String(at.getMinutes()).padStart(2, "0")}`;
}

/** What the cell shows for a summary of the records. */
export function statusValue(summary: CallSummary, show: StatusShow): string | number {
  if (show === "pending") return summary.pending;
  if (show === "failed") return summary.failed;
  if (show === "cells") return summary.total;
  const cells = `${count(summary.total)} ${summary.total === 1 ? "cell" : "cells"}`;
  if (summary.total === 0) return "No MD cells yet";
  if (summary.pending > 0) return `Refreshing ${count(summary.pending)} of ${count(summary.total)}`;
  if (summary.failed > 0) return `${count(summary.failed)} failed · ${cells}`;
  return `Up to date ${clock(summary.lastSettledAt)} · ${cells}`;
}

/** A streaming invocation as the function uses it. */
export interface StatusInvocation {
  setResult(value: unknown): void;
  onCanceled?: () => void;
}

/** Sets the cell now and on every change of the records (gathered to one update per turn), until Excel stops it. */
export function streamStatus(showArgument: unknown, invocation: StatusInvocation): void {
  let show: StatusShow;
  try {
    show = parseStatusShow(plainArgument(showArgument, "show"));
  } catch (error) {
    invocation.setResult(toCustomFunctionsError(error));
    return;
  }
  const records = getRuntime().records;
  if (!records) {
    invocation.setResult(show === "text" ? "No MD cells yet" : 0);
    return;
  }
  let last: string | number | undefined;
  let queued = false;
  const update = () => {
    queued = false;
    const value = statusValue(records.summary(), show);
    if (value === last) return;
    last = value;
    invocation.setResult(value);
  };
  const stop = records.subscribe(() => {
    if (queued) return;
    queued = true;
    setTimeout(update, 0);
  });
  invocation.onCanceled = stop;
  update();
}
