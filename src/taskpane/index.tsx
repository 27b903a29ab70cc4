/**
 * Task-pane bootstrap. The page has already run functions.js (custom functions
 * registered, shared client created); the React UI is a separate chunk loaded
 * only now, so opening a workbook never waits for UI code.
 *
 * The refresh feature starts first: its ribbon command must be associated
 * before anything is awaited (a click may be what started the runtime), and
 * a workbook set to refresh on open is refreshed whether or not the pane is
 * ever shown.
 */
import { startRefreshFeature } from "../office/commands";
import { officeReady } from "../office/host";

async function boot(): Promise<void> {
  void startRefreshFeature();
  const { host } = await officeReady();
  const { mountApp } = await import(/* webpackChunkName: "pane-ui" */ "./app");
  await mountApp(document.getElementById("root") as HTMLElement, { host });
}

void boot();
