/**
 * What the batcher and its isolation both speak of: a queued series load (its
 * window is core's SeriesWindow), and what sending one request came to. Kept
 * apart so the two mechanisms import their shared words, not each other.
 */
import type { SeriesResult, SeriesWindow } from "../../core/domain";
import type { Load } from "../pending-loads";

export interface SeriesLoad extends Load<SeriesResult> {
  symbol: string;
  metric: string;
  /** One part of a caller's window, as sent: the dates and the granularity. */
  window: SeriesWindow;
  /** Loads with the same window key can share a request. */
  windowKey: string;
  /** Held back once by a flush the time cap forced: the next flush sends it whatever happens. */
  heldBack?: boolean;
  /** The flush that dispatched it last: only that flush may declare it lost. */
  flush?: number;
}

/** What sending one request came to: answered (or settled), or a failure handed back with the loads still wanted. */
export type SendOutcome = { ok: true } | { ok: false; error: unknown; live: SeriesLoad[]; urlLength: number };
