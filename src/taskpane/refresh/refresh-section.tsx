/**
 * Buttons for the workbook refresh logic (`PaneServices.refresh`): refresh
 * all MD. formulas, refresh when the workbook opens, freeze to values. The
 * logic is not the pane's; this section renders its results.
 *
 * One part per file: the buttons (refresh-buttons.tsx), the workbook's
 * settings (workbook-switches.tsx), the one action at a time and its outcome
 * (use-refresh-run.ts), what the last refresh changed (what-changed.tsx).
 */
import { Caption1, Checkbox, MessageBarBody } from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";
import { useState, useSyncExternalStore } from "react";
import type { PaneRefreshActions, PaneRefreshStatus } from "../../refresh/pane-actions";
import { useServices } from "../shared/pane-services";
import { RefreshButtons } from "./refresh-buttons";
import { useRefreshStyles } from "./refresh-styles";
import { useRefreshRun, type Outcome } from "./use-refresh-run";
import { WhatChanged } from "./what-changed";
import { WorkbookSwitches } from "./workbook-switches";

/** The refresh logic's live state (a ribbon click or an open can start a refresh too). */
function useRefreshStatus(actions: PaneRefreshActions): PaneRefreshStatus {
  return useSyncExternalStore(actions.subscribe, actions.getState);
}

export function RefreshSection() {
  const styles = useRefreshStyles();
  const { refresh, workbook } = useServices();
  const { busy, outcome, run } = useRefreshRun();
  const [recheck, setRecheck] = useState(false);
  const status = useRefreshStatus(refresh);

  if (!workbook.canInsert) {
    return (
      <Caption1 data-testid="refresh-unavailable">Open this pane in Excel to refresh or freeze MD formulas.</Caption1>
    );
  }

  return (
    <div className={styles.root} data-testid="refresh-section">
      <RefreshButtons actions={refresh} status={status} busy={busy} run={run} recheck={recheck} />
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
            {status.signInWith === "gateway-expired"
              ? "Your sign-in expired — sign in again (Settings ▸ Sign in) to refresh. The values saved in the workbook are kept."
              : status.signInWith === "gateway"
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
      <WorkbookSwitches actions={refresh} busy={busy} run={run} />
      <RefreshOutcome outcome={outcome} />
      <WhatChanged />
    </div>
  );
}

/** What the last action did, announced; a refresh's failed cells listed (the first ten). */
function RefreshOutcome({ outcome }: { outcome: Outcome | null }) {
  const styles = useRefreshStyles();
  return (
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
  );
}
