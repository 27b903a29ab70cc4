/**
 * Buttons for the workbook refresh logic (`PaneServices.refresh`): refresh
 * all MD. formulas, refresh when the workbook opens, freeze to values. The
 * logic is not the pane's; this section renders its results.
 */
import {
  Button,
  Caption1,
  Checkbox,
  makeStyles,
  MessageBarBody,
  Spinner,
  Switch,
  tokens,
} from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";
import { useEffect, useState, useSyncExternalStore } from "react";
import { TRUST_PROMPT_EXPLAINED } from "../../refresh/refresh-on-open";
import type { PaneRefreshActions, PaneRefreshResult, PaneRefreshStatus } from "../../refresh/pane-actions";
import { formatDuration } from "../../refresh/summary";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  buttons: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap", alignItems: "center" },
  failures: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
});

type Outcome = { intent: "success" | "warning" | "error"; text: string; failures?: PaneRefreshResult["failures"] };

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

/** The refresh logic's live state (a ribbon click or an open can start a refresh too). */
function useRefreshStatus(actions: PaneRefreshActions): PaneRefreshStatus {
  return useSyncExternalStore(actions.subscribe, actions.getState);
}

const PHASE_TEXT: Record<string, string> = {
  scanning: "Finding MD formulas…",
  writing: "Rewriting formulas…",
  calculating: "Calculating…",
};

export function RefreshSection() {
  const styles = useStyles();
  const { refresh, workbook } = useServices();
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [onOpen, setOnOpen] = useState<boolean | null>(null);
  const [trustOff, setTrustOff] = useState<boolean | null>(null);
  const [recheck, setRecheck] = useState(false);
  const status = useRefreshStatus(refresh);

  const usable = workbook.canInsert;

  useEffect(() => {
    if (!usable) return;
    let live = true;
    refresh.getRefreshOnOpen().then(
      (value) => live && setOnOpen(value),
      () => live && setOnOpen(false),
    );
    refresh.getTrustPromptOff().then(
      (value) => live && setTrustOff(value),
      () => live && setTrustOff(false),
    );
    return () => {
      live = false;
    };
  }, [refresh, usable]);

  if (!workbook.canInsert) {
    return (
      <Caption1 data-testid="refresh-unavailable">Open this pane in Excel to refresh or freeze MD formulas.</Caption1>
    );
  }

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

  const actions = refresh;
  return (
    <div className={styles.root} data-testid="refresh-section">
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
      <Checkbox
        label="Recheck stored history when refreshing"
        title="Refresh all also asks the service again for the past days stored on this computer, for the formulas it refreshes (they are otherwise trusted for up to 7 days): for when the service has corrected history."
        checked={recheck}
        disabled={busy !== null}
        onChange={(_, data) => setRecheck(data.checked === true)}
        data-testid="refresh-recheck-history"
      />
      {status.signInRequired && (
        <MessageBar intent="warning" data-testid="refresh-sign-in">
          <MessageBarBody>
            {status.signInWith === "gateway"
              ? "Sign in to Market Data (Settings ▸ Sign in) to refresh. The values saved in the workbook are kept."
              : "Sign in to refresh: save your API key above. The values saved in the workbook are kept."}
          </MessageBarBody>
        </MessageBar>
      )}
      {status?.notice && (
        <MessageBar intent="info" data-testid="refresh-notice">
          <MessageBarBody>{status.notice}</MessageBarBody>
        </MessageBar>
      )}
      <Switch
        label="Refresh MD formulas when this workbook opens"
        checked={onOpen ?? false}
        disabled={onOpen === null || busy !== null}
        onChange={(_, data) => {
          const enabled = data.checked;
          void run("Saving…", async () => {
            await actions.setRefreshOnOpen(enabled);
            setOnOpen(enabled);
            return {
              intent: "success",
              text: enabled
                ? "This workbook refreshes its MD formulas when it opens."
                : "Refresh on open is off for this workbook.",
            };
          });
        }}
      />
      <Switch
        label="Don't ask people without the add-in to trust it (Excel on Windows and Mac)"
        checked={trustOff ?? false}
        disabled={trustOff === null || busy !== null}
        onChange={(_, data) => {
          const off = data.checked;
          void run("Saving…", async () => {
            await actions.setTrustPromptOff(off);
            setTrustOff(off);
            return {
              intent: "success",
              text: off
                ? "People without the add-in will not be asked to trust it."
                : "People without the add-in will be asked whether to trust it.",
            };
          });
        }}
      />
      <Caption1 data-testid="trust-prompt-explained">{TRUST_PROMPT_EXPLAINED}</Caption1>
      <div role="status" aria-live="polite">
        {outcome && (
          <MessageBar intent={outcome.intent} data-testid="refresh-outcome">
            <MessageBarBody>
              {outcome.text}
              {outcome.failures && outcome.failures.length > 0 && (
                <ul className={styles.failures}>
                  {outcome.failures.slice(0, 10).map((f) => (
                    <li key={f.address}>
                      {f.address}: {f.message}
                    </li>
                  ))}
                </ul>
              )}
            </MessageBarBody>
          </MessageBar>
        )}
      </div>
    </div>
  );
}
