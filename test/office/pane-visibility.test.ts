import { paneShownNow, whenPaneShown, type PaneVisibilityGlobals } from "../../src/office/pane-visibility";

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
