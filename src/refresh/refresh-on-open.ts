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

/**
 * Office's own document setting that stops the trust prompt for people who
 * open the workbook without the add-in installed. Learn, "Managing trust
 * options for Office Add-ins" (office-js-docs-pr, 2025-09-24): documents with
 * custom functions that use a shared runtime, or configured to load add-ins
 * when opened, show such prompts; "Disable trust prompts in your document by
 * setting … the "Office.DisableTrustUX" setting to true … This setting only
 * applies to Office on Windows and Mac."
 */
export const DISABLE_TRUST_PROMPT_SETTING = "Office.DisableTrustUX";

/** What people without the add-in see, in each case; the pane shows it beside the switch. */
export const TRUST_PROMPT_EXPLAINED =
  "Without the prompt, people who do not have the Market Data add-in open the workbook normally and see the values saved in it; MD formulas turn into #NAME? only if their Excel recalculates them. With the prompt (the default), Excel on Windows and Mac first asks them whether to trust and start an add-in they do not have.";

export function readTrustPromptOff(workbook: Pick<WorkbookAdapter, "getDocumentSetting">): boolean {
  return workbook.getDocumentSetting(DISABLE_TRUST_PROMPT_SETTING) === true;
}

/** The add-in was not loaded with the document, so this is not the moment the workbook opened. */
export const OPENED_WITHOUT_ADDIN =
  "Refresh on open is on for this workbook, but Excel did not load the add-in when the workbook opened, so nothing was refreshed now. Use Refresh all, or turn the switch off and on again so Excel loads the add-in the next time the workbook opens.";

/** What the settings store says about the key (see src/office/settings.ts). */
export interface KeySource {
  apiKey: string;
  usingDefaultKey: boolean;
  /** The firm's gateway holds a real key: refreshing on open is as safe as with the user's own. */
  keyManagedByGateway?: boolean;
  /** The gateway lets in only signed-in people, and nobody is: what is missing is a sign-in, not a key. */
  signInToGateway?: boolean;
  /** …because the sign-in in use could not be renewed without the user (it expired). */
  signInExpired?: boolean;
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

/** `Office.context.diagnostics.platform` in Excel on the web (Office.PlatformType). */
export const WEB_PLATFORM = "OfficeOnline";

/**
 * Whether Excel loaded this runtime with the workbook, from evidence that
 * holds on the runtime's platform. A document not set to load the add-in
 * ("none") never started it. On the desktop ("PC", "Mac", "iOS") the runtime's
 * page is a web view of its own, hidden when Excel loads it with no UI, so a
 * page on screen when it loaded means the user's opening of the pane started
 * it. On the web the page is an iframe in Excel's tab, and "visibility states
 * of an <iframe> are the same as the parent document" (MDN, Page Visibility
 * API, https://developer.mozilla.org/en-US/docs/Web/API/Page_Visibility_API):
 * it reads `visible` whether the pane is open or not. There the evidence is
 * the startup behaviour the workbook was saved with, read before this runtime
 * can change it: "load" makes Excel load the add-in as the workbook opens
 * ("whenever the document is reopened, the add-in loads immediately", Microsoft
 * Learn, Run code in your Office Add-in when the document opens,
 * https://learn.microsoft.com/en-us/office/dev/add-ins/develop/run-code-on-document-open),
 * and a later start of the same workbook's runtime — the pane opened where
 * Excel on the web did not load the add-in at open — cannot be told apart.
 */
export function startedWithDocument(
  platform: string | null,
  paneShownAtLoad: boolean,
  behavior: StartupBehavior | null,
): boolean {
  if (behavior === "none") return false;
  if (platform === WEB_PLATFORM) return behavior === "load";
  return !paneShownAtLoad;
}

export type OnOpenDecision = "off" | "sign-in" | "refresh";

export function decideOnOpen(refreshOnOpen: boolean, key: KeyStatus): OnOpenDecision {
  if (!refreshOnOpen) return "off";
  return key === "user" ? "refresh" : "sign-in";
}
