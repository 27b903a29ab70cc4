/**
 * The pane's Trace (`PaneServices.trace`): a cell's formula joined with what
 * the runtime recorded of the MD calls it makes (src/office/call-records.ts:
 * the call as read, the requests that answered it, the days covered and
 * settled, the points dropped, the corrections), the formula that reproduces
 * each value later, and the history a recheck revised since a refresh began.
 * It reads records only: the Trace never sends a request.
 */
import type { Revision } from "../api";
import { callMatchesRecord, mdCallsIn, pinnedFormula, type FormulaCall } from "../core/call-formula";
import type { CallRecord, CallRecords, CallTrace } from "./call-records";
import { cellSelectionFor, type CellSelection, type SelectionOffice } from "./workbook/selected-cell";
import type { ExcelRunner } from "./workbook/excel-batch";

/** One MD call of a cell's formula: its latest recorded run (null: none this session), and the pinned formula. */
export interface TracedCall {
  call: FormulaCall;
  trace: CallTrace | null;
  pinned: string | null;
}

/** A history value a recheck corrected, and the call that read it. */
export interface RevisedValue {
  call: string;
  revision: Revision;
}

export interface RecordsTrace {
  callsOf(formula: string): TracedCall[];
  /** Hears each start and settlement of an MD call; returns the unsubscribe. */
  watchCalls(listener: () => void): () => void;
  /** Corrections that arrived since `since` (ms since the epoch), for calls that settled since then. */
  revisedSince(since: number): RevisedValue[];
}

/** What the pane's Trace view uses: the records, and the workbook's selection. */
export interface PaneTrace extends RecordsTrace {
  selection: CellSelection;
}

/** The local calendar day of a time, YYYY-MM-DD (what TODAY meant when the call ran). */
function localDay(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The day that pins a value: the reading's (or the window's last) day, else the day the call ran. */
function pinDay(record: CallRecord): string {
  return record.facts?.[0]?.date ?? localDay(record.settledAt ?? record.startedAt);
}

export function traceOfRecords(records: () => CallRecords | undefined): RecordsTrace {
  return {
    callsOf(formula) {
      const held = records();
      const all = held?.all() ?? [];
      return mdCallsIn(formula).map((call) => {
        // The latest run that can be this call (a reference argument matches what it read).
        let found: CallRecord | undefined;
        for (let i = all.length - 1; i >= 0 && !found; i--) if (callMatchesRecord(call, all[i]!)) found = all[i];
        const trace = found ? (held!.forCall(found.key) ?? null) : null;
        return { call, trace, pinned: trace ? pinnedFormula(trace, pinDay(trace)) : null };
      });
    },
    watchCalls(listener) {
      return records()?.subscribe(() => listener()) ?? (() => undefined);
    },
    revisedSince(since) {
      const held = records();
      const revised: RevisedValue[] = [];
      const seen = new Set<string>();
      for (const record of held?.all() ?? []) {
        if ((record.settledAt ?? 0) < since) continue;
        for (const revision of held!.forCall(record.key)?.revisions ?? []) {
          const id = `${record.key}\u0000${revision.date}`;
          if (revision.at < since || seen.has(id)) continue;
          seen.add(id);
          revised.push({ call: record.key, revision });
        }
      }
      return revised;
    },
  };
}

/** The Trace over the runtime's records and a workbook's selection. */
export function paneTrace(selection: CellSelection, records: () => CallRecords | undefined): PaneTrace {
  return { ...traceOfRecords(records), selection };
}

/** Inside Excel, the Trace over Excel's selection; elsewhere none (the demo workbook brings its own). */
export function paneTraceForHost(
  host: string | null,
  records: () => CallRecords | undefined,
  globals: { Excel?: ExcelRunner; Office?: SelectionOffice } = globalThis as unknown as {
    Excel?: ExcelRunner;
    Office?: SelectionOffice;
  },
): PaneTrace | undefined {
  const { Excel: excel, Office: office } = globals;
  if (host !== "Excel" || typeof excel?.run !== "function" || !office) return undefined;
  return paneTrace(cellSelectionFor({ Excel: excel, Office: office }), records);
}
