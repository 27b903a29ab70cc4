import type { RuntimeStart } from "../refresh/refresh-controller";
import { WEB_PLATFORM } from "../refresh/refresh-on-open";

/**
 * When the task pane is on screen. The shared runtime also starts with the
 * pane hidden — a workbook set to load on open (refresh on open), a ribbon
 * command — and then the page must not load the pane's UI chunk: only the
 * functions and the refresh feature run.
 *
 * Office offers no getter for the pane's visibility, only a change event:
 * `Office.addin.onVisibilityModeChanged` "fires when the task pane is shown
 * or hidden" (Show or hide the task pane of your Office Add-in,
 * https://learn.microsoft.com/office/dev/add-ins/develop/show-hide-add-in;
 * Office.VisibilityMode: "Taskpane" | "Hidden").
 *
 * On the desktop the page's own `document.visibilityState` answers at start:
 * a hidden runtime's web view is not visible (WebView2 reports a controller
 * with IsVisible false as `document.hidden`), and the page receives
 * `visibilitychange` when it is shown. Either signal mounts the UI; outside
 * Office (a plain browser) the page is visible and mounts at once.
 *
 * On the web (`Office.context.diagnostics.platform` "OfficeOnline") the page
 * is an iframe in Excel's tab, whose visibility it reads whatever the pane
 * does ("visibility states of an <iframe> are the same as the parent
 * document", MDN, Page Visibility API,
 * https://developer.mozilla.org/en-US/docs/Web/API/Page_Visibility_API), so
 * `visibilitychange` there is the user switching tabs. A runtime the workbook
 * was saved to load ("Load", see `startedWithDocument`) waits for Office's
 * event, or for its own frame to be on screen (an IntersectionObserver with
 * no root observes against the top-level viewport, through the frames that
 * clip it: https://developer.mozilla.org/en-US/docs/Web/API/Intersection_Observer_API);
 * any other runtime mounts at once, as a blank pane is worse than a chunk
 * loaded for nothing.
 */
type IntersectionObserverLike = new (callback: (entries: { isIntersecting: boolean }[]) => void) => {
  observe(target: unknown): void;
  disconnect(): void;
};

export interface PaneVisibilityGlobals {
  document?: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener"> & {
    documentElement?: unknown;
  };
  Office?: {
    context?: { diagnostics?: { platform?: unknown } };
    StartupBehavior?: { load?: unknown };
    addin?: {
      onVisibilityModeChanged?(handler: (message: { visibilityMode: string }) => void): Promise<unknown>;
      getStartupBehavior?(): Promise<unknown>;
    };
  };
  IntersectionObserver?: IntersectionObserverLike;
}

const defaultGlobals = () => globalThis as unknown as PaneVisibilityGlobals;

/** Whether the page is visible now (a plain browser's page is; on the web, Excel's tab's state). */
export function paneShownNow(globals: PaneVisibilityGlobals = defaultGlobals()): boolean {
  return globals.document?.visibilityState !== "hidden";
}

/** `Office.context.diagnostics.platform` ("PC", "Mac", "iOS", "OfficeOnline"), or null before Office is ready or outside it. */
export function officePlatform(globals: PaneVisibilityGlobals = defaultGlobals()): string | null {
  try {
    const platform = globals.Office?.context?.diagnostics?.platform;
    return platform === undefined || platform === null ? null : String(platform);
  } catch {
    return null;
  }
}

/**
 * How this runtime started, read when the page loads, before anything is
 * awaited (refresh on open's evidence: see RuntimeStart); the platform is
 * asked once Office is ready.
 */
export function readRuntimeStart(
  byCommand: () => boolean,
  globals: PaneVisibilityGlobals = defaultGlobals(),
): RuntimeStart {
  return { paneShown: paneShownNow(globals), platform: () => officePlatform(globals), byCommand };
}

/** Calls `show` when Office says the task pane is shown; a host without SharedRuntime 1.1 never does. */
function onTaskpaneShown(globals: PaneVisibilityGlobals, show: () => void): void {
  try {
    globals.Office?.addin
      ?.onVisibilityModeChanged?.((message) => {
        if (message.visibilityMode === "Taskpane") show();
      })
      .catch(() => undefined);
  } catch {
    // as above
  }
}

/** Resolves once the pane is shown (at once when it already is). Called once Office is ready. */
export function whenPaneShown(globals: PaneVisibilityGlobals = defaultGlobals()): Promise<void> {
  if (officePlatform(globals) === WEB_PLATFORM) return whenWebPaneShown(globals);
  const doc = globals.document;
  if (!doc || paneShownNow(globals)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let shown = false;
    const show = () => {
      if (shown) return;
      shown = true;
      doc.removeEventListener("visibilitychange", onVisibility);
      resolve();
    };
    const onVisibility = () => {
      if (doc.visibilityState !== "hidden") show();
    };
    doc.addEventListener("visibilitychange", onVisibility);
    onTaskpaneShown(globals, show);
  });
}

/** On the web: see the module's comment. */
function whenWebPaneShown(globals: PaneVisibilityGlobals): Promise<void> {
  return new Promise<void>((resolve) => {
    let observer: InstanceType<IntersectionObserverLike> | undefined;
    let shown = false;
    const show = () => {
      if (shown) return;
      shown = true;
      observer?.disconnect();
      resolve();
    };
    // Listening comes first, so a pane shown while the startup behaviour is read is not missed.
    onTaskpaneShown(globals, show);
    const Observer = globals.IntersectionObserver;
    const frame = globals.document?.documentElement;
    if (Observer && frame) {
      observer = new Observer((entries) => {
        if (entries.some((entry) => entry.isIntersecting)) show();
      });
      observer.observe(frame);
    }
    void savedToLoad(globals).then((load) => {
      if (!load) show();
    });
  });
}

/** Whether the workbook was saved to load the add-in as it opens; false where Office cannot say. */
async function savedToLoad(globals: PaneVisibilityGlobals): Promise<boolean> {
  try {
    const office = globals.Office;
    const behavior = await office?.addin?.getStartupBehavior?.();
    return behavior !== undefined && String(behavior) === String(office?.StartupBehavior?.load ?? "Load");
  } catch {
    return false;
  }
}
