/**
 * The workbook's own refresh settings: refresh when it opens, and whether
 * people without the add-in are asked to trust it. Each is read from the
 * workbook when the section first shows, and written when switched.
 */
import { Caption1, Switch } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import { TRUST_PROMPT_EXPLAINED } from "../../refresh/refresh-on-open";
import type { PaneRefreshActions } from "../../refresh/pane-actions";
import type { RunAction } from "./use-refresh-run";

export function WorkbookSwitches({
  actions,
  busy,
  run,
}: {
  actions: PaneRefreshActions;
  busy: string | null;
  run: RunAction;
}) {
  const [onOpen, setOnOpen] = useState<boolean | null>(null);
  const [trustOff, setTrustOff] = useState<boolean | null>(null);

  useEffect(() => {
    let live = true;
    actions.getRefreshOnOpen().then(
      (value) => live && setOnOpen(value),
      () => live && setOnOpen(false),
    );
    actions.getTrustPromptOff().then(
      (value) => live && setTrustOff(value),
      () => live && setTrustOff(false),
    );
    return () => {
      live = false;
    };
  }, [actions]);

  return (
    <>
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
    </>
  );
}
