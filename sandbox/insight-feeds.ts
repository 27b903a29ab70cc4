/**
 * Server-side caching of the insight feeds, as the interface describes (4.8):
 * each feed is computed on the first call, kept for an hour, and the first
 * uncached call is slow (the delay is configurable so tests stay fast).
 * Callers that arrive while a feed is being computed share that computation.
 */
import type { InsightCardWire } from "./wire-types";

export const INSIGHT_CACHE_MS = 60 * 60 * 1000;

interface CachedFeed {
  body: string;
  cards: number;
  at: number;
}

export class InsightFeeds {
  private readonly cache = new Map<string, CachedFeed>();
  private readonly pending = new Map<string, Promise<CachedFeed>>();

  constructor(
    private readonly compute: (feed: string) => InsightCardWire[],
    private readonly firstCallDelay: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly onCompute: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The feed's `{rows: [...]}` body. */
  async body(feed: string): Promise<string> {
    const cached = this.cache.get(feed);
    if (cached && this.now() - cached.at < INSIGHT_CACHE_MS) return cached.body;
    let pending = this.pending.get(feed);
    if (!pending) {
      pending = this.load(feed).finally(() => this.pending.delete(feed));
      this.pending.set(feed, pending);
    }
    return (await pending).body;
  }

  private async load(feed: string): Promise<CachedFeed> {
    const delay = this.firstCallDelay();
    if (delay > 0) await this.sleep(delay);
    this.onCompute();
    const cards = this.compute(feed);
    const entry = { body: JSON.stringify({ rows: cards }), cards: cards.length, at: this.now() };
    this.cache.set(feed, entry);
    return entry;
  }

  clear(): void {
    this.cache.clear();
  }
}
