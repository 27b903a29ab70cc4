import { paneShownNow, whenPaneShown, type PaneVisibilityGlobals } from "../../src/office/pane-visibility";
import { REFRESH_ON_OPEN_SETTING } from "../../src/refresh/refresh-on-open";
import { openRecordedWorkbook } from "../support/open-workbook";
import { compsWorkbook } from "../support/recordings";
import { PLATFORM_STARTS } from "../support/workbook-stand-in/runtime-page";

function standIn(visibility: DocumentVisibilityState) {
  const target = new EventTarget();
  const doc = {
    visibilityState: visibility,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  };
  let handler: ((message: { visibilityMode: string }) => void) | undefined;
  const globals: PaneVisibilityGlobals = {
    document: doc as unknown as PaneVisibilityGlobals["document"],
    Office: {
      addin: {
        onVisibilityModeChanged: async (h) => {
          handler = h;
          return async () => undefined;
        },
      },
    },
  };
  return {
    globals,
    show: () => {
      doc.visibilityState = "visible";
      target.dispatchEvent(new Event("visibilitychange"));
    },
    officeSays: (mode: string) => handler?.({ visibilityMode: mode }),
  };
}

async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 5));
  return done;
}

describe("when the task pane is shown", () => {
  it("at once when the page is visible (a shown pane, or a plain browser)", async () => {
    expect(await settled(whenPaneShown(standIn("visible").globals))).toBe(true);
    expect(await settled(whenPaneShown({}))).toBe(true);
  });

  it("a hidden runtime waits; the page becoming visible shows it", async () => {
    const pane = standIn("hidden");
    const shown = whenPaneShown(pane.globals);
    expect(await settled(shown)).toBe(false);
    pane.show();
    expect(await settled(shown)).toBe(true);
  });

  it("a hidden runtime waits; Office saying the task pane is shown shows it, Hidden does not", async () => {
    const pane = standIn("hidden");
    const shown = whenPaneShown(pane.globals);
    await Promise.resolve();
    pane.officeSays("Hidden");
    expect(await settled(shown)).toBe(false);
    pane.officeSays("Taskpane");
    expect(await settled(shown)).toBe(true);
  });

  it("a host without onVisibilityModeChanged still shows it on visibilitychange", async () => {
    const pane = standIn("hidden");
    pane.globals.Office!.addin!.onVisibilityModeChanged = () => Promise.reject(new Error("not supported"));
    const shown = whenPaneShown(pane.globals);
    expect(await settled(shown)).toBe(false);
    pane.show();
    expect(await settled(shown)).toBe(true);
  });
});

describe("paneShownNow (refresh on open's evidence of how the runtime started)", () => {
  it("a runtime the document loaded has its page hidden; one the user opened has it on screen; a browser's is", () => {
    const hidden = standIn("hidden");
    expect(paneShownNow(hidden.globals)).toBe(false);
    hidden.show();
    expect(paneShownNow(hidden.globals)).toBe(true);
    expect(paneShownNow(standIn("visible").globals)).toBe(true);
    expect(paneShownNow({})).toBe(true);
  });
});

/**
 * The workbook stand-in's runtime page (harness/workbook-stand-in/runtime-page.ts): on the desktop the page is
 * a web view of its own, hidden while the runtime runs without the pane; on the web it is an iframe in Excel's tab,
 * which reads the tab's visibility ("visible") whether the pane is open or not (MDN, Page Visibility API).
 * The workbook was saved with refresh on open on (startup behaviour "Load"); "user" is a runtime the pane's opening
 * started (Excel did not load the add-in with the workbook).
 */
describe("the pane's UI chunk, on each platform", () => {
  function runtime(platform: "PC" | "Mac" | "OfficeOnline", startedBy: "document" | "user") {
    const { standIn, globals } = openRecordedWorkbook({
      ...compsWorkbook().recording,
      documentSettings: { [REFRESH_ON_OPEN_SETTING]: true },
      startupBehavior: "Load",
      platform,
      runtimeStartedBy: startedBy,
    });
    const page = {
      document: standIn.page.document,
      Office: globals.Office,
      IntersectionObserver: standIn.page.IntersectionObserver,
    } as unknown as PaneVisibilityGlobals;
    return { page, standIn };
  }

  // On every platform only a runtime the user's opening of the pane started loads the UI at once.
  it.each(PLATFORM_STARTS.map((row) => ({ ...row, loadsAtOnce: row.startedBy === "user" })))(
    "$platform, runtime started by the $startedBy: loads at once: $loadsAtOnce; loads once the pane is shown",
    async ({ platform, startedBy, loadsAtOnce }) => {
      const { page, standIn } = runtime(platform, startedBy);
      const shown = whenPaneShown(page);
      expect(await settled(shown)).toBe(loadsAtOnce);
      standIn.page.showPane();
      expect(await settled(shown)).toBe(true);
    },
  );

  it("on the web, the user leaving Excel's tab and coming back does not load it into a hidden runtime", async () => {
    const { page, standIn } = runtime("OfficeOnline", "document");
    const shown = whenPaneShown(page);
    standIn.page.setTabVisible(false);
    standIn.page.setTabVisible(true);
    expect(await settled(shown)).toBe(false);
    standIn.page.showPane();
    expect(await settled(shown)).toBe(true);
  });
});
