/**
 * Step 3 of the picker for the chosen asset and metric: which function to
 * build — MD.SERIES, MD.LATEST, MD.AGG (this metric), MD.SUPPLY (this
 * asset's supply, for a stablecoin) or MD.ASSET (the asset as a card) — and
 * that function's builder, both from the builder registry (builders/registry.tsx).
 */
import { makeStyles, Radio, RadioGroup, Subtitle2, tokens } from "@fluentui/react-components";
import { useState } from "react";
import { kindFromOffer } from "../../core/assets-table";
import type { MetricDescriptor } from "../../core/domain";
import { FORMULA_BUILDERS, type FormulaKind } from "./builders/registry";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  heading: { margin: 0 },
});

/**
 * What MD.SUPPLY returns for this asset, from the metrics the service offers
 * for it (the kind rule of src/core/assets-table.ts): for a chain, the supply
 * of the stablecoins on it; for a stablecoin, its own supply.
 */
export function supplyDescription(symbol: string, offered: readonly string[] | undefined): string {
  const kind = offered ? kindFromOffer(new Set(offered)) : null;
  if (kind === "chain") return `the supply of all stablecoins on ${symbol}, by bucket`;
  if (kind === "stablecoin") return `${symbol}'s own supply, by bucket`;
  return "a stablecoin's supply by bucket, or that of all stablecoins on a chain";
}

export function AssetFormulaBuilder({
  symbol,
  metric,
  offered,
}: {
  symbol: string;
  metric: MetricDescriptor;
  /** The names of the metrics the service offers for the asset (they tell a chain from a stablecoin). */
  offered?: readonly string[];
}) {
  const styles = useStyles();
  const supply = supplyDescription(symbol, offered);
  const [kind, setKind] = useState<FormulaKind>("series");
  const chosen = { symbol, metric, supply };
  const builder = FORMULA_BUILDERS.find((b) => b.kind === kind) ?? FORMULA_BUILDERS[0];
  return (
    <section className={styles.root} aria-labelledby="builder-heading">
      <Subtitle2 as="h2" id="builder-heading" className={styles.heading}>
        3. Formula
      </Subtitle2>
      <RadioGroup aria-label="Function" value={kind} onChange={(_, data) => setKind(data.value as FormulaKind)}>
        {FORMULA_BUILDERS.map((b) => (
          <Radio key={b.kind} value={b.kind} label={b.label(chosen)} />
        ))}
      </RadioGroup>
      {builder.render(chosen)}
    </section>
  );
}
