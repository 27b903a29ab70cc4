/**
 * The one contract between the workbook refresh logic and the task pane's
 * Refresh section (`PaneServices.refresh`), and the refresh controller in that
 * shape: plain results with a cell count, a duration, failures by address, and
 * a note when the summary alone would mislead. The controller's observable
 * state rides along (progress, and the "Sign in to refresh" notice after
 * open). The pane only renders buttons and results; the logic lives here.
 */
import type { FreezeReport, FreezeScope, UndoFreezeReport } from "./freeze";
import type { RefreshController, RefreshState } from "./refresh-controller";
import type { RecheckOptions, RefreshReport } from "./refresh-all";
import {
  NO_WORKBOOK,
  SIGN_IN_EXPIRED_TO_REFRESH,
  SIGN_IN_TO_GATEWAY_TO_REFRESH,
  SIGN_IN_TO_REFRESH,
} from "./refresh-controller";
import type { CellChange, RefreshChanges } from "./refresh-changes";
import { refreshSummary } from "./summary";
import { qualifiedAddress } from "./a1";

export interface PaneRefreshFailure {
  /** "Sheet1!B4", "'Q1 comps'!C7". */
  address: string;
  message: string;
}

export interface PaneRefreshResult {
  /** Cells holding an MD. formula that were recalculated (or frozen). */
  cells: number;
  ms: number;
  failures?: PaneRefreshFailure[];
  /** A sentence to show instead of the pane's own summary (e.g. "Sign in to refresh"). */
  note?: string;
  /** A refresh's cells whose value changed or that became errors (refresh-changes.ts). */
  changes?: CellChange[];
}

/** The part of the controller's live state the Refresh section shows. */
export type PaneRefreshStatus = Pick<RefreshState, "busy" | "progress" | "signInRequired"> &
  Partial<Pick<RefreshState, "signInWith">> & {
    /** Something to know that is not a failure, e.g. why the workbook was not refreshed when it opened. */
    notice?: string | null;
  };

export interface PaneRefreshActions {
  /**
   * Clears the client's cache and recalculates every MD. cell on every sheet;
   * with `recheckHistory`, the history stored on this computer for those
   * cells is asked again too.
   */
  refreshAll(options?: RecheckOptions): Promise<PaneRefreshResult>;
  /** Refresh all with the stored data dropped first ("Reload everything"). */
  reloadAll(): Promise<PaneRefreshResult>;
  /** Per workbook (document settings): whether opening the workbook refreshes it. */
  getRefreshOnOpen(): Promise<boolean>;
  setRefreshOnOpen(enabled: boolean): Promise<void>;
  /** Replaces MD. formulas in the scope with their current values. */
  freezeToValues(scope: FreezeScope): Promise<PaneRefreshResult>;
  /**
   * Puts back the formulas of the last freeze where their cells still hold the
   * frozen values; `cells` counts the formulas restored, `failures` the cells
   * left alone (changed since), `note` says what happened.
   */
  undoLastFreeze(): Promise<PaneRefreshResult>;
  /** For `useSyncExternalStore(actions.subscribe, actions.getState)`: progress, and "sign in" after a refresh on open. */
  subscribe(listener: () => void): () => void;
  getState(): PaneRefreshStatus;
  /**
   * Reads the key again: drops "Sign in to refresh" once the user's own key is set. Called on every key the settings
   * store saves or clears, by whatever wires the store's changes (src/office/settings-changes.ts), not by a view.
   */
  checkKey(): Promise<void>;
  /** Per workbook (`Office.DisableTrustUX`): no trust prompt for people who open it without the add-in (Windows, Mac). */
  getTrustPromptOff(): Promise<boolean>;
  setTrustPromptOff(off: boolean): Promise<void>;
  /** What the last Refresh all of this workbook changed, kept while it is open (the pane's or the ribbon's); null: none yet. */
  lastChanges(): RefreshChanges | null;
}

export function paneRefreshResult(report: RefreshReport): PaneRefreshResult {
  const result: PaneRefreshResult = {
    cells: report.cells,
    ms: report.ms,
    failures: report.failed.map((f) => ({
      address: qualifiedAddress(f.sheet, f.address),
      message: `${f.error} ${f.message}`,
    })),
  };
  if (report.changes) result.changes = report.changes;
  if (
    report.cells === 0 ||
    report.skipped.length > 0 ||
    report.pending.length > 0 ||
    report.running > 0 ||
    report.notes.length > 0
  )
    result.note = refreshSummary(report);
  return result;
}

export function paneFreezeResult(report: FreezeReport, ms: number): PaneRefreshResult {
  const result: PaneRefreshResult = { cells: report.cells, ms, failures: [] };
  if (
    report.protected ||
    report.formulas === 0 ||
    report.stillCalculating.length > 0 ||
    report.running > 0 ||
    !report.recorded ||
    // Whether MD.ASSET cards stayed cards or became their text: the user must know.
    report.cards.asCards.length + report.cards.asText.length > 0
  )
    result.note = report.message;
  return result;
}

export function paneUndoResult(report: UndoFreezeReport, ms: number): PaneRefreshResult {
  return {
    cells: report.restored.length,
    ms,
    failures: [
      ...report.changed.map((address) => ({ address, message: "changed since the freeze: left as it is" })),
      ...report.unverified.map((address) => ({
        address,
        message: "frozen before the log could check values: left as it is",
      })),
      ...report.refused.map((f) => ({ address: f.address, message: f.reason })),
    ],
    note: report.message,
  };
}

/** The last refresh's changes, the same object for the same refresh (the pane renders it as a store's snapshot). */
const changesKept = new WeakMap<RefreshReport, RefreshChanges>();
function changesOf(report: RefreshReport | null): RefreshChanges | null {
  if (!report?.changes) return null;
  let kept = changesKept.get(report);
  if (!kept) {
    kept = { startedAt: Date.parse(report.startedAt), cells: report.changes };
    if (report.moreChanges) kept.more = report.moreChanges;
    if (report.tables?.length) kept.tables = report.tables;
    changesKept.set(report, kept);
  }
  return kept;
}

export function createPaneRefreshActions(
  controller: RefreshController,
  now: () => number = Date.now,
): PaneRefreshActions {
  /** The controller reports failures in its state rather than throwing; the pane shows them as errors. */
  const failure = () => new Error(controller.getState().error ?? NO_WORKBOOK);
  const result = (report: RefreshReport | null): PaneRefreshResult => {
    if (report) return paneRefreshResult(report);
    const error = controller.getState().error;
    if (error === SIGN_IN_TO_REFRESH || error === SIGN_IN_TO_GATEWAY_TO_REFRESH || error === SIGN_IN_EXPIRED_TO_REFRESH)
      return { cells: 0, ms: 0, note: error };
    throw failure();
  };
  return {
    async refreshAll(options) {
      return result(await controller.refreshAll("pane", options));
    },
    async reloadAll() {
      return result(await controller.reloadAll("pane"));
    },
    getRefreshOnOpen: async () => controller.getRefreshOnOpen(),
    async setRefreshOnOpen(enabled) {
      if (!(await controller.setRefreshOnOpen(enabled))) throw failure();
    },
    async freezeToValues(scope) {
      const started = now();
      const report = await controller.freeze(scope);
      if (!report) throw failure();
      return paneFreezeResult(report, now() - started);
    },
    async undoLastFreeze() {
      const started = now();
      const report = await controller.undoFreeze();
      if (!report) throw failure();
      return paneUndoResult(report, now() - started);
    },
    subscribe: controller.subscribe,
    getState: controller.getState,
    async checkKey() {
      await controller.checkKey();
    },
    getTrustPromptOff: async () => controller.getState().trustPromptOff,
    lastChanges: () => changesOf(controller.getState().lastRefresh ?? null),
    async setTrustPromptOff(off) {
      if (!(await controller.setTrustPromptOff(off))) throw failure();
    },
  };
}
