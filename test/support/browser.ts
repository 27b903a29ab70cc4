/**
 * Browser test support: headless Chromium (Debian's package) driven by
 * playwright-core, and a static server for dist/ on 127.0.0.1 (both in
 * harness/chromium.ts, shared with the browser benchmarks). The browser world's
 * set-up is `usePaneBrowser()` (the built pane served and a fresh profile);
 * `useBrowserSession()` is the profile alone, for other pages.
 *
 * Chromium is found through CHROMIUM_PATH, or on the PATH. Without it the
 * browser suites are declared with describe.skip and say why, so they show as
 * skipped, never as passed. `.ci/run` installs it, so CI always runs them.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { DIST } from "../../harness/bundle";
import { useWorld } from "./use-world";
import {
  CHROMIUM_PATH,
  launchBrowser,
  serveStatic,
  type BrowserSession,
  type LaunchOptions,
  type StaticServer,
} from "../../harness/chromium";

export * from "../../harness/chromium";

/** `describe`, or `describe.skip` with the reason printed when there is no Chromium. */
export const describeBrowser: jest.Describe = CHROMIUM_PATH
  ? describe
  : (((name: string, fn: jest.EmptyFunction) => {
      console.warn(
        `SKIPPED browser suite "${name}": no Chromium found (set CHROMIUM_PATH or install Debian's chromium).`,
      );
      return describe.skip(name, fn);
    }) as unknown as jest.Describe);

/**
 * A fresh headless Chromium profile for the suite or describe block this is
 * called in, for pages that are not the built pane's (the dev server's):
 * launched in a beforeAll (`timeoutMs`: jest's default unless given), closed
 * in an afterAll.
 */
export function useBrowserSession(timeoutMs?: number, options: LaunchOptions = {}): BrowserSession {
  return useWorld("the browser session (useBrowserSession)", () => launchBrowser(options), timeoutMs);
}

export interface PaneBrowser {
  /** dist/ served on 127.0.0.1: the built pane is at `${pane.url}/taskpane.html`. */
  pane: StaticServer;
  session: BrowserSession;
  close(): Promise<void>;
}

/** A browser suite's base: the built pane (dist/) served on 127.0.0.1 and a fresh headless Chromium profile. */
export async function startPaneBrowser(): Promise<PaneBrowser> {
  expect(existsSync(path.join(DIST, "taskpane.html"))).toBe(true);
  const pane = await serveStatic();
  const session = await launchBrowser();
  return {
    pane,
    session,
    async close() {
      await session.close();
      await pane.close();
    },
  };
}

/** The browser world for a suite or describe block: started in a beforeAll, closed in an afterAll. */
export function usePaneBrowser(): PaneBrowser {
  return useWorld("the pane browser (usePaneBrowser)", startPaneBrowser);
}
