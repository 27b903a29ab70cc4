/**
 * Asset search: a combobox (search box) driving a virtualised listbox. Only
 * the rows in view exist in the DOM, so 20,000 assets cost what 20 do; the
 * filtering itself is the precomputed index in asset-search.ts.
 */
import {
  Badge,
  Caption1,
  makeStyles,
  mergeClasses,
  Radio,
  RadioGroup,
  SearchBox,
  Text,
  tokens,
} from "@fluentui/react-components";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { AssetRecord } from "../../core/domain";
import { assetKind, type AssetFilter, type AssetIndex } from "./asset-search";
import { ColorSwatch } from "./color-swatch";

export const ASSET_ROW_HEIGHT = 44;
const LIST_HEIGHT = 264;
/** PageDown and PageUp move by a screenful, less one row. */
const PAGE_ROWS = Math.max(1, Math.floor(LIST_HEIGHT / ASSET_ROW_HEIGHT) - 1);

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  filters: {
    display: "flex",
    alignItems: "center",
    justifyContent: "space-between",
    flexWrap: "wrap",
    gap: tokens.spacingHorizontalS,
  },
  list: {
    height: `${LIST_HEIGHT}px`,
    overflowY: "auto",
    position: "relative",
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    outlineOffset: "2px",
  },
  row: {
    position: "absolute",
    top: 0,
    left: 0,
    width: "100%",
    boxSizing: "border-box",
    display: "flex",
    alignItems: "center",
    gap: tokens.spacingHorizontalS,
    padding: `0 ${tokens.spacingHorizontalM}`,
    cursor: "pointer",
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    ":hover": { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  active: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    boxShadow: `inset 3px 0 0 ${tokens.colorBrandStroke1}`,
  },
  text: { display: "flex", flexDirection: "column", minWidth: 0, flexGrow: 1 },
  title: { overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
  symbol: {
    fontFamily: tokens.fontFamilyMonospace,
    color: tokens.colorNeutralForeground3,
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
  },
  empty: { padding: tokens.spacingHorizontalM, color: tokens.colorNeutralForeground3 },
});

export interface AssetListProps {
  index: AssetIndex;
  onSelect(asset: AssetRecord): void;
  /** Escape: back to what was chosen before (the picker's Change), when there is something to go back to. */
  onCancel?(): void;
  autoFocus?: boolean;
}

export function AssetList({ index, onSelect, onCancel, autoFocus }: AssetListProps) {
  const styles = useStyles();
  const listId = useId();
  const [query, setQuery] = useState("");
  const [filter, setFilter] = useState<AssetFilter>("all");
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);

  const results = useMemo(() => index.search(query, filter), [index, query, filter]);

  const virtualizer = useVirtualizer({
    count: results.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ASSET_ROW_HEIGHT,
    overscan: 8,
  });

  // A new result set starts at its best match.
  useEffect(() => {
    setActive(0);
    virtualizer.scrollToOffset(0);
  }, [results, virtualizer]);

  function move(to: number) {
    if (results.length === 0) return;
    const next = Math.max(0, Math.min(results.length - 1, to));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: "auto" });
  }

  function onKeyDown(event: KeyboardEvent) {
    switch (event.key) {
      case "ArrowDown":
        move(active + 1);
        break;
      case "ArrowUp":
        move(active - 1);
        break;
      case "PageDown":
        move(active + PAGE_ROWS);
        break;
      case "PageUp":
        move(active - PAGE_ROWS);
        break;
      case "Enter":
        if (results.length > 0) onSelect(index.assets[results[active]]);
        break;
      default:
        if (event.key !== "Escape" || !onCancel) return;
        onCancel();
    }
    event.preventDefault();
  }

  const optionId = (i: number) => `${listId}-option-${i}`;
  const total = index.count(filter);

  return (
    <div className={styles.root}>
      <SearchBox
        placeholder="Search by name or symbol"
        aria-label="Search assets"
        role="combobox"
        aria-expanded={true}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={results.length > 0 ? optionId(active) : undefined}
        value={query}
        onChange={(_, data) => setQuery(data.value)}
        onKeyDown={onKeyDown}
        autoFocus={autoFocus}
        data-testid="asset-search"
      />
      <div className={styles.filters}>
        <RadioGroup
          layout="horizontal"
          aria-label="Asset type"
          value={filter}
          onChange={(_, data) => setFilter(data.value as AssetFilter)}
        >
          <Radio value="all" label="All" />
          <Radio value="crypto" label="Crypto" />
          <Radio value="equity" label="Equity" />
        </RadioGroup>
        <Caption1 role="status" aria-live="polite" data-testid="asset-count">
          {results.length === total
            ? `${total.toLocaleString("en-US")} assets`
            : `${results.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`}
        </Caption1>
      </div>
      <div
        ref={scrollRef}
        id={listId}
        role="listbox"
        aria-label="Assets"
        tabIndex={0}
        aria-activedescendant={results.length > 0 ? optionId(active) : undefined}
        className={styles.list}
        onKeyDown={onKeyDown}
        data-testid="asset-list"
        data-query={query}
        data-filter={filter}
      >
        {results.length === 0 ? (
          <div className={styles.empty}>
            {query.trim() ? `No assets match “${query.trim()}”.` : "No assets of this type."}
          </div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((item) => {
              const asset = index.assets[results[item.index]];
              const kind = assetKind(asset);
              return (
                <div
                  key={item.key}
                  id={optionId(item.index)}
                  role="option"
                  aria-selected={item.index === active}
                  aria-setsize={results.length}
                  aria-posinset={item.index + 1}
                  className={mergeClasses(styles.row, item.index === active && styles.active)}
                  style={{ height: item.size, transform: `translateY(${item.start}px)` }}
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => {
                    setActive(item.index);
                    onSelect(asset);
                  }}
                  data-testid="asset-option"
                  data-symbol={asset.symbol}
                >
                  <ColorSwatch color={asset.color} />
                  <span className={styles.text}>
                    <Text className={styles.title}>{asset.title}</Text>
                    <Caption1 className={styles.symbol}>{asset.symbol}</Caption1>
                  </span>
                  {kind === "equity" && (
                    <Badge appearance="outline" size="small">
                      Equity
                    </Badge>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
