/**
 * The live preview: what the formula will return, fetched through the shared
 * client (so inserting the formula right after is answered from its cache).
 */
import {
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Text,
  tokens,
} from "@fluentui/react-components";
import { useEffect, type ReactNode } from "react";
import type { DataPoint, Granularity, Reading, SeriesResult } from "../../core/domain";
import { hasValue, readingsOf } from "../../core/readings";
import type { SeriesOptions } from "./formula-text";
import { LineChart } from "../shared/line-chart";
import { useServices } from "../shared/pane-services";
import { useRequest } from "../shared/use-request";
import { useDebounced } from "../shared/use-debounced";
import { formatExact, formatValue } from "../shared/value-format";

export const PREVIEW_DEBOUNCE_MS = 300;
export const PREVIEW_ROWS = 5;

export interface PreviewRequest {
  symbol: string;
  metric: string;
  startDate?: string;
  endDate?: string;
  granularity: Granularity;
  kind: "series" | "latest";
  options: SeriesOptions;
}

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
  heading: { display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: tokens.spacingHorizontalS },
  table: {
    borderCollapse: "collapse",
    width: "100%",
    fontSize: tokens.fontSizeBase200,
    fontVariantNumeric: "tabular-nums",
  },
  cell: {
    padding: `${tokens.spacingVerticalXXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    textAlign: "left",
  },
  number: { textAlign: "right" },
  latest: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
});

/** Rows as MD.SERIES returns them for one series: `last` keeps the most recent N, `order` sets the direction. */
export function previewRows<P extends DataPoint>(points: readonly P[], options: SeriesOptions): P[] {
  const kept = options.last !== null ? points.slice(Math.max(0, points.length - options.last)) : points.slice();
  return options.order === "desc" ? kept.reverse() : kept;
}

export function SeriesPreview({
  request,
  unit,
  onRows,
}: {
  request: PreviewRequest | null;
  unit: string;
  /** Told how many data rows the table will have (after `last`), or null while there is no current table. */
  onRows?: (rows: number | null) => void;
}) {
  const styles = useStyles();
  const { client } = useServices();
  // Only what changes the answer makes a new request; order/last/headers reshape the one already here.
  const fetchKey = request
    ? JSON.stringify([request.symbol, request.metric, request.startDate, request.endDate, request.granularity])
    : null;
  const key = useDebounced(fetchKey, PREVIEW_DEBOUNCE_MS);
  const result = useRequest<SeriesResult>(
    key && request
      ? (signal) =>
          client.getSeries(
            {
              symbol: request.symbol,
              metric: request.metric,
              startDate: request.startDate,
              endDate: request.endDate,
              granularity: request.granularity,
            },
            { signal },
          )
      : null,
    [key],
  );

  const current =
    request && key === fetchKey && result.status === "ready" && result.data.kind === "points"
      ? previewRows(result.data.points, request.options).length
      : null;
  useEffect(() => onRows?.(current), [current, onRows]);

  let body: ReactNode;
  if (!request) body = <Caption1>The preview appears once the fields above are valid.</Caption1>;
  else if (key !== fetchKey || result.status === "loading" || result.status === "idle")
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
  else if (result.data.kind === "message")
    body = (
      <MessageBar intent="warning">
        <MessageBarBody>The service has no series for this pair: {result.data.message}</MessageBarBody>
      </MessageBar>
    );
  else if (!result.data.points.some(hasValue)) body = <Text>No data in this window. Try a longer window.</Text>;
  else body = <PreviewData request={request} points={readingsOf(result.data.points)} unit={unit} />;

  return (
    <section
      className={styles.root}
      aria-labelledby="preview-heading"
      aria-busy={result.status === "loading"}
      data-testid="preview"
    >
      <div className={styles.heading}>
        <Text weight="semibold" id="preview-heading">
          Preview
        </Text>
        {request && (
          <Caption1>
            {request.startDate ?? "…"} to {request.endDate ?? "…"} · {request.granularity.toLowerCase()}
          </Caption1>
        )}
      </div>
      {body}
    </section>
  );
}

function PreviewData({ request, points, unit }: { request: PreviewRequest; points: Reading[]; unit: string }) {
  const styles = useStyles();
  const values = points.map((p) => p.val);
  const first = points[0];
  const last = points[points.length - 1];
  const chartLabel = `Line chart of ${request.metric} for ${request.symbol}: ${points.length} readings from ${first.date} (${formatValue(first.val, unit)}) to ${last.date} (${formatValue(last.val, unit)}).`;
  const chart = <LineChart values={values} width={300} height={72} label={chartLabel} guides testId="preview-chart" />;

  if (request.kind === "latest") {
    return (
      <>
        <Text>
          Latest value:{" "}
          <span className={styles.latest} data-testid="latest-value">
            {formatExact(last.val)}
          </span>{" "}
          on {last.date}
        </Text>
        {chart}
      </>
    );
  }

  const rows = previewRows(points, request.options);
  return (
    <>
      {chart}
      <table className={styles.table} data-testid="preview-table">
        <caption style={{ textAlign: "left" }}>
          <Caption1>
            First {Math.min(PREVIEW_ROWS, rows.length)} of {rows.length.toLocaleString("en-US")} rows
          </Caption1>
        </caption>
        {request.options.headers && (
          <thead>
            <tr>
              <th className={styles.cell} scope="col">
                Date
              </th>
              <th className={`${styles.cell} ${styles.number}`} scope="col">
                {request.symbol} {request.metric}
              </th>
            </tr>
          </thead>
        )}
        <tbody>
          {rows.slice(0, PREVIEW_ROWS).map((p) => (
            <tr key={p.date}>
              <td className={styles.cell}>{p.date}</td>
              <td className={`${styles.cell} ${styles.number}`}>{formatExact(p.val)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
