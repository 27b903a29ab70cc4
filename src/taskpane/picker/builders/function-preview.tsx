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
import {
  Button,
  Caption1,
  makeStyles,
  mergeClasses,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Text,
  tokens,
} from "@fluentui/react-components";
import { MessageBar } from "../../shared/message-bar";
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { isMarketDataError, redact } from "../../../api";
import { type CellValue, isErrorCell } from "../../../core/cell";
import { type DateSystem, serialToIsoIn } from "../../../core/excel-date";
import {
  DATE_FORMAT,
  type FormatAt,
  type FormattedTable,
  type FormattedValue,
  isFormattedTable,
  PARTIAL_DATE_FORMAT,
} from "../../../core/number-format";
import type { CallContext } from "../../../functions/call-context";
import { failureCell } from "../../../office/cells/errors";
import type { ChartTableShape } from "../../../office/workbook/pane-workbook";
import { LineChart } from "../../shared/line-chart";
import { useServices } from "../../shared/pane-services";
import { useRequest } from "../../shared/use-request";
import { useDebounced } from "../../shared/use-debounced";
import { formatExact, formatWithNumberFormat } from "../../shared/value-format";

export const FUNCTION_PREVIEW_DEBOUNCE_MS = 300;
export const FUNCTION_PREVIEW_ROWS = 6;

/** One formula's evaluation: `key` changes whenever the answer could (the formula text is a good key). */
export interface PreviewCall {
  key: string;
  run(ctx: CallContext): Promise<FormattedTable | FormattedValue>;
}

/** What the cell will hold: a spilled table, one value, or the error the whole formula shows. */
export type PreviewOutcome =
  | { kind: "table"; rows: CellValue[][]; formatAt: FormatAt; dateSystem: DateSystem; note?: string }
  | {
      kind: "value";
      value: CellValue;
      format: string | null;
      dateSystem: DateSystem;
      retryable?: boolean;
      /** The date(s) the value is dated on, in words ("Dated 2026-11-22"). */
      note?: string;
    };

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    minHeight: "64px",
  },
  scroll: { overflowX: "auto", maxWidth: "100%" },
  // Scrolling: a visible bar, a focus ring, and an inner shadow on each side that hides columns.
  scrollable: {
    scrollbarWidth: "auto",
    scrollbarColor: `${tokens.colorNeutralStroke1} transparent`,
    borderRadius: tokens.borderRadiusMedium,
    ":focus-visible": { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`, outlineOffset: "2px" },
  },
  moreRight: { boxShadow: `inset -12px 0 8px -8px ${tokens.colorNeutralShadowAmbientDarker}` },
  moreLeft: { boxShadow: `inset 12px 0 8px -8px ${tokens.colorNeutralShadowAmbientDarker}` },
  moreBoth: {
    boxShadow: `inset 12px 0 8px -8px ${tokens.colorNeutralShadowAmbientDarker}, inset -12px 0 8px -8px ${tokens.colorNeutralShadowAmbientDarker}`,
  },
  caption: { textAlign: "left", position: "sticky", left: 0 },
  scrollBar: { display: "flex", flexWrap: "wrap", alignItems: "center", gap: tokens.spacingHorizontalS },
  scrollNote: { flexBasis: "100%" },
  table: { borderCollapse: "collapse", fontSize: tokens.fontSizeBase200, fontVariantNumeric: "tabular-nums" },
  cell: {
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    textAlign: "left",
    whiteSpace: "nowrap",
  },
  number: { textAlign: "right" },
  error: { color: tokens.colorPaletteRedForeground1 },
  value: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  // The service's words can be one unbroken run of characters: they wrap anywhere rather than widen the pane.
  message: { overflowWrap: "anywhere" },
});

/** Runs the call as a cell would (a failure becomes the error cell the formula shows). */
export async function evaluatePreview(call: PreviewCall, ctx: CallContext): Promise<PreviewOutcome> {
  const dateSystem = ctx.dateSystem ?? 1900;
  // A host that shows no formats shows plain numbers (dates are the preview's own reading of a serial).
  const shown = (format: string | null) =>
    ctx.cellFormats || format === DATE_FORMAT || format === PARTIAL_DATE_FORMAT ? format : null;
  try {
    const result = await call.run(ctx);
    if (isFormattedTable(result)) {
      const formatAt: FormatAt = (row, column, value) => shown(result.formatAt(row, column, value));
      return { kind: "table", rows: result.rows, formatAt, dateSystem, note: result.note };
    }
    return { kind: "value", value: result.value, format: shown(result.format), dateSystem, note: result.note };
  } catch (error) {
    if (ctx.call.signal?.aborted) throw error;
    // Sending the same request again may succeed (the network, the service's load): the preview offers "Try again".
    const retryable = isMarketDataError(error) && error.retryable;
    return { kind: "value", value: failureCell(error), format: null, dateSystem, retryable };
  }
}

/** A cell as Excel displays it: numbers by their number format (exactly when they have none), errors by their code. */
export function cellText(value: CellValue, format: string | null, dateSystem: DateSystem): string {
  if (isErrorCell(value)) return value.error;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string") return value;
  if (format === DATE_FORMAT || format === PARTIAL_DATE_FORMAT) {
    try {
      return `${serialToIsoIn(value, dateSystem)}${format === PARTIAL_DATE_FORMAT ? " (partial)" : ""}`;
    } catch {
      return formatExact(value);
    }
  }
  return (format !== null && formatWithNumberFormat(value, format)) || formatExact(value);
}

/** The raw value, as the browser tests compare it with the built bundle's: numbers and text as is, errors by code. */
export function cellData(value: CellValue): string {
  return JSON.stringify(isErrorCell(value) ? value.error : value);
}

/** A dated table (a header row, a Date column, at least two dates) can be charted: its shape, from what the preview computed. */
export function chartOf(outcome: PreviewOutcome | null, title: string): ChartTableShape | null {
  if (outcome?.kind !== "table" || outcome.rows.length < 3) return null;
  const columns = outcome.rows.reduce((n, row) => Math.max(n, row.length), 0);
  const header = outcome.rows[0][0];
  if (columns < 2 || typeof header !== "string" || !header.startsWith("Date")) return null;
  const first = outcome.rows[1][0];
  const last = outcome.rows[outcome.rows.length - 1][0];
  const newestFirst = typeof first === "number" && typeof last === "number" && first > last;
  return { rows: outcome.rows.length, columns, title, newestFirst };
}

/** A dated table's first series, oldest first, for a small line above the preview (null when it has under two values). */
export function sparklineOf(outcome: PreviewOutcome | null): { values: number[]; first: string; last: string } | null {
  if (outcome?.kind !== "table") return null;
  const { rows, formatAt, dateSystem } = outcome;
  const header = rows[0]?.[0];
  if (typeof header !== "string" || !header.startsWith("Date")) return null;
  const points = rows
    .slice(1)
    .map((row, i) => ({ date: row[0], value: row[1], row: i + 1 }))
    .filter(
      (p): p is { date: number; value: number; row: number } =>
        typeof p.date === "number" && typeof p.value === "number",
    )
    .sort((a, b) => a.date - b.date);
  if (points.length < 2) return null;
  const dateText = (p: (typeof points)[number]) => cellText(p.date, formatAt(p.row, 0, p.date), dateSystem);
  return { values: points.map((p) => p.value), first: dateText(points[0]), last: dateText(points[points.length - 1]) };
}

export interface FunctionPreviewProps {
  call: PreviewCall | null;
  emptyText?: string;
  /** Draw the table's first series as a small line chart, named so (a screen reader hears it). */
  sparkline?: string;
  /** Told what the cell will show once the preview has it (null while there is nothing current). */
  onOutcome?(outcome: PreviewOutcome | null): void;
}

export function FunctionPreview({ call, emptyText, sparkline, onOutcome }: FunctionPreviewProps) {
  const styles = useStyles();
  const { client, today, dateSystem, cellFormats } = useServices();
  const key = useDebounced(call?.key ?? null, FUNCTION_PREVIEW_DEBOUNCE_MS);
  const result = useRequest<PreviewOutcome>(
    key && call && key === call.key
      ? async (signal) =>
          evaluatePreview(call, {
            client,
            today: today(),
            call: { signal },
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
  else body = <PreviewBody outcome={result.data} sparkline={sparkline} retry={result.retry} />;

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

function PreviewBody({ outcome, sparkline, retry }: { outcome: PreviewOutcome; sparkline?: string; retry(): void }) {
  const styles = useStyles();
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
  const shown = rows.slice(0, FUNCTION_PREVIEW_ROWS);
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
      <PreviewTable rows={rows} shown={shown} columns={columns} formatAt={formatAt} dateSystem={dateSystem} />
      {outcome.note && <DatedNote note={outcome.note} />}
      {messages.map((message) => (
        <Caption1 key={message} block className={styles.message} data-testid="function-preview-message">
          {message}
        </Caption1>
      ))}
    </>
  );
}

/** A header row: text in every cell, above at least one row of data (the functions' header rows, never a value). */
export function hasHeaderRow(rows: readonly CellValue[][]): boolean {
  return rows.length > 1 && rows[0].length > 0 && rows[0].every((value) => typeof value === "string");
}

/** "3 rows (and a header row) × 7 columns; the first 5 shown": the rows of data, the header counted apart. */
export function tableSizeText(rows: readonly CellValue[][], columns: number, shown: number): string {
  const header = hasHeaderRow(rows);
  const data = rows.length - (header ? 1 : 0);
  const dataShown = Math.max(0, shown - (header ? 1 : 0));
  const rowWord = `${data.toLocaleString("en-US")} ${data === 1 ? "row" : "rows"}`;
  return (
    `${rowWord}${header ? " (and a header row)" : ""} × ${columns} ${columns === 1 ? "column" : "columns"}` +
    (data > dataShown ? `; the first ${dataShown} shown` : "")
  );
}

/**
 * The table, in a box that scrolls sideways when it is wider than the pane:
 * then the box is a named region in the Tab order (the arrow keys scroll it),
 * with a note above it and a shadow on the side that has more columns.
 */
function PreviewTable({
  rows,
  shown,
  columns,
  formatAt,
  dateSystem,
}: {
  rows: CellValue[][];
  shown: CellValue[][];
  columns: number;
  formatAt: FormatAt;
  dateSystem: DateSystem;
}) {
  const styles = useStyles();
  const box = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ wide: false, left: false, right: false });
  const noteId = useId();
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      const wide = element.scrollWidth > element.clientWidth + 1;
      const left = wide && element.scrollLeft > 0;
      const right = wide && element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setScroll((was) => (was.wide === wide && was.left === left && was.right === right ? was : { wide, left, right }));
    };
    measure();
    element.addEventListener("scroll", measure, { passive: true });
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener("scroll", measure);
      observer?.disconnect();
    };
  }, []);
  const size = tableSizeText(rows, columns, shown.length);
  // The arrow keys scroll a focused box by themselves; Home and End would scroll it up and down: here, to its ends.
  const scrollEnds = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Home" && event.key !== "End") return;
    event.preventDefault();
    const element = event.currentTarget;
    element.scrollTo({ left: event.key === "Home" ? 0 : element.scrollWidth - element.clientWidth });
  };
  const scrollBy = (direction: 1 | -1) => {
    const element = box.current;
    element?.scrollBy({ left: direction * Math.max(40, element.clientWidth * 0.8) });
  };
  return (
    <>
      {scroll.wide && (
        <div className={styles.scrollBar}>
          <Caption1 id={noteId} className={styles.scrollNote} data-testid="function-preview-scroll-note">
            Wider than the pane: scroll sideways, or select the table and use the arrow keys (Home, End), to see all{" "}
            {columns} columns.
          </Caption1>
          <Button size="small" disabled={!scroll.left} onClick={() => scrollBy(-1)}>
            Scroll left
          </Button>
          <Button size="small" disabled={!scroll.right} onClick={() => scrollBy(1)}>
            Scroll right
          </Button>
        </div>
      )}
      <div
        ref={box}
        className={mergeClasses(
          styles.scroll,
          scroll.wide && styles.scrollable,
          scroll.left && styles.moreLeft,
          scroll.right && styles.moreRight,
          scroll.left && scroll.right && styles.moreBoth,
        )}
        data-testid="function-preview-scroll"
        data-scrollable={scroll.wide}
        data-more-columns={
          scroll.left && scroll.right ? "both sides" : scroll.left ? "left" : scroll.right ? "right" : undefined
        }
        {...(scroll.wide
          ? {
              tabIndex: 0,
              role: "region",
              "aria-label": `Preview table, ${size}`,
              "aria-describedby": noteId,
              onKeyDown: scrollEnds,
            }
          : {})}
      >
        <table
          className={styles.table}
          data-testid="function-preview-table"
          data-rows={rows.length}
          data-columns={columns}
        >
          <caption className={styles.caption}>
            <Caption1>{size}</Caption1>
          </caption>
          <tbody>
            {shown.map((row, r) => (
              <tr key={r}>
                {row.map((value, c) => {
                  const format = typeof value === "number" ? formatAt(r, c, value) : null;
                  return (
                    <td
                      key={c}
                      className={`${styles.cell} ${typeof value === "number" ? styles.number : ""} ${isErrorCell(value) ? styles.error : ""}`}
                      title={isErrorCell(value) ? redact(value.message) : undefined}
                      data-value={cellData(value)}
                    >
                      {cellText(value, format, dateSystem)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
