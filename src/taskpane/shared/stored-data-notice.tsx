/**
 * "Offline: showing stored data from <date>" — shown above every view while
 * cells show data stored on this computer because the service could not be
 * reached (the client's `storage().offlineSince`). Polled, as the counters
 * are: any calculation in the workbook can set it, and a refresh clears it.
 */
import { MessageBarBody } from "@fluentui/react-components";
import { MessageBar } from "./message-bar";
import { useEffect, useState } from "react";
import { useServices } from "./pane-services";

export const NOTICE_POLL_MS = 2000;

export function StoredDataNotice() {
  const { client } = useServices();
  const [since, setSince] = useState<string | null>(() => client.storage().offlineSince);

  useEffect(() => {
    const timer = setInterval(() => setSince(client.storage().offlineSince), NOTICE_POLL_MS);
    return () => clearInterval(timer);
  }, [client]);

  return (
    <div role="status" aria-live="polite">
      {since && (
        <MessageBar intent="warning" data-testid="offline-notice">
          <MessageBarBody>
            The market-data service cannot be reached: showing stored data from {since}. Refresh once it is reachable
            again.
          </MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}
