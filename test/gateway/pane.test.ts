/**
 * The built task pane served by the gateway (a real nginx, firm mode) in
 * headless Chromium, its base address the same-origin /api and no key stored:
 * it opens on the Picker (nothing to ask), loads the asset catalog through the
 * gateway, says in Settings that the firm's gateway manages the key, and every
 * request it makes stays on the gateway's origin under the gateway's CSP.
 */
import type { Page } from "playwright-core";
import { describeBrowser, useBrowserSession } from "../support/browser";
import { openPane, showView, type PaneWatch } from "../support/pane-page";
import { describeGateway, NGINX, useGatewayRig } from "../support/gateway";

/** office.js, outside Office, adds its telemetry frame a few seconds after load; wait past that. */
const OFFICE_JS_SETTLE_MS = 6_000;

const describeBoth = NGINX ? describeBrowser : describeGateway;

describeBoth("the pane served by the gateway (nginx, firm mode, headless Chromium)", () => {
  const rig = useGatewayRig({ firm: true, sandbox: { assetCount: 500 } }, 90_000);
  const session = useBrowserSession(90_000);
  let watch: PaneWatch;
  let page: Page;
  const requests: string[] = [];
  const violations: string[] = [];

  beforeAll(async () => {
    session.context.on("request", (request) => requests.push(request.url()));
    session.context.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    watch = await openPane(session, rig.gateway.url, { baseUrl: "/api", apiKey: null });
    page = watch.page;
  }, 90_000);

  it("opens on the Picker and fills the asset list through /api with no key in the page", async () => {
    expect(await page.getByRole("tab", { name: "Picker", selected: true }).count()).toBe(1);
    await page.getByTestId("asset-option").first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("asset-count").textContent()).toBe("500 assets");
    expect(requests.some((url) => url.startsWith(`${rig.gateway.url}/api/asset/symbols/`))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("md.apiKey"))).toBeNull();
    expect(await page.content()).not.toContain(rig.key);
  });

  it("Settings says the firm's gateway manages the key, and the connection test succeeds", async () => {
    await showView(page, "Settings");
    expect(await page.getByTestId("key-managed").textContent()).toBe(
      "The API key is managed by your firm's gateway: there is nothing to enter here.",
    );
    expect(await page.locator('input[data-testid="api-key-input"]').count()).toBe(0);
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByTestId("connection-result").locator(".fui-MessageBar").waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("connection-result").textContent()).toMatch(/^Connected in \d+ ms\.$/);
  });

  it("every request of the page stays on the gateway's origin, under the gateway's CSP (connect-src 'self')", async () => {
    await page.waitForTimeout(OFFICE_JS_SETTLE_MS);
    const response = await fetch(`${rig.gateway.url}/taskpane.html`);
    expect(response.headers.get("content-security-policy")).toMatch(/(^|; )connect-src 'self'(;|$)/);
    const elsewhere = requests.filter(
      (url) => !url.startsWith(`${rig.gateway.url}/`) && !/^(data|blob|about):/.test(url),
    );
    expect(elsewhere).toEqual([]);
    expect(requests.filter((url) => url.includes("/api/")).length).toBeGreaterThan(1);
    // The only refusal is office.js's external telemetry frame (frame-src); nothing of the pane's own.
    expect(violations.filter((text) => !/frame-src|Framing/i.test(text))).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(requests.filter((url) => url.includes(rig.key))).toEqual([]);
  });
});
