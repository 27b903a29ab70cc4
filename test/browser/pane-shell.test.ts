import { existsSync } from "node:fs";
import path from "node:path";
import { DIST } from "../support/bundle";
import { describeBrowser, isLocalUrl, launchBrowser, serveStatic, type BrowserSession, type StaticServer } from "../support/browser";

describeBrowser("task pane in headless Chromium", () => {
  let session: BrowserSession;
  let server: StaticServer;

  beforeAll(async () => {
    expect(existsSync(path.join(DIST, "taskpane.html"))).toBe(true);
    server = await serveStatic();
    session = await launchBrowser();
  });
  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it("renders outside Office with every request staying on this machine", async () => {
    const page = await session.context.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/taskpane.html`);
    await page.getByRole("heading", { name: "Market Data" }).waitFor();
    expect(await page.getByTestId("host").textContent()).toMatch(/outside Office/);
    expect(requests.length).toBeGreaterThan(2);
    expect(requests.filter((url) => !isLocalUrl(url))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
