/**
 * Reading insight cards (2.7): cadence from FLAG, the change a streak made, and
 * the browser's filter. Only `streak_weekly/monthly/quarterly` and
 * `decline_streak_weekly` are documented; the other decline cadences follow the
 * same naming, so the cadence is read from the suffix rather than a fixed list.
 */
import type { AssetRecord, InsightCard } from "../../core/domain";
import { searchRank } from "../../core/text-search";
import { normaliseSearchText } from "../shared/search-text";

export type Cadence = "weekly" | "monthly" | "quarterly";
export const CADENCES: readonly Cadence[] = ["weekly", "monthly", "quarterly"];
export type CadenceFilter = "all" | Cadence;

export function insightCadence(flag: string): Cadence | null {
  const match = /_(weekly|monthly|quarterly)$/i.exec(flag.trim());
  return match ? (match[1].toLowerCase() as Cadence) : null;
}

const PERIOD_WORD: Record<Cadence, [string, string]> = {
  weekly: ["week", "weeks"],
  monthly: ["month", "months"],
  quarterly: ["quarter", "quarters"],
};

/** "6 weeks", "1 quarter", or "6 periods" when the cadence is unknown. */
export function durationText(duration: number, cadence: Cadence | null): string {
  const [one, many] = cadence ? PERIOD_WORD[cadence] : ["period", "periods"];
  return `${duration} ${duration === 1 ? one : many}`;
}

/** Percent change from start to end; null when the start is zero or either value is not a number. */
export function changePercent(start: number, end: number): number | null {
  if (!Number.isFinite(start) || !Number.isFinite(end) || start === 0) return null;
  return ((end - start) / Math.abs(start)) * 100;
}

/**
 * A card as the views read it. The client keeps a feed's rows whole, so a
 * field may hold null, a number or an object where the interface promises
 * text (or text where it promises a number); trimming or rendering those
 * threw and blanked the pane. Text fields become text ("" when absent),
 * number fields numbers (NaN, shown as "–", when not numeric), and the
 * sparkline keeps only well-formed points.
 */
export function readableCard(card: InsightCard): InsightCard {
  const text = (value: unknown): string =>
    typeof value === "string"
      ? value
      : value === null || value === undefined
        ? ""
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value);
  const number = (value: unknown): number =>
    typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  const sparkline: unknown[] = Array.isArray(card.SPARKLINE) ? card.SPARKLINE : [];
  return {
    ...card,
    DOMAIN: text(card.DOMAIN),
    ENTITY_ID: text(card.ENTITY_ID),
    METRIC_NAME: text(card.METRIC_NAME),
    FLAG: text(card.FLAG),
    UNIT: text(card.UNIT),
    METRIC_TYPE: text(card.METRIC_TYPE),
    DATE_RANGE: text(card.DATE_RANGE),
    PERIOD_START_DATE: text(card.PERIOD_START_DATE),
    PERIOD_END_DATE: text(card.PERIOD_END_DATE),
    DURATION: number(card.DURATION),
    START_VALUE: number(card.START_VALUE),
    END_VALUE: number(card.END_VALUE),
    SPARKLINE: sparkline.filter(
      (p): p is { date: string; value: number } =>
        typeof p === "object" &&
        p !== null &&
        typeof (p as { date?: unknown }).date === "string" &&
        Number.isFinite((p as { value?: unknown }).value),
    ),
  };
}

export interface InsightQuery {
  cadence: CadenceFilter;
  search: string;
}

/** What the asset catalog says of a card's entity (ENTITY_ID is a platform id, or a symbol). */
export interface EntityName {
  title: string;
  symbol: string;
}

/** Catalog titles by platform id and by symbol, lowercase, for the cards' ENTITY_ID. */
export function entityNames(assets: readonly AssetRecord[]): Map<string, EntityName> {
  const names = new Map<string, EntityName>();
  for (const asset of assets) {
    if (typeof asset.title !== "string" || !asset.title.trim()) continue;
    const name = { title: asset.title, symbol: asset.symbol };
    for (const id of [asset.platform_id, asset.symbol]) {
      if (typeof id === "string" && !names.has(id.toLowerCase())) names.set(id.toLowerCase(), name);
    }
  }
  return names;
}

/**
 * Cards whose cadence matches and whose entity (its id, catalog title or
 * symbol) or metric contains every word of the search. With a search, the
 * best matches come first — a word matched whole ("eth", Ethereum's symbol),
 * then at a word's start ("Ethereum"), then inside a word ("Tether") — and in
 * feed order among equals; without one, feed order.
 */
export function filterInsights(
  cards: readonly InsightCard[],
  query: InsightQuery,
  names: ReadonlyMap<string, EntityName> = new Map(),
): InsightCard[] {
  const words = normaliseSearchText(query.search).split(" ").filter(Boolean);
  const ranked: { card: InsightCard; rank: number }[] = [];
  for (const card of cards) {
    if (query.cadence !== "all" && insightCadence(card.FLAG) !== query.cadence) continue;
    const name = names.get(card.ENTITY_ID.toLowerCase());
    // Metric names are SNAKE_CASE: "net income" should find NET_INCOME.
    const texts = [card.ENTITY_ID, name?.title, name?.symbol, card.METRIC_NAME].map((t) =>
      t === undefined ? t : normaliseSearchText(t),
    );
    const rank = searchRank(words, texts);
    if (rank !== null) ranked.push({ card, rank });
  }
  // Array.prototype.sort is stable: equal ranks keep the feed's order.
  return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.card);
}
