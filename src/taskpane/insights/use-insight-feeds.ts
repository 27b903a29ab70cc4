/**
 * The two insight feeds, each loaded on its own the first time it is shown
 * and kept once loaded (the client caches it too); a load can be cancelled,
 * and every load still running is aborted when the view goes away.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { InsightCard } from "../../core/domain";
import { PANE_NETWORK_RETRIES } from "../shared/bounded-wait";
import { errorText } from "../shared/error-text";
import { useServices } from "../shared/pane-services";
import { readableCard } from "./insight-filter";

export type FeedId = "streaks" | "decline-streaks";
export const FEEDS: readonly { id: FeedId; label: string }[] = [
  { id: "streaks", label: "Growth streaks" },
  { id: "decline-streaks", label: "Decline streaks" },
];

export type FeedState =
  | { status: "idle" }
  | { status: "loading"; startedAt: number }
  | { status: "ready"; cards: InsightCard[] }
  | { status: "error"; message: string }
  | { status: "cancelled" };

/** The shown feed's state, and its load and cancel; `active`: the view is on screen. */
export function useInsightFeeds(feed: FeedId, active: boolean) {
  const { client } = useServices();
  const [feeds, setFeeds] = useState<Record<FeedId, FeedState>>({
    streaks: { status: "idle" },
    "decline-streaks": { status: "idle" },
  });
  const controllers = useRef(new Map<FeedId, AbortController>());

  const update = (id: FeedId, state: FeedState) => setFeeds((all) => ({ ...all, [id]: state }));

  const load = useCallback(
    (id: FeedId) => {
      controllers.current.get(id)?.abort();
      const controller = new AbortController();
      controllers.current.set(id, controller);
      update(id, { status: "loading", startedAt: Date.now() });
      // Not a bounded wait (shared/bounded-wait.ts): a feed's first load in an hour takes the service up to a minute
      // (CLIENT_DEFAULTS.slowCallDeadlineMs), so giving up at 14 s would leave a cold feed unloadable. It shows its
      // elapsed time and Cancel from the start instead (feed-status.tsx); a refused address is said at once.
      client.getInsights(id, { signal: controller.signal, networkRetries: PANE_NETWORK_RETRIES }).then(
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

  return { state, load, cancel };
}
