/**
 * What a builder's preview computes: the function's own code run as the cell
 * would run it, and the cell's text as Excel displays it. No React here: the
 * preview (function-preview.tsx), its table (preview-table.tsx) and the
 * builders (a chart's shape) read it.
 */
import { isMarketDataError } from "../../../api";
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
import { formatExact, formatWithNumberFormat } from "../../shared/value-format";

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
