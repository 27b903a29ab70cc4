/**
 * The `search` arguments of the catalog functions: case-insensitive, every
 * word must appear somewhere in the record ("usd eth" finds "USDC on Ethereum").
 */
import { isOmitted } from "./arguments";

/** Omitted → "" (no filter); numbers are searched as their text. */
export function parseSearch(value: unknown): string {
  if (isOmitted(value)) return "";
  return String(value).trim();
}

export function searchWords(search: string): string[] {
  return search.toLowerCase().split(/\s+/).filter(Boolean);
}

/** True when every word occurs in one of the texts (no words → true). */
export function matchesWords(words: readonly string[], texts: readonly (string | null | undefined)[]): boolean {
  if (words.length === 0) return true;
  const haystack = texts.filter(Boolean).join("\n").toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** How a word matched: a whole word of the text, the start of one, or inside one. */
export const MATCH_RANK = { whole: 0, prefix: 1, inside: 2 } as const;

/**
 * How well `word` (lowercase) matches the texts: 0 when it is a whole word of
 * one ("eth" in "eth"), 1 when a word starts with it ("eth" in "Ethereum"), 2
 * when it is inside one ("eth" in "Tether"), null when it is in none. Words of
 * a text are its runs of letters and digits ("NET_INCOME": "net", "income").
 */
export function wordMatchRank(word: string, texts: readonly (string | null | undefined)[]): number | null {
  let best: number | null = null;
  for (const text of texts) {
    if (!text) continue;
    const lower = text.toLowerCase();
    if (!lower.includes(word)) continue;
    best = Math.min(best ?? MATCH_RANK.inside, MATCH_RANK.inside);
    for (const token of lower.split(/[^\p{L}\p{N}]+/u)) {
      if (token === word) return MATCH_RANK.whole;
      if (token.startsWith(word)) best = MATCH_RANK.prefix;
    }
    if (lower === word) return MATCH_RANK.whole;
  }
  return best;
}

/**
 * A record's rank for a search (lower is better): the sum of its words'
 * ranks, so a record naming every word whole comes first; null when a word is
 * missing (the record does not match). No words: 0.
 */
export function searchRank(words: readonly string[], texts: readonly (string | null | undefined)[]): number | null {
  let total = 0;
  for (const word of words) {
    const rank = wordMatchRank(word, texts);
    if (rank === null) return null;
    total += rank;
  }
  return total;
}
