import { Button, Field, Input } from "@fluentui/react-components";
import { EyeOffRegular, EyeRegular } from "@fluentui/react-icons";
import { useServices } from "../shared/pane-services";

export interface KeyInputProps {
  value: string;
  onChange(value: string): void;
  /** Edited and not saved yet. */
  dirty: boolean;
  /**
   * Shown as text rather than masked. Kept by the form, not here: the field leaves while the firm's gateway holds
   * the key, and the user's choice is still there when it comes back.
   */
  shown: boolean;
  onToggleShown(): void;
}

/** The API key field: masked unless the user asks to see it, and saying so while an edit is not saved. */
export function KeyInput({ value, onChange, dirty, shown, onToggleShown }: KeyInputProps) {
  const { defaults } = useServices();
  return (
    <Field
      label="API key"
      hint="Kept in this add-in's storage on this computer — never in the workbook, so sharing a file never shares your key."
      validationMessage={dirty ? "Not saved yet." : undefined}
      validationState={dirty ? "warning" : "none"}
    >
      <Input
        type={shown ? "text" : "password"}
        value={value}
        onChange={(_, data) => onChange(data.value)}
        placeholder={defaults.apiKey ? "Using the sandbox demo key" : "Paste your API key"}
        autoComplete="off"
        spellCheck={false}
        data-testid="api-key-input"
        contentAfter={
          <Button
            appearance="transparent"
            size="small"
            icon={shown ? <EyeOffRegular /> : <EyeRegular />}
            aria-label={shown ? "Hide API key" : "Show API key"}
            aria-pressed={shown}
            onClick={onToggleShown}
          />
        }
      />
    </Field>
  );
}
