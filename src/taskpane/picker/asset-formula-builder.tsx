/**
 * Step 3 of the picker for the chosen asset and metric: which function to
 * build — MD.SERIES, MD.LATEST, MD.AGG (this metric), MD.SUPPLY (this
 * asset's supply, for a stablecoin) or MD.ASSET (the asset as a card) — and
 * that function's builder.
 */
import { makeStyles, Radio, RadioGroup, Subtitle2, tokens } from "@fluentui/react-components";
import { useState } from "react";
import { kindFromOffer } from "../../core/assets-table";
import type { MetricDescriptor } from "../../core/domain";
import { AggBuilder } from "./builders/agg-builder";
import { SupplyBuilder } from "./builders/supply-builder";
import { FormulaActions } from "../shared/formula-actions";
import { assetFormula } from "./formula-text";
import { SeriesBuilder } from "./builders/series-builder";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  heading: { margin: 0 },
});

export type AssetFormulaKind = "series" | "latest" | "agg" | "supply" | "asset";

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
  const [kind, setKind] = useState<AssetFormulaKind>("series");
  return (
    <section className={styles.root} aria-labelledby="builder-heading">
      <Subtitle2 as="h2" id="builder-heading" className={styles.heading}>
        3. Formula
      </Subtitle2>
      <RadioGroup aria-label="Function" value={kind} onChange={(_, data) => setKind(data.value as AssetFormulaKind)}>
        <Radio value="series" label="MD.SERIES (a table)" />
        <Radio value="latest" label="MD.LATEST (one value)" />
        <Radio value="agg" label="MD.AGG (a statistic over a window)" />
        <Radio value="supply" label={`MD.SUPPLY (${supply})`} />
        <Radio value="asset" label={`MD.ASSET (${symbol} as a card: =A1.Price reads it)`} />
      </RadioGroup>
      {kind === "asset" ? (
        <div data-testid="asset-card-builder">
          <FormulaActions formula={assetFormula(symbol)} subject={`${symbol} card`} />
        </div>
      ) : kind === "agg" ? (
        <AggBuilder
          key={`${symbol} ${metric.name}`}
          symbol={symbol}
          metric={metric.name}
          aggregationType={metric.aggregation_type}
        />
      ) : kind === "supply" ? (
        <SupplyBuilder key={symbol} symbol={symbol} description={supply} />
      ) : (
        <SeriesBuilder symbol={symbol} metric={metric} kind={kind} />
      )}
    </section>
  );
}
