/**
 * The formula a view has built, with "Insert" and "Copy". Outside Excel,
 * "Insert" says so and copies instead, so the button never fails silently.
 */
import { Button, makeStyles, MessageBarBody, tokens } from "@fluentui/react-components";
import { MessageBar } from "./message-bar";
import { useState, type ReactNode } from "react";
import type { ChartTableShape } from "../../office/workbook/pane-workbook";
import { useServices } from "./pane-services";
import { copyFormula, placeFormula, type PlaceOutcome } from "./place-formula";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  formula: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    // A <pre> never wraps by default; a long formula must wrap inside a narrow pane: between arguments
    // (the <wbr> after each comma) and at spaces, and inside a word only when one is wider than the pane.
    whiteSpace: "pre-wrap",
    overflowWrap: "break-word",
    userSelect: "all",
    margin: 0,
  },
  buttons: { display: "flex", gap: tokens.spacingHorizontalS, flexWrap: "wrap" },
});

export interface FormulaActionsProps {
  formula: string | null;
  /** Names the thing inserted, for screen readers: "Insert the formula for eth PRICE". */
  subject: string;
  compact?: boolean;
  /** Shown instead of the formula when it cannot be built yet. */
  placeholder?: string;
  /** A dated table's shape: offers "Insert with a line chart" (in Excel) once the preview has it. */
  chart?: ChartTableShape | null;
  /** Inside a layout grid's row (the insight cards): each part in a `gridcell`, as a row may hold only cells. */
  grid?: boolean;
}

/** The formula with a line-break opportunity after each comma (no character added: copying gives the formula). */
export function breakAfterCommas(formula: string): ReactNode[] {
  return formula.split(/(?<=,)/).flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, part]));
}

export function FormulaActions({ formula, subject, compact, placeholder, chart, grid }: FormulaActionsProps) {
  const styles = useStyles();
  const cell = (part: ReactNode) => (grid ? <div role="gridcell">{part}</div> : part);
  const { workbook, copyText } = useServices();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<PlaceOutcome | null>(null);

  async function run(action: () => Promise<PlaceOutcome>) {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await action());
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={styles.root}>
      {(!compact || outcome?.kind === "failed") &&
        cell(
          <pre className={styles.formula} data-testid="formula-text" aria-label="Formula">
            {formula ? breakAfterCommas(formula) : (placeholder ?? "")}
          </pre>,
        )}
      <div className={styles.buttons}>
        {cell(
          <Button
            appearance="primary"
            size={compact ? "small" : "medium"}
            disabled={!formula || busy}
            aria-label={`Insert the formula for ${subject}${workbook.canInsert ? " into the selected cell" : ""}`}
            onClick={() => formula && void run(() => placeFormula(formula, workbook, copyText))}
          >
            {/* The visible words begin the accessible name (WCAG 2.5.3, "Label in Name"). */}
            Insert
          </Button>,
        )}
        {workbook.canInsert &&
          chart !== undefined &&
          cell(
            <Button
              size={compact ? "small" : "medium"}
              disabled={!formula || !chart || busy}
              aria-label={`Insert with a line chart the formula for ${subject}`}
              onClick={() => formula && chart && void run(() => placeFormula(formula, workbook, copyText, chart))}
              data-testid="insert-with-chart"
            >
              Insert with a line chart
            </Button>,
          )}
        {cell(
          <Button
            size={compact ? "small" : "medium"}
            disabled={!formula || busy}
            aria-label={`Copy the formula for ${subject}`}
            onClick={() => formula && void run(() => copyFormula(formula, copyText, workbook))}
          >
            Copy
          </Button>,
        )}
      </div>
      {cell(
        <div role="status" aria-live="polite">
          {outcome && (
            <MessageBar
              intent={outcome.kind === "inserted" ? "success" : outcome.kind === "copied" ? "info" : "error"}
              data-testid="place-outcome"
            >
              <MessageBarBody>{outcome.message}</MessageBarBody>
            </MessageBar>
          )}
        </div>,
      )}
    </div>
  );
}
