import { Button, Text } from "@fluentui/react-components";
import { useState, type FormEvent } from "react";
import type { StoredSettings } from "../../office/settings";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";
import { Waiting } from "../shared/waiting";
import { type KeyVerdict, useConnectionTest } from "./connection-test";
import { KeyInput } from "./key-input";
import { useSettingsStyles } from "./settings-styles";
import { StatusNotice, type Notice } from "./status-notice";
import { useTextFilledOnRead } from "./use-stored-settings";

export interface KeyFormProps {
  stored: StoredSettings | null;
  reload(): Promise<StoredSettings>;
  /** Why the settings could not be read, said where the key's notices go. */
  readError: string | null;
  /** Told what a connection test found of the user's own key (not the demo key nor the gateway's). */
  onKeyVerdict?(apiKey: string, verdict: KeyVerdict): void;
}

/** The user's key: save or remove it, and test the connection with it (saving an edit first). */
export function KeyForm({ stored, reload, readError, onKeyVerdict }: KeyFormProps) {
  const styles = useSettingsStyles();
  const { settings, defaults } = useServices();
  const savedKey = (current: StoredSettings) => (current.usingDefaultKey ? "" : current.apiKey);
  const [keyInput, setKeyInput] = useTextFilledOnRead(stored, savedKey);
  const [shown, setShown] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);
  const test = useConnectionTest();
  const dirty = stored !== null && keyInput.trim() !== savedKey(stored);

  /** `announce`: say so in the key notice (a save made by Test connection is reported in the test's one message instead). */
  async function saveKey(announce = true): Promise<StoredSettings | null> {
    try {
      // The store trims the key; the runtime clears the cache and tells the refresh feature (office/settings-changes.ts).
      await settings.setApiKey(keyInput);
      const current = await reload();
      setKeyInput(savedKey(current));
      if (announce) setNotice(savedNotice(current, defaults.apiKey));
      return current;
    } catch (error) {
      setNotice({ intent: "error", text: `Could not save the key: ${errorText(error, keyInput.trim())}` });
      return null;
    }
  }

  async function onSave(event: FormEvent) {
    event.preventDefault();
    test.clear();
    await saveKey();
  }

  async function onTest() {
    test.clear();
    // One message for the whole action: no "saved" in green beside a "failed" in red.
    setNotice(null);
    // The client reads the stored settings, so an edited key is saved before it is tested.
    const savedNow = dirty;
    const current = savedNow ? await saveKey(false) : (stored ?? (await reload()));
    if (!current) return;
    const verdict = await test.run(current, savedNow ? (current.usingDefaultKey ? "Key removed" : "Key saved") : "");
    if (!current.usingDefaultKey && !current.keyManagedByGateway) onKeyVerdict?.(current.apiKey, verdict);
  }

  return (
    <>
      <form className={styles.form} onSubmit={(e) => void onSave(e)} autoComplete="off">
        {stored?.keyManagedByGateway ? (
          <Text data-testid="key-managed">
            The API key is managed by your firm&apos;s gateway: there is nothing to enter here.
          </Text>
        ) : (
          <KeyInput
            value={keyInput}
            onChange={setKeyInput}
            dirty={dirty}
            shown={shown}
            onToggleShown={() => setShown((now) => !now)}
          />
        )}
        <div className={styles.buttons}>
          {!stored?.keyManagedByGateway && (
            <Button type="submit" appearance="primary" disabled={!stored || !dirty}>
              Save key
            </Button>
          )}
          <Button onClick={() => void onTest()} disabled={!stored || test.testing}>
            Test connection
          </Button>
          {test.since !== null && (
            <Waiting what="Testing the connection" since={test.since} onCancel={test.cancel} size="tiny" />
          )}
        </div>
      </form>
      <StatusNotice notice={notice ?? (readError ? { intent: "error", text: readError } : null)} testId="key-notice" />
      <StatusNotice notice={test.result} testId="connection-result" />
    </>
  );
}

function savedNotice(current: StoredSettings, defaultKey: string): Notice {
  if (!current.usingDefaultKey) return { intent: "success", text: "API key saved on this computer." };
  return {
    intent: "info",
    text: defaultKey ? "Key removed: requests use the sandbox demo key." : "Key removed: add a key to fetch data.",
  };
}
