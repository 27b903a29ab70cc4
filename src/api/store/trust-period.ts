/**
 * How long the store trusts a series' settled days before asking the service
 * again (the service revises history after methodology changes,
 * real-service.md): a correction reaches the workbook on the first use after
 * the trust period, without "Reload everything".
 *
 * Spread, so no single open pays for it all: a workbook's series are usually
 * fetched together (its first open), and one shared period would send them
 * all again on one morning. Each symbol's series are trusted for between
 * half the period and all of it instead, the share fixed by a hash of the
 * base address and the symbol (so the same every session, on every machine,
 * and never longer than the period): the rechecks of a workbook fetched at
 * once fall over the second half of the period, a few symbols per open, and
 * stay spread afterwards (each stored stretch keeps its own fetch time).
 *
 * By symbol, not by series: a request asks for every metric of every symbol
 * in it (symbols × metrics, series/batch-plan.ts), so the metrics of one
 * symbol rechecked on different days would each bring the others along.
 */

/** The trust period of a symbol's stored series at this base address: in [maxMs / 2, maxMs). */
export function trustPeriodMs(baseUrl: string, symbol: string, maxMs: number): number {
  return maxMs * (0.5 + 0.5 * unitHash(JSON.stringify([baseUrl, symbol])));
}

/** FNV-1a over the key's UTF-16 code units, as a fraction in [0, 1). */
function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 0x1_0000_0000;
}
