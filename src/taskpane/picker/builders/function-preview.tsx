/**
 * The preview of a builder's formula: the function's own code (src/functions)
 * runs in the pane on the shared client, with the arguments the formula
 * passes, so the preview is what the cell will show — the same rows, columns,
 * `last=`/`top=` cuts, #N/A cells and messages — not a re-implementation.
 * Numbers carry the cell's number format (dates, `$`, `%`, `x`, grouping). A
 * table wider than the pane scrolls sideways, by pointer or keyboard. An error the
 * cell would show comes with its message, and a "Try again" when asking
 * again may help.
 */
import { Button, Caption1, MessageBarActions, MessageBarBody, Spinner, Text } from "@fluentui/react-components";
import { MessageBar } from "../../shared/message-bar";
import { useEffect, useId, type ReactNode } from "react";
import { redact } from "../../../api";
import { isErrorCell } from "../../../core/cell";
import { LineChart } from "../../shared/line-chart";
import { useServices } from "../../shared/pane-services";
import { useBoundedWait } from "../../shared/use-bounded-wait";
import { Waiting } from "../../shared/waiting";
import { useDebounced } from "../../shared/use-debounced";
import {
  cellData,
  cellText,
  evaluatePreview,
  sparklineOf,
  type PreviewCall,
  type PreviewOutcome,
} from "./preview-outcome";
import { usePreviewStyles } from "./preview-styles";
import { hasHeaderRow, PreviewTable } from "./preview-table";

export const FUNCTION_PREVIEW_DEBOUNCE_MS = 300;
/** The rows of data a table preview shows (docs/taskpane.md: "the first six rows"), its header row above them. */
export const FUNCTION_PREVIEW_ROWS = 6;

export interface FunctionPreviewProps {
  call: PreviewCall | null;
  emptyText?: string;
  /** Draw the table's first series as a small line chart, named so (a screen reader hears it). */
  sparkline?: string;
  /** Told what the cell will show once the preview has it (null while there is nothing current). */
  onOutcome?(outcome: PreviewOutcome | null): void;
  /** Whether the table's first row is a header row (by default, when every cell in it is text: hasHeaderRow). */
  headerRow?: boolean;
  /** The rows of data shown (FUNCTION_PREVIEW_ROWS unless given: Infinity shows the whole table). */
  rows?: number;
}

export function FunctionPreview({ call, emptyText, sparkline, onOutcome, headerRow, rows }: FunctionPreviewProps) {
  const styles = usePreviewStyles();
  const { client, today, dateSystem, cellFormats } = useServices();
  const key = useDebounced(call?.key ?? null, FUNCTION_PREVIEW_DEBOUNCE_MS);
  const result = useBoundedWait<PreviewOutcome>(
    key && call && key === call.key
      ? async (wait) =>
          evaluatePreview(call, {
            client,
            today: today(),
            call: wait,
            cellFormats: cellFormats ? cellFormats() : true,
            dateSystem: dateSystem ? await dateSystem() : 1900,
          })
      : null,
    [key, call?.key === key],
  );

  const headingId = useId();
  const current = result.status === "ready" && call !== null && key === call.key ? result.data : null;
  useEffect(() => onOutcome?.(current), [current, onOutcome]);

  let body: ReactNode;
  if (!call) body = <Caption1>{emptyText ?? "The preview appears once the fields above are valid."}</Caption1>;
  else if (result.status === "loading" && key === call.key)
    body = <Waiting what="Loading preview" since={result.since} onCancel={result.cancel} size="tiny" />;
  else if (key !== call.key || result.status === "loading" || result.status === "idle")
    body = <Spinner size="tiny" label="Loading preview…" labelPosition="after" />;
  else if (result.status === "error")
    body = (
      <MessageBar intent="error">
        <MessageBarBody>{result.message}</MessageBarBody>
        <MessageBarActions>
          <Button size="small" onClick={result.retry}>
            Try again
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  else
    body = (
      <PreviewBody
        outcome={result.data}
        sparkline={sparkline}
        retry={result.retry}
        headerRow={headerRow}
        dataRows={rows ?? FUNCTION_PREVIEW_ROWS}
      />
    );

  return (
    <section
      className={styles.root}
      aria-labelledby={headingId}
      aria-busy={result.status === "loading"}
      data-testid="function-preview"
      data-key={result.status === "ready" && call && key === call.key ? call.key : ""}
    >
      <Text weight="semibold" id={headingId}>
        Preview: what the cell will show
      </Text>
      {body}
    </section>
  );
}

function PreviewBody({
  outcome,
  sparkline,
  retry,
  headerRow,
  dataRows,
}: {
  outcome: PreviewOutcome;
  sparkline?: string;
  retry(): void;
  headerRow?: boolean;
  dataRows: number;
}) {
  const styles = usePreviewStyles();
  if (outcome.kind === "value") {
    const { value } = outcome;
    return (
      <>
        <Text>
          <span
            className={`${styles.value} ${isErrorCell(value) ? styles.error : ""}`}
            data-testid="function-preview-value"
            data-value={cellData(value)}
          >
            {cellText(value, outcome.format, outcome.dateSystem)}
          </span>
          {isErrorCell(value) && (
            <Caption1 className={styles.message} data-testid="function-preview-message">
              {" "}
              {redact(value.message)}
            </Caption1>
          )}
        </Text>
        {outcome.note && !isErrorCell(value) && <DatedNote note={outcome.note} />}
        {outcome.retryable && (
          <div>
            <Button size="small" onClick={retry}>
              Try again
            </Button>
          </div>
        )}
      </>
    );
  }
  const { rows, formatAt, dateSystem } = outcome;
  const columns = rows.reduce((n, row) => Math.max(n, row.length), 0);
  const header = headerRow ?? hasHeaderRow(rows);
  const shown = rows.slice(0, dataRows + (header ? 1 : 0));
  // What the error cells say (in the rows shown), once each: a title attribute alone is invisible on touch.
  const messages = [...new Set(shown.flat().flatMap((value) => (isErrorCell(value) ? [redact(value.message)] : [])))];
  const line = sparkline !== undefined ? sparklineOf(outcome) : null;
  return (
    <>
      {line && (
        <LineChart
          values={line.values}
          width={300}
          height={72}
          label={`Line chart of ${sparkline}: ${line.values.length} readings from ${line.first} to ${line.last}.`}
          guides
          testId="preview-chart"
        />
      )}
      <PreviewTable
        rows={rows}
        shown={shown}
        columns={columns}
        header={header}
        formatAt={formatAt}
        dateSystem={dateSystem}
      />
      {outcome.note && <DatedNote note={outcome.note} />}
      {messages.map((message) => (
        <Caption1 key={message} block className={styles.message} data-testid="function-preview-message">
          {message}
        </Caption1>
      ))}
    </>
  );
}
/** The date(s) the previewed value is dated on: the cell itself shows only the number. */
function DatedNote({ note }: { note: string }) {
  return (
    <Caption1 block data-testid="function-preview-dated">
      {note}
    </Caption1>
  );
}
