/**
 * A wait on screen: what the pane waits for at once ("Loading the metrics for
 * eth…"), and after SHOW_PROGRESS_AFTER_MS for how long ("3 s") and a Cancel
 * button. Quick answers never flash the counter. The wait itself, its bound
 * and its message are bounded-wait.ts's; this only shows it.
 */
import { Button, makeStyles, Spinner, tokens } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import { SHOW_PROGRESS_AFTER_MS } from "./bounded-wait";

const useStyles = makeStyles({
  root: { display: "flex", alignItems: "center", flexWrap: "wrap", gap: tokens.spacingHorizontalS },
  elapsed: { fontVariantNumeric: "tabular-nums", color: tokens.colorNeutralForeground2 },
});

export interface WaitingProps {
  /** What is waited for, without the ellipsis: "Loading the metrics for eth". */
  what: string;
  /** When the wait started (Date.now()). */
  since: number;
  onCancel(): void;
  size?: "tiny" | "small";
}

export function Waiting({ what, since, onCancel, size = "small" }: WaitingProps) {
  const styles = useStyles();
  const elapsed = useElapsed(since);
  const shown = elapsed >= SHOW_PROGRESS_AFTER_MS;
  return (
    <div className={styles.root} data-testid="waiting">
      <Spinner size={size} label={`${what}…`} labelPosition="after" />
      {shown && (
        <>
          <span className={styles.elapsed} data-testid="waiting-elapsed" aria-hidden="true">
            {Math.max(1, Math.round(elapsed / 1000))} s
          </span>
          <Button size="small" onClick={onCancel}>
            Cancel
          </Button>
        </>
      )}
    </div>
  );
}

/**
 * Milliseconds since `since`, re-rendered when the shown counter would change: at the reveal, then each time the
 * rounded seconds step (every second, on the half second).
 */
function useElapsed(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const elapsed = now - since;
    const next =
      elapsed < SHOW_PROGRESS_AFTER_MS ? SHOW_PROGRESS_AFTER_MS : (Math.floor(elapsed / 1000 - 0.5) + 1.5) * 1000;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, next - elapsed));
    return () => clearTimeout(timer);
  }, [now, since]);
  return now - since;
}
