/**
 * How long the store trusts a series' settled days before asking the service
 * again (the service revises history after methodology changes,
 * real-service.md): a correction reaches the workbook on the first use after
 * the trust period, without "Reload everything".
 *
 * The rule, for a period P of two days or more (the option
 * `revalidateAfterMs`, 7 days by default):
 *
 * - **Recheck days.** Each symbol has its recheck days: one UTC day in every
 *   cycle of P − 1 whole days (6 by default), which one fixed by a hash of
 *   the base address and the symbol (the same every session, on every
 *   machine).
 * - **Trust.** Settled days fetched on UTC day f are trusted until midnight
 *   UTC starting the symbol's first recheck day on or after f + 2: never
 *   longer than P (at most P − 1 days after the end of day f), and never
 *   asked again the day after they were fetched.
 * - **Spread.** Whenever the days were fetched, a symbol's settled days fall
 *   due on its own recheck days, together: a workbook's symbols, fetched on
 *   one morning, are rechecked a sixth of them on each of the following
 *   days (from the second on), then a sixth each day for as long as the
 *   workbook is opened daily, so no single open pays for it all.
 *
 * A period under two days is a grid of P offset by the hash: trusted until
 * the first grid instant after the fetch (at most P).
 *
 * By symbol, not by series: a request asks for every metric of every symbol
 * in it (symbols × metrics, series/batch-plan.ts), so the metrics of one
 * symbol rechecked on different days would each bring the others along.
 */

const DAY_MS = 86_400_000;

/** The instant (ms since the epoch) until which settled days of `symbol` fetched at `fetchedAt` are trusted; at most `maxMs` later. */
export function settledTrustEnd(baseUrl: string, symbol: string, fetchedAt: number, maxMs: number): number {
  return trustEndOfShare(symbolShare(baseUrl, symbol), fetchedAt, maxMs);
}

/**
 * `settledTrustEnd` for one symbol, its hash taken once: a plan asks it of
 * every known range of the series.
 */
export function settledTrustEndOf(baseUrl: string, symbol: string, maxMs: number): (fetchedAt: number) => number {
  const share = symbolShare(baseUrl, symbol);
  if (Math.floor(maxMs / DAY_MS) < 2) return (fetchedAt) => trustEndOfShare(share, fetchedAt, maxMs);
  // A period of two days or more: the end depends only on the UTC day of the fetch, and a series' ranges were
  // mostly fetched on the same few days. The last day's end is remembered.
  let lastDay = NaN;
  let lastEnd = 0;
  return (fetchedAt) => {
    const day = Math.floor(fetchedAt / DAY_MS);
    if (day !== lastDay) {
      lastEnd = trustEndOfShare(share, fetchedAt, maxMs);
      lastDay = day;
    }
    return lastEnd;
  };
}

/** The symbol's place in [0, 1): which of the cycle's days are its recheck days. */
function symbolShare(baseUrl: string, symbol: string): number {
  return unitHash(JSON.stringify([baseUrl, symbol]));
}

function trustEndOfShare(share: number, fetchedAt: number, maxMs: number): number {
  const days = Math.floor(maxMs / DAY_MS);
  if (days >= 2) {
    const cycle = days - 1;
    const slot = Math.floor(share * cycle);
    const earliest = Math.floor(fetchedAt / DAY_MS) + 2;
    const wait = (((slot - earliest) % cycle) + cycle) % cycle;
    return (earliest + wait) * DAY_MS;
  }
  const offset = share * maxMs;
  return offset + (Math.floor((fetchedAt - offset) / maxMs) + 1) * maxMs;
}

/** The symbol's recheck day within its cycle, 0 … cycle − 1 (days since the epoch modulo the cycle), for periods of two days or more. */
export function recheckSlot(baseUrl: string, symbol: string, maxMs: number): number {
  const cycle = Math.max(1, Math.floor(maxMs / DAY_MS) - 1);
  return Math.floor(unitHash(JSON.stringify([baseUrl, symbol])) * cycle);
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
