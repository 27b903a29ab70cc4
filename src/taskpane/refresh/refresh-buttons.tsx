/** The section's buttons: refresh all, reload everything, freeze the selection or the sheet, undo the last freeze. */
import { Button, Spinner } from "@fluentui/react-components";
import type { PaneRefreshActions, PaneRefreshStatus } from "../../refresh/pane-actions";
import { useRefreshStyles } from "./refresh-styles";
import { summariseRefresh, summariseUndo, type RunAction } from "./use-refresh-run";

const PHASE_TEXT: Record<string, string> = {
  scanning: "Finding MD formulas…",
  writing: "Rewriting formulas…",
  calculating: "Calculating…",
};

export interface RefreshButtonsProps {
  actions: PaneRefreshActions;
  status: PaneRefreshStatus;
  busy: string | null;
  run: RunAction;
  /** Refresh all also asks again for the stored history. */
  recheck: boolean;
}

export function RefreshButtons({ actions, status, busy, run, recheck }: RefreshButtonsProps) {
  const styles = useRefreshStyles();
  return (
    <div className={styles.buttons}>
      <Button
        disabled={busy !== null}
        onClick={() =>
          void run("Refreshing…", async () =>
            summariseRefresh("Refreshed", await actions.refreshAll(recheck ? { recheckHistory: true } : undefined)),
          )
        }
      >
        Refresh all MD formulas
      </Button>
      <Button
        disabled={busy !== null}
        title="Drops the market data stored on this computer and fetches everything again: for when the service has revised past data."
        onClick={() => void run("Reloading…", async () => summariseRefresh("Reloaded", await actions.reloadAll()))}
      >
        Reload everything
      </Button>
      <Button
        disabled={busy !== null}
        onClick={() =>
          void run("Freezing…", async () => summariseRefresh("Froze", await actions.freezeToValues("selection")))
        }
      >
        Freeze selection to values
      </Button>
      <Button
        disabled={busy !== null}
        onClick={() =>
          void run("Freezing…", async () => summariseRefresh("Froze", await actions.freezeToValues("sheet")))
        }
      >
        Freeze sheet to values
      </Button>
      <Button
        disabled={busy !== null}
        onClick={() => void run("Restoring…", async () => summariseUndo(await actions.undoLastFreeze()))}
      >
        Undo last freeze
      </Button>
      {(busy || status.busy) && (
        <Spinner
          size="tiny"
          label={
            status.progress
              ? `${PHASE_TEXT[status.progress.phase] ?? "Working…"} ${status.progress.done} of ${status.progress.total}`
              : (busy ?? "Working…")
          }
        />
      )}
    </div>
  );
}
