import { MessageBarBody } from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";

/** What a form says after an action; null says nothing. */
export type Notice = { intent: "success" | "error" | "info" | "warning"; text: string } | null;

/** A live region that is always there, so a screen reader hears each notice as it replaces the last. */
export function StatusNotice({ notice, testId }: { notice: Notice; testId?: string }) {
  return (
    <div role="status" aria-live="polite" data-testid={testId}>
      {notice && (
        <MessageBar intent={notice.intent}>
          <MessageBarBody>{notice.text}</MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}
