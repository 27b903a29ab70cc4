/**
 * Settings: the API key (masked, testable), the service address (advanced),
 * the client's cache and counters, and the workbook refresh controls.
 *
 * Settings live in OfficeRuntime.storage through the shared SettingsStore —
 * the same store the custom functions read before every request — so a key
 * saved here applies to the next calculation, and never enters the workbook.
 */
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Button,
  Caption1,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Text,
  tokens,
} from "@fluentui/react-components";
import { EyeOffRegular, EyeRegular } from "@fluentui/react-icons";
import { useCallback, useEffect, useRef, useState, type FormEvent } from "react";
import { isMarketDataError } from "../../api";
import { unreachableText } from "../../office/gateway";
import type { StoredSettings } from "../../office/settings";
import { CountersPanel } from "./counters-panel";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";
import { RefreshSection } from "../refresh/refresh-section";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXL },
  section: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  heading: { margin: 0, display: "flex", alignItems: "center", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
  buttons: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap", alignItems: "center" },
  form: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
});

type Notice = { intent: "success" | "error" | "info" | "warning"; text: string } | null;

/** What the key badge says: whose key the requests use. */
function keyStatus(
  stored: StoredSettings | null,
  defaultKey: string,
): { label: string; color: "success" | "warning" | "danger" | "informative" } {
  if (!stored) return { label: "Reading settings…", color: "informative" };
  if (stored.keyManagedByGateway) return { label: "Firm key (gateway)", color: "success" };
  if (!stored.usingDefaultKey) return { label: "Your key", color: "success" };
  return defaultKey ? { label: "Sandbox demo key in use", color: "warning" } : { label: "No API key", color: "danger" };
}

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

export function SettingsView({ active }: { active: boolean }) {
  const styles = useStyles();
  const { settings, client, defaults } = useServices();
  const [stored, setStored] = useState<StoredSettings | null>(null);
  const [keyInput, setKeyInput] = useState("");
  const [keyShown, setKeyShown] = useState(false);
  const [keyNotice, setKeyNotice] = useState<Notice>(null);
  const [testing, setTesting] = useState(false);
  const [testNotice, setTestNotice] = useState<Notice>(null);
  const [urlInput, setUrlInput] = useState("");
  const [urlError, setUrlError] = useState<string | null>(null);
  const [urlNotice, setUrlNotice] = useState<Notice>(null);
  const testAbort = useRef<AbortController | null>(null);

  const reload = useCallback(async () => {
    const current = await settings.read();
    setStored(current);
    return current;
  }, [settings]);

  useEffect(() => {
    let live = true;
    settings.read().then(
      (current) => {
        if (!live) return;
        setStored(current);
        setKeyInput(current.usingDefaultKey ? "" : current.apiKey);
        setUrlInput(current.usingDefaultBaseUrl ? "" : current.baseUrl);
      },
      (error: unknown) =>
        live && setKeyNotice({ intent: "error", text: `Could not read the settings: ${errorText(error)}` }),
    );
    return () => {
      live = false;
      testAbort.current?.abort();
    };
  }, [settings]);

  const savedKeyInput = stored && !stored.usingDefaultKey ? stored.apiKey : "";
  const keyDirty = stored !== null && keyInput.trim() !== savedKeyInput;

  /** `announce`: say so in the key notice (a save made by Test connection is reported in the test's one message instead). */
  async function saveKey(announce = true): Promise<StoredSettings | null> {
    try {
      // The store trims the key; the runtime clears the cache and tells the refresh feature (office/settings-changes.ts).
      await settings.setApiKey(keyInput);
      const current = await reload();
      setKeyInput(current.usingDefaultKey ? "" : current.apiKey);
      const notice: Notice = current.usingDefaultKey
        ? {
            intent: "info",
            text: defaults.apiKey
              ? "Key removed: requests use the sandbox demo key."
              : "Key removed: add a key to fetch data.",
          }
        : { intent: "success", text: "API key saved on this computer." };
      if (announce) setKeyNotice(notice);
      return current;
    } catch (error) {
      setKeyNotice({ intent: "error", text: `Could not save the key: ${errorText(error, keyInput.trim())}` });
      return null;
    }
  }

  async function onSaveKey(event: FormEvent) {
    event.preventDefault();
    setTestNotice(null);
    await saveKey();
  }

  async function onTest() {
    setTestNotice(null);
    // One message for the whole action: no "saved" in green beside a "failed" in red.
    setKeyNotice(null);
    // The client reads the stored settings, so an edited key is saved before it is tested.
    const savedNow = keyDirty;
    const current = savedNow ? await saveKey(false) : (stored ?? (await reload()));
    if (!current) return;
    const saved = savedNow ? (current.usingDefaultKey ? "Key removed" : "Key saved") : "";
    testAbort.current?.abort();
    const controller = new AbortController();
    testAbort.current = controller;
    setTesting(true);
    try {
      const { ms } = await client.testConnection({ signal: controller.signal });
      const connected = `Connected in ${Math.round(ms)} ms${current.usingDefaultKey && current.apiKey ? " (sandbox demo key)" : ""}.`;
      setTestNotice({ intent: "success", text: saved ? `${saved}. ${connected}` : connected });
    } catch (error) {
      // The reason says what to do (enter a valid key, check the address, try again later).
      // fetch's bare TypeError: down and CORS-refused look the same to a browser.
      const reason =
        isMarketDataError(error) && error.kind === "network"
          ? unreachableText(current.baseUrl)
          : errorText(error, current.apiKey);
      if (!controller.signal.aborted)
        setTestNotice({
          intent: "error",
          text: saved ? `${saved}, but the connection test failed: ${reason}` : `Connection failed: ${reason}`,
        });
    } finally {
      if (testAbort.current === controller) setTesting(false);
    }
  }

  async function saveUrl(value: string) {
    setUrlNotice(null);
    const trimmed = value.trim();
    if (trimmed && !isHttpAddress(trimmed)) {
      setUrlError(
        "Enter an address that starts with https:// (or http:// for a local service), or a path on the add-in's host such as /api.",
      );
      return;
    }
    setUrlError(null);
    try {
      await settings.setBaseUrl(trimmed);
      const current = await reload();
      setUrlInput(current.usingDefaultBaseUrl ? "" : current.baseUrl);
      setUrlNotice({
        intent: "success",
        text: current.usingDefaultBaseUrl ? "Using the default service address." : "Service address saved.",
      });
    } catch (error) {
      setUrlNotice({ intent: "error", text: `Could not save the address: ${errorText(error)}` });
    }
  }

  const status = keyStatus(stored, defaults.apiKey);

  return (
    <div className={styles.root}>
      <section className={styles.section} aria-labelledby="settings-key-heading">
        <Subtitle2 as="h2" id="settings-key-heading" className={styles.heading}>
          API key
          <Badge appearance="tint" color={status.color} data-testid="key-status">
            {status.label}
          </Badge>
        </Subtitle2>
        {stored?.usingDefaultKey && defaults.apiKey && (
          <Caption1>
            Requests use the sandbox&apos;s public demo key until you save your own. It only works against the sandbox.
          </Caption1>
        )}
        <form className={styles.form} onSubmit={(e) => void onSaveKey(e)} autoComplete="off">
          {stored?.keyManagedByGateway ? (
            <Text data-testid="key-managed">
              The API key is managed by your firm&apos;s gateway: there is nothing to enter here.
            </Text>
          ) : (
            <Field
              label="API key"
              hint="Kept in this add-in's storage on this computer — never in the workbook, so sharing a file never shares your key."
              validationMessage={keyDirty ? "Not saved yet." : undefined}
              validationState={keyDirty ? "warning" : "none"}
            >
              <Input
                type={keyShown ? "text" : "password"}
                value={keyInput}
                onChange={(_, data) => setKeyInput(data.value)}
                placeholder={defaults.apiKey ? "Using the sandbox demo key" : "Paste your API key"}
                autoComplete="off"
                spellCheck={false}
                data-testid="api-key-input"
                contentAfter={
                  <Button
                    appearance="transparent"
                    size="small"
                    icon={keyShown ? <EyeOffRegular /> : <EyeRegular />}
                    aria-label={keyShown ? "Hide API key" : "Show API key"}
                    aria-pressed={keyShown}
                    onClick={() => setKeyShown((shown) => !shown)}
                  />
                }
              />
            </Field>
          )}
          <div className={styles.buttons}>
            {!stored?.keyManagedByGateway && (
              <Button type="submit" appearance="primary" disabled={!stored || !keyDirty}>
                Save key
              </Button>
            )}
            <Button onClick={() => void onTest()} disabled={!stored || testing}>
              Test connection
            </Button>
            {testing && <Spinner size="tiny" label="Testing…" />}
          </div>
        </form>
        <div role="status" aria-live="polite" data-testid="key-notice">
          {keyNotice && (
            <MessageBar intent={keyNotice.intent}>
              <MessageBarBody>{keyNotice.text}</MessageBarBody>
            </MessageBar>
          )}
        </div>
        <div role="status" aria-live="polite" data-testid="connection-result">
          {testNotice && (
            <MessageBar intent={testNotice.intent}>
              <MessageBarBody>{testNotice.text}</MessageBarBody>
            </MessageBar>
          )}
        </div>
      </section>

      <section className={styles.section} aria-labelledby="settings-cache-heading">
        <Subtitle2 as="h2" id="settings-cache-heading" className={styles.heading}>
          Cache and requests
        </Subtitle2>
        <CountersPanel active={active} />
      </section>

      <section className={styles.section} aria-labelledby="settings-refresh-heading">
        <Subtitle2 as="h2" id="settings-refresh-heading" className={styles.heading}>
          Refresh
        </Subtitle2>
        <RefreshSection />
      </section>

      <Accordion collapsible>
        <AccordionItem value="advanced">
          <AccordionHeader as="h2">Advanced</AccordionHeader>
          <AccordionPanel>
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
                  defaults.baseUrl
                    ? `Leave empty for the default: ${defaults.baseUrl}`
                    : "The market-data service's address."
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
                Requests go to:{" "}
                <span data-testid="effective-base-url">{stored ? stored.baseUrl || "(not set)" : "…"}</span>
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
              <div role="status" aria-live="polite">
                {urlNotice && (
                  <MessageBar intent={urlNotice.intent}>
                    <MessageBarBody>{urlNotice.text}</MessageBarBody>
                  </MessageBar>
                )}
              </div>
            </form>
          </AccordionPanel>
        </AccordionItem>
      </Accordion>
    </div>
  );
}
