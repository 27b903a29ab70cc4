/**
 * The text every search box of the pane compares: assets, metrics and
 * insight cards are matched word by word against text normalised this way.
 */

/** Lowercase, accents folded (so "é" finds "e"), whitespace runs collapsed. */
export function normaliseSearchText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}
