/**
 * "Refresh on open" is a per-workbook choice, so it lives in the document's
 * settings (saved in the file, readable only by this add-in, never a secret).
 * Turning it on also asks Office to load the add-in with the document
 * (`Office.addin.setStartupBehavior`); without that the add-in would not run
 * until someone opens the pane, and the saved values would stay stale.
 *
 * On open it refreshes only with a key the user entered. The build's demo key
 * reaches the sandbox, whose data is synthetic: refreshing a real model from
 * it on open would replace real numbers. Without a key, nothing is refreshed
 * and the values saved in the file stay.
 */
import type { StartupBehavior, WorkbookAdapter } from "./workbook-adapter";

export const REFRESH_ON_OPEN_SETTING = "md.refreshOnOpen";

/** What the settings store says about the key (see src/office/settings.ts). */
export interface KeySource {
  apiKey: string;
  usingDefaultKey: boolean;
  /** The firm's gateway holds a real key: refreshing on open is as safe as with the user's own. */
  keyManagedByGateway?: boolean;
}

/** "user": a key the user entered; "demo": the build's default; "none": no key at all. */
export type KeyStatus = "user" | "demo" | "none";

export function keyStatus(settings: KeySource): KeyStatus {
  if (settings.keyManagedByGateway) return "user";
  if (!settings.apiKey) return "none";
  return settings.usingDefaultKey ? "demo" : "user";
}

export function readRefreshOnOpen(workbook: Pick<WorkbookAdapter, "getDocumentSetting">): boolean {
  return workbook.getDocumentSetting(REFRESH_ON_OPEN_SETTING) === true;
}

/** Saves the choice in the document, then sets the add-in's startup behaviour to match. */
export async function writeRefreshOnOpen(
  workbook: Pick<WorkbookAdapter, "setDocumentSetting" | "setStartupBehavior">,
  on: boolean,
): Promise<void> {
  await workbook.setDocumentSetting(REFRESH_ON_OPEN_SETTING, on);
  const behavior: StartupBehavior = on ? "load" : "none";
  try {
    await workbook.setStartupBehavior(behavior);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      on
        ? `Refresh on open is saved, but Excel could not be told to load the add-in with this workbook (${reason}). Open the Market Data pane after opening the workbook to refresh it.`
        : `Refresh on open is off, but Excel could not stop loading the add-in with this workbook (${reason}).`,
      { cause: error },
    );
  }
}

export type OnOpenDecision = "off" | "sign-in" | "refresh";

export function decideOnOpen(refreshOnOpen: boolean, key: KeyStatus): OnOpenDecision {
  if (!refreshOnOpen) return "off";
  return key === "user" ? "refresh" : "sign-in";
}
