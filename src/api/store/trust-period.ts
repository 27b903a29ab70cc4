/**
 * How long the store trusts a series' settled days before asking the service
 * again (the service revises history after methodology changes,
 * real-service.md): a correction reaches the workbook on the first use after
 * the trust period, without "Reload everything".
 *
 * Spread, so no single open pays for it all: a workbook's series are usually
 * fetched together (its first open), and one shared period would send them
 * all again on one morning. Each series is trusted for between half the
 * period and all of it instead, the share fixed by a hash of the series' key
 * (so the same every session, on every machine, and never longer than the
 * period): the rechecks of a workbook fetched at once fall over the second
 * half of the period, a few series per open, and stay spread afterwards (each
 * series keeps its own period from its own last fetch).
 */

/** The trust period of the series with this key: in [maxMs / 2, maxMs). */
export function trustPeriodMs(seriesKey: string, maxMs: number): number {
  return maxMs * (0.5 + 0.5 * unitHash(seriesKey));
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
