/**
 * End to end through the Office dialog (the existing popup test: gateway-signin.test.ts, whose helpers this
 * copies). The built pane in headless Chromium behind a real nginx in firm
 * mode with sign-in (njs checking tokens), a real OpenID Connect provider
 * (oidc-provider, over https with a self-signed certificate: MSAL takes only
 * https authorities) issuing real signed tokens, and the sandbox as the
 * service. Nothing is faked on the way: the pane learns from /api/_gateway
 * whom to sign in with, MSAL (its own chunk) opens the provider's
 * authorization endpoint in a popup, the test types into the provider's
 * development login and consent pages, the popup lands on auth-redirect.html,
 * MSAL redeems the code (PKCE, a public client) and the functions' requests
 * carry the access token to the gateway, which adds the firm's key.
 *
 * The cell is the function functions.js registers, called as Excel would call
 * it (the page records what CustomFunctions.associate receives, as
 * warm-workbook.test.ts does): there is no workbook outside Excel. The
 * session's end is the provider's own refusal (harness/identity.ts
 * endSessions: no refresh token, no session), as a day later.
 */
import { recordFunctionsInPage } from "../support/pane-page";
import { latest, record, SIGN_IN_WORLD_SKIPPED, useSignInWorld } from "../support/sign-in-browser";
import { OFFICE_STAND_IN_JS } from "../support/office-sign-in/browser-office";

const SIGN_IN_CELL = "#N/A Sign in to Market Data (pane ▸ Settings)";
const EXPIRED_CELL = "#N/A Your sign-in expired — sign in again (pane ▸ Settings)";
const DAY = "2024-06-28";

const SKIPPED = SIGN_IN_WORLD_SKIPPED;
const suite = SKIPPED ? describe.skip : describe;
if (SKIPPED) console.warn(`SKIPPED "pane sign-in through the Office dialog": ${SKIPPED}.`);

suite(
  "pane sign-in through the Office dialog (headless Chromium, office.js stand-in, nginx + njs, oidc-provider)",
  () => {
    const { idp, rig, browser } = useSignInWorld();

    it("signs in through sign-in-dialog.html in the Office dialog, fills a cell through nginx; once renewal fails the pane and the cell say the sign-in expired", async () => {
      const context = browser.context;
      const recorder = record(context);
      await context.route("**/office-js/office.js", (route) =>
        route.fulfill({ contentType: "application/javascript", body: OFFICE_STAND_IN_JS }),
      );
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await recordFunctionsInPage(page, { baseUrl: "/api", apiKey: null });
      const gatewayOrigin = new URL(rig.gateway.url).origin;

      await page.goto(`${rig.gateway.url}/taskpane.html`);
      await page.getByRole("heading", { name: "Market Data" }).waitFor();
      expect(await latest(page, "eth", "PRICE", DAY)).toBe(SIGN_IN_CELL);

      await page.getByRole("tab", { name: "Settings" }).click();
      const signIn = page.getByRole("button", { name: "Sign in", exact: true });
      await signIn.waitFor();
      const dialogOpened = page.waitForEvent("popup");
      await signIn.click();
      const dialog = await dialogOpened;
      const dialogClosed = dialog.waitForEvent("close");
      expect(new URL(dialog.url()).pathname).toBe("/sign-in-dialog.html");
      const login = dialog.locator("input[name=login]");
      await login.waitFor();
      await login.fill("ada");
      await dialog.locator("input[name=password]").fill("any password");
      await dialog.getByRole("button", { name: "Sign-in" }).click();
      await dialog.getByRole("button", { name: "Continue" }).click();
      // The provider sends the dialog to auth-redirect.html, whose bridge brings it back to sign-in-dialog.html,
      // which hands the token to the pane (messageParent); the pane closes the dialog.
      await dialogClosed;
      const who = page.getByTestId("signed-in-user");
      await who.waitFor();
      expect(await who.textContent()).toBe("Signed in as Ada Lovelace (ada@firm.example).");
      await recorder.settled();
      const authorize = recorder.seen.find((e) => e.url.startsWith(`${new URL(idp.issuer).origin}/auth?`));
      expect(new URL(authorize!.url).searchParams.get("redirect_uri")).toBe(`${gatewayOrigin}/auth-redirect.html`);

      const value = await latest(page, "eth", "PRICE", DAY);
      expect(typeof value).toBe("number");
      const seriesCalls = recorder.seen.filter((e) => e.url.startsWith(`${gatewayOrigin}/api/data/api/`));
      expect(seriesCalls.length).toBeGreaterThan(0);
      expect(seriesCalls.every((e) => /^Bearer /.test(e.requestHeaders.authorization ?? ""))).toBe(true);

      // A day later: the provider refuses to renew (its sessions, grants and refresh tokens are over, as a
      // single-page app's refresh token is after 24 hours), and the pane's clock says the dialog's token is due.
      await idp.endSessions();
      const before = recorder.seen.length;
      await page.clock.setFixedTime(Date.now() + 25 * 3_600_000);
      expect(await latest(page, "btc", "PRICE", DAY)).toBe(EXPIRED_CELL);
      await page.getByText("Your sign-in expired — sign in again.").waitFor();
      await signIn.waitFor();
      expect(await who.count()).toBe(0);
      // The provider was asked and said no: MSAL's renewal at its token endpoint (a refresh token it no longer
      // has), or its silent sign-in in a hidden frame (no session); no series request went out without a token.
      await recorder.settled();
      const after = recorder.seen.slice(before);
      const issuerOrigin = new URL(idp.issuer).origin;
      const refused = after.filter(
        (e) =>
          (e.url.startsWith(`${issuerOrigin}/token`) &&
            e.status === 400 &&
            /invalid_grant/.test(e.responseBody ?? "")) ||
          (e.url.startsWith(`${issuerOrigin}/auth?`) && /prompt=none/.test(e.url)),
      );
      expect(refused.length).toBeGreaterThan(0);
      expect(after.filter((e) => e.url.startsWith(`${gatewayOrigin}/api/data/api/`))).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
