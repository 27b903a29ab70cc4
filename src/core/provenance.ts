/**
 * Where a value came from, as the add-in knew when it returned it: the
 * reading's date (or a window's first and last day and the days with data),
 * the pair, whether the day had settled, who answered (the service, the firm
 * gateway's cache, this computer's store), when it was fetched, and a
 * correction a recheck brought. Functions work it out (src/functions/provenance.ts);
 * the office layer lays it out as the value's properties where Excel has them
 * (src/office/cells/value-properties.ts) and keeps it in the call's record.
 */
import type { DateSystem } from "./excel-date";

export type ProvenanceSource = "service" | "gateway-cache" | "store";

export interface Provenance {
  symbol: string;
  /** The metric as the formula named it (`L30_FEES`). */
  metric: string;
  /** The catalog's description and unit of the metric, when the catalog was read. */
  description?: string;
  unit?: string;
  /** The reading's date, or the window's last day; YYYY-MM-DD. */
  date: string;
  /** A window's first day and the days with data in it (MD.AGG, a summed metric). */
  start?: string;
  daysWithData?: number;
  settled: boolean;
  source: ProvenanceSource;
  /** When the data was fetched from the service, ms since the epoch. */
  fetchedAt: number;
  /** The workbook's date system, for the date properties' serials (1900 when absent). */
  dateSystem?: DateSystem;
  /** A recheck corrected the reading's day: the earlier value, when it had been fetched, when it was corrected. */
  revised?: { was: number; wasFetchedAt: number; at: number };
}

/** How each source is named on the card. */
export const SOURCE_NAMES: Readonly<Record<ProvenanceSource, string>> = {
  service: "Market-data service",
  "gateway-cache": "Firm gateway's cache",
  store: "This computer's store",
};
