/**
 * The page the shared runtime runs in, as the add-in sees it from inside:
 * its `document.visibilityState` and `visibilitychange`, and Office's
 * `Office.addin.onVisibilityModeChanged` (office.ts registers handlers here).
 *
 * Where the page lives depends on the platform
 * (`Office.context.diagnostics.platform`,
 * https://learn.microsoft.com/en-us/javascript/api/office/office.platformtype):
 * - "PC", "Mac", "iOS": a web view of its own. A runtime the document starts
 *   ("Load the add-in but do not show UI", Office.StartupBehavior,
 *   https://learn.microsoft.com/en-us/javascript/api/office/office.startupbehavior)
 *   has its web view hidden, so the page reads `hidden` until the pane is
 *   shown, then `visible` with a `visibilitychange`.
 * - "OfficeOnline": an `<iframe>` inside Excel's browser tab, and "visibility
 *   states of an <iframe> are the same as the parent document. Hiding an
 *   <iframe> using CSS properties (such as display: none;) doesn't trigger
 *   visibility events or change the state of the document contained within
 *   the frame" (MDN, Page Visibility API,
 *   https://developer.mozilla.org/en-US/docs/Web/API/Page_Visibility_API).
 *   The page reads the tab's state, `visible` while the user looks at the
 *   workbook, whether the pane is open or the runtime runs hidden; showing
 *   the pane changes nothing there.
 *
 * Whether the page's own frame is on screen is what an IntersectionObserver
 * says of its root element (W3C Intersection Observer: with no root given it
 * observes against the top-level viewport, through every frame that clips
 * it; https://developer.mozilla.org/en-US/docs/Web/API/Intersection_Observer_API):
 * the model answers "intersecting" while the pane is shown, on every platform
 * (a hidden runtime's frame is not laid out on screen).
 *
 * On every platform showing the pane fires Office's VisibilityModeChanged
 * with "Taskpane" ("Show or hide the task pane of your Office Add-in",
 * https://learn.microsoft.com/en-us/office/dev/add-ins/develop/show-hide-add-in;
 * Office.VisibilityMode: "Taskpane" | "Hidden").
 */

/** `Office.context.diagnostics.platform`, as the stand-in plays it (WorkbookRecording.platform). */
export type Platform = "PC" | "Mac" | "iOS" | "OfficeOnline";

/** Each platform the tests model, with the runtime started by the workbook (hidden) or by the user opening the pane. */
export const PLATFORM_STARTS = (["PC", "Mac", "OfficeOnline"] as const).flatMap((platform) =>
  (["document", "user"] as const).map((startedBy) => ({ platform, startedBy })),
);

export interface RuntimePage {
  platform: Platform;
  /** What the add-in finds as `document`. */
  document: Pick<Document, "visibilityState" | "addEventListener" | "removeEventListener"> & {
    documentElement: object;
  };
  /** Handlers the add-in gave `Office.addin.onVisibilityModeChanged`. */
  visibilityHandlers: Set<(message: { visibilityMode: string }) => void>;
  /** An IntersectionObserver over the page's frame (answers for any element observed). */
  IntersectionObserver: new (callback: (entries: { isIntersecting: boolean }[]) => void) => {
    observe(target: unknown): void;
    disconnect(): void;
  };
  /** The user opens the task pane of a runtime that runs hidden. */
  showPane(): void;
  /** The user switches Excel's browser tab (on the web) or window away and back: the page's own visibility. */
  setTabVisible(visible: boolean): void;
}

/** `startedBy`: "document" for a runtime the workbook loaded with no UI, "user" for one the pane's opening started. */
export function makeRuntimePage(platform: Platform, startedBy: "document" | "user"): RuntimePage {
  const target = new EventTarget();
  const onTheWeb = platform === "OfficeOnline";
  let paneShown = startedBy === "user";
  let tabVisible = true;
  const visibility = (): DocumentVisibilityState => (!tabVisible || (!onTheWeb && !paneShown) ? "hidden" : "visible");
  const document = {
    get visibilityState() {
      return visibility();
    },
    documentElement: {},
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  } as RuntimePage["document"];
  const visibilityHandlers = new Set<(message: { visibilityMode: string }) => void>();
  const observers = new Set<(entries: { isIntersecting: boolean }[]) => void>();
  const onScreen = () => paneShown && tabVisible;
  const changing = (change: () => void) => {
    const [before, wasOnScreen] = [visibility(), onScreen()];
    change();
    if (visibility() !== before) target.dispatchEvent(new Event("visibilitychange"));
    if (onScreen() !== wasOnScreen) for (const notify of [...observers]) notify([{ isIntersecting: onScreen() }]);
  };
  class Observer {
    constructor(private readonly callback: (entries: { isIntersecting: boolean }[]) => void) {}
    observe() {
      observers.add(this.callback);
      // The first observation arrives after observe() returns, as a browser's does.
      queueMicrotask(() => observers.has(this.callback) && this.callback([{ isIntersecting: onScreen() }]));
    }
    disconnect() {
      observers.delete(this.callback);
    }
  }
  return {
    platform,
    document,
    visibilityHandlers,
    IntersectionObserver: Observer,
    showPane() {
      if (paneShown) return;
      changing(() => (paneShown = true));
      for (const handler of [...visibilityHandlers]) handler({ visibilityMode: "Taskpane" });
    },
    setTabVisible(visible) {
      changing(() => (tabVisible = visible));
    },
  };
}
