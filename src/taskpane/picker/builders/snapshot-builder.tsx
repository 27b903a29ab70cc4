/** MD.SNAPSHOT: several assets × metrics on one date, a comps table in one formula. */
import { Switch } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import { formattedSnapshotTable } from "../../../functions/snapshot";
import { FormulaActions } from "../../shared/formula-actions";
import { useServices } from "../../shared/pane-services";
import { checkSnapshot } from "./builder-checks";
import { TextField, useBuilderStyles } from "./builder-layout";
import { FunctionPreview } from "./function-preview";
import type { PreviewCall } from "./preview-outcome";

export interface SnapshotBuilderProps {
  /** Prefilled from the picker's chosen asset and metric, when there are. */
  symbols?: string;
  metrics?: string;
}

export function SnapshotBuilder(props: SnapshotBuilderProps) {
  const styles = useBuilderStyles();
  const { today, dateLocale } = useServices();
  const [symbols, setSymbols] = useState(props.symbols || "eth, sol, btc");
  const [metrics, setMetrics] = useState(props.metrics || "PRICE, MC, L30_FEES");
  const [asOf, setAsOf] = useState("");
  const [headers, setHeaders] = useState(true);
  const [transpose, setTranspose] = useState(false);

  const checked = useMemo(
    () => checkSnapshot({ symbols, metrics, asOf, headers, transpose }, { today: today(), dateLocale }),
    [symbols, metrics, asOf, headers, transpose, today, dateLocale],
  );
  const errors = checked.ok ? {} : checked.errors;
  const call = useMemo((): PreviewCall | null => {
    if (!checked.ok) return null;
    const { formula, args } = checked;
    return { key: formula, run: (ctx) => formattedSnapshotTable(ctx, args) };
  }, [checked]);

  return (
    <div className={styles.root} data-testid="snapshot-builder">
      <TextField
        label="Assets (down the table)"
        value={symbols}
        onChange={setSymbols}
        error={errors.symbols}
        hint="Symbols separated by commas: eth, sol, eq-coin."
        testId="snapshot-symbols"
      />
      <TextField
        label="Metrics (across)"
        value={metrics}
        onChange={setMetrics}
        error={errors.metrics}
        hint="Metrics separated by commas: PRICE, MC, L30_FEES (a summed one such as L30_FEES or LTM_TOTAL_REVENUE works too)."
        testId="snapshot-metrics"
      />
      <TextField
        label="As of (optional)"
        value={asOf}
        onChange={setAsOf}
        error={errors.asOf}
        hint="Each cell is the last value on or before this date. Empty means today."
        placeholder="TODAY"
        testId="snapshot-as-of"
      />
      <div className={styles.options} role="group" aria-label="Table options">
        <Switch label="Header row and symbol column" checked={headers} onChange={(_, d) => setHeaders(d.checked)} />
        <Switch label="Transpose (assets across)" checked={transpose} onChange={(_, d) => setTranspose(d.checked)} />
      </div>
      <FunctionPreview call={call} />
      <FormulaActions
        formula={checked.ok ? checked.formula : null}
        subject="the comps table (MD.SNAPSHOT)"
        placeholder="Fix the fields above to build the formula."
      />
    </div>
  );
}
