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
 * warm-workbook.test.ts does): there is no workbook outside Excel.
 */
import type { BrowserContext, Page, Request, Response } from "playwright-core";
import { CHROMIUM_PATH, useBrowserSession } from "../support/browser";
import { NGINX, NJS_MODULE, useGatewayRig } from "../support/gateway";
import { NO_HTTPS_ISSUER, TEST_AUDIENCE, TEST_TENANT, useIdentityProvider } from "../support/identity";
import { recordFunctionsInPage } from "../support/pane-page";
import { OFFICE_STAND_IN_JS } from "../support/office-sign-in/browser-office";

const SIGN_IN_CELL = "#N/A Sign in to Market Data (pane ▸ Settings)";
const EXPIRED_CELL = "#N/A Your sign-in expired — sign in again (pane ▸ Settings)";
const DAY = "2024-06-28";
const ADDIN_CLIENT_ID = "md-addin-client";

const SKIPPED = !CHROMIUM_PATH
  ? "no Chromium found (set CHROMIUM_PATH or install Debian's chromium)"
  : !NGINX || !NJS_MODULE
    ? "no nginx with its JavaScript module (njs) found (npm test installs Debian's nginx libnginx-mod-http-js when it runs as root)"
    : NO_HTTPS_ISSUER;
const suite = SKIPPED ? describe.skip : describe;
if (SKIPPED) console.warn(`SKIPPED "pane sign-in through the Office dialog": ${SKIPPED}.`);

/** Everything the browser sent and received, the sign-in popup's pages included. */
interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
}

/** Records every exchange; `settled()` waits until the headers and bodies of those seen so far are read. */
function record(context: BrowserContext): { seen: Exchange[]; settled(): Promise<void> } {
  const seen: Exchange[] = [];
  const reads: Promise<unknown>[] = [];
  const byRequest = new Map<Request, Exchange>();
  // A page already gone (the closed popup), or a redirect, has nothing more to read.
  const read = <T>(promise: Promise<T>, use: (value: T) => void) =>
    reads.push(promise.then(use).catch(() => undefined));
  context.on("request", (request) => {
    const exchange: Exchange = { method: request.method(), url: request.url(), requestHeaders: {}, requestBody: "" };
    byRequest.set(request, exchange);
    seen.push(exchange);
    exchange.requestBody = request.postData() ?? "";
    read(request.allHeaders(), (headers) => (exchange.requestHeaders = headers));
  });
  context.on("response", (response: Response) => {
    const exchange = byRequest.get(response.request());
    if (!exchange) return;
    exchange.status = response.status();
    read(response.allHeaders(), (headers) => (exchange.responseHeaders = headers));
    read(response.body(), (body) => (exchange.responseBody = body.toString("utf8")));
  });
  return {
    seen,
    async settled() {
      while (reads.length) await Promise.all(reads.splice(0));
    },
  };
}

/** Calls the registered MD.LATEST as Excel would; an error reads "<code> <message>", as the cell would show. */
function latest(page: Page, symbol: string, metric: string, day: string): Promise<unknown> {
  return page.evaluate(
    async ([symbol, metric, day]) => {
      const fns = (window as unknown as { __mdFunctions: Record<string, (...a: unknown[]) => Promise<unknown>> })
        .__mdFunctions;
      try {
        // Excel passes every declared argument, null for an omitted one (here: options), then the invocation.
        const value = await fns.LATEST!(symbol, metric, day, null, {
          address: "Sheet1!B2",
          isInValuePreview: false,
          onCanceled: null,
        });
        return typeof value === "object" && value !== null && "basicValue" in value
          ? (value as { basicValue: unknown }).basicValue
          : value;
      } catch (error) {
        const e = error as { code?: string; message: string };
        return `${e.code ?? "error"} ${e.message}`;
      }
    },
    [symbol, metric, day] as const,
  );
}

suite(
  "pane sign-in through the Office dialog (headless Chromium, office.js stand-in, nginx + njs, oidc-provider)",
  () => {
    const idp = useIdentityProvider(60_000, { https: true });
    const rig = useGatewayRig(() => ({
      firm: true,
      gateway: {
        identity: {
          issuer: idp.issuer,
          audience: TEST_AUDIENCE,
          clientId: ADDIN_CLIENT_ID,
          tenant: TEST_TENANT,
          scopes: [`${TEST_AUDIENCE}/access_as_user`],
          jwksUri: idp.keysUrl,
        },
      },
    }));
    beforeAll(() => idp.registerAddin(`${rig.gateway.url}/auth-redirect.html`));
    const browser = useBrowserSession(60_000, { ignoreHTTPSErrors: true });

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

      // The session ends: the provider is gone, and the pane's clock says the dialog's token is due.
      await idp.close();
      await page.clock.setFixedTime(Date.now() + 2 * 3_600_000);
      expect(await latest(page, "btc", "PRICE", DAY)).toBe(EXPIRED_CELL);
      await page.getByText("Your sign-in expired — sign in again.").waitFor();
      await signIn.waitFor();
      expect(pageErrors).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
