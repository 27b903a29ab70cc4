/**
 * The pane's Trace for component tests: the real records trace
 * (src/office/cell-trace.ts) over real CallRecords and an AnswerLog the test
 * fills, and a selection the test moves (as Office's DocumentSelectionChanged
 * would tell the pane), recording the cells the pane asked Excel to select.
 */
import { AnswerLog } from "../../src/api/answer-log";
import { CallRecords } from "../../src/office/call-records";
import { paneTrace, type PaneTrace } from "../../src/office/cell-trace";
import type { SelectedCell } from "../../src/office/workbook/selected-cell";

export function fakeTrace(now: () => number = () => Date.UTC(2024, 4, 10, 12)) {
  const log = new AnswerLog();
  const records = new CallRecords(() => log, now);
  const listeners = new Set<() => void>();
  let cell: SelectedCell | null = null;
  const selected: string[] = [];
  const trace: PaneTrace = paneTrace(
    {
      watch(listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      read: async () => cell,
      async select(sheet, address) {
        selected.push(`${sheet}!${address}`);
      },
    },
    () => records,
  );
  return {
    trace,
    log,
    records,
    selected,
    /** The user selects a cell: the pane hears the event. */
    select(next: SelectedCell) {
      cell = next;
      listeners.forEach((listener) => listener());
    },
  };
}
