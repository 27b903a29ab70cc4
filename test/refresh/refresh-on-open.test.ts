/**
 * Refresh on open and the controller the pane uses. The document settings,
 * `Office.addin` and the StartupBehavior enum are office-addin-mock objects;
 * the cells are the recorded workbook stand-in (see harness/workbook-stand-in/).
 */
import { OfficeMockObject } from "office-addin-mock";
import { OfficeApp } from "office-addin-manifest";
import { CallTracker } from "../../src/office/call-tracker";
import { readRuntimeStart, type PaneVisibilityGlobals } from "../../src/office/pane-visibility";
import { createExcelWorkbook, type ExcelWorkbookGlobals } from "../../src/office/workbook/workbook";
import {
  RefreshController,
  SIGN_IN_TO_GATEWAY_TO_REFRESH,
  SIGN_IN_EXPIRED_TO_REFRESH,
  SIGN_IN_TO_REFRESH,
} from "../../src/refresh/refresh-controller";
import { createPaneRefreshActions } from "../../src/refresh/pane-actions";
import {
  DISABLE_TRUST_PROMPT_SETTING,
  OPENED_WITHOUT_ADDIN,
  REFRESH_ON_OPEN_SETTING,
  type KeySource,
} from "../../src/refresh/refresh-on-open";
import { openRecordedWorkbook } from "../support/open-workbook";
import { compsWorkbook, OPENED_WITH_DOCUMENT } from "../support/recordings";
import { installWorkbookStandIn, type WorkbookRecording } from "../support/workbook-stand-in";
import { PLATFORM_STARTS } from "../support/workbook-stand-in/runtime-page";

interface OfficeCalls {
  saved: Record<string, unknown>[];
  startup: string[];
}

function officeMock(
  initial: Record<string, unknown>,
  options: { startupFails?: string; startup?: "Load" | "None" } = {},
) {
  const store: Record<string, unknown> = { ...initial };
  const calls: OfficeCalls = { saved: [], startup: [] };
  const mock = new OfficeMockObject(
    {
      context: {
        document: {
          settings: {
            get: (name: string) => (name in store ? store[name] : null),
            set: (name: string, value: unknown) => void (store[name] = value),
            saveAsync: (callback: (result: { status: string }) => void) => {
              calls.saved.push({ ...store });
              setTimeout(() => callback({ status: "succeeded" }), 0);
            },
          },
        },
        requirements: { isSetSupported: () => true },
      },
      addin: {
        setStartupBehavior: async (behavior: string) => {
          if (options.startupFails) throw new Error(options.startupFails);
          calls.startup.push(behavior);
        },
        // What Office saved with the document: "Load" when it loads the add-in as the workbook opens.
        getStartupBehavior: async () => calls.startup[calls.startup.length - 1] ?? options.startup ?? "Load",
      },
      StartupBehavior: { load: "Load", none: "None" },
      // The common API (settings, addin) has no load/sync; office-addin-mock models that as its Outlook mode.
    },
    OfficeApp.Outlook,
  );
  return { mock, calls };
}

const KEYS: Record<string, KeySource> = {
  user: { apiKey: "user-entered-key", usingDefaultKey: false },
  demo: { apiKey: "md-sandbox-demo", usingDefaultKey: true },
  none: { apiKey: "", usingDefaultKey: true },
  // The firm's gateway holds a real key and the add-in sends none (src/office/sign-in/gateway.ts).
  gateway: { apiKey: "", usingDefaultKey: false, keyManagedByGateway: true },
  // A gateway that lets in only signed-in people, and nobody is (src/office/commands.ts keyForRefresh).
  "gateway, signed out": { apiKey: "", usingDefaultKey: false, keyManagedByGateway: false, signInToGateway: true },
  // The same, because the sign-in could not be renewed without the user (the next day).
  "gateway, sign-in expired": {
    apiKey: "",
    usingDefaultKey: false,
    keyManagedByGateway: false,
    signInToGateway: true,
    signInExpired: true,
  },
};

function setUp(
  options: { refreshOnOpen?: boolean; key?: keyof typeof KEYS; startupFails?: string; startup?: "Load" | "None" } = {},
) {
  const fixture = compsWorkbook({ afterMs: 5 });
  const excelGlobals: Record<string, unknown> = {};
  const runtimeCalls = new CallTracker();
  const standIn = installWorkbookStandIn(excelGlobals, fixture.recording, { calls: runtimeCalls });
  const initial = options.refreshOnOpen === undefined ? {} : { [REFRESH_ON_OPEN_SETTING]: options.refreshOnOpen };
  const { mock, calls } = officeMock(initial, { startupFails: options.startupFails, startup: options.startup });
  const workbook = createExcelWorkbook({ Excel: excelGlobals.Excel, Office: mock } as unknown as ExcelWorkbookGlobals);
  let cacheClears = 0;
  const controller = new RefreshController({
    workbook,
    clearCache: () => void (cacheClears += 1),
    readKey: async () => KEYS[options.key ?? "user"],
    calls: runtimeCalls,
    refreshOptions: { pollMs: 5 },
  });
  return { fixture, standIn, calls, controller, cacheClears: () => cacheClears };
}

describe("refresh on open: the switch", () => {
  it("is off for a workbook that never set it", () => {
    expect(setUp().controller.getRefreshOnOpen()).toBe(false);
  });

  it("reads the workbook's saved choice", () => {
    expect(setUp({ refreshOnOpen: true }).controller.getRefreshOnOpen()).toBe(true);
  });

  it("on: saves md.refreshOnOpen in the document and asks Office to load the add-in with it", async () => {
    const { controller, calls } = setUp();
    expect(await controller.setRefreshOnOpen(true)).toBe(true);
    expect(calls.saved).toEqual([{ [REFRESH_ON_OPEN_SETTING]: true }]);
    expect(calls.startup).toEqual(["Load"]);
    expect(controller.getState()).toMatchObject({ refreshOnOpen: true, error: null, busy: null });
  });

  it("off: saves false and sets the startup behaviour back to none", async () => {
    const { controller, calls } = setUp({ refreshOnOpen: true });
    expect(await controller.setRefreshOnOpen(false)).toBe(true);
    expect(calls.saved).toEqual([{ [REFRESH_ON_OPEN_SETTING]: false }]);
    expect(calls.startup).toEqual(["None"]);
    expect(controller.getRefreshOnOpen()).toBe(false);
  });

  it("when Office cannot change the startup behaviour, keeps the saved choice and says what to do", async () => {
    const { controller, calls } = setUp({ startupFails: "SharedRuntime 1.1 is not supported" });
    expect(await controller.setRefreshOnOpen(true)).toBe(false);
    expect(calls.saved).toEqual([{ [REFRESH_ON_OPEN_SETTING]: true }]);
    expect(controller.getState().refreshOnOpen).toBe(true);
    expect(controller.getState().error).toMatch(/SharedRuntime 1\.1 is not supported.*Open the Market Data pane/);
  });
});

describe("refresh on open: when the workbook opens", () => {
  it.each([
    { refreshOnOpen: true, key: "user", refreshes: true, signIn: false },
    { refreshOnOpen: true, key: "demo", refreshes: false, signIn: true },
    { refreshOnOpen: true, key: "none", refreshes: false, signIn: true },
    { refreshOnOpen: true, key: "gateway", refreshes: true, signIn: false },
    { refreshOnOpen: false, key: "user", refreshes: false, signIn: false },
    { refreshOnOpen: false, key: "none", refreshes: false, signIn: false },
  ] as const)(
    "refresh on open $refreshOnOpen, $key key → refreshes: $refreshes, sign in: $signIn",
    async ({ refreshOnOpen, key, refreshes, signIn }) => {
      const { fixture, standIn, controller, cacheClears } = setUp({ refreshOnOpen, key });
      const report = await controller.runOnOpen(OPENED_WITH_DOCUMENT);

      expect(controller.getState().signInRequired).toBe(signIn);
      if (refreshes) {
        expect(report?.cells).toBe(fixture.md.length);
        expect(controller.getState().lastRefreshTrigger).toBe("open");
        expect(cacheClears()).toBe(1);
      } else {
        expect(report).toBeNull();
        expect(standIn.log.formulaWrites).toEqual([]);
        expect(standIn.log.calculations).toEqual([]);
        expect(cacheClears()).toBe(0);
        // The values saved in the file stay.
        for (const c of fixture.md)
          expect(standIn.cell(c.sheet, c.address).value).toBe(c.cell.spill ? c.cell.spill[0][0] : c.cell.value);
      }
    },
  );
});

describe("refresh on open: once, and at the right time", () => {
  function opened(extra: Partial<WorkbookRecording> = {}, retries: number[] = [20, 40, 80, 160]) {
    const fixture = compsWorkbook({ afterMs: 5 });
    const session = openRecordedWorkbook({
      ...fixture.recording,
      documentSettings: { [REFRESH_ON_OPEN_SETTING]: true },
      startupBehavior: "Load",
      ...extra,
    });
    const controller = new RefreshController({
      workbook: session.workbook,
      clearCache: () => {},
      readKey: async () => KEYS.user,
      calls: session.calls,
      refreshOptions: { pollMs: 5, noStartMs: 300, quietMs: 50 },
      registrationRetriesMs: retries,
    });
    return { fixture, controller, ...session };
  }

  it("waits while Excel registers the functions (cells read _xldudf_MD_…), then refreshes them", async () => {
    const { fixture, controller, standIn } = opened({ registerAfterMs: 60 });
    const report = await controller.runOnOpen(OPENED_WITH_DOCUMENT);
    expect(report?.cells).toBe(fixture.md.length);
    expect(report?.notes).toEqual([]);
    expect(new Set(standIn.log.calculations).size).toBe(fixture.md.length);
  });

  it("gives up after its retries and says which cells it could not refresh", async () => {
    const { fixture, controller, standIn } = opened({ registerAfterMs: 60_000 }, [10, 10]);
    const report = await controller.runOnOpen(OPENED_WITH_DOCUMENT);
    expect(report?.cells).toBe(0);
    expect(report?.notes).toEqual([
      expect.stringMatching(new RegExp(`^${fixture.md.length} cell\\(s\\) still read _xldudf_MD_`)),
    ]);
    expect(standIn.log.calculations).toEqual([]);
  });

  it("runs once per runtime, however often it is called", async () => {
    const { fixture, controller, standIn } = opened();
    expect((await controller.runOnOpen(OPENED_WITH_DOCUMENT))?.cells).toBe(fixture.md.length);
    expect(await controller.runOnOpen(OPENED_WITH_DOCUMENT)).toBeNull();
    expect(standIn.log.calculations).toHaveLength(fixture.md.length);
  });

  // Excel's getStartupBehavior() reports the *next* open's behaviour ("load" once set, whether or not this
  // runtime started with the document: Microsoft Learn, Office.StartupBehavior), so the model answers "Load"
  // here too; what tells is the runtime's own evidence, the pane on screen when the page loaded.
  it("does not refresh when the user opened the pane after the workbook opened, and says why", async () => {
    const { controller, standIn } = opened({ startupBehavior: "Load" });
    expect(await controller.runOnOpen({ paneShown: true, byCommand: () => false })).toBeNull();
    expect(controller.getState().notice).toBe(OPENED_WITHOUT_ADDIN);
    expect(standIn.log.calculations).toEqual([]);
    // A refresh the user asks for clears the notice.
    await controller.refreshAll("pane");
    expect(controller.getState().notice).toBeNull();
  });

  it("does not refresh on a start the document was not set to load, and says why", async () => {
    const { controller, standIn } = opened({ startupBehavior: "None" });
    expect(await controller.runOnOpen(OPENED_WITH_DOCUMENT)).toBeNull();
    expect(controller.getState().notice).toBe(OPENED_WITHOUT_ADDIN);
    expect(standIn.log.calculations).toEqual([]);
  });

  it("leaves a runtime a ribbon command started to that command: no second refresh, no notice", async () => {
    const { fixture, controller, standIn } = opened({ startupBehavior: "Load" });
    const ribbon = controller.refreshAll("ribbon");
    expect(await controller.runOnOpen({ paneShown: false, byCommand: () => true })).toBeNull();
    expect((await ribbon)?.cells).toBe(fixture.md.length);
    expect(controller.getState().notice).toBeNull();
    expect(controller.getState().lastRefreshTrigger).toBe("ribbon");
    expect(standIn.log.calculations).toHaveLength(fixture.md.length);
  });

  // The runtime's own evidence, read by the add-in from the stand-in's runtime page (runtime-page.ts): on the web
  // the page is an iframe that reads Excel's tab's visibility, so there the document's saved startup behaviour
  // ("Load") is what says Excel loaded the add-in with the workbook. A runtime the user's opening of the pane started
  // while the workbook is saved with "Load" is one Excel on the web did not load at open; nothing in the page tells
  // it apart there, so it refreshes (docs/refresh.md), where the desktop's hidden web view says so.
  it.each(
    PLATFORM_STARTS.map((row) => ({
      ...row,
      refreshes: row.startedBy === "document" || row.platform === "OfficeOnline",
    })),
  )(
    "$platform, runtime started by the $startedBy: refresh on open runs: $refreshes",
    async ({ platform, startedBy, refreshes }) => {
      const { fixture, controller, standIn, globals } = opened({ platform, runtimeStartedBy: startedBy });
      const page = { document: standIn.page.document, Office: globals.Office } as unknown as PaneVisibilityGlobals;
      const start = readRuntimeStart(() => false, page);
      const report = await controller.runOnOpen(start);
      expect(report?.cells ?? null).toBe(refreshes ? fixture.md.length : null);
      expect(controller.getState().notice).toBe(refreshes ? null : OPENED_WITHOUT_ADDIN);
      expect(standIn.log.calculations).toHaveLength(refreshes ? fixture.md.length : 0);
    },
  );

  it("offers to stop Excel's trust prompt for people without the add-in (Office.DisableTrustUX)", async () => {
    const { controller, standIn } = opened();
    const actions = createPaneRefreshActions(controller);
    expect(await actions.getTrustPromptOff()).toBe(false);
    await actions.setTrustPromptOff(true);
    expect(standIn.settings[DISABLE_TRUST_PROMPT_SETTING]).toBe(true);
    expect(await actions.getTrustPromptOff()).toBe(true);
    await actions.setTrustPromptOff(false);
    expect(standIn.settings[DISABLE_TRUST_PROMPT_SETTING]).toBe(false);
    expect(standIn.log.calculations).toEqual([]);
  });
});

describe("the refresh controller", () => {
  it("refuses to refresh with no key at all, so saved values are not replaced by errors", async () => {
    const { standIn, controller } = setUp({ key: "none" });
    expect(await controller.refreshAll()).toBeNull();
    expect(controller.getState()).toMatchObject({ signInRequired: true, error: SIGN_IN_TO_REFRESH });
    expect(standIn.log.formulaWrites).toEqual([]);
    expect(standIn.log.calculations).toEqual([]);
  });

  it("a gateway that asks for sign-in, nobody signed in: refuses, and says to sign in, not to enter a key", async () => {
    const { standIn, controller } = setUp({ key: "gateway, signed out" });
    expect(await controller.refreshAll()).toBeNull();
    expect(controller.getState()).toMatchObject({
      signInRequired: true,
      signInWith: "gateway",
      error: SIGN_IN_TO_GATEWAY_TO_REFRESH,
    });
    expect(SIGN_IN_TO_GATEWAY_TO_REFRESH).toMatch(/^Sign in to Market Data \(Settings ▸ Sign in\) to refresh/);
    expect(SIGN_IN_TO_GATEWAY_TO_REFRESH).not.toMatch(/API key/);
    expect(await createPaneRefreshActions(controller).refreshAll()).toEqual({
      cells: 0,
      ms: 0,
      note: SIGN_IN_TO_GATEWAY_TO_REFRESH,
    });
    expect(standIn.log.calculations).toEqual([]);
  });

  it("refresh on open for a gateway that asks for sign-in, nobody signed in: nothing refreshed, the pane says to sign in", async () => {
    const { standIn, controller } = setUp({ refreshOnOpen: true, key: "gateway, signed out", startup: "Load" });
    expect(await controller.runOnOpen({ paneShown: false, byCommand: () => false })).toBeNull();
    expect(controller.getState()).toMatchObject({ signInRequired: true, signInWith: "gateway" });
    expect(standIn.log.calculations).toEqual([]);
  });

  it("the sign-in expired overnight: refresh on open does not run and says the sign-in expired", async () => {
    const { standIn, controller } = setUp({ refreshOnOpen: true, key: "gateway, sign-in expired", startup: "Load" });
    expect(await controller.runOnOpen({ paneShown: false, byCommand: () => false })).toBeNull();
    expect(controller.getState()).toMatchObject({ signInRequired: true, signInWith: "gateway-expired" });
    expect(await controller.refreshAll()).toBeNull();
    expect(controller.getState().error).toBe(SIGN_IN_EXPIRED_TO_REFRESH);
    expect(SIGN_IN_EXPIRED_TO_REFRESH).toMatch(/^Your sign-in expired — sign in again/);
    expect(standIn.log.calculations).toEqual([]);
  });

  it("refreshes on request with the build's demo key (the user asked for it)", async () => {
    const { controller } = setUp({ key: "demo" });
    const report = await controller.refreshAll("pane");
    expect(report?.cells).toBeGreaterThan(0);
    expect(controller.getState()).toMatchObject({ lastRefreshTrigger: "pane", signInRequired: false, busy: null });
  });

  it("joins a refresh already running instead of starting another", async () => {
    const { fixture, standIn, controller } = setUp();
    const [a, b] = await Promise.all([controller.refreshAll("pane"), controller.refreshAll("ribbon")]);
    expect(a).toBe(b);
    expect(new Set(standIn.log.calculations).size).toBe(fixture.md.length);
  });

  it("tells subscribers as it goes, with a new state object each time", async () => {
    const { controller } = setUp();
    const seen: { busy: string | null; phase?: string }[] = [];
    const states = new Set<unknown>();
    const unsubscribe = controller.subscribe(() => {
      const state = controller.getState();
      states.add(state);
      seen.push({ busy: state.busy, phase: state.progress?.phase });
    });
    await controller.refreshAll();
    unsubscribe();
    expect(seen[0].busy).toBe("refresh");
    expect(seen.some((s) => s.phase === "calculating")).toBe(true);
    expect(seen[seen.length - 1].busy).toBeNull();
    expect(states.size).toBe(seen.length);
  });

  it("has no workbook outside Excel and says so", async () => {
    const controller = new RefreshController({
      workbook: null,
      clearCache: () => {},
      readKey: async () => KEYS.user,
      calls: new CallTracker(),
    });
    expect(controller.getState().available).toBe(false);
    expect(await controller.refreshAll()).toBeNull();
    expect(controller.getState().error).toMatch(/Open this pane in Excel/);
  });
});
