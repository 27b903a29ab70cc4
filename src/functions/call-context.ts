import type { CallOptions, MarketDataClient } from "../api";
import type { DateSystem } from "../core/excel-date";
import type { CallHandle } from "../office/call-records";

/** What one function call works with: the shared client, the user's date, and Excel's cancellation / preview state. */
export interface CallContext {
  client: MarketDataClient;
  /** The user's calendar date, YYYY-MM-DD: what TODAY and relative dates count from. */
  today: string;
  /** Passed on every client call: `signal` (Excel cancelled the cell) and `cacheOnly` (value preview). */
  call: CallOptions;
  /**
   * True when the host shows formatted numbers (Excel data types from custom
   * functions): only then is the metric catalog read for units. Omitted: false.
   */
  cellFormats?: boolean;
  /**
   * True when the host shows properties on values (ExcelApi 1.19: src/office/cells/value-properties.ts): only then
   * is each value's provenance worked out. Omitted: false.
   */
  cellProperties?: boolean;
  /** The workbook's date system: how date serials are read from arguments and written into tables (1900 when absent). */
  dateSystem?: DateSystem;
  /** The call's record (src/office/call-records.ts): the windows it asks and its value's provenance go there. */
  record?: CallHandle;
}
