/**
 * A runtime started with the pane hidden (refresh on open, a ribbon command)
 * loads functions.js and the refresh feature, not the pane's UI chunks: they
 * load when the pane is shown (src/office/pane-visibility.ts). Chromium is
 * told the page is hidden, as a hidden shared runtime's web view is, then
 * shown with a visibilitychange event.
 */
import { describeBrowser, usePaneBrowser } from "../support/browser";
import { showPane, startHidden } from "../support/pane-page";

describeBrowser("a runtime started with the pane hidden (headless Chromium)", () => {
  const browser = usePaneBrowser();

  it("loads no UI chunk until the pane is shown, then renders it", async () => {
    const page = await browser.session.context.newPage();
    await startHidden(page);
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${browser.pane.url}/taskpane.html`);
    // office.js answers outside Office in ~25 ms; the functions have registered by then.
    await page.waitForFunction(() => typeof (window as unknown as { Office?: unknown }).Office === "object");
    await page.waitForTimeout(1_000);
    const whileHidden = [...scripts];
    expect(whileHidden).toEqual(expect.arrayContaining(["/functions.js", "/taskpane.js"]));
    expect(whileHidden.filter((p) => /^\/(pane-ui|\d+)\.[0-9a-f]{8}\.js$/.test(p))).toEqual([]);
    expect(await page.locator("#boot").textContent()).toBe("Loading Market Data…");

    await showPane(page);
    await page.getByRole("heading", { name: "Market Data" }).waitFor();
    expect(scripts.some((p) => /^\/pane-ui\.[0-9a-f]{8}\.js$/.test(p))).toBe(true);
    await page.close();
  });
});
