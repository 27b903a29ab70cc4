/**
 * Signing in through the Office dialog: where Office's broker cannot sign the
 * user in (a provider other than Microsoft Entra ID, or Office without nested
 * app authentication), the pane opens the add-in's own page
 * `/sign-in-dialog.html` with `Office.context.ui.displayDialogAsync`; that page
 * runs MSAL's redirect flow with the provider and hands the result back with
 * `Office.context.ui.messageParent` (src/taskpane/sign-in-dialog.ts).
 *
 * Microsoft Learn: "Don't use the standard browser window.open() method to
 * open dialogs or pop-up windows in Office Add-ins … Always use the Office
 * Dialog API instead" (*Use the Office dialog API in Office Add-ins*,
 * https://learn.microsoft.com/office/dev/add-ins/develop/dialog-api-in-office-add-ins),
 * and "security features implemented in the webview … can prevent sign-in
 * pages from working correctly … This is why Office provides the Office dialog
 * API" (*Authenticate and authorize with the Office dialog API*,
 * https://learn.microsoft.com/office/dev/add-ins/develop/auth-with-office-dialog-api).
 * The error codes: *Handle errors and events in the Office dialog box*
 * (https://learn.microsoft.com/office/dev/add-ins/develop/dialog-handle-errors-events).
 */
import { SIGN_IN_DIALOG_PAGE } from "./registration";
import type { SignedInUser } from "./session";

/** The dialog page's path on the add-in's host (the app registration lists it: see the README's team section). */
export const DIALOG_PAGE = `/${SIGN_IN_DIALOG_PAGE}`;

/** What the dialog page sends the pane: the kind marks it as ours; the rest is the sign-in's outcome. */
export type DialogAnswer =
  | { kind: "md-sign-in"; ok: true; accessToken: string; expiresOn: number; user: SignedInUser }
  | { kind: "md-sign-in"; ok: false; errorCode: string; errorText?: string };

/** A dialog's failure, with an MSAL-like errorCode the pane turns into words (failures.ts). */
export class DialogError extends Error {
  constructor(
    readonly errorCode: string,
    readonly officeCode?: number,
  ) {
    super(errorCode);
    this.name = "DialogError";
  }
}

/** Office's numbers, in the add-in's codes. */
function dialogCode(officeCode: number): string {
  if (officeCode === 12006) return "dialog_closed"; // "The dialog box was closed, usually because the user chose … X"
  if (officeCode === 12009 || officeCode === 12011) return "dialog_blocked"; // the user ignored it; the browser blocks it
  if (officeCode === 12007) return "interaction_in_progress"; // "A dialog box is already opened from this host window"
  return "dialog_failed"; // 12002 page not found, 12003 http, 12004 domain not trusted, 12005 http URL
}

export function dialogUrl(pageUrl: string, config: { authority: string; clientId: string; scopes: string[] }): string {
  const url = new URL(DIALOG_PAGE, pageUrl);
  url.searchParams.set("authority", config.authority);
  url.searchParams.set("clientId", config.clientId);
  url.searchParams.set("scopes", config.scopes.join(" "));
  return url.href;
}

/** Reads a dialog message: ours from the pane's own origin, else null (ignored). */
export function readDialogAnswer(message: string, origin: string | undefined, pageOrigin: string): DialogAnswer | null {
  // DialogOrigin 1.1 gives the sender's origin; where Office does not (older clients), the page is ours by URL.
  if (origin !== undefined && origin !== pageOrigin) return null;
  try {
    const answer = JSON.parse(message) as DialogAnswer;
    return answer && answer.kind === "md-sign-in" ? answer : null;
  } catch {
    return null;
  }
}

interface DialogLike {
  addEventHandler(type: string, handler: (args: { message?: string; origin?: string; error?: number }) => void): void;
  close(): void;
}

export interface OfficeUi {
  displayDialogAsync(
    url: string,
    options: { height: number; width: number; promptBeforeOpen?: boolean },
    callback: (result: { status: string; value?: unknown; error?: { code: number } }) => void,
  ): void;
}

/**
 * Opens the dialog page and waits for its answer: a signed-in user and token, or a DialogError (closed, blocked,
 * already open) or the page's own error code. Messages from another origin are ignored.
 */
export function signInThroughDialog(
  ui: OfficeUi,
  url: string,
): Promise<{ accessToken: string; expiresOn: number; user: SignedInUser }> {
  const pageOrigin = new URL(url).origin;
  return new Promise((resolve, reject) => {
    ui.displayDialogAsync(url, { height: 60, width: 30 }, (result) => {
      if (result.status !== "succeeded" || !result.value) {
        reject(new DialogError(dialogCode(result.error?.code ?? 0), result.error?.code));
        return;
      }
      const dialog = result.value as DialogLike;
      dialog.addEventHandler("dialogMessageReceived", ({ message, origin }) => {
        const answer = readDialogAnswer(message ?? "", origin, pageOrigin);
        if (!answer) return;
        dialog.close();
        if (answer.ok) resolve({ accessToken: answer.accessToken, expiresOn: answer.expiresOn, user: answer.user });
        else reject(new DialogError(answer.errorCode));
      });
      dialog.addEventHandler("dialogEventReceived", ({ error }) => {
        reject(new DialogError(dialogCode(error ?? 0), error));
      });
    });
  });
}
