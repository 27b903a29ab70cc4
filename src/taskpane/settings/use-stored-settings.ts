import { useCallback, useEffect, useState } from "react";
import type { StoredSettings } from "../../office/settings";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";

/**
 * The settings as the Settings view shows them: read once on mount, read again
 * by `reload` after a form saves. Null until the first read; `readError` says
 * why if that read failed.
 */
export function useStoredSettings() {
  const { settings } = useServices();
  const [stored, setStored] = useState<StoredSettings | null>(null);
  const [readError, setReadError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    settings.read().then(
      (current) => live && setStored(current),
      (error: unknown) => live && setReadError(`Could not read the settings: ${errorText(error)}`),
    );
    return () => {
      live = false;
    };
  }, [settings]);

  const reload = useCallback(async () => {
    const current = await settings.read();
    setStored(current);
    return current;
  }, [settings]);

  return { stored, reload, readError };
}

/**
 * A form's text, filled from the settings when they are first read (`fill`
 * says with what); the user's typing is the form's after that. Set while
 * rendering, as React advises for state that follows a prop, so the empty
 * input is never shown beside the read settings.
 */
export function useTextFilledOnRead(
  stored: StoredSettings | null,
  fill: (stored: StoredSettings) => string,
): [string, (text: string) => void] {
  const [text, setText] = useState("");
  const [filled, setFilled] = useState(false);
  if (stored && !filled) {
    setFilled(true);
    setText(fill(stored));
  }
  return [text, setText];
}
