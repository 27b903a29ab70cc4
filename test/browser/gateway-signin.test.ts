/**
 * End to end: the built pane in headless Chromium behind a real nginx in firm
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
import type { Page } from "playwright-core";
import { accessLog } from "../support/gateway";
import { TEST_AUDIENCE } from "../support/identity";
import { pageTextOutsideInputs, recordFunctionsInPage } from "../support/pane-page";
import { ADDIN_CLIENT_ID, latest, record, SIGN_IN_WORLD_SKIPPED, useSignInWorld } from "../support/sign-in-browser";

const SIGN_IN_CELL = "#N/A Sign in to Market Data (pane ▸ Settings)";
const DAY = "2024-06-28";

const SKIPPED = SIGN_IN_WORLD_SKIPPED;
const suite = SKIPPED ? describe.skip : describe;
if (SKIPPED) console.warn(`SKIPPED "pane sign-in through the gateway": ${SKIPPED}.`);

/** What the page keeps: localStorage, sessionStorage and every IndexedDB database, as text. */
function pageStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const dump = (s: Storage) => Object.fromEntries(Object.keys(s).map((k) => [k, s.getItem(k)]));
    const databases: unknown[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      databases.push(
        await new Promise((resolve, reject) => {
          const open = indexedDB.open(info.name!);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const names = Array.from(db.objectStoreNames);
            if (names.length === 0) {
              db.close();
              return resolve([]);
            }
            const out: unknown[] = [];
            const tx = db.transaction(names, "readonly");
            for (const name of names) {
              const all = tx.objectStore(name).getAll();
              all.onsuccess = () => out.push(all.result);
            }
            tx.oncomplete = () => {
              db.close();
              resolve(out);
            };
          };
        }),
      );
    }
    return JSON.stringify({ local: dump(localStorage), session: dump(sessionStorage), databases });
  });
}

suite("pane sign-in through the gateway (headless Chromium, nginx + njs, oidc-provider, sandbox)", () => {
  const { idp, rig, browser } = useSignInWorld();

  it("the pane signs in through the popup, a cell fills through the gateway, no key in the browser; Sign out brings back the sign-in #N/A", async () => {
    const context = browser.context;
    const recorder = record(context);
    const exchanges = recorder.seen;
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await recordFunctionsInPage(page, { baseUrl: "/api", apiKey: null });
    const gatewayOrigin = new URL(rig.gateway.url).origin;
    const issuerOrigin = new URL(idp.issuer).origin;

    await page.goto(`${rig.gateway.url}/taskpane.html`);
    await page.getByRole("heading", { name: "Market Data" }).waitFor();

    // Before signing in: the sign-in #N/A, and nothing reaches the service.
    const servedBefore = rig.sandbox.stats().requests;
    expect(await latest(page, "eth", "PRICE", DAY)).toBe(SIGN_IN_CELL);
    expect(rig.sandbox.stats().requests).toBe(servedBefore);

    // The gateway told the pane whom to sign in with.
    await recorder.settled();
    const told = exchanges.find((e) => e.url === `${gatewayOrigin}/api/_gateway` && e.responseBody);
    expect(JSON.parse(told!.responseBody!)).toEqual({
      keyMode: "firm",
      auth: { authority: idp.issuer, clientId: ADDIN_CLIENT_ID, scopes: [`${TEST_AUDIENCE}/access_as_user`] },
    });

    // Settings offers Sign in; the popup goes to the provider's authorization endpoint.
    await page.getByRole("tab", { name: "Settings" }).click();
    const signIn = page.getByRole("button", { name: "Sign in", exact: true });
    await signIn.waitFor();
    const popupOpened = page.waitForEvent("popup");
    await signIn.click();
    const popup = await popupOpened;
    const popupClosed = popup.waitForEvent("close");
    const login = popup.locator("input[name=login]");
    await login.waitFor();
    const authorize = exchanges.find((e) => e.url.startsWith(`${issuerOrigin}/auth?`));
    const asked = new URL(authorize!.url).searchParams;
    expect(asked.get("client_id")).toBe(ADDIN_CLIENT_ID);
    expect(asked.get("redirect_uri")).toBe(`${gatewayOrigin}/auth-redirect.html`);
    expect(asked.get("code_challenge_method")).toBe("S256");
    expect(asked.get("scope")).toContain(`${TEST_AUDIENCE}/access_as_user`);
    // oidc-provider's development pages: any login, then consent.
    await login.fill("ada");
    await popup.locator("input[name=password]").fill("any password");
    await popup.getByRole("button", { name: "Sign-in" }).click();
    await popup.getByRole("button", { name: "Continue" }).click();
    // The provider sends the popup to auth-redirect.html, which hands the code to the pane and closes.
    await popupClosed;

    // The pane says who is signed in.
    const who = page.getByTestId("signed-in-user");
    await who.waitFor();
    expect(await who.textContent()).toBe("Signed in as Ada Lovelace (ada@firm.example).");

    // The cell fills with the service's value, through the gateway.
    const direct = (await (
      await fetch(
        `${rig.sandbox.url}/data/api/PRICE/?symbols=eth&startDate=${DAY}&endDate=${DAY}&APIKey=${encodeURIComponent(rig.key)}`,
      )
    ).json()) as { data: { symbols: { eth: { PRICE: { date: string; val: number }[] } } } };
    const expected = direct.data.symbols.eth.PRICE.find((p) => p.date.startsWith(DAY))!.val;
    expect(typeof expected).toBe("number");
    expect(await latest(page, "eth", "PRICE", DAY)).toBe(expected);
    const seriesCalls = exchanges.filter((e) => e.url.startsWith(`${gatewayOrigin}/api/data/api/`));
    expect(seriesCalls.length).toBeGreaterThan(0);
    expect(seriesCalls.every((e) => e.status === 200)).toBe(true);

    // The token the provider issued: only ever in an Authorization header to the gateway's /api/.
    await recorder.settled();
    const redeemed = exchanges.find(
      (e) =>
        e.method === "POST" && new URL(e.url).pathname === "/token" && e.url.startsWith(issuerOrigin) && e.responseBody,
    );
    const token = (JSON.parse(redeemed!.responseBody!) as { access_token: string }).access_token;
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: idp.issuer, aud: TEST_AUDIENCE, client_id: ADDIN_CLIENT_ID });
    for (const e of exchanges) {
      expect([e.url, e.requestBody].join("\n")).not.toContain(token);
      for (const [name, value] of Object.entries(e.requestHeaders)) {
        if (!value.includes(token)) continue;
        expect([name, new URL(e.url).origin, new URL(e.url).pathname.startsWith("/api/")]).toEqual([
          "authorization",
          gatewayOrigin,
          true,
        ]);
        expect(value).toBe(`Bearer ${token}`);
      }
    }
    expect(seriesCalls.every((e) => e.requestHeaders.authorization === `Bearer ${token}`)).toBe(true);

    // No firm key anywhere in the browser: requests, responses, storage, the page.
    const everything = exchanges.map((e) => JSON.stringify(e)).join("\n");
    expect(everything).not.toContain(rig.key);
    expect(everything).not.toContain(encodeURIComponent(rig.key));
    const kept = await pageStorage(page);
    expect(kept).not.toContain(rig.key);
    expect(kept).toContain('"md.baseUrl":"/api"');
    const shown = await pageTextOutsideInputs(page);
    expect([shown.html, shown.text, ...shown.inputValues].join("\n")).not.toContain(rig.key);
    expect(shown.html).not.toContain(token);
    // The gateway's access log names the user, never the token.
    const log = accessLog(rig.gateway).join("\n");
    expect(log).not.toContain(token);

    // Sign out: the cell that just filled (its answer in memory and in IndexedDB) asks to sign in again, and
    // nothing is sent.
    await page.getByRole("button", { name: "Sign out" }).click();
    await signIn.waitFor();
    const servedSignedIn = rig.sandbox.stats().requests;
    const gatewayCallsSignedIn = exchanges.filter((e) => e.url.startsWith(`${gatewayOrigin}/api/data/`)).length;
    expect(await latest(page, "eth", "PRICE", DAY)).toBe(SIGN_IN_CELL);
    expect(rig.sandbox.stats().requests).toBe(servedSignedIn);
    expect(exchanges.filter((e) => e.url.startsWith(`${gatewayOrigin}/api/data/`)).length).toBe(gatewayCallsSignedIn);

    expect(pageErrors).toEqual([]);
    await page.close();
  }, 120_000);
});
