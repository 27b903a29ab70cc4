/**
 * The built pane's page playing Excel's shared runtime for the functions:
 * what the browser suites (test/support/pane-page.ts re-exports it) and the
 * picker's Chromium bench (bench/picker-chromium.ts) share. Nothing here
 * needs jest.
 */
import type { Page } from "playwright-core";
import { ErrorCode } from "./bundle";

/**
 * The pane's own page (the top document at `path`) with its stored settings
 * and a stand-in for Excel's CustomFunctions that records what functions.js
 * associates, as `window.__mdFunctions`, for a test to call the way Excel
 * would. office.js replaces `associate` on whatever CustomFunctions object it
 * finds outside Office; this one keeps its own. Errors are constructed with
 * their code and message, as CustomFunctions.Error is. `apiKey` null: none stored.
 */
export async function recordFunctionsInPage(
  page: Page,
  settings: { baseUrl: string; apiKey: string | null },
  path = "/taskpane.html",
): Promise<void> {
  await page.addInitScript(
    ([settings, path, errorCode]) => {
      // Not office.js's frames, nor a sign-in popup's pages.
      if (window !== window.top || location.pathname !== path) return;
      localStorage.setItem("md.baseUrl", settings.baseUrl);
      if (settings.apiKey === null) localStorage.removeItem("md.apiKey");
      else localStorage.setItem("md.apiKey", settings.apiKey);
      const registered: Record<string, unknown> = {};
      class CellError extends Error {
        constructor(
          readonly code: string,
          message?: string,
        ) {
          super(message ?? "");
        }
      }
      const customFunctions = { Error: CellError, ErrorCode: errorCode };
      Object.defineProperty(customFunctions, "associate", {
        get: () => (id: string, fn: unknown) => void (registered[id] = fn),
        set: () => undefined,
        enumerable: true,
      });
      Object.defineProperty(window, "__mdFunctions", { value: registered });
      Object.defineProperty(window, "CustomFunctions", { get: () => customFunctions, set: () => undefined });
    },
    [settings, path, ErrorCode] as const,
  );
}
