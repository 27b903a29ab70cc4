/**
 * The metrics an asset offers: a single-select listbox (arrow keys move the
 * selection, as in a native list; Enter goes on to the next step) with a
 * filter once the list gets long.
 */
import { Caption1, makeStyles, mergeClasses, SearchBox, Text, tokens } from "@fluentui/react-components";
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { MetricDescriptor } from "../../core/domain";
import { normaliseSearchText } from "../shared/search-text";

const FILTER_FROM = 8;

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  list: {
    maxHeight: "220px",
    overflowY: "auto",
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    outlineOffset: "2px",
  },
  option: {
    display: "flex",
    flexDirection: "column",
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    cursor: "pointer",
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
    ":hover": { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  selected: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    boxShadow: `inset 3px 0 0 ${tokens.colorBrandStroke1}`,
  },
  name: { fontFamily: tokens.fontFamilyMonospace, color: tokens.colorNeutralForeground3, overflowWrap: "anywhere" },
  empty: { padding: tokens.spacingHorizontalM, color: tokens.colorNeutralForeground3 },
});

export interface MetricListProps {
  symbol: string;
  metrics: readonly MetricDescriptor[];
  selected: string | null;
  onSelect(metric: MetricDescriptor): void;
  /** Enter on the chosen metric: on to the next step (the picker moves focus there). */
  onConfirm?(): void;
}

export function MetricList({ symbol, metrics, selected, onSelect, onConfirm }: MetricListProps) {
  const styles = useStyles();
  const listId = useId();
  const [query, setQuery] = useState("");
  const listRef = useRef<HTMLDivElement>(null);

  const shown = useMemo(() => {
    const words = normaliseSearchText(query).split(" ").filter(Boolean);
    if (words.length === 0) return metrics;
    return metrics.filter((m) => {
      const text = normaliseSearchText(`${m.label} ${m.name} ${m.name.replace(/_/g, " ")}`);
      return words.every((w) => text.includes(w));
    });
  }, [metrics, query]);

  const selectedIndex = shown.findIndex((m) => m.name === selected);
  const optionId = (i: number) => `${listId}-metric-${i}`;

  useEffect(() => {
    if (selectedIndex >= 0)
      document.getElementById(`${listId}-metric-${selectedIndex}`)?.scrollIntoView?.({ block: "nearest" });
  }, [selectedIndex, listId]);

  function onKeyDown(event: KeyboardEvent) {
    if (shown.length === 0) return;
    if (event.key === "Enter" && selectedIndex >= 0 && onConfirm) {
      event.preventDefault();
      onConfirm();
      return;
    }
    const last = shown.length - 1;
    let next: number;
    if (event.key === "ArrowDown") next = selectedIndex < 0 ? 0 : Math.min(last, selectedIndex + 1);
    else if (event.key === "ArrowUp") next = selectedIndex < 0 ? 0 : Math.max(0, selectedIndex - 1);
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = last;
    else return;
    event.preventDefault();
    onSelect(shown[next]);
  }

  if (metrics.length === 0) return <Text className={styles.empty}>No metrics are listed for {symbol}.</Text>;

  return (
    <div className={styles.root}>
      {metrics.length >= FILTER_FROM && (
        <SearchBox
          size="small"
          placeholder="Filter metrics"
          aria-label={`Filter metrics for ${symbol}`}
          value={query}
          onChange={(_, data) => setQuery(data.value)}
        />
      )}
      <div
        ref={listRef}
        id={listId}
        role="listbox"
        aria-label={`Metrics for ${symbol}`}
        tabIndex={0}
        aria-activedescendant={selectedIndex >= 0 ? optionId(selectedIndex) : undefined}
        className={styles.list}
        onKeyDown={onKeyDown}
        data-testid="metric-list"
      >
        {shown.length === 0 && <div className={styles.empty}>No metrics match “{query.trim()}”.</div>}
        {shown.map((metric, i) => (
          <div
            key={metric.name}
            id={optionId(i)}
            role="option"
            aria-selected={metric.name === selected}
            className={mergeClasses(styles.option, metric.name === selected && styles.selected)}
            onClick={() => {
              onSelect(metric);
              listRef.current?.focus();
            }}
            data-testid="metric-option"
            data-metric={metric.name}
          >
            <Text>{metric.label || metric.name}</Text>
            <Caption1 className={styles.name}>{metric.name}</Caption1>
          </div>
        ))}
      </div>
    </div>
  );
}
