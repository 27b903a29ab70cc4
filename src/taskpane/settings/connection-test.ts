import { useEffect, useRef, useState } from "react";
import { isMarketDataError } from "../../api";
import { unreachableText } from "../../office/sign-in/gateway";
import type { StoredSettings } from "../../office/settings";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";
import type { Notice } from "./status-notice";

/** What a connection test says of the key it used. */
export type KeyVerdict = "accepted" | "refused" | "unknown";

/**
 * "Test connection": one request with the stored settings, its result as one
 * notice. A test started while one runs replaces it; leaving the view cancels it.
 */
export function useConnectionTest() {
  const { client } = useServices();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<Notice>(null);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  /**
   * `saved`: "Key saved" or "Key removed" when the test saved an edited key first, said in the same message.
   * Resolves to what the service made of the key: accepted, refused (an auth error), or unknown (any other failure).
   */
  async function run(current: StoredSettings, saved: string): Promise<KeyVerdict> {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setTesting(true);
    try {
      const { ms } = await client.testConnection({ signal: controller.signal });
      const connected = `Connected in ${Math.round(ms)} ms${current.usingDefaultKey && current.apiKey ? " (sandbox demo key)" : ""}.`;
      setResult({ intent: "success", text: saved ? `${saved}. ${connected}` : connected });
      return "accepted";
    } catch (error) {
      // The reason says what to do (enter a valid key, check the address, try again later).
      // fetch's bare TypeError: down and CORS-refused look the same to a browser.
      const reason =
        isMarketDataError(error) && error.kind === "network"
          ? unreachableText(current.baseUrl)
          : errorText(error, current.apiKey);
      if (!controller.signal.aborted)
        setResult({
          intent: "error",
          text: saved ? `${saved}, but the connection test failed: ${reason}` : `Connection failed: ${reason}`,
        });
      return isMarketDataError(error) && error.kind === "auth" ? "refused" : "unknown";
    } finally {
      if (running.current === controller) setTesting(false);
    }
  }

  return { testing, result, run, clear: () => setResult(null) };
}
