/**
 * The production pane where Microsoft's CDN cannot be reached (a firewall, a
 * proxy, offline): office.js does not load, and instead of "Loading Market
 * Data…" forever the pane says, within 10 seconds and in plain text, that it
 * cannot start and which host it needs (appsforoffice.microsoft.com, where the
 * production build's office.js lives). The build is `npm run build`'s
 * (target production), served on 127.0.0.1; the CDN is refused or left
 * hanging by the browser itself (playwright routes), so nothing leaves the
 * machine.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page, Route } from "playwright-core";
import { describeBrowser } from "../support/browser";
import { useProductionPane } from "../support/production-pane";

const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";
const CDN = "https://appsforoffice.microsoft.com/**";

describeBrowser("the production pane without Microsoft's CDN (headless Chromium)", () => {
  const production = useProductionPane();

  it("is the production page: office.js from the CDN, the check before it", () => {
    const html = readFileSync(path.join(production.dir, "taskpane.html"), "utf8");
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="?([^" >]+)/g)].map((m) => m[1]);
    expect(scripts.slice(0, 2)).toEqual(["office-js-check.js", OFFICE_JS]);
  });

  async function failure(page: Page) {
    const alert = page.locator("[data-office-js-failed]");
    // The promise: within 10 s of opening the pane.
    await alert.waitFor({ timeout: 10_000 });
    return { text: (await alert.textContent()) ?? "", role: await alert.getAttribute("role") };
  }

  it("says why it cannot start when the CDN refuses office.js (blocked)", async () => {
    const page = await production.session.context.newPage();
    const outside: string[] = [];
    await page.route(CDN, (route) => {
      outside.push(route.request().url());
      return route.abort("blockedbyclient");
    });
    await page.goto(`${production.pane.url}/taskpane.html`);
    const { text, role } = await failure(page);
    expect(role).toBe("alert");
    expect(text).toContain("Market Data cannot start");
    expect(text).toContain("could not be loaded");
    expect(text).toContain(OFFICE_JS);
    expect(text).toContain("must be able to reach appsforoffice.microsoft.com");
    expect(outside).toEqual([OFFICE_JS]);
    // The message replaced the loading line, it is not beside it.
    expect(await page.locator("#root").innerText()).toBe(text);
    await page.close();
  });

  it("says why it cannot start when the CDN never answers (a silent firewall)", async () => {
    const page = await production.session.context.newPage();
    const held: Route[] = [];
    await page.route(CDN, (route) => {
      held.push(route); // never answered while the test runs
    });
    await page.goto(`${production.pane.url}/taskpane.html`, { waitUntil: "commit" });
    const { text, role } = await failure(page);
    expect(role).toBe("alert");
    expect(text).toContain("has not loaded after 8 seconds");
    expect(text).toContain("must be able to reach appsforoffice.microsoft.com");
    expect(held.map((route) => route.request().url())).toEqual([OFFICE_JS]);
    await Promise.all(held.map((route) => route.abort().catch(() => {})));
    await page.close();
  });

  it("an office.js that arrives after the message still starts the pane: the message goes", async () => {
    const page = await production.session.context.newPage();
    const held: Route[] = [];
    await page.route(CDN, (route) => {
      if (route.request().url() === OFFICE_JS) held.push(route);
      else return route.abort("blockedbyclient"); // the host scripts office.js would fetch next
    });
    await page.goto(`${production.pane.url}/taskpane.html`, { waitUntil: "commit" });
    await failure(page);
    // The CDN answers at last, with Microsoft's office.js (the npm package's copy).
    await held[0].fulfill({
      contentType: "text/javascript",
      body: readFileSync(path.join(__dirname, "../../node_modules/@microsoft/office-js/dist/office.js"), "utf8"),
    });
    await page.locator("[data-office-js-failed]").waitFor({ state: "detached", timeout: 10_000 });
    expect(await page.locator("[role=alert]").count()).toBe(0);
    await page.close();
  });
});
