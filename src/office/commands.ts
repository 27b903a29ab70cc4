/**
 * The refresh feature's Office entry points: the ribbon's "Refresh all"
 * command, the start-up step that refreshes a workbook on open, and the one
 * controller both share with the task pane.
 *
 * This runs from the task-pane page (the shared runtime's page), never from
 * functions.js: that bundle stays small and DOM-free because Excel loads it
 * for every workbook that uses an MD function.
 */
import { createPaneRefreshActions, type PaneRefreshActions } from "../refresh/pane-actions";
import { RefreshController } from "../refresh/refresh-controller";
import type { WorkbookAdapter } from "../refresh/workbook-adapter";
import { credentialsOf } from "./credentials";
import { readRuntimeStart } from "./pane-visibility";
import { sharedRuntime } from "./runtime-registry";
import { recheckKeyOnSettingsChange } from "./settings-changes";
import { paneSignIn } from "./sign-in/sign-in";
import { createExcelWorkbook, excelWorkbookAvailable } from "./workbook/workbook";

/** The ribbon buttons' <FunctionName>s in manifest.xml. */
export const REFRESH_ALL_COMMAND = "refreshAllMdFormulas";
export const RELOAD_ALL_COMMAND = "reloadAllMdFormulas";

let controller: RefreshController | null = null;
let actions: PaneRefreshActions | null = null;
/** A ribbon command ran in this runtime (evidence for refresh on open: see RuntimeStart). */
let commandRan = false;

/**
 * What the refresh feature calls the key. Behind a gateway that asks for sign-in, nobody signed in is no key: a
 * refresh (on open, before the silent sign-in or the user's) would turn every saved value into the sign-in error.
 */
async function keyForRefresh() {
  const runtime = sharedRuntime();
  const credentials = credentialsOf(runtime);
  const settings = await runtime.settings.read();
  if (!settings.signIn) return settings;
  await paneSignIn(credentials, runtime.settings).configure(settings.signIn);
  if (await credentials.hasToken()) return settings;
  return {
    apiKey: "",
    usingDefaultKey: false,
    keyManagedByGateway: false,
    signInToGateway: true,
    signInExpired: credentials.signInExpired(),
  };
}

/** The page's one controller; it hears every key change (the credentials' event). Outside Excel (a plain browser) it has no workbook and says so. */
export function getRefreshController(): RefreshController {
  controller ??= refreshControllerFor(excelWorkbookAvailable() ? createExcelWorkbook() : null);
  return controller;
}

/** A controller over `workbook` with the runtime's client, key and calls. */
function refreshControllerFor(workbook: WorkbookAdapter | null): RefreshController {
  const runtime = sharedRuntime();
  const made = new RefreshController({
    workbook,
    clearCache: (options) => runtime.client.clear(options),
    clearStored: () => runtime.client.clearStored(),
    readKey: () => keyForRefresh(),
    calls: runtime.calls,
  });
  recheckKeyOnSettingsChange(credentialsOf(runtime), made);
  return made;
}

/** The pane's refresh actions over another workbook than Excel's: the dev build's demo workbook outside Office. */
export function refreshActionsFor(workbook: WorkbookAdapter): PaneRefreshActions {
  return createPaneRefreshActions(refreshControllerFor(workbook));
}

/** What the pane's Refresh section calls (`PaneServices.refresh`). */
export function getRefreshActions(): PaneRefreshActions {
  actions ??= createPaneRefreshActions(getRefreshController());
  return actions;
}

/**
 * The event is completed at once rather than when the refresh ends: Office
 * queues further clicks until `completed()`, and a refresh waits for the
 * slowest function (an insight feed can take a minute). The refresh carries
 * on in the shared runtime; a second click joins it; the pane shows the result.
 */
export function onRefreshAllCommand(event: Office.AddinCommands.Event): void {
  commandRan = true;
  void getRefreshController().refreshAll("ribbon");
  event.completed();
}

/** "Reload everything": as Refresh all, with the data stored on this computer dropped first. */
export function onReloadAllCommand(event: Office.AddinCommands.Event): void {
  commandRan = true;
  void getRefreshController().reloadAll("ribbon");
  event.completed();
}

type OfficeActions = { actions?: { associate(id: string, action: (event: Office.AddinCommands.Event) => void): void } };

/** Associates the ribbon commands; false where there is no ribbon (a plain browser). */
export function registerCommands(
  office: OfficeActions | undefined = (globalThis as { Office?: OfficeActions }).Office,
): boolean {
  if (typeof office?.actions?.associate !== "function") return false;
  office.actions.associate(REFRESH_ALL_COMMAND, onRefreshAllCommand);
  office.actions.associate(RELOAD_ALL_COMMAND, onReloadAllCommand);
  return true;
}

/**
 * Start-up, called once when the page loads — which, with refresh on open
 * turned on, is when Excel opens the workbook. Whether the pane is on screen
 * is read first, before anything is awaited: it is the evidence of how the
 * runtime started (see RuntimeStart). The command is associated before
 * anything is awaited so a ribbon click that started the runtime finds its
 * handler. Never rejects: a failure is kept in the controller's state.
 */
export async function startRefreshFeature(): Promise<void> {
  const start = readRuntimeStart(() => commandRan);
  registerCommands();
  const info = await Office.onReady();
  if (String(info.host) !== "Excel") return;
  await getRefreshController().runOnOpen(start);
}
