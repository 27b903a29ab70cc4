/**
 * End to end through the Office dialog (the popup's test: gateway-signin.test.ts, whose helpers this shares). The
 * built pane in headless Chromium, with a stand-in for office.js's dialog API, behind a real nginx in firm mode
 * with sign-in (njs checking tokens), a real OpenID Connect provider (oidc-provider, over https with a self-signed
 * certificate: MSAL takes only https authorities) issuing real signed tokens, and the sandbox as the service. The
 * pane opens sign-in-dialog.html in the "dialog", which runs MSAL's redirect flow with the provider (the test types
 * into its development login and consent pages) and hands the token back; the functions' requests carry it to the
 * gateway, which adds the firm's key.
 *
 * The session then ends the way it does a day later: the provider's clock and the pane's move on, and the provider
 * itself refuses the single-page app's refresh token once its 24 hours are over (harness/oidc-issuer.ts gives
 * Microsoft Entra ID's lifetimes), with its own sign-in session over too. No step waits a fixed time: each waits
 * for the provider's report of what it issued or refused, or for the pane's text.
 *
 * The cell is the function functions.js registers, called as Excel would call
 * it (the page records what CustomFunctions.associate receives, as
 * warm-workbook.test.ts does): there is no workbook outside Excel.
 */
import type { Page } from "playwright-core";
import { recordFunctionsInPage } from "../support/pane-page";
import { latest, record, SIGN_IN_WORLD_SKIPPED, useSignInWorld } from "../support/sign-in-browser";
import { OFFICE_STAND_IN_JS } from "../support/office-sign-in/browser-office";

const SIGN_IN_CELL = "#N/A Sign in to Market Data (pane ▸ Settings)";
const EXPIRED_CELL = "#N/A Your sign-in expired — sign in again (pane ▸ Settings)";
const DAY = "2024-06-28";
const HOUR = 3_600_000;

/** Collects the page's Content-Security-Policy refusals of frames (MSAL's hidden renewal frame would be one). */
async function watchFrameViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __frameViolations: string[] }).__frameViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => {
      if (e.effectiveDirective === "frame-src") seen.push(e.blockedURI);
    });
  });
}

function frameViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __frameViolations: string[] }).__frameViolations);
}

const SKIPPED = SIGN_IN_WORLD_SKIPPED;
const suite = SKIPPED ? describe.skip : describe;
if (SKIPPED) console.warn(`SKIPPED "pane sign-in through the Office dialog": ${SKIPPED}.`);

suite(
  "pane sign-in through the Office dialog (headless Chromium, office.js stand-in, nginx + njs, oidc-provider)",
  () => {
    const { idp, rig, browser } = useSignInWorld();

    it("signs in through sign-in-dialog.html in the Office dialog, fills a cell through nginx, renews silently within the day; once the refresh token's day is over the pane and the cells say the sign-in expired", async () => {
      const context = browser.context;
      const recorder = record(context);
      await context.route("**/office-js/office.js", (route) =>
        route.fulfill({ contentType: "application/javascript", body: OFFICE_STAND_IN_JS }),
      );
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await recordFunctionsInPage(page, { baseUrl: "/api", apiKey: null });
      await watchFrameViolations(page);
      const gatewayOrigin = new URL(rig.gateway.url).origin;

      // The pane nginx serves lets MSAL's hidden renewal frame reach the provider: its header's and its own <meta>
      // policy's frame-src both name the provider's origin (either alone would refuse the frame).
      const served = await fetch(`${rig.gateway.url}/taskpane.html`);
      const metaPolicy = /http-equiv=["']?Content-Security-Policy["']?\s+content=(["'])(.*?)\1/i.exec(
        await served.text(),
      )?.[2];
      for (const policy of [served.headers.get("content-security-policy"), metaPolicy]) {
        const frameSrc = (policy ?? "").split(";").map((d) => d.trim().split(/\s+/));
        expect(frameSrc.find((d) => d[0] === "frame-src")).toContain(new URL(idp.issuer).origin);
      }

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

      // Within the day: the dialog's access token is due (the pane's clock an hour on). MSAL renews it with the
      // refresh token the dialog's sign-in left in the local storage the pane shares with it (a dialog on the
      // add-in's own domain does, Microsoft Learn, *Alternative ways of passing messages to a dialog box from its
      // host page*; not in Office on the web in Safari, nor where Chromium partitions storage: checklist §33), and
      // the next cell fills.
      await page.clock.setFixedTime(Date.now() + HOUR);
      expect(typeof (await latest(page, "sol", "PRICE", DAY))).toBe("number");
      await idp.event(/^grant\.success refresh_token$/);
      // 23 hours on at the provider too: its own session is over, the refresh token still renews (once more).
      await idp.advanceClock((23 * HOUR) / 1000);
      await page.clock.setFixedTime(Date.now() + 23 * HOUR);
      expect(typeof (await latest(page, "btc", "PRICE", DAY))).toBe("number");
      expect(idp.events.filter((e) => e === "grant.success refresh_token")).toHaveLength(2);
      expect(await who.textContent()).toBe("Signed in as Ada Lovelace (ada@firm.example).");

      // The next day: the refresh token's 24 hours (not extended by the renewals) are over. The provider refuses
      // it (invalid_grant: its store drops a token when its lifetime ends), MSAL's hidden frame reaches the provider
      // (the pane's frame-src lets it) and finds no session there: only the user can sign in again.
      await idp.advanceClock((2 * HOUR) / 1000);
      await page.clock.setFixedTime(Date.now() + 25 * HOUR);
      const since = idp.events.length;
      const [expired] = await Promise.all([
        latest(page, "eth", "PRICE", "2024-06-26"),
        idp.event(/^grant\.error invalid_grant refresh token (is expired|not found)$/, { since }),
        idp.event(/^authorization\.error login_required/, { since }),
      ]);
      expect(expired).toBe(EXPIRED_CELL);
      await page.getByText("Your sign-in expired — sign in again.").waitFor();
      expect(await who.count()).toBe(0);
      await signIn.waitFor();
      // A cell recalculated later says the same, with nothing sent to the gateway.
      const gatewayCalls = recorder.seen.filter((e) => e.url.startsWith(`${gatewayOrigin}/api/data/`)).length;
      expect(await latest(page, "eth", "PRICE", "2024-06-27")).toBe(EXPIRED_CELL);
      expect(recorder.seen.filter((e) => e.url.startsWith(`${gatewayOrigin}/api/data/`)).length).toBe(gatewayCalls);
      expect(await frameViolations(page)).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
