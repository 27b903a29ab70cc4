/**
 * One action of the Refresh section at a time: while it runs every control
 * waits (`busy` is its label), and what it did is the section's one outcome.
 */
import { useState } from "react";
import type { PaneRefreshResult } from "../../refresh/pane-actions";
import { formatDuration } from "../../refresh/summary";
import { errorText } from "../shared/error-text";

export type Outcome = {
  intent: "success" | "warning" | "error";
  text: string;
  failures?: PaneRefreshResult["failures"];
};

export function summariseRefresh(verb: "Refreshed" | "Reloaded" | "Froze", result: PaneRefreshResult): Outcome {
  if (result.note) return { intent: "warning", text: result.note };
  const failed = result.failures?.length ?? 0;
  const cells = `${result.cells.toLocaleString("en-US")} cell${result.cells === 1 ? "" : "s"}`;
  const took = formatDuration(result.ms);
  if (failed === 0) return { intent: "success", text: `${verb} ${cells} in ${took}.` };
  return { intent: "warning", text: `${verb} ${cells} in ${took}; ${failed} failed.`, failures: result.failures };
}

/** Undo freeze: its sentence, and the cells left alone (changed since the freeze) listed like failures. */
export function summariseUndo(result: PaneRefreshResult): Outcome {
  const left = result.failures ?? [];
  return {
    intent: result.cells === 0 ? "warning" : left.length > 0 ? "warning" : "success",
    text: result.note ?? `Restored ${result.cells} formula(s).`,
    failures: left,
  };
}

export type RunAction = (label: string, action: () => Promise<Outcome>) => Promise<void>;

export function useRefreshRun(): { busy: string | null; outcome: Outcome | null; run: RunAction } {
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  async function run(label: string, action: () => Promise<Outcome>) {
    setBusy(label);
    setOutcome(null);
    try {
      setOutcome(await action());
    } catch (error) {
      setOutcome({ intent: "error", text: errorText(error) });
    } finally {
      setBusy(null);
    }
  }
  return { busy, outcome, run };
}
