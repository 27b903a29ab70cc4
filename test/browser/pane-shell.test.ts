import type { Page } from "playwright-core";
import { describeBrowser, isLocalUrl, usePaneBrowser } from "../support/browser";
import { gotoPane } from "../support/pane-page";

/** office.js, outside Office, adds its telemetry frame a few seconds after load; wait past that. */
const OFFICE_JS_SETTLE_MS = 6_000;

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/** Records every Content-Security-Policy violation the page reports, from before its first script. */
async function recordViolations(page: Page): Promise<() => Promise<Violation[]>> {
  await page.addInitScript(() => {
    const found: Violation[] = [];
    (window as unknown as { __violations: Violation[] }).__violations = found;
    document.addEventListener("securitypolicyviolation", (e) =>
      found.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile }),
    );
  });
  return () => page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations);
}

describeBrowser("task pane in headless Chromium", () => {
  const browser = usePaneBrowser();

  it("renders outside Office with every request staying on this machine, after office.js has settled", async () => {
    const page = await browser.session.context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(e.message));
    const violations = await recordViolations(page);
    await gotoPane(page, browser.pane.url);
    expect(await page.getByTestId("host").textContent()).toMatch(/outside Office/);
    expect(requests.some((url) => url.endsWith("/office-js/office.js"))).toBe(true);
    await page.waitForTimeout(OFFICE_JS_SETTLE_MS);
    expect(requests.length).toBeGreaterThan(2);
    expect(requests.filter((url) => !isLocalUrl(url))).toEqual([]);
    // The only thing the policy stops is office.js's external telemetry frame; nothing of the pane's own.
    expect((await violations()).filter((v) => !(v.directive === "frame-src" && !isLocalUrl(v.blocked)))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("carries a Content-Security-Policy that refuses an injected inline script and inline style text", async () => {
    const page = await browser.session.context.newPage();
    const violations = await recordViolations(page);
    await gotoPane(page, browser.pane.url);
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
    expect(policy).toMatch(/(^|; )default-src 'self'(;|$)/);
    expect(policy).toMatch(/(^|; )script-src 'self' https:\/\/appsforoffice\.microsoft\.com(;|$)/);
    expect(policy).toMatch(/(^|; )object-src 'none'(;|$)/);
    expect(policy).toMatch(/(^|; )frame-src 'self'(;|$)/);
    // <style> elements may not carry text (only the empty element Griffel fills through CSSOM), yet Fluent's theme and rules apply.
    expect(policy).toMatch(/(^|; )style-src-elem 'self' 'sha256-47DEQpj8HBSa\+\/TImW\+5JCeuQeRkm5NMpJWZG3hSuFU='(;|$)/);
    const styleText = await page.evaluate(async () => {
      const style = document.createElement("style");
      style.textContent = "body { margin-left: 77px !important; }";
      document.head.appendChild(style);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return getComputedStyle(document.body).marginLeft;
    });
    expect(styleText).toBe("0px");
    const styled = await page.evaluate(() => {
      const provider = document.querySelector(".fui-FluentProvider");
      const tabs = document.querySelector('[role="tablist"]');
      return {
        themeVariable: provider ? getComputedStyle(provider).getPropertyValue("--colorNeutralBackground1").trim() : "",
        tabsDisplay: tabs ? getComputedStyle(tabs).display : "",
        bodyMargin: getComputedStyle(document.body).marginTop,
      };
    });
    expect(styled.themeVariable).toMatch(/^#[0-9a-f]{6}$/i);
    expect(styled.tabsDisplay).toBe("flex");
    expect(styled.bodyMargin).toBe("0px");
    const ran = await page.evaluate(async () => {
      const script = document.createElement("script");
      script.textContent = "window.__injected = true;";
      document.body.appendChild(script);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return (window as unknown as { __injected?: boolean }).__injected ?? false;
    });
    expect(ran).toBe(false);
    expect((await violations()).map((v) => [v.directive, v.blocked])).toContainEqual(["script-src-elem", "inline"]);
    expect((await violations()).map((v) => [v.directive, v.blocked])).toContainEqual(["style-src-elem", "inline"]);
    await page.close();
  });
});
