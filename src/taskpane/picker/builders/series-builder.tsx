/**
 * From a chosen asset and metric to a formula: MD.SERIES (window, granularity,
 * options) or MD.LATEST (as-of date). The preview runs the function's own code
 * (function-preview.tsx), so what it shows — `last=`, `order=`,
 * headers, blank unsettled days, #N/A — is what the cell will show; Insert /
 * Copy, and for a table "Insert with a chart", sized from that preview.
 */
import { Field, Input, Select, Switch } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import type { Granularity, MetricDescriptor } from "../../../core/domain";
import { isFinancial } from "../../../core/metric-knowledge";
import { formattedLatestValue } from "../../../functions/latest";
import { formattedSeriesTable } from "../../../functions/series";
import { FormulaActions } from "../../shared/formula-actions";
import { DEFAULT_SERIES_OPTIONS, type SeriesOptions, type SeriesOrder } from "../formula-text";
import { useServices } from "../../shared/pane-services";
import { checkLatest, checkSeries } from "./builder-checks";
import { GranularityField, QuickWindows, TextField, useBuilderStyles, WindowFields } from "./builder-layout";
import { FunctionPreview } from "./function-preview";
import { chartOf, type PreviewCall, type PreviewOutcome } from "./preview-outcome";
import { localeDatePattern } from "../typed-date";

const QUICK_WINDOWS = ["-1M", "-3M", "-1Y", "-5Y"] as const;

export interface SeriesBuilderProps {
  symbol: string;
  metric: MetricDescriptor;
  /** A table over a window (MD.SERIES) or one value as of a date (MD.LATEST): the builder registry (registry.tsx) says which. */
  shape: "table" | "value";
}

export function SeriesBuilder({ symbol, metric, shape }: SeriesBuilderProps) {
  const styles = useBuilderStyles();
  const { today, dateLocale } = useServices();
  const [start, setStart] = useState("-1Y");
  const [end, setEnd] = useState("TODAY");
  const [asOf, setAsOf] = useState("");
  const [chosenGranularity, setChosenGranularity] = useState<Granularity>("DAY");
  const [options, setOptions] = useState<SeriesOptions>(DEFAULT_SERIES_OPTIONS);
  const [outcome, setOutcome] = useState<PreviewOutcome | null>(null);

  const financial = isFinancial(metric.name);
  // Filing-period financials exist once per fiscal quarter; the service refuses anything else.
  const granularity: Granularity = financial ? "QUARTER" : chosenGranularity;

  const checked = useMemo(() => {
    const env = { today: today(), dateLocale };
    return shape === "table"
      ? checkSeries({ symbol, metric: metric.name, start, end, granularity, options }, env)
      : checkLatest({ symbol, metric: metric.name, asOf }, env);
  }, [shape, symbol, metric.name, start, end, asOf, granularity, options, today, dateLocale]);
  const errors: Record<string, string | undefined> = checked.ok ? {} : checked.errors;
  const call = useMemo((): PreviewCall | null => {
    if (!checked.ok) return null;
    const { formula, args } = checked;
    return "symbols" in args
      ? { key: formula, run: (ctx) => formattedSeriesTable(ctx, args) }
      : { key: formula, run: (ctx) => formattedLatestValue(ctx, args) };
  }, [checked]);
  const subject = `${symbol} ${metric.name}`;

  return (
    <div className={styles.root}>
      {shape === "table" ? (
        <>
          <WindowFields
            start={start}
            end={end}
            onStart={setStart}
            onEnd={setEnd}
            errors={errors}
            startPlaceholder="-1Y"
            testIdPrefix="window"
            locale={dateLocale}
            datesTestId="date-forms"
          />
          <QuickWindows
            windows={QUICK_WINDOWS}
            start={start}
            end={end}
            onPick={(w) => {
              setStart(w);
              setEnd("TODAY");
            }}
            label={(w) => `Window: last ${w.slice(1)}`}
          />
          <GranularityField
            value={granularity}
            onChange={setChosenGranularity}
            testId="granularity"
            hint={
              financial ? `${metric.name} is reported per fiscal quarter, so only Quarter is available.` : undefined
            }
            only={financial ? "QUARTER" : undefined}
          />
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
          error={errors.asOf}
          placeholder="TODAY"
          testId="as-of"
        />
      )}

      <FunctionPreview call={call} sparkline={shape === "table" ? subject : undefined} onOutcome={setOutcome} />

      <FormulaActions
        formula={checked.ok ? checked.formula : null}
        subject={subject}
        placeholder="Fix the fields above to build the formula."
        chart={shape === "table" ? chartOf(outcome, subject) : undefined}
      />
    </div>
  );
}
