/**
 * The dev server `npm start` runs: it listens on localhost only, and its bare
 * origin ("/") leads to the pane instead of "Cannot GET /". The dev server is
 * webpack-dev-server with webpack.config.js's own devServer settings and
 * middleware (test/support/run-dev-server.js, a child process serving the
 * built dist/ over http on a random port).
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { describeBrowser, launchBrowser, type BrowserSession } from "../support/browser";

let child: ChildProcess;
let origin: string;
let configuredHost: string;
let boundAddress: string;

beforeAll(async () => {
  child = spawn(process.execPath, [path.resolve(__dirname, "../support/run-dev-server.js")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening .+/.exec(output);
      if (match) resolve(match[0]);
    });
    child.on("exit", (code) => reject(new Error(`the dev server exited (${code}): ${output}`)));
  });
  const [, port, host, address] = /listening (\d+) host=(\S+) address=(\S+)/.exec(line)!;
  configuredHost = host;
  boundAddress = address;
  origin = `http://localhost:${port}`;
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
});

describe("the dev server (webpack.config.js devServer)", () => {
  it("listens on localhost only: a loopback address, not every interface", () => {
    expect(configuredHost).toBe("localhost");
    expect(["127.0.0.1", "::1"]).toContain(boundAddress);
  });

  it.each(["/", "/?et=abc"])("GET %s redirects to the pane", async (pathAndQuery) => {
    const response = await fetch(`${origin}${pathAndQuery}`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/taskpane.html${pathAndQuery.slice(1)}`);
  });

  it("other paths are served as before", async () => {
    const pane = await fetch(`${origin}/taskpane.html`);
    expect(pane.status).toBe(200);
    expect(await pane.text()).toContain("<title>");
    expect((await fetch(`${origin}/nothing-here.js`)).status).toBe(404);
  });
});

describeBrowser("the dev server's bare origin in a browser (headless Chromium)", () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await session?.close();
  });

  it('opening "/" shows the pane', async () => {
    const page = await session.context.newPage();
    const response = await page.goto(`${origin}/`);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/taskpane.html");
    await page.getByRole("heading", { name: "Market Data" }).waitFor();
    expect(await page.content()).not.toContain("Cannot GET");
    await page.close();
  });
});
