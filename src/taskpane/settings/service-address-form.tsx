import { Button, Field, Input, Text } from "@fluentui/react-components";
import { useState } from "react";
import type { StoredSettings } from "../../office/settings";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";
import { useSettingsStyles } from "./settings-styles";
import { StatusNotice, type Notice } from "./status-notice";
import { useTextFilledOnRead } from "./use-stored-settings";

/** What the browser's own validation lets through: an absolute address (scheme:…, checked for http(s) below), or a path on the add-in's host (/api). */
export const BASE_URL_PATTERN = "\\s*(?:[A-Za-z][A-Za-z0-9+.\\-]*:\\S+|/(?!/)\\S*)\\s*";

export function isHttpAddress(text: string): boolean {
  // A path on the add-in's own host: the team gateway (/api).
  if (/^\/(?!\/)\S*$/.test(text.trim())) return true;
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

export interface ServiceAddressFormProps {
  stored: StoredSettings | null;
  reload(): Promise<StoredSettings>;
}

/** The service's address (base URL), or the build's default when empty. */
export function ServiceAddressForm({ stored, reload }: ServiceAddressFormProps) {
  const styles = useSettingsStyles();
  const { settings, defaults } = useServices();
  const savedAddress = (current: StoredSettings) => (current.usingDefaultBaseUrl ? "" : current.baseUrl);
  const [urlInput, setUrlInput] = useTextFilledOnRead(stored, savedAddress);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  async function saveUrl(value: string) {
    setNotice(null);
    const trimmed = value.trim();
    if (trimmed && !isHttpAddress(trimmed)) {
      setUrlError(
        "Enter an address that starts with https:// (or http:// for a local service), or a path on the add-in's host such as /api.",
      );
      return;
    }
    setUrlError(null);
    try {
      // The runtime clears the client's cache on the change (office/settings-changes.ts).
      await settings.setBaseUrl(trimmed);
      const current = await reload();
      setUrlInput(savedAddress(current));
      setNotice({
        intent: "success",
        text: current.usingDefaultBaseUrl ? "Using the default service address." : "Service address saved.",
      });
    } catch (error) {
      setNotice({ intent: "error", text: `Could not save the address: ${errorText(error)}` });
    }
  }

  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        void saveUrl(urlInput);
      }}
    >
      <Field
        label="Service address (base URL)"
        hint={
          defaults.baseUrl ? `Leave empty for the default: ${defaults.baseUrl}` : "The market-data service's address."
        }
        validationMessage={urlError ?? undefined}
        validationState={urlError ? "error" : "none"}
      >
        <Input
          type="text"
          inputMode="url"
          pattern={BASE_URL_PATTERN}
          value={urlInput}
          onChange={(_, data) => setUrlInput(data.value)}
          placeholder={defaults.baseUrl || "https://"}
          spellCheck={false}
          data-testid="base-url-input"
        />
      </Field>
      <Text size={200}>
        Requests go to: <span data-testid="effective-base-url">{stored ? stored.baseUrl || "(not set)" : "…"}</span>
      </Text>
      <div className={styles.buttons}>
        <Button type="submit" appearance="primary" disabled={!stored}>
          Save address
        </Button>
        <Button
          disabled={!stored || stored.usingDefaultBaseUrl}
          onClick={() => {
            setUrlInput("");
            void saveUrl("");
          }}
        >
          Use default
        </Button>
      </div>
      <StatusNotice notice={notice} />
    </form>
  );
}
