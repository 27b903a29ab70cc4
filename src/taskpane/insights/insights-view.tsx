/**
 * The insight browser: growth and decline streak feeds as cards. A feed's
 * first call after the service's hourly cache expiry can take a minute, so a
 * load shows its progress and can be cancelled; each feed loads on its own
 * and is kept once loaded (the client caches it too).
 */
import {
  Button,
  Caption1,
  Field,
  makeStyles,
  MessageBarActions,
  MessageBarBody,
  ProgressBar,
  Radio,
  RadioGroup,
  SearchBox,
  Subtitle2,
  Text,
  tokens,
} from "@fluentui/react-components";
import { MessageBar } from "../shared/message-bar";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { InsightCard } from "../../core/domain";
import { errorText } from "../shared/error-text";
import { InsightCardView } from "./insight-card";
import {
  CADENCES,
  entityNames,
  filterInsights,
  insightCadence,
  readableCard,
  type CadenceFilter,
} from "./insight-filter";
import { useServices } from "../shared/pane-services";
import { useRequest } from "../shared/use-request";

export type FeedId = "streaks" | "decline-streaks";
export const FEEDS: readonly { id: FeedId; label: string }[] = [
  { id: "streaks", label: "Growth streaks" },
  { id: "decline-streaks", label: "Decline streaks" },
];
export const PAGE_SIZE = 30;

type FeedState =
  | { status: "idle" }
  | { status: "loading"; startedAt: number }
  | { status: "ready"; cards: InsightCard[] }
  | { status: "error"; message: string }
  | { status: "cancelled" };

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM },
  heading: { margin: 0 },
  loading: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  loadingRow: {
    display: "flex",
    justifyContent: "space-between",
    alignItems: "center",
    gap: tokens.spacingHorizontalS,
  },
  filters: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS },
  // Horizontal radio groups wrap in a narrow pane instead of running past its edge.
  radios: { flexWrap: "wrap" },
  list: {
    listStyle: "none",
    margin: 0,
    padding: 0,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
  },
});

/** The client's per-attempt limit for feeds (CLIENT_DEFAULTS.slowTimeoutMs): past it, the load is being retried. */
export const SLOW_FEED_NOTE_AFTER_MS = 55_000;

/** After 55 s, says why it is still loading: Excel on Mac gives up on a request at 60 s, so the add-in asks again. */
function SlowFeedNote({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (now - since < SLOW_FEED_NOTE_AFTER_MS) return null;
  return (
    <Caption1 data-testid="insights-slow">
      The service is still preparing this feed (its first load in an hour can take a minute). Each try ends after 55 s,
      because Excel on Mac gives up on a request at 60 s, and the add-in then asks again.
    </Caption1>
  );
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <>{Math.max(0, Math.floor((now - since) / 1000))} s</>;
}

export function InsightsView({ active }: { active: boolean }) {
  const styles = useStyles();
  const { client, workbook } = useServices();
  const [feed, setFeed] = useState<FeedId>("streaks");
  const [feeds, setFeeds] = useState<Record<FeedId, FeedState>>({
    streaks: { status: "idle" },
    "decline-streaks": { status: "idle" },
  });
  const [cadence, setCadence] = useState<CadenceFilter>("all");
  const [search, setSearch] = useState("");
  const [shown, setShown] = useState(PAGE_SIZE);
  const controllers = useRef(new Map<FeedId, AbortController>());

  const update = (id: FeedId, state: FeedState) => setFeeds((all) => ({ ...all, [id]: state }));

  const load = useCallback(
    (id: FeedId) => {
      controllers.current.get(id)?.abort();
      const controller = new AbortController();
      controllers.current.set(id, controller);
      update(id, { status: "loading", startedAt: Date.now() });
      client.getInsights(id, { signal: controller.signal }).then(
        (cards) => {
          if (!controller.signal.aborted) update(id, { status: "ready", cards: cards.map(readableCard) });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) update(id, { status: "error", message: errorText(error) });
        },
      );
    },
    [client],
  );

  const cancel = (id: FeedId) => {
    controllers.current.get(id)?.abort();
    controllers.current.delete(id);
    update(id, { status: "cancelled" });
  };

  // A feed is fetched when it is first shown: the pane opening should not start a minute-long request.
  const state = feeds[feed];
  useEffect(() => {
    if (active && state.status === "idle") load(feed);
  }, [active, feed, state.status, load]);

  useEffect(() => {
    const all = controllers.current;
    return () => all.forEach((c) => c.abort());
  }, []);

  useEffect(() => setShown(PAGE_SIZE), [feed, cadence, search]);

  // The catalog's titles name the cards' entities ("l2" is Layer 2): asked for once a feed has cards (the client
  // shares and caches the catalog with the Picker); without it the cards show their ids.
  const cards = state.status === "ready" ? state.cards : null;
  const hasCards = cards !== null && cards.length > 0;
  const catalog = useRequest(hasCards ? (signal) => client.getAssets({ signal }) : null, [hasCards, client]);
  const catalogAssets = catalog.status === "ready" ? catalog.data : null;
  const names = useMemo(() => entityNames(catalogAssets ?? []), [catalogAssets]);
  const filtered = useMemo(
    () => (cards ? filterInsights(cards, { cadence, search }, names) : []),
    [cards, cadence, search, names],
  );
  const counts = useMemo(() => {
    const result: Record<CadenceFilter, number> = { all: cards?.length ?? 0, weekly: 0, monthly: 0, quarterly: 0 };
    for (const card of cards ?? []) {
      const c = insightCadence(card.FLAG);
      if (c) result[c]++;
    }
    return result;
  }, [cards]);
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
          <div className={styles.loading} data-testid="insights-loading">
            <Field
              validationMessage="The first load of a feed can take up to a minute; later loads are quick."
              validationState="none"
            >
              <ProgressBar aria-label={`Loading ${label.toLowerCase()}`} />
            </Field>
            <div className={styles.loadingRow}>
              <Text role="status" aria-live="polite">
                Loading {label.toLowerCase()}… <Elapsed since={state.startedAt} />
              </Text>
              <Button onClick={() => cancel(feed)}>Cancel</Button>
            </div>
            <SlowFeedNote since={state.startedAt} />
          </div>
        )}

        {state.status === "cancelled" && (
          <MessageBar intent="warning" data-testid="insights-cancelled">
            <MessageBarBody>Loading was cancelled.</MessageBarBody>
            <MessageBarActions>
              <Button size="small" onClick={() => load(feed)}>
                Load again
              </Button>
            </MessageBarActions>
          </MessageBar>
        )}

        {state.status === "error" && (
          <MessageBar intent="error" data-testid="insights-error">
            <MessageBarBody>
              Could not load {label.toLowerCase()}: {state.message}
            </MessageBarBody>
            <MessageBarActions>
              <Button size="small" onClick={() => load(feed)}>
                Try again
              </Button>
            </MessageBarActions>
          </MessageBar>
        )}

        {cards && (
          <>
            <div className={styles.filters}>
              <SearchBox
                placeholder="Search entity or metric"
                aria-label="Search insight cards"
                value={search}
                onChange={(_, data) => setSearch(data.value)}
                data-testid="insight-search"
              />
              <RadioGroup
                className={styles.radios}
                layout="horizontal"
                aria-label="Cadence"
                value={cadence}
                onChange={(_, data) => setCadence(data.value as CadenceFilter)}
              >
                <Radio value="all" label={`All (${counts.all})`} />
                {CADENCES.map((c) => (
                  <Radio key={c} value={c} label={`${c[0].toUpperCase()}${c.slice(1)} (${counts[c]})`} />
                ))}
              </RadioGroup>
              <Caption1 role="status" aria-live="polite" data-testid="insight-count">
                {filtered.length === cards.length
                  ? `${cards.length} cards`
                  : `${filtered.length} of ${cards.length} cards`}
              </Caption1>
            </div>
            {cards.length === 0 ? (
              <Text>This feed has no cards right now.</Text>
            ) : filtered.length === 0 ? (
              <Text>No cards match these filters.</Text>
            ) : (
              <ul className={styles.list} aria-label={`${label} cards`}>
                {filtered.slice(0, shown).map((card, i) => (
                  <li key={`${card.ENTITY_ID}|${card.METRIC_NAME}|${card.FLAG}|${card.PERIOD_END_DATE}|${i}`}>
                    <InsightCardView card={card} title={names.get(card.ENTITY_ID.toLowerCase())?.title} />
                  </li>
                ))}
              </ul>
            )}
            {filtered.length > shown && (
              <Button onClick={() => setShown((n) => n + PAGE_SIZE)}>
                Show {Math.min(PAGE_SIZE, filtered.length - shown)} more of {filtered.length - shown}
              </Button>
            )}
          </>
        )}
      </section>
    </div>
  );
}
