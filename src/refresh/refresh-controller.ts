/**
 * The refresh feature as the pane and the ribbon see it: actions plus one
 * observable state object. `subscribe`/`getState` fit React's
 * `useSyncExternalStore`; the state is replaced, never mutated, on change.
 *
 * Workbook operations run one at a time (a freeze must not interleave with a
 * refresh that is rewriting the same cells); a refresh asked for while one is
 * running joins it rather than starting another.
 */
import type { Clock } from "./clock";
import type { CustomFunctionCalls } from "./completion";
import { freezeToValues, type FreezeReport, type FreezeScope, undoLastFreeze, type UndoFreezeReport } from "./freeze";
import {
  OPEN_REGISTRATION_RETRIES_MS,
  refreshAll,
  type RecheckOptions,
  type RefreshOptions,
  type RefreshProgress,
  type RefreshReport,
} from "./refresh-all";
import {
  decideOnOpen,
  DISABLE_TRUST_PROMPT_SETTING,
  keyStatus,
  OPENED_WITHOUT_ADDIN,
  startedWithDocument,
  readRefreshOnOpen,
  readTrustPromptOff,
  writeRefreshOnOpen,
  type KeySource,
  type KeyStatus,
} from "./refresh-on-open";
import type { WorkbookAdapter } from "./workbook-adapter";

export type RefreshTrigger = "pane" | "ribbon" | "open";
export type Activity = "refresh" | "freeze" | "settings";

export interface RefreshState {
  /** False outside Excel: there is no workbook to refresh. */
  available: boolean;
  busy: Activity | null;
  progress: RefreshProgress | null;
  refreshOnOpen: boolean;
  /** `Office.DisableTrustUX` is set in the document: no trust prompt for people without the add-in. */
  trustPromptOff: boolean;
  keyStatus: KeyStatus | null;
  /** The add-in needs the user's key, or a sign-in to the firm's gateway, before it can refresh. */
  signInRequired: boolean;
  /** What is missing when `signInRequired`: the user's API key, or a sign-in to the gateway. */
  signInWith: "key" | "gateway" | "gateway-expired";
  lastRefresh: RefreshReport | null;
  lastRefreshTrigger: RefreshTrigger | null;
  lastFreeze: FreezeReport | null;
  /** The last action's failure, as a sentence. */
  error: string | null;
  /** Something the user should know that is not a failure (e.g. why the workbook was not refreshed on open). */
  notice: string | null;
}

export interface RefreshControllerDeps {
  /** Null outside Excel. */
  workbook: WorkbookAdapter | null;
  clearCache(options?: RecheckOptions): void;
  /** Drops the persistent store too ("Reload everything"). */
  clearStored?(): Promise<void>;
  readKey(): Promise<KeySource>;
  /** The runtime's MD call counter (src/office/call-tracker.ts): when a refresh is done, and whether Freeze may read. */
  calls: CustomFunctionCalls;
  clock?: Clock;
  refreshOptions?: Omit<
    RefreshOptions,
    "clearCache" | "clearStored" | "clock" | "onProgress" | "calls" | "registrationRetriesMs"
  >;
  /** The waits before re-scanning on open while Excel registers the functions (tests shorten them). */
  registrationRetriesMs?: readonly number[];
}

export const SIGN_IN_TO_REFRESH =
  "Sign in to refresh: enter your API key in Settings. The values saved in the workbook are kept.";
/** For a gateway that lets in only signed-in people: nobody is signed in. */
export const SIGN_IN_TO_GATEWAY_TO_REFRESH =
  "Sign in to Market Data (Settings ▸ Sign in) to refresh. The values saved in the workbook are kept.";
/** For a gateway that lets in only signed-in people: the sign-in expired (it could not be renewed silently). */
export const SIGN_IN_EXPIRED_TO_REFRESH =
  "Your sign-in expired — sign in again (Settings ▸ Sign in) to refresh. The values saved in the workbook are kept.";
export const NO_WORKBOOK = "Open this pane in Excel to refresh or freeze MD formulas.";

type Listener = () => void;

/**
 * How this runtime started, as the runtime itself saw it. A document set to
 * load the add-in (startup behaviour "load") starts the shared runtime with
 * no UI ("Load the add-in but do not show UI", Microsoft Learn,
 * Office.StartupBehavior), so a pane on screen when the page loaded means the
 * user opened it; a ribbon command also starts a hidden runtime, for itself.
 */
export interface RuntimeStart {
  /** The page was visible when it loaded (on the web, Excel's tab was: see `startedWithDocument`). */
  paneShown: boolean;
  /** `Office.context.diagnostics.platform`, asked once Office is ready; null (or absent) outside Office. */
  platform?(): string | null;
  /** Whether a ribbon command has run since the page loaded (asked when the open is decided). */
  byCommand(): boolean;
}

export class RefreshController {
  private state: RefreshState;
  private readonly listeners = new Set<Listener>();
  private queue: Promise<unknown> = Promise.resolve();
  private refreshing: Promise<RefreshReport | null> | null = null;
  private reloading: Promise<RefreshReport | null> | null = null;
  private openHandled = false;

  constructor(private readonly deps: RefreshControllerDeps) {
    this.state = {
      available: deps.workbook !== null,
      busy: null,
      progress: null,
      refreshOnOpen: deps.workbook ? safeRead(() => readRefreshOnOpen(deps.workbook!), false) : false,
      trustPromptOff: deps.workbook ? safeRead(() => readTrustPromptOff(deps.workbook!), false) : false,
      keyStatus: null,
      signInRequired: false,
      signInWith: "key",
      lastRefresh: null,
      lastRefreshTrigger: null,
      lastFreeze: null,
      error: null,
      notice: null,
    };
  }

  getState = (): RefreshState => this.state;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getRefreshOnOpen(): boolean {
    return this.state.refreshOnOpen;
  }

  /** Re-reads the key (call after the user saves or clears one) and drops "sign in" once there is one. */
  async checkKey(): Promise<KeyStatus> {
    const source = await this.deps.readKey();
    const status = keyStatus(source);
    this.update({
      keyStatus: status,
      signInRequired: this.state.signInRequired && status !== "user",
      signInWith: source.signInToGateway ? (source.signInExpired ? "gateway-expired" : "gateway") : "key",
    });
    return status;
  }

  /**
   * Refreshes every MD cell. Needs some key: with none at all every cell
   * would turn into an authentication error and lose its saved value.
   * `recheckHistory`: the stored settled days the formulas read are asked
   * again too (refresh-all.ts). A refresh already running is joined as it is.
   */
  refreshAll(trigger: RefreshTrigger = "pane", options: RecheckOptions = {}): Promise<RefreshReport | null> {
    return this.refresh(trigger, options.recheckHistory ? { recheckHistory: true } : {});
  }

  private refresh(trigger: RefreshTrigger, extra: Partial<RefreshOptions>): Promise<RefreshReport | null> {
    if (this.refreshing) return this.refreshing;
    return this.runRefresh(trigger, extra, false);
  }

  /**
   * "Reload everything": a refresh with the stored data dropped first, so
   * every value is fetched again (the service revised history). Asked for
   * while a refresh runs, it follows that refresh rather than joining it.
   */
  reloadAll(trigger: RefreshTrigger = "pane"): Promise<RefreshReport | null> {
    if (this.reloading) return this.reloading;
    const run = (this.refreshing ?? Promise.resolve(null)).then(() => this.runRefresh(trigger, {}, true));
    this.reloading = run.finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  private runRefresh(
    trigger: RefreshTrigger,
    extra: Partial<RefreshOptions>,
    dropStored: boolean,
  ): Promise<RefreshReport | null> {
    const run = this.exclusive("refresh", async (workbook) => {
      const status = await this.checkKey();
      if (status === "none") {
        const error = {
          key: SIGN_IN_TO_REFRESH,
          gateway: SIGN_IN_TO_GATEWAY_TO_REFRESH,
          "gateway-expired": SIGN_IN_EXPIRED_TO_REFRESH,
        }[this.state.signInWith];
        this.update({ signInRequired: true, error });
        return null;
      }
      const report = await refreshAll(workbook, {
        ...this.deps.refreshOptions,
        ...extra,
        calls: this.deps.calls,
        clearCache: this.deps.clearCache,
        ...(dropStored && this.deps.clearStored ? { clearStored: this.deps.clearStored } : {}),
        clock: this.deps.clock,
        onProgress: (progress) => this.update({ progress }),
      });
      this.update({ lastRefresh: report, lastRefreshTrigger: trigger, signInRequired: false, notice: null });
      return report;
    });
    this.refreshing = run.finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Puts back the formulas of the last freeze where their cells are unchanged (src/refresh/freeze.ts). */
  undoFreeze(): Promise<UndoFreezeReport | null> {
    return this.exclusive("freeze", (workbook) => undoLastFreeze(workbook));
  }

  freeze(scope: FreezeScope): Promise<FreezeReport | null> {
    return this.exclusive("freeze", async (workbook) => {
      const report = await freezeToValues(workbook, scope, {
        calls: this.deps.calls,
        ...(this.deps.clock ? { clock: this.deps.clock } : {}),
      });
      this.update({ lastFreeze: report });
      return report;
    });
  }

  /** Resolves true once the document and Office both have the choice; false with `state.error` saying what failed. */
  async setRefreshOnOpen(on: boolean): Promise<boolean> {
    const done = await this.exclusive("settings", async (workbook) => {
      try {
        await writeRefreshOnOpen(workbook, on);
        return true;
      } finally {
        // Show what the document holds, which is `on` even when only the startup behaviour failed.
        this.update({ refreshOnOpen: safeRead(() => readRefreshOnOpen(workbook), this.state.refreshOnOpen) });
      }
    });
    return done === true;
  }

  /**
   * Sets or clears `Office.DisableTrustUX` in the document: whether Excel on
   * Windows and Mac asks people who do not have the add-in to trust it.
   */
  async setTrustPromptOff(off: boolean): Promise<boolean> {
    const done = await this.exclusive("settings", async (workbook) => {
      try {
        await workbook.setDocumentSetting(DISABLE_TRUST_PROMPT_SETTING, off);
        return true;
      } finally {
        this.update({ trustPromptOff: safeRead(() => readTrustPromptOff(workbook), this.state.trustPromptOff) });
      }
    });
    return done === true;
  }

  /**
   * Called once the runtime has started; acts once per runtime. Refreshes
   * only when the workbook asks for it, the user's own key is set, and the
   * runtime's own evidence says the document loaded it (`RuntimeStart`). A
   * runtime started later — the user opening the pane an hour after the
   * workbook — is not the moment the workbook opened, and its refresh would
   * surprise; the pane says so instead. While Excel registers the functions,
   * cells read `_xldudf_MD_…`, so the scan waits and retries
   * (OPEN_REGISTRATION_RETRIES_MS).
   *
   * `getStartupBehavior()` cannot tell the two apart: it reports what happens
   * the *next* time the document opens ("Provides options to determine the
   * startup behavior of the add-in upon next start-up", Microsoft Learn,
   * Office.StartupBehavior), so it reads "load" in both. It is still read:
   * "none" means the document was not set to load the add-in, whatever else;
   * on the web, where the page's visibility is Excel's tab's, "load" is the
   * evidence (`startedWithDocument`).
   */
  async runOnOpen(start: RuntimeStart): Promise<RefreshReport | null> {
    if (!this.deps.workbook || this.openHandled) return null;
    this.openHandled = true;
    const workbook = this.deps.workbook;
    const refreshOnOpen = safeRead(() => readRefreshOnOpen(workbook), false);
    this.update({ refreshOnOpen });
    let decision;
    try {
      decision = decideOnOpen(refreshOnOpen, await this.checkKey());
    } catch (error) {
      this.update({ error: `Could not read the API key: ${error instanceof Error ? error.message : String(error)}` });
      return null;
    }
    if (decision === "sign-in") this.update({ signInRequired: true });
    if (decision !== "refresh") return null;
    // A ribbon command started the runtime: that command refreshes, and says so itself.
    if (start.byCommand()) return null;
    const behavior = await workbook.getStartupBehavior().catch(() => null);
    if (!startedWithDocument(start.platform?.() ?? null, start.paneShown, behavior)) {
      this.update({ notice: OPENED_WITHOUT_ADDIN });
      return null;
    }
    return this.refresh("open", {
      registrationRetriesMs: this.deps.registrationRetriesMs ?? OPEN_REGISTRATION_RETRIES_MS,
    });
  }

  private exclusive<T>(activity: Activity, action: (workbook: WorkbookAdapter) => Promise<T>): Promise<T | null> {
    const workbook = this.deps.workbook;
    if (!workbook) {
      this.update({ error: NO_WORKBOOK });
      return Promise.resolve(null);
    }
    const run = this.queue.then(async () => {
      this.update({ busy: activity, progress: null, error: null });
      try {
        return await action(workbook);
      } catch (error) {
        this.update({ error: error instanceof Error ? error.message : String(error) });
        return null;
      } finally {
        this.update({ busy: null, progress: null });
      }
    });
    this.queue = run;
    return run;
  }

  private update(patch: Partial<RefreshState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

function safeRead<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
