/**
 * One browser suite's world: the in-process sandbox (20,000 assets and a slow
 * first insight call by default), dist/ served on 127.0.0.1, a fresh headless
 * Chromium profile, and every request any page or frame of it makes, so a
 * suite can show that nothing left this machine. `usePaneRig(options)` starts
 * it before the suite (or describe block) and closes it after.
 */
import { DEMO_API_KEY, startSandbox, type SandboxHandle, type SandboxOptions } from "../../sandbox/server";
import type { WorkbookRecording } from "./workbook-stand-in";
import { isLocalUrl, startPaneBrowser, type BrowserSession, type StaticServer } from "./browser";
import { openPane, type PaneWatch } from "./pane-page";
import { useWorld } from "./use-world";

export interface PaneRig {
  sandbox: SandboxHandle;
  pane: StaticServer;
  session: BrowserSession;
  /** Every URL requested in the browser, in order. */
  requests: string[];
  /** Opens the built pane on a new page, pointed at this sandbox with `apiKey` stored (null: none of the user's own). */
  openPane(apiKey: string | null, options?: { workbook?: WorkbookRecording }): Promise<PaneWatch>;
  /** A GET to the sandbox from Node (the test's own view of the service), with the sandbox's key. */
  fetchJson<T>(pathAndQuery: string, key?: string): Promise<T>;
  close(): Promise<void>;
}

export const PANE_RIG_DEFAULTS: SandboxOptions = {
  port: 0,
  quiet: true,
  assetCount: 20_000,
  insightFirstCallDelayMs: 1500,
};

export async function startPaneRig(options: SandboxOptions = {}): Promise<PaneRig> {
  const sandbox = await startSandbox({ ...PANE_RIG_DEFAULTS, ...options });
  const browser = await startPaneBrowser();
  const { pane, session } = browser;
  const requests: string[] = [];
  session.context.on("request", (request) => requests.push(request.url()));
  const key = options.apiKey ?? DEMO_API_KEY;
  return {
    sandbox,
    pane,
    session,
    requests,
    openPane: (apiKey, openOptions) => openPane(session, pane.url, { baseUrl: sandbox.url, apiKey }, openOptions),
    async fetchJson<T>(pathAndQuery: string, apiKey = key): Promise<T> {
      const url = new URL(pathAndQuery, sandbox.url);
      url.searchParams.set("APIKey", apiKey);
      const response = await fetch(url);
      if (!response.ok) throw new Error(`sandbox ${url.pathname}: HTTP ${response.status}`);
      return (await response.json()) as T;
    },
    async close() {
      await browser.close();
      await sandbox.close();
    },
  };
}

/**
 * The rig for the suite or describe block this is called in: started in a
 * beforeAll (in the order of the block's other hooks), closed in an afterAll.
 * Starting it (20,000 assets, Chromium) can outlast jest's default timeout on a
 * loaded machine, hence `timeoutMs` for the beforeAll.
 */
export function usePaneRig(options: SandboxOptions = {}, timeoutMs = 60_000): PaneRig {
  return useWorld("the pane rig (usePaneRig)", () => startPaneRig(options), timeoutMs);
}

/** The requests that went anywhere but this machine. */
export function offMachine(requests: readonly string[]): string[] {
  return requests.filter((url) => !isLocalUrl(url));
}
