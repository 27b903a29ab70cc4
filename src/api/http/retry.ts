/**
 * When to try again and how long to wait first (the defaults are documented on
 * `ClientOptions`). Exponential backoff with full jitter (a uniformly random
 * delay up to the exponential cap) spreads the retries of many clients, and of
 * the many batched requests one recalculation sends, instead of having them
 * all come back at the same instant.
 */
import type { MarketDataError } from "../errors";

export interface RetryPolicy {
  /** Retries after the first attempt (0 = never retry). */
  retries: number;
  /** The cap of the first retry's delay; doubles with each retry. */
  baseMs: number;
  /** No backoff delay exceeds this. */
  maxMs: number;
  /** The longest `Retry-After` honoured; a longer one ends the retries at once (waiting that long is worse than an error the user can act on). */
  retryAfterMaxMs: number;
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason?: string };

/** `retryIndex` is 0 for the first retry. */
export function decideRetry(
  error: MarketDataError,
  retryIndex: number,
  policy: RetryPolicy,
  random: () => number,
): RetryDecision {
  if (!error.retryable || retryIndex >= policy.retries) return { retry: false };
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** retryIndex);
  const jittered = Math.round(random() * ceiling);
  // Retry-After comes with a 429, and sometimes with a 503 (RFC 9110 §10.2.3).
  if (error.retryAfterMs !== undefined) {
    if (error.retryAfterMs > policy.retryAfterMaxMs) {
      return { retry: false, reason: `the service asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s` };
    }
    return { retry: true, delayMs: Math.max(error.retryAfterMs, jittered) };
  }
  return { retry: true, delayMs: jittered };
}
