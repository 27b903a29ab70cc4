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
