/** A feed on its way, or not there: its load's progress (with Cancel), a cancelled load, a failed one. */
import {
  Button,
  Caption1,
  Field,
  MessageBarActions,
  MessageBarBody,
  ProgressBar,
  Text,
} from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";
import { useEffect, useState } from "react";
import { useInsightsStyles } from "./insights-styles";

/** The client's per-attempt limit for feeds (CLIENT_DEFAULTS.slowTimeoutMs): past it, the load is being retried. */
export const SLOW_FEED_NOTE_AFTER_MS = 55_000;

/** After 55 s, says why it is still loading: Excel on Mac gives up on a request at 60 s, so the add-in asks again. */
function SlowFeedNote({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (now - since < SLOW_FEED_NOTE_AFTER_MS) return null;
  return (
    <Caption1 data-testid="insights-slow">
      The service is still preparing this feed (its first load in an hour can take a minute). Each try ends after 55 s,
      because Excel on Mac gives up on a request at 60 s, and the add-in then asks again.
    </Caption1>
  );
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <>{Math.max(0, Math.floor((now - since) / 1000))} s</>;
}

/** `label`: the feed's name ("Growth streaks"). */
export function FeedLoading({ label, since, onCancel }: { label: string; since: number; onCancel(): void }) {
  const styles = useInsightsStyles();
  return (
    <div className={styles.loading} data-testid="insights-loading">
      <Field
        validationMessage="The first load of a feed can take up to a minute; later loads are quick."
        validationState="none"
      >
        <ProgressBar aria-label={`Loading ${label.toLowerCase()}`} />
      </Field>
      <div className={styles.loadingRow}>
        <Text role="status" aria-live="polite">
          Loading {label.toLowerCase()}… <Elapsed since={since} />
        </Text>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
      <SlowFeedNote since={since} />
    </div>
  );
}

export function FeedCancelled({ onLoad }: { onLoad(): void }) {
  return (
    <MessageBar intent="warning" data-testid="insights-cancelled">
      <MessageBarBody>Loading was cancelled.</MessageBarBody>
      <MessageBarActions>
        <Button size="small" onClick={onLoad}>
          Load again
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

export function FeedFailed({ label, message, onRetry }: { label: string; message: string; onRetry(): void }) {
  return (
    <MessageBar intent="error" data-testid="insights-error">
      <MessageBarBody>
        Could not load {label.toLowerCase()}: {message}
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" onClick={onRetry}>
          Try again
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
