/**
 * The sign-in dialog's page (sign-in-dialog.html, entry src/taskpane/sign-in-dialog.ts): what the pane opens in the
 * Office dialog (src/office/sign-in/office-dialog.ts) where Office's broker
 * cannot sign the user in. It runs MSAL's standard redirect flow with the
 * gateway's identity provider — the provider sends the dialog to
 * auth-redirect.html, whose redirect bridge brings the answer back here — and
 * hands the result to the pane with `Office.context.ui.messageParent`, sent
 * to the pane's own origin only (`targetOrigin`, DialogOrigin 1.1: Microsoft
 * Learn, Office.DialogMessageOptions). Microsoft Learn, *Authenticate and
 * authorize with the Office dialog API*: the dialog signs in and passes the
 * token to the host page with messageParent.
 *
 * The provider's address, client and scopes come in the page's query (nothing
 * secret: the gateway publishes them at /api/_gateway).
 */
import { PublicClientApplication, type AuthenticationResult } from "@azure/msal-browser";
import { msalConfiguration } from "./msal-sign-in";
import { withinDeadline as within } from "./deadline";
import type { DialogAnswer } from "./office-dialog";

/** Longer than this without the provider answering (its discovery document, its token endpoint): say so. */
const PROVIDER_DEADLINE_MS = 12_000;

interface DialogOffice {
  onReady?(): Promise<unknown>;
  context?: {
    ui?: { messageParent?(message: string, options?: { targetOrigin: string }): void };
    requirements?: { isSetSupported?(name: string, version?: string): boolean };
  };
}

function office(): DialogOffice | undefined {
  return (globalThis as { Office?: DialogOffice }).Office;
}

function tell(answer: DialogAnswer): void {
  const o = office();
  const message = JSON.stringify(answer);
  const origin = o?.context?.requirements?.isSetSupported?.("DialogOrigin", "1.1") === true;
  if (origin) o?.context?.ui?.messageParent?.(message, { targetOrigin: location.origin });
  else o?.context?.ui?.messageParent?.(message);
}

function withinDeadline<T>(work: Promise<T>): Promise<T> {
  return within(work, PROVIDER_DEADLINE_MS);
}

function signedIn(result: AuthenticationResult): DialogAnswer {
  const username = result.account?.username ?? "";
  return {
    kind: "md-sign-in",
    ok: true,
    accessToken: result.accessToken,
    expiresOn: result.expiresOn?.getTime() ?? Date.now() + 10 * 60_000,
    user: { name: result.account?.name || username || "signed in", username },
  };
}

async function run(): Promise<void> {
  await office()?.onReady?.();
  const query = new URLSearchParams(location.search);
  const config = {
    authority: query.get("authority") ?? "",
    clientId: query.get("clientId") ?? "",
    scopes: (query.get("scopes") ?? "").split(" ").filter(Boolean),
  };
  const app = new PublicClientApplication(msalConfiguration(config, location.href));
  await withinDeadline(app.initialize());
  // Back from the provider (auth-redirect.html brought the answer here): MSAL redeems the code.
  const result = await withinDeadline(app.handleRedirectPromise());
  if (result) return tell(signedIn(result));
  document.body.textContent = "Opening your organisation's sign-in page…";
  await withinDeadline(app.loginRedirect({ scopes: config.scopes }));
}

/** Runs the page: signs in (or goes to the provider) and tells the pane. Never rejects. */
export function runSignInDialogPage(): Promise<void> {
  return run().catch((error: unknown) => {
    const code = (error as { errorCode?: unknown })?.errorCode;
    const text = (error as { errorMessage?: unknown })?.errorMessage;
    document.body.textContent = "Signing in to Market Data did not work: close this window and see the pane.";
    tell({
      kind: "md-sign-in",
      ok: false,
      errorCode: typeof code === "string" && code ? code : "unknown_error",
      ...(typeof text === "string" ? { errorText: text.slice(0, 300) } : {}),
    });
  });
}
