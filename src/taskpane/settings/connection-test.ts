import { useState } from "react";
import { isMarketDataError, redact } from "../../api";
import { unreachableText } from "../../office/sign-in/gateway";
import type { StoredSettings } from "../../office/settings";
import { useServices } from "../shared/pane-services";
import { useBoundedAction } from "../shared/use-bounded-wait";
import type { Notice } from "./status-notice";

/** What a connection test says of the key it used. */
export type KeyVerdict = "accepted" | "refused" | "unknown";

/**
 * "Test connection": one request with the stored settings, its result as one
 * notice, as a bounded wait (shared/bounded-wait.ts): Cancel, and a message
 * naming the address when the service does not answer within the pane's bound
 * (the client's own deadline, 50 s, is the cells'). A test started while one
 * runs replaces it; leaving the view abandons it.
 */
export function useConnectionTest() {
  const { client } = useServices();
  const [result, setResult] = useState<Notice>(null);
  const wait = useBoundedAction();

  /**
   * `saved`: "Key saved" or "Key removed" when the test saved an edited key first, said in the same message.
   * Resolves to what the service made of the key: accepted, refused (an auth error), or unknown (any other failure).
   */
  async function run(current: StoredSettings, saved: string): Promise<KeyVerdict> {
    let failure: unknown;
    const outcome = await wait.run((call) =>
      client.testConnection(call).catch((error: unknown) => {
        failure = error;
        throw error;
      }),
    );
    // Replaced by another test, or the view went away: nothing to say.
    if (!outcome) return "unknown";
    if (outcome.status === "ready") {
      const connected = `Connected in ${Math.round(outcome.data.ms)} ms${current.usingDefaultKey && current.apiKey ? " (sandbox demo key)" : ""}.`;
      setResult({ intent: "success", text: saved ? `${saved}. ${connected}` : connected });
      return "accepted";
    }
    // The reason says what to do (enter a valid key, check the address, try again later).
    // fetch's bare TypeError: down and CORS-refused look the same to a browser.
    const reason =
      outcome.cause === "failed" && isMarketDataError(failure) && failure.kind === "network"
        ? unreachableText(current.baseUrl)
        : redact(outcome.message, current.apiKey);
    setResult({
      intent: outcome.cause === "cancelled" ? "warning" : "error",
      text: saved ? `${saved}, but the connection test failed: ${reason}` : `Connection failed: ${reason}`,
    });
    return isMarketDataError(failure) && failure.kind === "auth" ? "refused" : "unknown";
  }

  return {
    testing: wait.since !== null,
    since: wait.since,
    cancel: wait.cancel,
    result,
    run,
    clear: () => setResult(null),
  };
}
