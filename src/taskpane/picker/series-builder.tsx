/**
 * From a chosen asset and metric to a formula: MD.SERIES (window, granularity,
 * options) or MD.LATEST (as-of date), with a live preview of what the formula
 * will return and the Insert / Copy actions.
 */
import { Button, Caption1, Field, Input, makeStyles, Radio, RadioGroup, Select, Subtitle2, Switch, tokens } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import { GRANULARITIES, type Granularity, type MetricDescriptor } from "../../core/domain";
import { parseDate, parseDateWindow } from "../../core/arguments";
import { isFinancial } from "../../core/metric-knowledge";
import { FormulaActions } from "../shared/formula-actions";
import { DEFAULT_SERIES_OPTIONS, latestFormula, seriesFormula, type SeriesOptions, type SeriesOrder } from "./formula-text";
import { useServices } from "../shared/pane-services";
import { SeriesPreview, type PreviewRequest } from "./series-preview";
import { localeDateExample, localeDatePattern, typedDate } from "./typed-date";

const GRANULARITY_LABEL: Record<Granularity, string> = { DAY: "Day", WEEK: "Week", MONTH: "Month", QUARTER: "Quarter", YEAR: "Year" };
const QUICK_WINDOWS = ["-1M", "-3M", "-1Y", "-5Y"] as const;
/** How far back the LATEST preview looks for the last reading. */
const LATEST_LOOKBACK = { daily: "-3M", quarterly: "-2Y" };

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  heading: { margin: 0 },
  // minmax(0, …) and minWidth 0: a text input's intrinsic width (about 20 characters) must not widen a narrow pane.
  row: {
    display: "grid",
    gridTemplateColumns: "minmax(0, 1fr) minmax(0, 1fr)",
    gap: tokens.spacingHorizontalS,
    // A field with a hint is taller; stretched neighbours would push their control down out of line.
    alignItems: "start",
    "& .fui-Input": { minWidth: 0 },
  },
  quick: { display: "flex", gap: tokens.spacingHorizontalXS, flexWrap: "wrap", alignItems: "center" },
  options: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXS },
});

export type FormulaKind = "series" | "latest";

export interface SeriesBuilderProps {
  symbol: string;
  metric: MetricDescriptor;
}

interface FieldErrors {
  start?: string;
  end?: string;
  asOf?: string;
}

/** "start: x is not a date…" → "x is not a date…" under the field it belongs to. */
function fieldMessage(error: unknown): { argument: string; text: string } {
  const argument = typeof (error as { argument?: unknown }).argument === "string" ? (error as { argument: string }).argument : "";
  const message = error instanceof Error ? error.message : String(error);
  return { argument, text: argument && message.startsWith(`${argument}: `) ? message.slice(argument.length + 2) : message };
}

export function SeriesBuilder({ symbol, metric }: SeriesBuilderProps) {
  const styles = useStyles();
  const { today, dateLocale } = useServices();
  const [kind, setKind] = useState<FormulaKind>("series");
  const [start, setStart] = useState("-1Y");
  const [end, setEnd] = useState("TODAY");
  const [asOf, setAsOf] = useState("");
  const [chosenGranularity, setChosenGranularity] = useState<Granularity>("DAY");
  const [options, setOptions] = useState<SeriesOptions>(DEFAULT_SERIES_OPTIONS);

  const financial = isFinancial(metric.name);
  // Filing-period financials exist once per fiscal quarter; the service refuses anything else.
  const granularity: Granularity = financial ? "QUARTER" : chosenGranularity;

  const resolved = useMemo((): { request: PreviewRequest | null; errors: FieldErrors; dates: { start: string; end: string; asOf: string } } => {
    const day = today();
    // A date typed the user's way (01/15/2025) becomes YYYY-MM-DD in the formula.
    const typed = { start: typedDate(start, dateLocale), end: typedDate(end, dateLocale), asOf: typedDate(asOf, dateLocale) };
    const dates = { start: typed.start.ok ? typed.start.text : start, end: typed.end.ok ? typed.end.text : end, asOf: typed.asOf.ok ? typed.asOf.text : asOf };
    const fields = kind === "series" ? (["start", "end"] as const) : (["asOf"] as const);
    for (const field of fields) {
      const result = typed[field];
      if (!result.ok) return { request: null, errors: { [field]: result.message }, dates };
    }
    try {
      if (kind === "series") {
        const { start: startDate, end: endDate } = parseDateWindow(dates.start, dates.end, day);
        return { request: { symbol, metric: metric.name, startDate, endDate, granularity, kind, options }, errors: {}, dates };
      }
      const endDate = parseDate(dates.asOf, "as_of", { today: day, anchor: day }) ?? day;
      const startDate = parseDate(financial ? LATEST_LOOKBACK.quarterly : LATEST_LOOKBACK.daily, "as_of", { today: day, anchor: endDate });
      return { request: { symbol, metric: metric.name, startDate, endDate, granularity: financial ? "QUARTER" : "DAY", kind, options }, errors: {}, dates };
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
    <section className={styles.root} aria-labelledby="builder-heading">
      <Subtitle2 as="h2" id="builder-heading" className={styles.heading}>
        3. Formula
      </Subtitle2>
      <RadioGroup layout="horizontal" aria-label="Function" value={kind} onChange={(_, data) => setKind(data.value as FormulaKind)}>
        <Radio value="series" label="MD.SERIES (a table)" />
        <Radio value="latest" label="MD.LATEST (one value)" />
      </RadioGroup>

      {kind === "series" ? (
        <>
          <div className={styles.row}>
            <Field label="Start" validationMessage={resolved.errors.start} validationState={resolved.errors.start ? "error" : "none"}>
              <Input value={start} onChange={(_, d) => setStart(d.value)} placeholder="-1Y" spellCheck={false} data-testid="window-start" />
            </Field>
            <Field label="End" validationMessage={resolved.errors.end} validationState={resolved.errors.end ? "error" : "none"}>
              <Input value={end} onChange={(_, d) => setEnd(d.value)} placeholder="TODAY" spellCheck={false} data-testid="window-end" />
            </Field>
          </div>
          <Caption1 data-testid="date-forms">
            Dates: {localeDateExample(dateLocale)} ({localeDatePattern(dateLocale)}), YYYY-MM-DD, TODAY, or relative -30D, -12W, -6M, -2Q, -1Y (the start counts back from the end).
          </Caption1>
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
            hint={financial ? `${metric.name} is reported per fiscal quarter, so only Quarter is available.` : undefined}
          >
            <Select value={granularity} onChange={(_, d) => setChosenGranularity(d.value as Granularity)} data-testid="granularity">
              {GRANULARITIES.map((g) => (
                <option key={g} value={g} disabled={financial && g !== "QUARTER"}>
                  {GRANULARITY_LABEL[g]}
                </option>
              ))}
            </Select>
          </Field>
          <div className={styles.options} role="group" aria-label="Table options">
            <Switch label="Header row" checked={options.headers} onChange={(_, d) => setOptions((o) => ({ ...o, headers: d.checked }))} />
            <div className={styles.row}>
              <Field label="Order">
                <Select value={options.order} onChange={(_, d) => setOptions((o) => ({ ...o, order: d.value as SeriesOrder }))}>
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
                    setOptions((o) => ({ ...o, last: d.value.trim() !== "" && Number.isInteger(n) && n >= 1 ? n : null }));
                  }}
                  data-testid="last-rows"
                />
              </Field>
            </div>
          </div>
        </>
      ) : (
        <Field
          label="As of (optional)"
          hint={`The last value dated on or before this date (${localeDatePattern(dateLocale)}, YYYY-MM-DD, TODAY or -1M). Empty means today.`}
          validationMessage={resolved.errors.asOf}
          validationState={resolved.errors.asOf ? "error" : "none"}
        >
          <Input value={asOf} onChange={(_, d) => setAsOf(d.value)} placeholder="TODAY" spellCheck={false} data-testid="as-of" />
        </Field>
      )}

      <SeriesPreview request={resolved.request} unit={metric.unit} />

      <FormulaActions formula={formula} subject={`${symbol} ${metric.name}`} placeholder="Fix the fields above to build the formula." />
    </section>
  );
}
