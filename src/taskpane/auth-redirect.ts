/**
 * The sign-in popup's landing page (auth-redirect.html): the identity provider
 * sends the popup here, and MSAL's redirect bridge hands the answer to the
 * pane that opened it, then the popup closes. Only the bridge is loaded: no
 * Office, no UI, no token handling of its own (src/office/sign-in/msal-sign-in.ts).
 */
import { broadcastResponseToMainFrame } from "@azure/msal-browser/redirect-bridge";

broadcastResponseToMainFrame().catch(() => {
  document.body.textContent = "This window is part of signing in to Market Data. You can close it.";
});
