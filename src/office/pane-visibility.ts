import type { RuntimeStart } from "../refresh/refresh-controller";

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
 * Office.VisibilityMode: "Taskpane" | "Hidden"). The page's own
 * `document.visibilityState` answers at start: a hidden runtime's web view is
 * not visible (WebView2 reports a controller with IsVisible false as
 * `document.hidden`), and the page receives `visibilitychange` when it is
 * shown. Either signal mounts the UI; outside Office (a plain browser) the
 * page is visible and mounts at once.
 */
export interface PaneVisibilityGlobals {
  document?: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener">;
  Office?: {
    addin?: {
      onVisibilityModeChanged?(handler: (message: { visibilityMode: string }) => void): Promise<unknown>;
    };
  };
}

/** Whether the pane is on screen now (a plain browser's page is). */
export function paneShownNow(globals: PaneVisibilityGlobals = globalThis as unknown as PaneVisibilityGlobals): boolean {
  return globals.document?.visibilityState !== "hidden";
}

/**
 * How this runtime started, read when the page loads, before anything is
 * awaited (refresh on open's evidence: see RuntimeStart).
 */
export function readRuntimeStart(
  byCommand: () => boolean,
  globals: PaneVisibilityGlobals = globalThis as unknown as PaneVisibilityGlobals,
): RuntimeStart {
  return { paneShown: paneShownNow(globals), byCommand };
}

/** Resolves once the pane is shown (at once when it already is). */
export function whenPaneShown(
  globals: PaneVisibilityGlobals = globalThis as unknown as PaneVisibilityGlobals,
): Promise<void> {
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
    try {
      globals.Office?.addin
        ?.onVisibilityModeChanged?.((message) => {
          if (message.visibilityMode === "Taskpane") show();
        })
        .catch(() => undefined); // a host without SharedRuntime 1.1: visibilitychange still tells
    } catch {
      // as above
    }
  });
}
