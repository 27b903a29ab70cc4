/** Pieces every builder shares: the two-column field row, a text field with its refusal, the date hint, windows, granularity. */
import { Button, Caption1, Field, Input, makeStyles, Select, tokens } from "@fluentui/react-components";
import { GRANULARITIES, type Granularity } from "../../../core/domain";
import { localeDateExample, localeDatePattern } from "../typed-date";

export const useBuilderStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  // minmax(0, …) and minWidth 0: a text input's intrinsic width must not widen a narrow pane.
  row: {
    display: "grid",
    gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)",
    gap: tokens.spacingHorizontalS,
    alignItems: "start",
    "& .fui-Input": { minWidth: 0 },
  },
  quick: { display: "flex", gap: tokens.spacingHorizontalXS, flexWrap: "wrap", alignItems: "center" },
  options: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
  checks: { display: "flex", flexWrap: "wrap", columnGap: tokens.spacingHorizontalM },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** A refusal under a group of boxes (a Field would label only one control). */
export function FieldError({ text }: { text?: string }) {
  const styles = useBuilderStyles();
  return text ? (
    <Caption1 role="alert" className={styles.error}>
      {text}
    </Caption1>
  ) : null;
}

export interface TextFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  hint?: string;
  placeholder?: string;
  testId: string;
}

export function TextField({ label, value, onChange, error, hint, placeholder, testId }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} validationMessage={error} validationState={error ? "error" : "none"}>
      <Input
        value={value}
        onChange={(_, d) => onChange(d.value)}
        placeholder={placeholder}
        spellCheck={false}
        data-testid={testId}
      />
    </Field>
  );
}

export function DateForms({ locale, testId }: { locale?: string; testId?: string }) {
  return (
    <Caption1 data-testid={testId}>
      Dates: {localeDateExample(locale)} ({localeDatePattern(locale)}), YYYY-MM-DD, TODAY, or relative -30D, -12W, -6M,
      -2Q, -1Y (the start counts back from the end).
    </Caption1>
  );
}

export interface WindowFieldsProps {
  start: string;
  end: string;
  onStart(value: string): void;
  onEnd(value: string): void;
  errors: { start?: string; end?: string };
  /** The start's placeholder, e.g. "-1Y". */
  startPlaceholder: string;
  /** Test ids `<prefix>-start` and `<prefix>-end`. */
  testIdPrefix: string;
  locale?: string;
  datesTestId?: string;
}

/** A date window: Start and End side by side, then the date forms they accept. */
export function WindowFields(props: WindowFieldsProps) {
  const styles = useBuilderStyles();
  return (
    <>
      <div className={styles.row}>
        <TextField
          label="Start"
          value={props.start}
          onChange={props.onStart}
          error={props.errors.start}
          placeholder={props.startPlaceholder}
          testId={`${props.testIdPrefix}-start`}
        />
        <TextField
          label="End"
          value={props.end}
          onChange={props.onEnd}
          error={props.errors.end}
          placeholder="TODAY"
          testId={`${props.testIdPrefix}-end`}
        />
      </div>
      <DateForms locale={props.locale} testId={props.datesTestId} />
    </>
  );
}

export interface QuickWindowsProps {
  /** Relative starts ending today: "-1M", "-3M", … */
  windows: readonly string[];
  start: string;
  end: string;
  /** Sets the start to the window and the end to TODAY. */
  onPick(window: string): void;
  /** What a screen reader hears for a window's button (its text, "1M", when not given). */
  label?(window: string): string;
}

/** A row of buttons for windows ending today; the one the fields hold is highlighted. */
export function QuickWindows({ windows, start, end, onPick, label }: QuickWindowsProps) {
  const styles = useBuilderStyles();
  return (
    <div className={styles.quick} role="group" aria-label="Quick windows">
      {windows.map((w) => (
        <Button
          key={w}
          size="small"
          appearance={start === w && end === "TODAY" ? "primary" : "secondary"}
          aria-label={label?.(w)}
          onClick={() => onPick(w)}
        >
          {w.slice(1)}
        </Button>
      ))}
    </div>
  );
}

const GRANULARITY_LABEL: Record<Granularity, string> = {
  DAY: "Day",
  WEEK: "Week",
  MONTH: "Month",
  QUARTER: "Quarter",
  YEAR: "Year",
};

export interface GranularityFieldProps {
  value: Granularity;
  onChange(value: Granularity): void;
  testId: string;
  hint?: string;
  /** The only granularity offered (the others shown disabled). */
  only?: Granularity;
}

export function GranularityField({ value, onChange, testId, hint, only }: GranularityFieldProps) {
  return (
    <Field label="Granularity" hint={hint}>
      <Select value={value} onChange={(_, d) => onChange(d.value as Granularity)} data-testid={testId}>
        {GRANULARITIES.map((g) => (
          <option key={g} value={g} disabled={only !== undefined && g !== only}>
            {GRANULARITY_LABEL[g]}
          </option>
        ))}
      </Select>
    </Field>
  );
}
