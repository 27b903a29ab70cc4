/** MD.AGG for the chosen asset and metric: a window, a statistic, an as-of date. */
import { Button, Field, Select } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import { defaultStat } from "../../../core/agg-stat";
import { parsePrefixedMetric } from "../../../core/agg-window";
import { knownAggregationType } from "../../../core/metric-knowledge";
import { formattedAggregateValue } from "../../../functions/agg";
import { FormulaActions } from "../../shared/formula-actions";
import { useServices } from "../../shared/pane-services";
import { checkAgg } from "./builder-checks";
import { TextField, useBuilderStyles } from "./builder-layout";
import { FunctionPreview } from "./function-preview";
import type { PreviewCall } from "./preview-outcome";

export const AGG_WINDOWS = ["7D", "30D", "90D", "MTD", "QTD", "YTD", "LTM"] as const;
export const AGG_STATS = ["SUM", "AVG", "MIN", "MAX", "FIRST", "LAST", "CHANGE", "PCT_CHANGE"] as const;

/**
 * What "Default" is for this metric, as MD.AGG decides it: LAST for a prefixed
 * metric (its rolling sum at the window's end), else SUM for flows and LAST for
 * levels, from the catalog's aggregation type (or the built-in one). Null when
 * neither says: the function then asks for a statistic.
 */
export function defaultStatText(metric: string, aggregationType: string | undefined): string | null {
  if (parsePrefixedMetric(metric)) return "LAST";
  const type = aggregationType ?? knownAggregationType(metric);
  return type ? defaultStat(type) : null;
}

export function AggBuilder({
  symbol,
  metric,
  aggregationType,
}: {
  symbol: string;
  metric: string;
  /** The catalog's aggregation_type for the metric, which decides the default statistic. */
  aggregationType?: string;
}) {
  const styles = useBuilderStyles();
  const { today, dateLocale } = useServices();
  const [window, setWindow] = useState("30D");
  const [stat, setStat] = useState("");
  const [asOf, setAsOf] = useState("");

  const checked = useMemo(
    () => checkAgg({ symbol, metric, window, stat, asOf }, { today: today(), dateLocale }),
    [symbol, metric, window, stat, asOf, today, dateLocale],
  );
  const errors = checked.ok ? {} : checked.errors;
  const defaultName = defaultStatText(metric, aggregationType);
  const call = useMemo((): PreviewCall | null => {
    if (!checked.ok) return null;
    const { formula, args } = checked;
    return { key: formula, run: (ctx) => formattedAggregateValue(ctx, args) };
  }, [checked]);

  return (
    <div className={styles.root} data-testid="agg-builder">
      <TextField
        label="Window"
        value={window}
        onChange={setWindow}
        error={errors.window}
        hint="7D, 30D, 90D, MTD, QTD, YTD, LTM, or -6M, -2Q, -1Y, both ends included: ends on the as-of date, or without one on the latest day with data."
        placeholder="30D"
        testId="agg-window"
      />
      <div className={styles.quick} role="group" aria-label="Quick windows">
        {AGG_WINDOWS.map((w) => (
          <Button key={w} size="small" appearance={window === w ? "primary" : "secondary"} onClick={() => setWindow(w)}>
            {w}
          </Button>
        ))}
      </div>
      <div className={styles.row}>
        <Field label="Statistic" validationMessage={errors.stat} validationState={errors.stat ? "error" : "none"}>
          <Select value={stat} onChange={(_, d) => setStat(d.value)} data-testid="agg-stat">
            <option value="">
              {defaultName ? `Default (${defaultName} for ${metric})` : "Default for the metric"}
            </option>
            {AGG_STATS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
        <TextField
          label="As of (optional)"
          value={asOf}
          onChange={setAsOf}
          error={errors.asOf}
          placeholder="TODAY"
          testId="agg-as-of"
        />
      </div>
      <FunctionPreview call={call} />
      <FormulaActions
        formula={checked.ok ? checked.formula : null}
        subject={`${symbol} ${metric} (MD.AGG)`}
        placeholder="Fix the fields above to build the formula."
      />
    </div>
  );
}
