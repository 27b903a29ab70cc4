/**
 * From a chosen asset and metric to a formula: MD.SERIES (window, granularity,
 * options) or MD.LATEST (as-of date), with a live preview of what the formula
 * will return and the Insert / Copy actions.
 */
import { Button, Field, Input, Select, Switch } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import { GRANULARITIES, type Granularity, type MetricDescriptor } from "../../core/domain";
import { parseDate, parseDateWindow } from "../../core/arguments";
import { isFinancial } from "../../core/metric-knowledge";
import { FormulaActions } from "../shared/formula-actions";
import {
  DEFAULT_SERIES_OPTIONS,
  latestFormula,
  seriesFormula,
  type SeriesOptions,
  type SeriesOrder,
} from "./formula-text";
import { useServices } from "../shared/pane-services";
import { SeriesPreview, type PreviewRequest } from "./series-preview";
import { TextField, useBuilderStyles, WindowFields } from "./builders/builder-layout";
import { localeDatePattern, typedDate } from "./typed-date";

const GRANULARITY_LABEL: Record<Granularity, string> = {
  DAY: "Day",
  WEEK: "Week",
  MONTH: "Month",
  QUARTER: "Quarter",
  YEAR: "Year",
};
const QUICK_WINDOWS = ["-1M", "-3M", "-1Y", "-5Y"] as const;
/** How far back the LATEST preview looks for the last reading. */
const LATEST_LOOKBACK = { daily: "-3M", quarterly: "-2Y" };

export type FormulaKind = "series" | "latest";

export interface SeriesBuilderProps {
  symbol: string;
  metric: MetricDescriptor;
  /** MD.SERIES or MD.LATEST: chosen in the picker's step 3 (asset-formula-builder.tsx). */
  kind: FormulaKind;
}

interface FieldErrors {
  start?: string;
  end?: string;
  asOf?: string;
}

/** "start: x is not a date…" → "x is not a date…" under the field it belongs to. */
function fieldMessage(error: unknown): { argument: string; text: string } {
  const argument =
    typeof (error as { argument?: unknown }).argument === "string" ? (error as { argument: string }).argument : "";
  const message = error instanceof Error ? error.message : String(error);
  return {
    argument,
    text: argument && message.startsWith(`${argument}: `) ? message.slice(argument.length + 2) : message,
  };
}

export function SeriesBuilder({ symbol, metric, kind }: SeriesBuilderProps) {
  const styles = useBuilderStyles();
  const { today, dateLocale } = useServices();
  const [start, setStart] = useState("-1Y");
  const [end, setEnd] = useState("TODAY");
  const [asOf, setAsOf] = useState("");
  const [chosenGranularity, setChosenGranularity] = useState<Granularity>("DAY");
  const [options, setOptions] = useState<SeriesOptions>(DEFAULT_SERIES_OPTIONS);

  const [rows, setRows] = useState<number | null>(null);
  // A chart needs the header row (the series' name) and the date column: the table MD.SERIES spills by default.
  const chart =
    rows !== null && rows >= 2 && options.headers
      ? { rows: rows + 1, columns: 2, title: `${symbol} ${metric.name}` }
      : null;

  const financial = isFinancial(metric.name);
  // Filing-period financials exist once per fiscal quarter; the service refuses anything else.
  const granularity: Granularity = financial ? "QUARTER" : chosenGranularity;

  const resolved = useMemo((): {
    request: PreviewRequest | null;
    errors: FieldErrors;
    dates: { start: string; end: string; asOf: string };
  } => {
    const day = today();
    // A date typed the user's way (01/15/2025) becomes YYYY-MM-DD in the formula.
    const typed = {
      start: typedDate(start, dateLocale),
      end: typedDate(end, dateLocale),
      asOf: typedDate(asOf, dateLocale),
    };
    const dates = {
      start: typed.start.ok ? typed.start.text : start,
      end: typed.end.ok ? typed.end.text : end,
      asOf: typed.asOf.ok ? typed.asOf.text : asOf,
    };
    const fields = kind === "series" ? (["start", "end"] as const) : (["asOf"] as const);
    for (const field of fields) {
      const result = typed[field];
      if (!result.ok) return { request: null, errors: { [field]: result.message }, dates };
    }
    try {
      if (kind === "series") {
        const { start: startDate, end: endDate } = parseDateWindow(dates.start, dates.end, day);
        return {
          request: { symbol, metric: metric.name, startDate, endDate, granularity, kind, options },
          errors: {},
          dates,
        };
      }
      const endDate = parseDate(dates.asOf, "as_of", { today: day, anchor: day }) ?? day;
      const startDate = parseDate(financial ? LATEST_LOOKBACK.quarterly : LATEST_LOOKBACK.daily, "as_of", {
        today: day,
        anchor: endDate,
      });
      return {
        request: {
          symbol,
          metric: metric.name,
          startDate,
          endDate,
          granularity: financial ? "QUARTER" : "DAY",
          kind,
          options,
        },
        errors: {},
        dates,
      };
    } catch (error) {
      const { argument, text } = fieldMessage(error);
      const field = argument === "as_of" ? "asOf" : argument === "end" ? "end" : "start";
      return { request: null, errors: { [field]: text }, dates };
    }
  }, [kind, start, end, asOf, symbol, metric.name, granularity, financial, options, today, dateLocale]);

  const formula = useMemo(() => {
    if (resolved.request === null) return null;
    const { dates } = resolved;
    return kind === "series"
      ? seriesFormula({ symbol, metric: metric.name, start: dates.start, end: dates.end, granularity, options })
      : latestFormula(symbol, metric.name, dates.asOf);
  }, [resolved, kind, symbol, metric.name, granularity, options]);

  return (
    <div className={styles.root}>
      {kind === "series" ? (
        <>
          <WindowFields
            start={start}
            end={end}
            onStart={setStart}
            onEnd={setEnd}
            errors={resolved.errors}
            startPlaceholder="-1Y"
            testIdPrefix="window"
            locale={dateLocale}
            datesTestId="date-forms"
          />
          <div className={styles.quick} role="group" aria-label="Quick windows">
            {QUICK_WINDOWS.map((w) => (
              <Button
                key={w}
                size="small"
                appearance={start === w && end === "TODAY" ? "primary" : "secondary"}
                aria-label={`Window: last ${w.slice(1)}`}
                onClick={() => {
                  setStart(w);
                  setEnd("TODAY");
                }}
              >
                {w.slice(1)}
              </Button>
            ))}
          </div>
          <Field
            label="Granularity"
            hint={
              financial ? `${metric.name} is reported per fiscal quarter, so only Quarter is available.` : undefined
            }
          >
            <Select
              value={granularity}
              onChange={(_, d) => setChosenGranularity(d.value as Granularity)}
              data-testid="granularity"
            >
              {GRANULARITIES.map((g) => (
                <option key={g} value={g} disabled={financial && g !== "QUARTER"}>
                  {GRANULARITY_LABEL[g]}
                </option>
              ))}
            </Select>
          </Field>
          <div className={styles.options} role="group" aria-label="Table options">
            <Switch
              label="Header row"
              checked={options.headers}
              onChange={(_, d) => setOptions((o) => ({ ...o, headers: d.checked }))}
            />
            <div className={styles.row}>
              <Field label="Order">
                <Select
                  value={options.order}
                  onChange={(_, d) => setOptions((o) => ({ ...o, order: d.value as SeriesOrder }))}
                >
                  <option value="asc">Oldest first</option>
                  <option value="desc">Newest first</option>
                </Select>
              </Field>
              <Field label="Keep last N rows" hint="Empty keeps all">
                <Input
                  type="number"
                  min={1}
                  step={1}
                  value={options.last === null ? "" : String(options.last)}
                  onChange={(_, d) => {
                    const n = Number(d.value);
                    setOptions((o) => ({
                      ...o,
                      last: d.value.trim() !== "" && Number.isInteger(n) && n >= 1 ? n : null,
                    }));
                  }}
                  data-testid="last-rows"
                />
              </Field>
            </div>
          </div>
        </>
      ) : (
        <TextField
          label="As of (optional)"
          hint={`The last value dated on or before this date (${localeDatePattern(dateLocale)}, YYYY-MM-DD, TODAY or -1M). Empty means today.`}
          value={asOf}
          onChange={setAsOf}
          error={resolved.errors.asOf}
          placeholder="TODAY"
          testId="as-of"
        />
      )}

      <SeriesPreview request={resolved.request} unit={metric.unit} onRows={setRows} />

      <FormulaActions
        formula={formula}
        subject={`${symbol} ${metric.name}`}
        placeholder="Fix the fields above to build the formula."
        chart={kind === "series" ? chart : undefined}
      />
    </div>
  );
}
