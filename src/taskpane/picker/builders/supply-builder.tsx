/** MD.SUPPLY for the chosen asset (a stablecoin, or a chain's stablecoins): a window and a granularity; its table can go in with a line chart. */
import { Caption1 } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import type { Granularity } from "../../../core/domain";
import { formattedSupplyTable } from "../../../functions/supply";
import { FormulaActions } from "../../shared/formula-actions";
import { useServices } from "../../shared/pane-services";
import { checkSupply } from "./builder-checks";
import { GranularityField, QuickWindows, useBuilderStyles, WindowFields } from "./builder-layout";
import { FunctionPreview } from "./function-preview";
import { chartOf, type PreviewCall, type PreviewOutcome } from "./preview-outcome";

const QUICK_WINDOWS = ["-1M", "-3M", "-1Y"] as const;

export function SupplyBuilder({ symbol, description }: { symbol: string; description?: string }) {
  const styles = useBuilderStyles();
  const { today, dateLocale } = useServices();
  const [start, setStart] = useState("-3M");
  const [end, setEnd] = useState("TODAY");
  const [granularity, setGranularity] = useState<Granularity>("WEEK");
  const [outcome, setOutcome] = useState<PreviewOutcome | null>(null);

  const checked = useMemo(
    () => checkSupply({ symbol, start, end, granularity }, { today: today(), dateLocale }),
    [symbol, start, end, granularity, today, dateLocale],
  );
  const errors = checked.ok ? {} : checked.errors;
  const call = useMemo((): PreviewCall | null => {
    if (!checked.ok) return null;
    const { formula, args } = checked;
    return { key: formula, run: (ctx) => formattedSupplyTable(ctx, args) };
  }, [checked]);

  return (
    <div className={styles.root} data-testid="supply-builder">
      {description && (
        <Caption1 data-testid="supply-description">
          Returns {description}: Total, Bridged, Premint, Peg stability, Other locked and Circulating, per date.
        </Caption1>
      )}
      <WindowFields
        start={start}
        end={end}
        onStart={setStart}
        onEnd={setEnd}
        errors={errors}
        startPlaceholder="-3M"
        testIdPrefix="supply"
        locale={dateLocale}
      />
      <QuickWindows
        windows={QUICK_WINDOWS}
        start={start}
        end={end}
        onPick={(w) => {
          setStart(w);
          setEnd("TODAY");
        }}
      />
      <GranularityField value={granularity} onChange={setGranularity} testId="supply-granularity" />
      <FunctionPreview call={call} onOutcome={setOutcome} />
      <FormulaActions
        formula={checked.ok ? checked.formula : null}
        subject={`${symbol} supply`}
        placeholder="Fix the fields above to build the formula."
        chart={chartOf(outcome, `${symbol} supply`)}
      />
    </div>
  );
}
