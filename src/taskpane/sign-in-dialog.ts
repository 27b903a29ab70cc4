/**
 * The sign-in dialog's page (sign-in-dialog.html): the pane opens it in the
 * Office dialog to sign in with the gateway's identity provider
 * (src/office/sign-in/dialog-page.ts).
 */
import { runSignInDialogPage } from "../office/sign-in/dialog-page";

void runSignInDialogPage();
