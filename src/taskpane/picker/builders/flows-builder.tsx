/** MD.FLOWS: chain capital flows over a window, for the chains ticked (and any typed), largest first. */
import { Caption1, Checkbox, Label, Switch } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import { formattedFlowsTable } from "../../../functions/flows";
import { FormulaActions } from "../../shared/formula-actions";
import { useServices } from "../../shared/pane-services";
import { FLOW_CHOICES, type FlowChoice } from "../formula-text";
import { checkFlows, splitList } from "./builder-checks";
import { FieldError, TextField, useBuilderStyles, WindowFields } from "./builder-layout";
import { FunctionPreview } from "./function-preview";
import type { PreviewCall } from "./preview-outcome";

/**
 * The chains offered as boxes: MD.FLOWS names chains by the asset catalog's
 * platform_id (`avalanche`, `bsc`), not the token symbol. Any other chain can
 * be typed below the boxes.
 */
export const FLOW_CHAINS: readonly string[] = [
  "ethereum",
  "solana",
  "bsc",
  "tron",
  "base",
  "arbitrum",
  "optimism",
  "polygon",
  "avalanche",
  "sui",
  "aptos",
  "near",
  "ton",
];

const FLOW_LABEL: Record<FlowChoice, string> = { NETFLOW: "Netflow", INFLOW: "Inflow", OUTFLOW: "Outflow" };

export function FlowsBuilder() {
  const styles = useBuilderStyles();
  const { today, dateLocale } = useServices();
  const [ticked, setTicked] = useState<string[]>(["ethereum", "solana", "arbitrum", "base"]);
  const [other, setOther] = useState("");
  const [start, setStart] = useState("-1M");
  const [end, setEnd] = useState("TODAY");
  const [flowTypes, setFlowTypes] = useState<FlowChoice[]>(["NETFLOW"]);
  const [headers, setHeaders] = useState(true);
  const [top, setTop] = useState("");

  const chains = useMemo(
    () => [...new Set([...ticked, ...splitList(other).map((c) => c.toLowerCase())])],
    [ticked, other],
  );
  const checked = useMemo(
    () => checkFlows({ chains, start, end, flowTypes, headers, top }, { today: today(), dateLocale }),
    [chains, start, end, flowTypes, headers, top, today, dateLocale],
  );
  const errors = checked.ok ? {} : checked.errors;
  const call = useMemo((): PreviewCall | null => {
    if (!checked.ok) return null;
    const { formula, args } = checked;
    return { key: formula, run: (ctx) => formattedFlowsTable(ctx, args) };
  }, [checked]);

  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));

  return (
    <div className={styles.root} data-testid="flows-builder">
      <div className={styles.options}>
        <Label id="flows-chains-label">Source chains</Label>
        <div className={styles.checks} role="group" aria-labelledby="flows-chains-label">
          {FLOW_CHAINS.map((chain) => (
            <Checkbox
              key={chain}
              label={chain}
              checked={ticked.includes(chain)}
              onChange={(_, d) => setTicked((list) => toggle(list, chain, d.checked === true))}
            />
          ))}
        </div>
        <FieldError text={errors.chains} />
      </div>
      <TextField
        label="Other chains (optional)"
        value={other}
        onChange={setOther}
        hint="Chain names as the asset catalog's platform_id, separated by commas."
        testId="flows-other-chains"
      />
      <WindowFields
        start={start}
        end={end}
        onStart={setStart}
        onEnd={setEnd}
        errors={errors}
        startPlaceholder="-1M"
        testIdPrefix="flows"
        locale={dateLocale}
      />
      <div className={styles.options}>
        <Label id="flows-types-label">Flows</Label>
        <div className={styles.checks} role="group" aria-labelledby="flows-types-label">
          {FLOW_CHOICES.map((type) => (
            <Checkbox
              key={type}
              label={FLOW_LABEL[type]}
              checked={flowTypes.includes(type)}
              onChange={(_, d) => setFlowTypes((list) => toggle(list, type, d.checked === true))}
            />
          ))}
        </div>
        <FieldError text={errors.flowTypes} />
      </div>
      <TextField
        label="Keep the first N chains (optional)"
        value={top}
        onChange={setTop}
        error={errors.top}
        hint="The largest by the first flow column; empty keeps every chain."
        testId="flows-top"
      />
      <Switch label="Header row" checked={headers} onChange={(_, d) => setHeaders(d.checked)} />
      <Caption1>Each value is the chain&apos;s total over the whole window, in US dollars.</Caption1>
      <FunctionPreview call={call} />
      <FormulaActions
        formula={checked.ok ? checked.formula : null}
        subject="chain flows (MD.FLOWS)"
        placeholder="Fix the fields above to build the formula."
      />
    </div>
  );
}
