/**
 * What the Settings view's "Refresh" section needs from the workbook refresh
 * logic (refresh all, refresh on open, freeze to values). The pane only
 * renders buttons and results; the logic lives with the Office code and is
 * handed to `mountApp` as `PaneServices.refresh`.
 */
export interface RefreshFailure {
  /** A cell address, e.g. "Sheet1!B4". */
  address: string;
  message: string;
}

export interface RefreshResult {
  /** Cells holding an MD. formula that were recalculated (or frozen). */
  cells: number;
  ms: number;
  failures?: RefreshFailure[];
  /** A sentence to show instead of the pane's own summary (e.g. "Sign in to refresh"). */
  note?: string;
}

export type FreezeScope = "selection" | "sheet";

/** The part of the refresh logic's live state the section shows. */
export interface RefreshStatus {
  busy: string | null;
  progress: { phase: string; done: number; total: number } | null;
  /** A refresh (on open, from the ribbon) was skipped because no key is set. */
  signInRequired: boolean;
  /** Something to know that is not a failure, e.g. why the workbook was not refreshed when it opened. */
  notice?: string | null;
}

export interface RefreshActions {
  /** Clears the client's cache and recalculates every MD. cell on every sheet. */
  refreshAll(): Promise<RefreshResult>;
  /** Per workbook (document settings): whether opening the workbook refreshes it. */
  getRefreshOnOpen(): Promise<boolean>;
  setRefreshOnOpen(enabled: boolean): Promise<void>;
  /** Replaces MD. formulas in the scope with their current values. */
  freezeToValues(scope: FreezeScope): Promise<RefreshResult>;
  /** Per workbook: no trust prompt for people who open it without the add-in (`Office.DisableTrustUX`). */
  getTrustPromptOff?(): Promise<boolean>;
  setTrustPromptOff?(off: boolean): Promise<void>;
  /** Optional live state, in `useSyncExternalStore` form: progress, and "sign in" after a refresh on open. */
  subscribe?(listener: () => void): () => void;
  getState?(): RefreshStatus;
}
