/**
 * The cell selected in the workbook, followed while the Trace is on screen:
 * read when the view shows, again on each selection change Office reports,
 * and the traces joined again as MD calls start and settle (nothing is
 * fetched: the records are the runtime's).
 */
import { useEffect, useState } from "react";
import type { PaneTrace, TracedCall } from "../../office/cell-trace";
import type { SelectedCell } from "../../office/workbook/selected-cell";

export interface SelectedTrace {
  cell: SelectedCell | null;
  calls: TracedCall[];
  error: string | null;
}

export function useSelectedTrace(trace: PaneTrace | undefined, active: boolean): SelectedTrace {
  const [cell, setCell] = useState<SelectedCell | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!trace || !active) return;
    let live = true;
    let reading = 0;
    const read = () => {
      const mine = ++reading;
      trace.selection.read().then(
        (next) => {
          if (live && mine === reading) {
            setCell(next);
            setError(null);
          }
        },
        (failure: unknown) => {
          if (live && mine === reading) setError(failure instanceof Error ? failure.message : String(failure));
        },
      );
    };
    read();
    const stopSelection = trace.selection.watch(read);
    const stopCalls = trace.watchCalls(() => setVersion((v) => v + 1));
    return () => {
      live = false;
      stopSelection();
      stopCalls();
    };
  }, [trace, active]);

  const calls = trace && cell?.formula ? trace.callsOf(cell.formula) : [];
  void version;
  return { cell, calls, error };
}
