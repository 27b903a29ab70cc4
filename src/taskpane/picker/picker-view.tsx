/**
 * The asset and metric picker: 1. find an asset, 2. choose one of its metrics
 * (with its descriptor), 3. build, preview and insert the formula.
 */
import {
  Button,
  Caption1,
  Radio,
  RadioGroup,
  makeStyles,
  MessageBarActions,
  MessageBarBody,
  Subtitle2,
  Text,
  tokens,
} from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";
import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import type { AssetRecord, MetricDescriptor } from "../../core/domain";
import { AssetList } from "./asset-list";
import { buildAssetIndex } from "./asset-search";
import { ColorSwatch } from "./color-swatch";
import { MetricDetails } from "./metric-details";
import { MetricList } from "./metric-list";
import { useServices } from "../shared/pane-services";
import { AssetFormulaBuilder } from "./asset-formula-builder";
import { BUILD_MODES, type BuildMode, type BuildModeEntry, type PickerPrefill } from "./builders/registry";
import { useBoundedWait } from "../shared/use-bounded-wait";
import { Waiting } from "../shared/waiting";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalXL },
  section: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  heading: { margin: 0 },
  chosen: {
    display: "flex",
    alignItems: "center",
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  chosenText: { display: "flex", flexDirection: "column", flexGrow: 1, minWidth: 0 },
  ellipsis: { overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
  mono: { fontFamily: tokens.fontFamilyMonospace, color: tokens.colorNeutralForeground3 },
});

/**
 * What to build: a formula about one asset (the asset and metric picker, then
 * MD.SERIES, MD.LATEST, MD.AGG or MD.SUPPLY), a comps table of several assets
 * (MD.SNAPSHOT), or chain flows (MD.FLOWS).
 */
export function PickerView({ active }: { active: boolean }) {
  const styles = useStyles();
  const [mode, setMode] = useState<BuildMode>("asset");
  const [prefill, setPrefill] = useState<PickerPrefill | null>(null);
  const { section }: BuildModeEntry = BUILD_MODES.find((m) => m.mode === mode) ?? BUILD_MODES[0];
  return (
    <div className={styles.root}>
      <RadioGroup aria-label="Build" value={mode} onChange={(_, data) => setMode(data.value as BuildMode)}>
        {BUILD_MODES.map((m) => (
          <Radio key={m.mode} value={m.mode} label={m.label} />
        ))}
      </RadioGroup>
      {section ? (
        <section className={styles.section} aria-labelledby={`${mode}-heading`}>
          <Subtitle2 as="h2" id={`${mode}-heading`} className={styles.heading}>
            {section.heading}
          </Subtitle2>
          {section.render(prefill)}
        </section>
      ) : null}
      <div hidden={mode !== "asset"}>
        <AssetPicker active={active && mode === "asset"} onChosen={setPrefill} />
      </div>
    </div>
  );
}

/**
 * Where focus goes after a choice, so it never drops to the page body: after an asset is picked, its metric list
 * (the Change button meanwhile, while the metrics load); after Change, the asset search (AssetList's autoFocus);
 * after Escape from Change, the Change button again.
 */
type PendingFocus = "metrics" | "change" | null;

function AssetPicker({ active, onChosen }: { active: boolean; onChosen(chosen: PickerPrefill | null): void }) {
  const styles = useStyles();
  const { client, workbook } = useServices();
  // The catalog is large: fetch it the first time the view is opened, not when the pane loads.
  const [opened, setOpened] = useState(active);
  useEffect(() => {
    if (active) setOpened(true);
  }, [active]);

  const assets = useBoundedWait(opened ? (call) => client.getAssets(call) : null, [opened, client]);
  const assetData = assets.status === "ready" ? assets.data : null;
  const index = useMemo(() => (assetData ? buildAssetIndex(assetData) : null), [assetData]);

  const [asset, setAsset] = useState<AssetRecord | null>(null);
  const [metric, setMetric] = useState<MetricDescriptor | null>(null);
  // Change shows the asset search over the build, which stays (hidden) until another asset is picked or Escape.
  const [changing, setChanging] = useState(false);
  // The asset the metric list and the builder are for: the chosen one once its metrics are in.
  const [builtFor, setBuiltFor] = useState<string | null>(null);
  const [pendingFocus, setPendingFocus] = useState<PendingFocus>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  const metricsRef = useRef<HTMLElement>(null);
  const builderRef = useRef<HTMLDivElement>(null);
  const metrics = useBoundedWait(asset ? (call) => client.getMetrics(asset.symbol, call) : null, [
    asset?.symbol,
    client,
  ]);
  const metricsData = metrics.status === "ready" ? metrics.data : null;
  // A new asset's metrics: the chosen metric stays when the new asset offers it too (the builder keeps its fields).
  useEffect(() => {
    if (!metricsData || !asset) return;
    setMetric((chosen) => (chosen ? (metricsData.find((m) => m.name === chosen.name) ?? null) : null));
    setBuiltFor(asset.symbol);
    // Only new metrics mean a new asset's list (the asset changes a render before its request starts).
  }, [metricsData]);
  const metricsShown = asset !== null && builtFor === asset.symbol;
  useEffect(() => {
    if (changing || !pendingFocus) return;
    const idle = document.activeElement === document.body || document.activeElement === changeRef.current;
    if (pendingFocus === "metrics" && (metricsShown || metrics.status === "error")) {
      if (idle) metricsRef.current?.querySelector<HTMLElement>('[role="listbox"], button')?.focus();
      setPendingFocus(null);
    } else if (idle) changeRef.current?.focus();
    if (pendingFocus === "change") setPendingFocus(null);
  }, [pendingFocus, changing, metricsShown, metrics.status]);
  useEffect(
    () => onChosen(asset && metric && metricsShown ? { symbol: asset.symbol, metric: metric.name } : null),
    [asset, metric, metricsShown, onChosen],
  );

  return (
    <div className={styles.root}>
      {!workbook.canInsert && (
        <MessageBar intent="info">
          <MessageBarBody>
            Running outside Excel: Insert copies the formula instead of writing it into a cell.
          </MessageBarBody>
        </MessageBar>
      )}

      <section className={styles.section} aria-labelledby="picker-asset-heading">
        <Subtitle2 as="h2" id="picker-asset-heading" className={styles.heading}>
          1. Asset
        </Subtitle2>
        {asset && !changing ? (
          <ChosenAssetRow asset={asset} changeRef={changeRef} onChange={() => setChanging(true)} />
        ) : assets.status === "error" ? (
          <MessageBar intent="error">
            <MessageBarBody>Could not load the asset catalog: {assets.message}</MessageBarBody>
            <MessageBarActions>
              <Button size="small" onClick={assets.retry}>
                Try again
              </Button>
            </MessageBarActions>
          </MessageBar>
        ) : index ? (
          index.assets.length === 0 ? (
            <Text>The service lists no assets.</Text>
          ) : (
            <AssetList
              index={index}
              autoFocus={changing}
              onCancel={
                asset
                  ? () => {
                      setChanging(false);
                      setPendingFocus("change");
                    }
                  : undefined
              }
              onSelect={(chosen) => {
                setAsset(chosen);
                setChanging(false);
                setPendingFocus("metrics");
              }}
            />
          )
        ) : assets.status === "loading" ? (
          <Waiting what="Loading the asset catalog" since={assets.since} onCancel={assets.cancel} />
        ) : null}
      </section>

      {asset && (
        <section className={styles.section} aria-labelledby="picker-metric-heading" hidden={changing} ref={metricsRef}>
          <Subtitle2 as="h2" id="picker-metric-heading" className={styles.heading}>
            2. Metric
          </Subtitle2>
          {metrics.status === "error" ? (
            <MessageBar intent="error">
              <MessageBarBody>
                Could not load the metrics for {asset.symbol}: {metrics.message}
              </MessageBarBody>
              <MessageBarActions>
                <Button size="small" onClick={metrics.retry}>
                  Try again
                </Button>
              </MessageBarActions>
            </MessageBar>
          ) : metrics.status === "ready" && metricsShown ? (
            <>
              <MetricList
                symbol={asset.symbol}
                metrics={metrics.data}
                selected={metric?.name ?? null}
                onSelect={setMetric}
                onConfirm={() => builderRef.current?.querySelector<HTMLElement>("input[type=radio]:checked")?.focus()}
              />
              {metric && <MetricDetails metric={metric} />}
            </>
          ) : metrics.status === "loading" ? (
            <Waiting what={`Loading the metrics for ${asset.symbol}`} since={metrics.since} onCancel={metrics.cancel} />
          ) : null}
        </section>
      )}

      {asset && metric && builtFor && (
        // Kept while Change is open or a new asset's metrics load, so its fields are there when the build comes back.
        <div hidden={changing || !metricsShown} ref={builderRef}>
          <AssetFormulaBuilder
            symbol={builtFor}
            metric={metric}
            offered={metrics.status === "ready" ? metrics.data.map((m) => m.name) : undefined}
          />
        </div>
      )}
    </div>
  );
}

/** The chosen asset, with Change (which opens the search again, keeping the build). */
function ChosenAssetRow({
  asset,
  changeRef,
  onChange,
}: {
  asset: AssetRecord;
  changeRef: RefObject<HTMLButtonElement | null>;
  onChange(): void;
}) {
  const styles = useStyles();
  return (
    <div className={styles.chosen} data-testid="chosen-asset">
      <ColorSwatch color={asset.color} />
      <span className={styles.chosenText}>
        <Text weight="semibold" className={styles.ellipsis}>
          {asset.title}
        </Text>
        <Caption1 className={styles.mono}>{asset.symbol}</Caption1>
      </span>
      <Button size="small" ref={changeRef} onClick={onChange}>
        Change
      </Button>
    </div>
  );
}
