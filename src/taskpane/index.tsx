/**
 * Task-pane bootstrap. The page has already run functions.js (custom functions
 * registered, shared client created); the React UI is a separate chunk loaded
 * only now, so opening a workbook never waits for UI code.
 */
async function boot(): Promise<void> {
  const info = await Office.onReady();
  const { mountApp } = await import(/* webpackChunkName: "pane-ui" */ "./app");
  mountApp(document.getElementById("root") as HTMLElement, { host: info.host ?? null });
}

void boot();
