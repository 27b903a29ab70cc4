/**
 * The insight browser: growth and decline streak feeds as cards. A feed's
 * first call after the service's hourly cache expiry can take a minute, so a
 * load shows its progress and can be cancelled; each feed loads on its own
 * and is kept once loaded (the client caches it too).
 *
 * One part per file, its state beside it: the feeds (use-insight-feeds.ts),
 * a load on its way or failed (feed-status.tsx), the cards and their filters
 * (insight-card-list.tsx).
 */
import { MessageBarBody, Radio, RadioGroup, Subtitle2 } from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";
import { useState } from "react";
import { useServices } from "../shared/pane-services";
import { FeedCancelled, FeedFailed, FeedLoading } from "./feed-status";
import { InsightCardList } from "./insight-card-list";
import type { CadenceFilter } from "./insight-filter";
import { useInsightsStyles } from "./insights-styles";
import { FEEDS, useInsightFeeds, type FeedId } from "./use-insight-feeds";

export function InsightsView({ active }: { active: boolean }) {
  const styles = useInsightsStyles();
  const { workbook } = useServices();
  const [feed, setFeed] = useState<FeedId>("streaks");
  const { state, load, cancel } = useInsightFeeds(feed, active);
  // The filters stay when the feed changes.
  const [cadence, setCadence] = useState<CadenceFilter>("all");
  const [search, setSearch] = useState("");
  const label = FEEDS.find((f) => f.id === feed)?.label ?? feed;

  return (
    <div className={styles.root}>
      {!workbook.canInsert && (
        <MessageBar intent="info">
          <MessageBarBody>
            Running outside Excel: Insert copies a card&apos;s formula instead of writing it into a cell.
          </MessageBarBody>
        </MessageBar>
      )}
      <RadioGroup
        className={styles.radios}
        layout="horizontal"
        aria-label="Insight feed"
        value={feed}
        onChange={(_, data) => setFeed(data.value as FeedId)}
      >
        {FEEDS.map((f) => (
          <Radio key={f.id} value={f.id} label={f.label} />
        ))}
      </RadioGroup>

      <section aria-labelledby="insights-heading" aria-busy={state.status === "loading"} className={styles.root}>
        <Subtitle2 as="h2" id="insights-heading" className={styles.heading}>
          {label}
        </Subtitle2>
        {state.status === "loading" && (
          <FeedLoading label={label} since={state.startedAt} onCancel={() => cancel(feed)} />
        )}
        {state.status === "cancelled" && <FeedCancelled onLoad={() => load(feed)} />}
        {state.status === "error" && <FeedFailed label={label} message={state.message} onRetry={() => load(feed)} />}
        {state.status === "ready" && (
          <InsightCardList
            cards={state.cards}
            label={label}
            cadence={cadence}
            onCadence={setCadence}
            search={search}
            onSearch={setSearch}
          />
        )}
      </section>
    </div>
  );
}
