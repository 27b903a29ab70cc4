/**
 * The picker's functions, named once. `BUILD_MODES` is the Build radio group
 * (one asset, a comps table, chain flows); `FORMULA_BUILDERS` is, for one
 * asset, the Function radio group of step 3. Each entry gives its radio's label
 * and the builder (fields, preview, Insert) shown when it is chosen; the
 * unions `BuildMode` and `FormulaKind` are read from these lists.
 *
 * A builder is given as an element, not a component: MD.SERIES and MD.LATEST
 * share one builder, which keeps its fields when the choice switches between
 * them (React keeps an element of the same type in the same place). The fields
 * stay, too, when the asset changes (the picker's Change): a window or a
 * granularity applies to the next asset as well; MD.AGG's start again for
 * another metric, whose default statistic may differ.
 */
import type { ReactNode } from "react";
import type { MetricDescriptor } from "../../../core/domain";
import { AggBuilder } from "./agg-builder";
import { AssetCardBuilder } from "./asset-card-builder";
import { FlowsBuilder } from "./flows-builder";
import { SeriesBuilder } from "./series-builder";
import { SnapshotBuilder } from "./snapshot-builder";
import { SupplyBuilder } from "./supply-builder";

/** The asset and metric chosen in the picker's steps 1 and 2. */
export interface ChosenAsset {
  symbol: string;
  metric: MetricDescriptor;
  /** What MD.SUPPLY returns for this asset, in words (supplyDescription in asset-formula-builder.tsx). */
  supply: string;
}

interface FormulaBuilderEntry {
  kind: string;
  label(chosen: ChosenAsset): string;
  render(chosen: ChosenAsset): ReactNode;
}

/** Step 3 for the chosen asset and metric, in the order the radio group lists them. */
export const FORMULA_BUILDERS = [
  {
    kind: "series",
    label: () => "MD.SERIES (a table)",
    render: ({ symbol, metric }) => <SeriesBuilder symbol={symbol} metric={metric} shape="table" />,
  },
  {
    kind: "latest",
    label: () => "MD.LATEST (one value)",
    render: ({ symbol, metric }) => <SeriesBuilder symbol={symbol} metric={metric} shape="value" />,
  },
  {
    kind: "agg",
    label: () => "MD.AGG (a statistic over a window)",
    render: ({ symbol, metric }) => (
      <AggBuilder key={metric.name} symbol={symbol} metric={metric.name} aggregationType={metric.aggregation_type} />
    ),
  },
  {
    kind: "supply",
    label: ({ supply }) => `MD.SUPPLY (${supply})`,
    render: ({ symbol, supply }) => <SupplyBuilder symbol={symbol} description={supply} />,
  },
  {
    kind: "asset",
    label: ({ symbol }) => `MD.ASSET (${symbol} as a card: =A1.Price reads it)`,
    render: ({ symbol }) => <AssetCardBuilder symbol={symbol} />,
  },
] as const satisfies readonly FormulaBuilderEntry[];

export type FormulaKind = (typeof FORMULA_BUILDERS)[number]["kind"];

/** What the Build mode's builder starts from: the asset and metric last chosen in the one-asset picker. */
export interface PickerPrefill {
  symbol: string;
  metric: string;
}

export interface BuildModeEntry {
  mode: string;
  label: string;
  /** The mode's own section (its heading and builder); absent for one asset, which is the picker's steps 1 to 3. */
  section?: { heading: string; render(prefill: PickerPrefill | null): ReactNode };
}

export const BUILD_MODES = [
  { mode: "asset", label: "One asset: MD.SERIES, MD.LATEST, MD.AGG, MD.SUPPLY" },
  {
    mode: "snapshot",
    label: "A comps table of several assets: MD.SNAPSHOT",
    section: {
      heading: "Comps table",
      render: (prefill) => <SnapshotBuilder symbols={prefill?.symbol} metrics={prefill?.metric} />,
    },
  },
  {
    mode: "flows",
    label: "Capital flows across chains: MD.FLOWS",
    section: { heading: "Chain flows", render: () => <FlowsBuilder /> },
  },
] as const satisfies readonly BuildModeEntry[];

export type BuildMode = (typeof BUILD_MODES)[number]["mode"];
