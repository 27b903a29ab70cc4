/**
 * `npm start` on another port (MD_DEV_SERVER_PORT): the manifest the dev
 * server serves names the port it really listens on, so sideloading it opens
 * the pane there; on the default port it names https://localhost:3000, the
 * repository's manifest.xml. The dev server is webpack.config.js's own
 * (test/support/run-dev-server.js), its copied files produced as `npm start`
 * produces them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { useDevServer } from "../support/dev-server";

const ROOT = path.resolve(__dirname, "../..");

/** Every https://localhost[:port] origin a manifest names, once each. */
function originsIn(manifest: string): string[] {
  return [...new Set(manifest.match(/https:\/\/localhost(?::\d+)?/g) ?? [])];
}

describe("the dev server on a moved port (MD_DEV_SERVER_PORT)", () => {
  const server = useDevServer(90_000, { movedPort: true });

  it("serves a manifest whose every add-in address names that port", async () => {
    expect(server.port).not.toBe(3000);
    const response = await fetch(`${server.origin}/manifest.xml`);
    expect(response.status).toBe(200);
    const manifest = await response.text();
    expect(originsIn(manifest)).toEqual([`https://localhost:${server.port}`]);
    expect(manifest).toContain(`<SourceLocation DefaultValue="https://localhost:${server.port}/taskpane.html" />`);
    // Everything else in it is the repository's manifest.
    const source = readFileSync(path.join(ROOT, "manifest.xml"), "utf8");
    expect(manifest).toBe(source.split("https://localhost:3000").join(`https://localhost:${server.port}`));
  });
});

describe("the dev server on the default port", () => {
  const server = useDevServer(90_000);

  it("serves the repository's manifest, on https://localhost:3000", async () => {
    const manifest = await (await fetch(`${server.origin}/manifest.xml`)).text();
    expect(manifest).toBe(readFileSync(path.join(ROOT, "manifest.xml"), "utf8"));
  });
});
