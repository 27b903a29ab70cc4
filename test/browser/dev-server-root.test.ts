/**
 * The dev server `npm start` runs: it listens on localhost only, and its bare
 * origin ("/") leads to the pane instead of "Cannot GET /". The dev server is
 * webpack-dev-server with webpack.config.js's own devServer settings and
 * middleware (test/support/run-dev-server.js, a child process serving the
 * built dist/ over http on a random port).
 */
import { describeBrowser, useBrowserSession } from "../support/browser";
import { useDevServer } from "../support/dev-server";

const server = useDevServer();

describe("the dev server (webpack.config.js devServer)", () => {
  it("listens on localhost only: a loopback address, not every interface", () => {
    expect(server.configuredHost).toBe("localhost");
    expect(["127.0.0.1", "::1"]).toContain(server.boundAddress);
  });

  it.each(["/", "/?et=abc"])("GET %s redirects to the pane", async (pathAndQuery) => {
    const response = await fetch(`${server.origin}${pathAndQuery}`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/taskpane.html${pathAndQuery.slice(1)}`);
  });

  it("other paths are served as before", async () => {
    const pane = await fetch(`${server.origin}/taskpane.html`);
    expect(pane.status).toBe(200);
    expect(await pane.text()).toContain("<title>");
    expect((await fetch(`${server.origin}/nothing-here.js`)).status).toBe(404);
  });
});

describeBrowser("the dev server's bare origin in a browser (headless Chromium)", () => {
  const session = useBrowserSession(60_000);

  it('opening "/" shows the pane', async () => {
    const page = await session.context.newPage();
    const response = await page.goto(`${server.origin}/`);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/taskpane.html");
    await page.getByRole("heading", { name: "Market Data" }).waitFor();
    expect(await page.content()).not.toContain("Cannot GET");
    await page.close();
  });
});
