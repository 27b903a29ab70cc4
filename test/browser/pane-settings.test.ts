/**
 * The Settings view of the built pane in headless Chromium against the
 * sandbox: a good key connects, a bad one is rejected in plain words, and the
 * key only ever lives in the masked input's value — never in the page's text
 * or markup. Screenshot: settings.png.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describeBrowser } from "../support/browser";
import { useRefusingServer } from "../support/local-server";
import { pageTextOutsideInputs, type PaneWatch, SCREENSHOTS, showView } from "../support/pane-page";
import { offMachine, usePaneRig } from "../support/pane-rig";

const GOOD_KEY = `md-browser-${randomUUID()}`;
const BAD_KEY = `md-wrong-${randomUUID()}`;

/** The key is in the page only as the masked input's value. */
async function expectKeyOnlyInMaskedInput(page: Page, key: string): Promise<void> {
  const { html, text, inputValues } = await pageTextOutsideInputs(page);
  expect(html.includes(key)).toBe(false);
  expect(text.includes(key)).toBe(false);
  const input = page.locator('input[data-testid="api-key-input"]');
  expect(inputValues.filter((v) => v.includes(key))).toEqual([key]);
  expect(await input.inputValue()).toBe(key);
  expect(await input.getAttribute("type")).toBe("password");
}

describeBrowser("task pane Settings view (headless Chromium, sandbox)", () => {
  // The catalog npm start serves (no filler): the counters in settings.png are a first run's.
  const rig = usePaneRig({ apiKey: GOOD_KEY, assetCount: undefined });
  const unreachable = useRefusingServer();
  let watch: PaneWatch;

  beforeAll(async () => {
    // No key of the user's own (the test build's default is the sandbox demo key).
    watch = await rig.openPane(null);
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  const keyInput = () => watch.page.locator('input[data-testid="api-key-input"]');
  const result = () => watch.page.getByTestId("connection-result");

  async function testKey(key: string): Promise<string> {
    const { page } = watch;
    await keyInput().fill(key);
    await page.getByRole("button", { name: "Test connection" }).click();
    await result().locator(".fui-MessageBar").waitFor({ timeout: 15_000 });
    return (await result().innerText()).trim();
  }

  it("without a key of the user's own, Settings says the demo key is in use, and the key field is masked", async () => {
    const { page } = watch;
    await showView(page, "Settings");
    expect(await keyInput().getAttribute("type")).toBe("password");
    expect(await page.getByTestId("key-status").textContent()).toBe("Sandbox demo key in use");
  });

  it("a wrong key: one message says it was saved, that the service rejected it and what to do, without quoting the key", async () => {
    const message = await testKey(BAD_KEY);
    expect(message).toMatch(
      /^Key saved, but the connection test failed: The market-data service rejected the API key \(HTTP 40[13]\b/,
    );
    expect(message).toContain("Enter a valid key");
    // No green "saved" beside the red "failed".
    expect((await watch.page.getByTestId("key-notice").innerText()).trim()).toBe("");
    expect(await watch.page.locator('section[aria-labelledby="settings-key-heading"] .fui-MessageBar').count()).toBe(1);
    // The sandbox refused the key: it is not badged as a good key.
    const badge = watch.page.getByTestId("key-status");
    expect([await badge.textContent(), await badge.getAttribute("data-color")]).toEqual([
      "Key refused by the service",
      "danger",
    ]);
    await expectKeyOnlyInMaskedInput(watch.page, BAD_KEY);
    // The pane did ask the service with that key (it was not refused locally).
    expect(rig.sandbox.requestLog().length).toBeGreaterThan(0);
  });

  it("the sandbox's key: the test connects, and the key is saved but shown nowhere", async () => {
    const message = await testKey(GOOD_KEY);
    expect(message).toMatch(/^Key saved\. Connected in \d+ ms\.$/);
    const badge = watch.page.getByTestId("key-status");
    expect([await badge.textContent(), await badge.getAttribute("data-color")]).toEqual(["Your key", "success"]);
    expect(await watch.page.evaluate(() => localStorage.getItem("md.apiKey"))).toBe(GOOD_KEY);
    await expectKeyOnlyInMaskedInput(watch.page, GOOD_KEY);
    await watch.page.evaluate(() => window.scrollTo(0, 0));
    await watch.page.screenshot({ path: path.join(SCREENSHOTS, "settings.png") });
  });

  it("Show reveals the key in the field only; Hide masks it again", async () => {
    const { page } = watch;
    await page.getByRole("button", { name: "Show API key" }).click();
    expect(await keyInput().getAttribute("type")).toBe("text");
    const { html, text } = await pageTextOutsideInputs(page);
    expect(html.includes(GOOD_KEY) || text.includes(GOOD_KEY)).toBe(false);
    await page.getByRole("button", { name: "Hide API key" }).click();
    expect(await keyInput().getAttribute("type")).toBe("password");
  });

  it("the counters show the requests made, and the service address in use is the sandbox's", async () => {
    const { page } = watch;
    await showView(page, "Picker");
    await showView(page, "Settings");
    await page.getByRole("button", { name: "Advanced" }).click();
    expect(await page.getByTestId("effective-base-url").textContent()).toBe(rig.sandbox.url);
  });

  it("an address the browser cannot reach: the test says it is unreachable or refused by CORS, and names the gateway", async () => {
    const { page } = watch;
    // A server that closes every connection: fetch fails as it does for a service that refuses the add-in's origin.
    const closedUrl = unreachable.url;
    const closed = new URL(closedUrl).host;
    await showView(page, "Settings");
    const input = page.getByTestId("base-url-input");
    if (!(await input.isVisible())) await page.getByRole("button", { name: "Advanced" }).click();
    try {
      await input.fill(closedUrl);
      await page.getByRole("button", { name: "Save address" }).click();
      await page.getByText("Service address saved.").waitFor();
      await page.getByRole("button", { name: "Test connection" }).click();
      await result()
        .getByText(/^Connection failed:/)
        .waitFor({ timeout: 30_000 });
      // The client's error comes from functions.js's copy of the error classes: the pane still knows it for a network failure.
      expect((await result().innerText()).trim()).toBe(
        `Connection failed: ${closed} is unreachable or not allowed from the add-in (CORS): use the gateway (a base address on the add-in's own host, such as /api; see "Deploying for a team" in the README).`,
      );
    } finally {
      await input.fill(rig.sandbox.url);
      await page.getByRole("button", { name: "Save address" }).click();
      await page.getByText("Service address saved.").waitFor();
    }
  });

  it("nothing went anywhere but this machine, and no page error or dialog", () => {
    expect(rig.requests.length).toBeGreaterThan(0);
    expect(offMachine(rig.requests)).toEqual([]);
    expect(watch.pageErrors).toEqual([]);
    expect(watch.dialogs).toEqual([]);
  });
});
