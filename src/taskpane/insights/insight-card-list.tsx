/**
 * A loaded feed's cards: a search and a cadence filter (with each cadence's
 * count), then the cards that match, a page at a time. The filters belong to
 * the view (they stay when the feed changes); how many cards are shown is
 * this list's, and starts again at a page when the cards or filters change.
 *
 * The cards are a layout grid, one Tab stop moved through with the arrow keys
 * (use-roving-grid.ts), with a skip link before it to the end of the list.
 */
import { Button, Caption1, Radio, RadioGroup, SearchBox, Text } from "@fluentui/react-components";
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { InsightCard } from "../../core/domain";
import { useServices } from "../shared/pane-services";
import { useBoundedWait } from "../shared/use-bounded-wait";
import { InsightCardView } from "./insight-card";
import { CADENCES, entityNames, filterInsights, insightCadence, type CadenceFilter } from "./insight-filter";
import { useInsightsStyles } from "./insights-styles";
import { useRovingGrid } from "./use-roving-grid";

export const PAGE_SIZE = 30;

export interface InsightCardListProps {
  cards: InsightCard[];
  /** The feed's name ("Growth streaks"). */
  label: string;
  cadence: CadenceFilter;
  onCadence(cadence: CadenceFilter): void;
  search: string;
  onSearch(search: string): void;
}

export function InsightCardList({ cards, label, cadence, onCadence, search, onSearch }: InsightCardListProps) {
  const styles = useInsightsStyles();
  const { client } = useServices();
  const [shown, setShown] = useState(PAGE_SIZE);
  useEffect(() => setShown(PAGE_SIZE), [cards, cadence, search]);
  const grid = useRef<HTMLDivElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const endId = useId();
  const roving = useRovingGrid(grid);

  // The catalog's titles name the cards' entities ("l2" is Layer 2): asked for once a feed has cards (the client
  // shares and caches the catalog with the Picker); without it the cards show their ids.
  const hasCards = cards.length > 0;
  const catalog = useBoundedWait(hasCards ? (call) => client.getAssets(call) : null, [hasCards, client]);
  const catalogAssets = catalog.status === "ready" ? catalog.data : null;
  const names = useMemo(() => entityNames(catalogAssets ?? []), [catalogAssets]);
  const filtered = useMemo(() => filterInsights(cards, { cadence, search }, names), [cards, cadence, search, names]);
  const listed = filtered.slice(0, shown);
  // New rows: the grid's one Tab stop again (the card focused last, or the first).
  useLayoutEffect(roving.sync, [listed.length, filtered, roving.sync]);
  const counts = useMemo(() => {
    const result: Record<CadenceFilter, number> = { all: cards.length, weekly: 0, monthly: 0, quarterly: 0 };
    for (const card of cards) {
      const c = insightCadence(card.FLAG);
      if (c) result[c]++;
    }
    return result;
  }, [cards]);

  return (
    <>
      <div className={styles.filters}>
        <SearchBox
          placeholder="Search entity or metric"
          aria-label="Search insight cards"
          value={search}
          onChange={(_, data) => onSearch(data.value)}
          data-testid="insight-search"
        />
        <RadioGroup
          className={styles.radios}
          layout="horizontal"
          aria-label="Cadence"
          value={cadence}
          onChange={(_, data) => onCadence(data.value as CadenceFilter)}
        >
          <Radio value="all" label={`All (${counts.all})`} />
          {CADENCES.map((c) => (
            <Radio key={c} value={c} label={`${c[0].toUpperCase()}${c.slice(1)} (${counts[c]})`} />
          ))}
        </RadioGroup>
        <Caption1 role="status" aria-live="polite" data-testid="insight-count">
          {filtered.length === cards.length ? `${cards.length} cards` : `${filtered.length} of ${cards.length} cards`}
        </Caption1>
      </div>
      {cards.length === 0 ? (
        <Text>This feed has no cards right now.</Text>
      ) : filtered.length === 0 ? (
        <Text>No cards match these filters.</Text>
      ) : (
        <>
          <a
            href={`#${endId}`}
            className={styles.skip}
            onClick={(event) => {
              event.preventDefault();
              end.current?.focus();
            }}
          >
            Skip the {listed.length} cards
          </a>
          <div
            ref={grid}
            role="grid"
            className={styles.list}
            aria-label={`${label} cards`}
            aria-rowcount={filtered.length}
            onKeyDown={roving.onKeyDown}
            onFocus={roving.onFocus}
            data-testid="insight-grid"
          >
            {listed.map((card, i) => (
              <InsightCardView
                key={`${card.ENTITY_ID}|${card.METRIC_NAME}|${card.FLAG}|${card.PERIOD_END_DATE}|${i}`}
                card={card}
                title={names.get(card.ENTITY_ID.toLowerCase())?.title}
                rowIndex={i + 1}
              />
            ))}
          </div>
          <div id={endId} ref={end} tabIndex={-1} className={styles.end}>
            <Caption1>
              {listed.length === filtered.length
                ? `The end of the ${filtered.length} cards.`
                : `${listed.length} of ${filtered.length} cards shown.`}
            </Caption1>
          </div>
        </>
      )}
      {filtered.length > shown && (
        <Button onClick={() => setShown((n) => n + PAGE_SIZE)}>
          Show {Math.min(PAGE_SIZE, filtered.length - shown)} more of {filtered.length - shown}
        </Button>
      )}
    </>
  );
}
