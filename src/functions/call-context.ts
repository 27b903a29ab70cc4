import type { CallOptions, MarketDataClient } from "../api";

/** What one function call works with: the shared client, the user's date, and Excel's cancellation / preview state. */
export interface CallContext {
  client: MarketDataClient;
  /** The user's calendar date, YYYY-MM-DD: what TODAY and relative dates count from. */
  today: string;
  /** Passed on every client call: `signal` (Excel cancelled the cell) and `cacheOnly` (value preview). */
  call: CallOptions;
}
