/**
 * Task-pane bootstrap. The page has already run functions.js (custom functions
 * registered, shared client created); the React UI is a separate chunk loaded
 * only once the pane is shown (src/office/pane-visibility.ts), so opening a
 * workbook never waits for UI code, and a runtime started with the pane hidden
 * (refresh on open, a ribbon command) never loads it.
 *
 * The refresh feature starts first: its ribbon command must be associated
 * before anything is awaited (a click may be what started the runtime), and
 * a workbook set to refresh on open is refreshed whether or not the pane is
 * ever shown.
 */
import { startRefreshFeature } from "../office/commands";
import { officeReady } from "../office/host";
import { whenPaneShown } from "../office/pane-visibility";
import { startPaneSignIn } from "../office/sign-in/sign-in";

declare const __MD_BUILD_TARGET__: string | undefined;

/**
 * Outside Office, development and test builds give the pane the demo workbook (src/taskpane/demo/); inside Office
 * never. The condition on the build target is a constant webpack evaluates, so a production build has no demo chunk.
 */
async function demoWorkbook(host: string | null) {
  if (host !== null) return null;
  if (typeof __MD_BUILD_TARGET__ === "string" && __MD_BUILD_TARGET__ !== "production") {
    const { startDemoWorkbook } = await import(/* webpackChunkName: "demo-workbook" */ "./demo/demo-workbook");
    return startDemoWorkbook();
  }
  return null;
}

async function boot(): Promise<void> {
  void startRefreshFeature();
  const { host } = await officeReady();
  // A gateway that asks for sign-in: Office's own account is tried silently now (MSAL loads only then).
  void startPaneSignIn();
  await whenPaneShown();
  const { mountApp } = await import(/* webpackChunkName: "pane-ui" */ "./app");
  await mountApp(document.getElementById("root") as HTMLElement, { host, demo: await demoWorkbook(host) });
}

void boot();
