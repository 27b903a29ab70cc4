/**
 * Trace: where the selected cell's number came from. Select a cell holding
 * an MD formula (or any cell of a table one spills) and the view shows each
 * MD call of its formula as the add-in read it and what answered it, from
 * what the runtime recorded (src/office/cell-trace.ts): no request is sent.
 */
import { Caption1, makeStyles, MessageBarBody, tokens } from "@fluentui/react-components";
import { qualifiedAddress } from "../../refresh/a1";
import { MessageBar } from "../shared/message-bar";
import { useServices } from "../shared/pane-services";
import { CallTraceCard } from "./call-trace-card";
import { useSelectedTrace } from "./use-selected-cell";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  code: { fontFamily: tokens.fontFamilyMonospace, overflowWrap: "anywhere" },
});

export function TraceView({ active }: { active: boolean }) {
  const styles = useStyles();
  const { trace } = useServices();
  const { cell, calls, error } = useSelectedTrace(trace, active);
  if (!trace) {
    return (
      <Caption1 data-testid="trace-unavailable">
        Open this pane in Excel (or turn on the demo workbook) and select a cell holding an MD formula to see where its
        value came from.
      </Caption1>
    );
  }
  const where = cell ? qualifiedAddress(cell.sheet, cell.address) : null;
  let about: string;
  if (!cell || !where) about = "Select a cell holding an MD formula: this shows where its value came from.";
  else if (!cell.formula || calls.length === 0) about = `${where} holds no MD formula.`;
  else if (cell.spilled) about = `${where} is part of the table ${cell.formulaCell} spills: ${cell.formula}`;
  else about = `${where}: ${cell.formula}`;
  return (
    <div className={styles.root}>
      <Caption1 as="p" className={styles.code} data-testid="trace-cell" role="status" aria-live="polite">
        {about}
      </Caption1>
      {error && (
        <MessageBar intent="error">
          <MessageBarBody>Could not read the selected cell: {error}</MessageBarBody>
        </MessageBar>
      )}
      {calls.map((traced, i) => (
        <CallTraceCard key={`${i}:${traced.trace?.key ?? ""}`} traced={traced} />
      ))}
    </div>
  );
}
